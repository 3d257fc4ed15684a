// Each device's pinned block for small reads (runtime/small_reads.hpp).
#include "runtime/small_reads.hpp"

#include <exception>
#include <memory>

#include "core/lifetime.hpp"
#include "runtime/backend.hpp"
#include "runtime/device_local.hpp"
#include "weft/error.hpp"

namespace weft::detail {
namespace {

std::atomic<int> small_reads_mode{-1};

struct SmallReadBlock {
  explicit SmallReadBlock(const Device&) {}
  std::atomic<bool> busy{false};
  // Made and read only by the holder of busy (its acquire orders them after the last holder's).
  std::shared_ptr<PinnedImpl> pinned;
  bool failed = false;  // pinning failed once: direct reads from then on
};

SmallReadBlock& block_of(const Device& device) {
  // Never destroyed (core/lifetime.hpp): a backend's pinned memory is not freed after its
  // driver has gone at exit.
  static Immortal<DeviceLocal<SmallReadBlock>> blocks;
  return blocks->get(device);
}

}  // namespace

bool small_reads_through_pinned(const DeviceImpl& device) noexcept {
  const DeviceCapabilities& caps = device.info().capabilities;
  switch (small_reads_mode.load(std::memory_order_relaxed)) {
    case 0:
      return false;
    case 1:
      return !caps.memory_is_host;
    default:
      return caps.reads_through_pinned;
  }
}

SmallReadLease take_small_read_block(const Device& device) {
  if (!small_reads_through_pinned(*device.impl())) return {};
  SmallReadBlock& b = block_of(device);
  if (b.busy.exchange(true, std::memory_order_acquire)) return {};
  if (!b.pinned && !b.failed) {
    try {
      b.pinned = device.impl()->allocate_pinned(kSmallReadBlock);
    } catch (const std::exception&) {
      b.pinned.reset();  // (out of lockable memory, or a driver that pins none: read directly)
    }
    if (!b.pinned || b.pinned->size() < kSmallReadBlock) {
      b.pinned.reset();
      b.failed = true;
    }
  }
  if (!b.pinned) {
    b.busy.store(false, std::memory_order_release);
    return {};
  }
  return SmallReadLease(&b.busy, static_cast<std::byte*>(b.pinned->data()));
}

void set_small_reads_through_pinned(int mode) noexcept { small_reads_mode.store(mode, std::memory_order_relaxed); }

}  // namespace weft::detail
