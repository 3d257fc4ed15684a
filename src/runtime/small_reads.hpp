// Small reads into pageable host memory through pinned memory. A blocking read of a few
// kilobytes from a GPU into pageable memory (a NumPy array, a std::vector, a host copy of an
// array) costs the driver a round trip through its own staging; queued into pinned memory and
// copied out on the host it is cheaper, and several such reads queue behind one another and
// wait once. Measured on the H200 (run AT of docs/PERFORMANCE.md, medians of 150 reads of
// arrays just computed, the device idle):
//
//   read of 400 bytes              CUDA    NVIDIA OpenCL
//   into pageable, blocking        8.8 us  8.5 us
//   through pinned (+ the copy)    6.8     7.0
//   three, one after another       26.0    25.5
//   three queued into pageable     23.3    91-129
//   three queued into pinned       10.0    11.0
//   three of 40 KB: 40 against 17 us (CUDA), 39 against 18 (NVIDIA OpenCL)
//
// Each device whose capabilities say reads_through_pinned (CUDA, OpenCL GPUs) has one pinned
// block of kSmallReadBlock bytes, made on its first small read and kept for the process; one
// caller holds it at a time (a lease), and a caller that finds it held reads directly rather
// than wait. Queue::read takes it for a blocking read of at most kSmallReadBytes, and
// detail::make_current_all (src/array/memory_pool.hpp) for the inputs of a host operation.
#pragma once

#include <atomic>
#include <cstddef>

#include "weft/device.hpp"

namespace weft::detail {

/// The largest read that goes through the block (DeviceCosts::small_copy_bytes).
inline constexpr std::size_t kSmallReadBytes = 65536;
/// The block: four reads of the largest size, or more of smaller ones, queued together.
inline constexpr std::size_t kSmallReadBlock = 4 * kSmallReadBytes;
/// Where each read starts in the block.
inline constexpr std::size_t kSmallReadAlign = 256;

/// Holds a device's pinned block for small reads until it goes; empty when there is none to
/// have (the device does not read through pinned memory, pinning failed, or another caller
/// holds it).
class SmallReadLease {
 public:
  SmallReadLease() = default;
  SmallReadLease(std::atomic<bool>* busy, std::byte* data) noexcept : busy_(busy), data_(data) {}
  SmallReadLease(SmallReadLease&& o) noexcept : busy_(o.busy_), data_(o.data_) {
    o.busy_ = nullptr;
    o.data_ = nullptr;
  }
  SmallReadLease& operator=(SmallReadLease&& o) noexcept {
    if (this != &o) {
      release();
      busy_ = o.busy_;
      data_ = o.data_;
      o.busy_ = nullptr;
      o.data_ = nullptr;
    }
    return *this;
  }
  SmallReadLease(const SmallReadLease&) = delete;
  SmallReadLease& operator=(const SmallReadLease&) = delete;
  ~SmallReadLease() { release(); }

  explicit operator bool() const noexcept { return data_ != nullptr; }
  /// kSmallReadBlock bytes of pinned memory.
  std::byte* data() const noexcept { return data_; }

 private:
  void release() noexcept {
    if (busy_) busy_->store(false, std::memory_order_release);
    busy_ = nullptr;
    data_ = nullptr;
  }
  std::atomic<bool>* busy_ = nullptr;
  std::byte* data_ = nullptr;
};

/// Whether device's small reads go through pinned memory (DeviceCapabilities::
/// reads_through_pinned, or the test override below).
bool small_reads_through_pinned(const DeviceImpl& device) noexcept;

/// The device's block, when its small reads go through pinned memory and nobody holds it.
SmallReadLease take_small_read_block(const Device& device);

/// Tests: -1 the capability decides (the default), 0 no device, 1 every device whose memory is
/// not the host's (PoCL too, so that the path runs where there is no GPU).
void set_small_reads_through_pinned(int mode) noexcept;

}  // namespace weft::detail
