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

Buffer::Buffer(const Device& device, std::size_t count, DType dtype) {
  if (!device) throw InvalidArgument("Buffer: no device given");
  const std::size_t elem = size_of(dtype);
  if (count > static_cast<std::size_t>(-1) / elem) {
    throw InvalidArgument("Buffer: " + std::to_string(count) + " elements of " + std::string(name(dtype)) +
                          " overflow a size in bytes");
  }
  impl_ = device.impl()->allocate(count * elem);
  impl_->dtype = dtype;
}

std::size_t Buffer::size() const { return impl_ ? impl_->size() : 0; }

std::optional<DType> Buffer::dtype() const { return impl_ ? impl_->dtype : std::nullopt; }

std::size_t Buffer::count() const {
  if (!impl_) return 0;
  return impl_->dtype ? impl_->size() / size_of(*impl_->dtype) : impl_->size();
}

Device Buffer::device() const { return impl_ ? Device(impl_->device()) : Device(); }

void* Buffer::host_ptr() const { return impl_ ? impl_->host_ptr() : nullptr; }

std::uint64_t Buffer::address() const { return impl_ ? impl_->address() : 0; }

Buffer Buffer::wrap(const Device& device, std::uint64_t address, std::size_t bytes, std::shared_ptr<void> owner) {
  if (!device) throw InvalidArgument("Buffer::wrap: no device given");
  if (address == 0 && bytes != 0) throw InvalidArgument("Buffer::wrap: a null address");
  return Buffer(device.impl()->wrap_memory(address, bytes, std::move(owner)));
}

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

BufferPtr DeviceImpl::wrap_memory(std::uint64_t, std::size_t, std::shared_ptr<void>) {
  throw Unsupported(info().selector + " (" + info().name + "): memory allocated elsewhere cannot be used in place on " +
                    info().backend + " devices (its buffers have no address); copy it instead");
}

std::shared_ptr<PinnedImpl> DeviceImpl::allocate_pinned(std::size_t bytes) {
  const std::size_t rounded = (std::max<std::size_t>(bytes, 1) + 4095) / 4096 * 4096;
  void* p = std::aligned_alloc(4096, rounded);
  if (!p) throw OutOfMemory("cannot allocate " + std::to_string(bytes) + " bytes of host memory", bytes);
  return std::make_shared<AlignedHostMemory>(p, bytes);
}
}  // namespace detail

}  // namespace weft
