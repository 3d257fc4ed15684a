#include "runtime/backend.hpp"
#include "weft/buffer.hpp"
#include "weft/error.hpp"

namespace weft {

Buffer::Buffer(const Device& device, std::size_t bytes) {
  if (!device) throw InvalidArgument("Buffer: no device given");
  impl_ = device.impl()->allocate(bytes);
}

std::size_t Buffer::size() const { return impl_ ? impl_->size() : 0; }

Device Buffer::device() const { return impl_ ? Device(impl_->device()) : Device(); }

void* Buffer::host_ptr() const { return impl_ ? impl_->host_ptr() : nullptr; }

}  // namespace weft
