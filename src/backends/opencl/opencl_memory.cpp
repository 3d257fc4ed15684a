#include "backends/opencl/opencl_memory.hpp"

#include <algorithm>

#include "backends/opencl/opencl_device.hpp"
#include "weft/error.hpp"

namespace weft::detail {

using namespace cl;

BufferPtr OpenclDevice::allocate(std::size_t bytes) {
  // OpenCL allocates lazily, so an impossible request is refused here, with the limits.
  if (bytes > info_.max_alloc_bytes) {
    throw OutOfMemory(info_.selector + " (" + info_.name + "): cannot allocate " + std::to_string(bytes) +
                          " bytes; its largest allocation is " + std::to_string(info_.max_alloc_bytes) +
                          " bytes of " + std::to_string(info_.global_mem_bytes) + " in all",
                      bytes, "CL_INVALID_BUFFER_SIZE", "clCreateBuffer");
  }
  cl_int err = CL_SUCCESS;
  // A zero-byte cl_mem is invalid; an empty weft buffer still gets a minimal one.
  cl_mem mem = api().clCreateBuffer(context(), CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 1), nullptr, &err);
  if (err != CL_SUCCESS) {
    const std::string name = error_name(err);
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY) {
      throw OutOfMemory(info_.selector + ": cannot allocate " + std::to_string(bytes) + " bytes: " + name, bytes,
                        name, "clCreateBuffer");
    }
    check(err, "clCreateBuffer");
  }
  return std::make_shared<OpenclBuffer>(shared_from_this(), bytes, mem);
}

namespace {
// A CL_MEM_ALLOC_HOST_PTR buffer mapped for the life of the object: drivers back such
// buffers with page-locked memory (NVIDIA's does), which makes its mapping a fast transfer source.
class OpenclPinned final : public PinnedImpl {
 public:
  OpenclPinned(void* data, std::size_t size, ClRef<cl_mem> mem, cl_command_queue queue,
               std::shared_ptr<PinnedRanges> ranges)
      : PinnedImpl(data, size), mem_(std::move(mem)), queue_(queue), ranges_(std::move(ranges)) {
    ranges_->add(data, size);  // copies from and to here go directly (opencl_staging.hpp)
  }
  ~OpenclPinned() override {
    ranges_->remove(data());
    cl_event e = nullptr;
    if (api().clEnqueueUnmapMemObject(queue_, mem_.get(), data(), 0, nullptr, &e) == CL_SUCCESS) {
      api().clWaitForEvents(1, &e);
      api().clReleaseEvent(e);
    }
  }
  OpenclPinned(const OpenclPinned&) = delete;
  OpenclPinned& operator=(const OpenclPinned&) = delete;

 private:
  ClRef<cl_mem> mem_;
  cl_command_queue queue_;  // the device's map queue, which outlives this
  std::shared_ptr<PinnedRanges> ranges_;
};
}  // namespace

std::shared_ptr<PinnedImpl> OpenclDevice::allocate_pinned(std::size_t bytes) {
  const Api& a = api();
  cl_command_queue q = nullptr;
  {
    std::lock_guard lock(map_mutex_);
    if (!map_queue_) {
      cl_int err = CL_SUCCESS;
      map_queue_ = ClRef<cl_command_queue>(a.clCreateCommandQueue(context(), id_, 0, &err), a.clReleaseCommandQueue);
      check(err, "clCreateCommandQueue");
    }
    q = map_queue_.get();
  }
  const std::size_t n = std::max<std::size_t>(bytes, 1);
  cl_int err = CL_SUCCESS;
  ClRef<cl_mem> mem(a.clCreateBuffer(context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, n, nullptr, &err),
                    a.clReleaseMemObject);
  if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY || err == CL_OUT_OF_RESOURCES) {
    throw OutOfMemory("cannot pin " + std::to_string(bytes) + " bytes of host memory for " + info_.selector, bytes,
                      error_name(err), "clCreateBuffer");
  }
  check(err, "clCreateBuffer");
  void* p = a.clEnqueueMapBuffer(q, mem.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, n, 0, nullptr, nullptr, &err);
  check(err, "clEnqueueMapBuffer");
  return std::make_shared<OpenclPinned>(p, bytes, std::move(mem), q, pinned_ranges_);
}

}  // namespace weft::detail
