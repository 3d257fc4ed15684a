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
  const auto subs = impl_->partition_equally(compute_units_each);
  impl_->remember_sub_devices(subs);
  return {subs.begin(), subs.end()};
}

std::vector<Device> Device::partition_by_counts(std::span<const unsigned> counts) const {
  if (!impl_) throw InvalidArgument("an empty Device handle was used");
  if (counts.empty()) throw InvalidArgument("Device::partition_by_counts: counts is empty (give one count per sub-device)");
  for (unsigned c : counts) {
    if (c == 0) throw InvalidArgument("Device::partition_by_counts: every count must be > 0");
  }
  const auto subs = impl_->partition_by_counts(counts);
  impl_->remember_sub_devices(subs);
  return {subs.begin(), subs.end()};
}

std::vector<Device> Device::sub_devices() const {
  if (!impl_) throw InvalidArgument("an empty Device handle was used");
  const auto subs = impl_->sub_devices();
  return {subs.begin(), subs.end()};
}

namespace detail {
std::size_t next_device_index() noexcept {
  static std::atomic<std::size_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}

namespace {
[[noreturn]] void refuse_partition(const DeviceInfo& info) {
  throw Unsupported(info.selector + " (" + info.name +
                    ") cannot be partitioned into sub-devices; OpenCL devices with device fission "
                    "(PoCL's CPU device, for one) can");
}
}  // namespace

std::vector<std::shared_ptr<DeviceImpl>> DeviceImpl::partition_equally(unsigned) { refuse_partition(info_); }

std::vector<std::shared_ptr<DeviceImpl>> DeviceImpl::partition_by_counts(std::span<const unsigned>) {
  refuse_partition(info_);
}

std::vector<std::shared_ptr<DeviceImpl>> DeviceImpl::sub_devices() const {
  std::lock_guard lock(sub_mutex_);
  std::vector<std::shared_ptr<DeviceImpl>> out;
  for (const auto& w : sub_devices_) {
    if (auto d = w.lock()) out.push_back(std::move(d));
  }
  return out;
}

void DeviceImpl::remember_sub_devices(const std::vector<std::shared_ptr<DeviceImpl>>& subs) {
  std::lock_guard lock(sub_mutex_);
  sub_devices_.assign(subs.begin(), subs.end());
}
}  // namespace detail

}  // namespace weft
