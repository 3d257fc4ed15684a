// CUDA memory: buffers are cuMemAlloc'd device memory or memory someone else allocated
// (wrap_memory: DLPack, __cuda_array_interface__); pinned memory is cuMemHostAlloc'd, portable to every context.
#pragma once

#include <memory>

#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "runtime/backend.hpp"

namespace weft::detail {

class CudaBuffer final : public BufferImpl {
 public:
  CudaBuffer(std::shared_ptr<CudaDevice> device, std::size_t bytes, cu::CUdeviceptr ptr,
             std::shared_ptr<void> owner = {})
      : BufferImpl(device, bytes), ptr_(ptr), owner_(std::move(owner)) {}
  ~CudaBuffer() override;
  cu::CUdeviceptr ptr() const noexcept { return ptr_; }
  std::uint64_t address() noexcept override { return ptr_; }

 private:
  cu::CUdeviceptr ptr_;
  std::shared_ptr<void> owner_;  // memory allocated by someone else: kept alive, never freed
};

}  // namespace weft::detail
