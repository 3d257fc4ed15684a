#include "runtime/backend.hpp"
#include "weft/buffer.hpp"
#include "weft/error.hpp"
#include "weft/pinned_memory.hpp"

#include <algorithm>
#include <cstdlib>

namespace weft {

Buffer::Buffer(const Device& device, std::size_t bytes) {
  if (!device) throw InvalidArgument("Buffer: no device given");
  impl_ = device.impl()->allocate(bytes);
}

std::size_t Buffer::size() const { return impl_ ? impl_->size() : 0; }

Device Buffer::device() const { return impl_ ? Device(impl_->device()) : Device(); }

void* Buffer::host_ptr() const { return impl_ ? impl_->host_ptr() : nullptr; }

PinnedMemory::PinnedMemory(const Device& device, std::size_t bytes) {
  if (!device) throw InvalidArgument("PinnedMemory: no device given");
  impl_ = device.impl()->allocate_pinned(bytes);
}

void* PinnedMemory::data() const noexcept { return impl_ ? impl_->data() : nullptr; }

std::size_t PinnedMemory::size() const noexcept { return impl_ ? impl_->size() : 0; }

namespace detail {
namespace {
class AlignedHostMemory final : public PinnedImpl {
 public:
  using PinnedImpl::PinnedImpl;
  ~AlignedHostMemory() override { std::free(data()); }
};
}  // namespace

std::shared_ptr<PinnedImpl> DeviceImpl::allocate_pinned(std::size_t bytes) {
  const std::size_t rounded = (std::max<std::size_t>(bytes, 1) + 4095) / 4096 * 4096;
  void* p = std::aligned_alloc(4096, rounded);
  if (!p) throw OutOfMemory("cannot allocate " + std::to_string(bytes) + " bytes of host memory", bytes);
  return std::make_shared<AlignedHostMemory>(p, bytes);
}
}  // namespace detail

}  // namespace weft
