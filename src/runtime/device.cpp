#include "runtime/backend.hpp"
#include "weft/device.hpp"
#include "weft/error.hpp"

namespace weft {

const DeviceInfo& Device::info() const {
  if (!impl_) throw InvalidArgument("an empty Device handle was used");
  return impl_->info();
}

}  // namespace weft
