#include <atomic>

#include "runtime/backend.hpp"
#include "weft/device.hpp"
#include "weft/error.hpp"

namespace weft {

const DeviceInfo& Device::info() const {
  if (!impl_) throw InvalidArgument("an empty Device handle was used");
  return impl_->info();
}

std::vector<Device> Device::partition(unsigned compute_units_each) const {
  if (!impl_) throw InvalidArgument("an empty Device handle was used");
  if (compute_units_each == 0) throw InvalidArgument("Device::partition: compute_units_each must be > 0");
  std::vector<Device> out;
  for (auto& d : impl_->partition_equally(compute_units_each)) out.emplace_back(std::move(d));
  return out;
}

namespace detail {
std::size_t next_device_index() noexcept {
  static std::atomic<std::size_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}

std::vector<std::shared_ptr<DeviceImpl>> DeviceImpl::partition_equally(unsigned) {
  throw Unsupported(info_.selector + " (" + info_.name +
                    ") cannot be partitioned into sub-devices; OpenCL devices with device fission "
                    "(PoCL's CPU device, for one) can");
}
}  // namespace detail

}  // namespace weft
