// Page-locked ("pinned") host memory: transfers to and from a device run at full speed and
// truly asynchronously when their host side lives here (CUDA: cuMemAllocHost; OpenCL: a
// mapped CL_MEM_ALLOC_HOST_PTR buffer; the host backend: ordinary aligned memory).
//
//   weft::PinnedMemory staging(dev, bytes);
//   std::memcpy(staging.data(), frame, bytes);
//   weft::Event up = q.write(buf, staging.data(), bytes, 0, weft::Blocking::no);
#pragma once

#include "weft/export.hpp"

#include <cstddef>
#include <memory>

#include "weft/device.hpp"

namespace weft {

namespace detail {
class PinnedImpl;
}

class WEFT_API PinnedMemory {
 public:
  PinnedMemory() = default;
  /// Allocates bytes of pinned host memory for transfers with device; OutOfMemory when the
  /// system cannot lock that much.
  PinnedMemory(const Device& device, std::size_t bytes);

  void* data() const noexcept;
  std::size_t size() const noexcept;
  template <class T>
  T* as() const noexcept {
    return static_cast<T*>(data());
  }
  explicit operator bool() const noexcept { return impl_ != nullptr; }

 private:
  std::shared_ptr<detail::PinnedImpl> impl_;
};

}  // namespace weft
