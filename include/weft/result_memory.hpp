// Host memory for large results copied back from a device, reused instead of page-faulted
// afresh. A new 256 MiB NumPy array (a fresh mmap) faults in its 65 536 pages during the copy
// into it: measured on the 2-core build host, copying 256 MiB into a fresh np.empty took 92 ms,
// into memory already faulted in 39 ms (transparent huge pages, 83 ms, hardly help: zeroing
// the pages is the cost). On CUDA devices the blocks are pinned (cuMemAllocHost), so the copy
// also skips the staging of pageable memory; on NVIDIA's OpenCL, mapped CL_MEM_ALLOC_HOST_PTR
// buffers; where device memory is host memory, ordinary aligned memory.
//
//   std::shared_ptr<void> out = weft::result_memory(dev, bytes);  // reused when one was given back
//   array.to_host_bytes(out.get(), array.dtype());
//   // the block returns to the pool when the last copy of `out` goes
//
// The pool keeps at most kResultMemoryIdleBytes of blocks nobody holds (the oldest are freed
// first); free_result_memory() frees them all (Python: weft.free_cached_memory()).
#pragma once

#include <cstddef>
#include <memory>

#include "weft/device.hpp"
#include "weft/export.hpp"

namespace weft {

/// Results smaller than this go to ordinary memory (malloc reuses small blocks already).
inline constexpr std::size_t kResultMemoryMinBytes = std::size_t{4} << 20;
/// Idle bytes the pool keeps across all devices.
inline constexpr std::size_t kResultMemoryIdleBytes = std::size_t{1} << 30;
/// Pinned bytes alive at once (held by results or idle); past it, results get ordinary
/// memory, so that results a program keeps do not lock the machine's memory.
inline constexpr std::size_t kResultMemoryPinnedBytes = std::size_t{4} << 30;

/// At least bytes of host memory for a copy from device, from the pool when a block of the
/// same size class (at most 1/8 larger) was given back; it returns to the pool when the last
/// owner lets go (ordinary memory where no more can be pinned). OutOfMemory when the system
/// has none.
WEFT_API std::shared_ptr<void> result_memory(const Device& device, std::size_t bytes);
/// Frees the pool's idle blocks.
WEFT_API void free_result_memory();
/// Bytes the pool holds idle.
WEFT_API std::size_t idle_result_memory();

}  // namespace weft
