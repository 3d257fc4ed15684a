#include "backends/cuda/cuda_memory.hpp"

#include <algorithm>

#include "weft/error.hpp"

namespace weft::detail {

using namespace cu;

BufferPtr CudaDevice::wrap_memory(std::uint64_t address, std::size_t bytes, std::shared_ptr<void> owner) {
  if (!owner) owner = std::make_shared<int>(0);  // marks the memory as not ours to free
  return std::make_shared<CudaBuffer>(std::static_pointer_cast<CudaDevice>(shared_from_this()), bytes,
                                      static_cast<CUdeviceptr>(address), std::move(owner));
}

BufferPtr CudaDevice::allocate(std::size_t bytes) {
  make_current();
  CUdeviceptr ptr = 0;
  if (bytes > 0) {
    // A request beyond the device's memory is refused without asking the driver (which
    // would report an API error to tools such as compute-sanitizer).
    const CUresult r = bytes > info_.global_mem_bytes ? CUDA_ERROR_OUT_OF_MEMORY : driver().cuMemAlloc(&ptr, bytes);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
      std::size_t free_bytes = 0, total = 0;
      driver().cuMemGetInfo(&free_bytes, &total);
      throw OutOfMemory(info_.selector + " (" + info_.name + "): cannot allocate " + std::to_string(bytes) +
                            " bytes; " + std::to_string(free_bytes) + " of " + std::to_string(total) + " bytes are free",
                        bytes, "CUDA_ERROR_OUT_OF_MEMORY", "cuMemAlloc");
    }
    check(r, "cuMemAlloc");
  }
  return std::make_shared<CudaBuffer>(std::static_pointer_cast<CudaDevice>(shared_from_this()), bytes, ptr);
}

namespace {
class CudaPinned final : public PinnedImpl {
 public:
  CudaPinned(std::shared_ptr<CudaDevice> device, void* data, std::size_t size)
      : PinnedImpl(data, size), device_(std::move(device)) {}
  ~CudaPinned() override {
    device_->make_current();
    driver().cuMemFreeHost(data());
  }

 private:
  std::shared_ptr<CudaDevice> device_;
};
}  // namespace

std::shared_ptr<PinnedImpl> CudaDevice::allocate_pinned(std::size_t bytes) {
  make_current();
  void* p = nullptr;
  // Portable: every device's context copies into and out of the block as pinned memory, not
  // only this one's (weft.multi's get() has each GPU write its rows of one result block).
  constexpr unsigned kPortable = 0x01;  // CU_MEMHOSTALLOC_PORTABLE
  const CUresult r = driver().cuMemHostAlloc(&p, std::max<std::size_t>(bytes, 1), kPortable);
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {
    throw OutOfMemory("cannot pin " + std::to_string(bytes) + " bytes of host memory for " + info_.selector, bytes,
                      "CUDA_ERROR_OUT_OF_MEMORY", "cuMemHostAlloc");
  }
  check(r, "cuMemHostAlloc");
  return std::make_shared<CudaPinned>(std::static_pointer_cast<CudaDevice>(shared_from_this()), p, bytes);
}

CudaBuffer::~CudaBuffer() {
  if (!ptr_ || owner_) return;
  static_cast<CudaDevice&>(*device()).make_current();
  driver().cuMemFree(ptr_);
}

}  // namespace weft::detail
