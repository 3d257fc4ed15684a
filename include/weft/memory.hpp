// The memory arrays hold: a pool per device that reuses freed blocks, capped by
// WEFT_MEMORY_LIMIT, and counters of the copies the array layer makes between the host and
// devices.
//
//   weft::MemoryStats m = weft::memory_stats(dev);   // bytes in arrays, cached, the limit
//   weft::free_cached_memory(dev);                     // gives cached blocks back
//   weft::TransferStats before = weft::transfer_stats();
//   ... array work ...
//   auto copies = weft::transfer_stats() - before;     // what moved, and how much
//
// Arrays take their memory from the pool of their device: a block freed by one array is
// kept and handed to the next array that needs as much, without a call to the driver. The
// pool runs its reuse on the device's array queue (in order), so work still queued on the
// freed block finishes before the block is written again. Work that the user queues
// elsewhere on an array's memory must be ordered with the array queue (see array.hpp).
#pragma once

#include "weft/export.hpp"

#include <cstdint>

#include "weft/device.hpp"

namespace weft {

struct WEFT_API MemoryStats {
  std::uint64_t in_use = 0;  // bytes of blocks that arrays hold now (rounded to the pool's sizes)
  std::uint64_t cached = 0;  // bytes of freed blocks kept for reuse
  std::uint64_t peak = 0;    // the most in_use + cached has been
  std::uint64_t limit = 0;   // WEFT_MEMORY_LIMIT (0: none)
  std::uint64_t allocations = 0;  // blocks asked of the driver
  std::uint64_t reuses = 0;       // requests served from the cache
};

/// The array memory pool's figures on device.
WEFT_API MemoryStats memory_stats(const Device& device);
/// Gives every cached block on device back to the driver (waits for the array queue first).
WEFT_API void free_cached_memory(const Device& device);

/// Copies the array layer made since the process began: from the host into arrays
/// (from_host), from arrays to the host (to_host) and between devices (an array read on a
/// device where its valid copy is not; see Array::to).
struct WEFT_API TransferStats {
  std::uint64_t to_device = 0;
  std::uint64_t to_host = 0;
  std::uint64_t between_devices = 0;
  std::uint64_t bytes = 0;

  TransferStats operator-(const TransferStats& o) const {
    return {to_device - o.to_device, to_host - o.to_host, between_devices - o.between_devices, bytes - o.bytes};
  }
  std::uint64_t total() const { return to_device + to_host + between_devices; }
};
WEFT_API TransferStats transfer_stats();

}  // namespace weft
