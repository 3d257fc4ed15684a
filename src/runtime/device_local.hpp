// Per-device state: one value of T for each device, made on the device's first use and kept
// as long as the DeviceLocal (a static one: the process; devices live for the process too).
//
//   MemoryPool& memory_pool(const Device& d) {
//     static DeviceLocal<MemoryPool> pools([](const Device& dev) {
//       return std::make_shared<MemoryPool>(dev, config().memory_limit);
//     });
//     return pools.get(d);
//   }
//
// A lookup takes no lock and builds nothing: each DeviceImpl gets a small index of its own at
// creation (never reused), and the values sit behind atomic pointers in segments of doubling
// size found by that index. Only a device's first use takes the DeviceLocal's mutex, and the
// value is made under it, so it is made once; a make that asks the same DeviceLocal for a
// value would deadlock.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "runtime/backend.hpp"
#include "weft/device.hpp"
#include "weft/error.hpp"

namespace weft::detail {

template <class T>
class DeviceLocal {
 public:
  /// Makes a device's value; it may throw (nothing is kept then, and the next use tries again).
  using Make = std::function<std::shared_ptr<T>(const Device&)>;

  /// Values made as T(device).
  DeviceLocal() : make_([](const Device& d) { return std::make_shared<T>(d); }) {}
  explicit DeviceLocal(Make make) : make_(std::move(make)) {}
  DeviceLocal(const DeviceLocal&) = delete;
  DeviceLocal& operator=(const DeviceLocal&) = delete;

  /// The value of device, made now if this is its first use.
  T& get(const Device& device) {
    if (!device) throw InvalidArgument("an empty Device handle was used");
    const auto [segment, offset] = place(device.impl()->local_index());
    if (const Slot* slots = segments_[segment].load(std::memory_order_acquire)) {
      if (T* value = slots[offset].load(std::memory_order_acquire)) return *value;
    }
    return make(device, segment, offset);
  }

 private:
  using Slot = std::atomic<T*>;
  // Segment s holds first << s slots, for indices from first * (2^s - 1) on: a few devices
  // need one small segment, and 48 segments hold more devices than a process can make.
  static constexpr std::size_t first = 16;
  static constexpr std::size_t segment_count = 48;

  static std::pair<std::size_t, std::size_t> place(std::size_t index) noexcept {
    const std::size_t segment = static_cast<std::size_t>(std::bit_width(index / first + 1)) - 1;
    return {segment, index - first * ((std::size_t{1} << segment) - 1)};
  }

  T& make(const Device& device, std::size_t segment, std::size_t offset) {
    std::lock_guard lock(mutex_);
    Slot* slots = segments_[segment].load(std::memory_order_relaxed);
    if (!slots) {
      slots = owned_segments_.emplace_back(std::make_unique<Slot[]>(first << segment)).get();
      segments_[segment].store(slots, std::memory_order_release);
    }
    if (T* value = slots[offset].load(std::memory_order_relaxed)) return *value;
    std::shared_ptr<T> value = make_(device);
    T* raw = value.get();
    if (!raw) throw Error("DeviceLocal: making the value of " + device.selector() + " gave none");
    values_.push_back(std::move(value));
    slots[offset].store(raw, std::memory_order_release);
    return *raw;
  }

  Make make_;
  std::array<std::atomic<Slot*>, segment_count> segments_{};
  std::mutex mutex_;  // guards what follows, and making values
  std::vector<std::unique_ptr<Slot[]>> owned_segments_;
  std::vector<std::shared_ptr<T>> values_;  // keep the values alive (and free them with this)
};

}  // namespace weft::detail
