// OpenCL memory: buffers are cl_mem handles (no address to share, even on a CPU device, so
// wrap_memory is the runtime's refusal); pinned memory is a mapped CL_MEM_ALLOC_HOST_PTR
// buffer (opencl_memory.cpp).
#pragma once

#include <memory>

#include "backends/opencl/opencl_api.hpp"
#include "runtime/backend.hpp"

namespace weft::detail {

class OpenclBuffer final : public BufferImpl {
 public:
  OpenclBuffer(std::shared_ptr<DeviceImpl> device, std::size_t bytes, cl::cl_mem mem)
      : BufferImpl(std::move(device), bytes), mem_(mem, cl::api().clReleaseMemObject) {}
  cl::cl_mem mem() const noexcept { return mem_.get(); }

 private:
  ClRef<cl::cl_mem> mem_;
};

}  // namespace weft::detail
