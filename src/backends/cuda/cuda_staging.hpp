// Pageable host memory at pinned speed: a copy between a device and pageable (NumPy, malloc)
// memory of at least kStageMinBytes goes through four pinned buffers, the host side copied by
// the process's ParallelMemcpy threads while the copy engine moves the chunks before. Host
// memory the driver already knows as pinned or registered is copied directly. Two stagers per
// device, one per direction; a copy that finds its stager busy (another thread's copy in the
// same direction) goes direct rather than wait.
//
// The plan (StagingPlan, WEFT_STAGING overrides it): measured on an H100 machine, 64-256 MiB:
// direct pageable 9-16 GB/s; staged with 8 threads and 8 MiB chunks 39-49 GB/s (0.65-0.68 of
// pinned); pinned 49-55 GB/s. On the H200 (16 cores, 12 threads, 16 MiB chunks, three
// buffers, a fork-join memcpy per chunk) 41 / 38 GB/s up / down against 55 pinned: the host
// side, not the copy engine, set the pace. What the design answers:
// - Fill and drain: the first chunk's memcpy (write) or DMA (read) overlaps nothing, nor does
//   the last one's memcpy (read). Chunks grow from first_chunk (2 MiB, ~40 us at 50 GB/s)
//   doubling up to the largest, and a read's last chunks halve down again (staging_chunks'
//   taper), so only 2 MiB runs alone at either end.
// - Per-chunk cost and stragglers: the memcpy used to be a fork-join per chunk (wake every
//   thread, wait for the slowest); now each chunk's memcpy is a job queued ahead (kAhead
//   chunks for a write; a read queues chunk i's as soon as its DMA is done, before waiting for
//   chunk i - 1's), cut into slices that the threads take in order, so they go from one chunk
//   to the next without a barrier and without sleeping (runtime/parallel_memcpy.hpp), and the
//   four buffers leave the copy engine two chunks queued while the host works on two.
// - Wake-ups: at 64 MiB uploads reached only 0.60 of pinned (0.97 at 1 GiB), a roughly fixed
//   ~0.8 ms. The suspected cause (not yet confirmed by a trace on the GPU machine): while the
//   chunks are small (the ramp), a stager that slept waiting for its chunk's
//   memcpy (a futex wake-up, tens of microseconds or more in a VM) left the copy engine idle,
//   and queued the next chunk late enough for the pool's threads to run dry and sleep too; and
//   the pool's threads slept between copies. Now a waiter polls while its chunk's last slices
//   are in flight (they are short: guided slices), and idle threads poll a few hundred
//   microseconds before they sleep (runtime/parallel_memcpy.cpp). WEFT_STAGING_TRACE=1 prints
//   every staged copy's timeline per chunk (runtime/staging_trace.hpp), to see where it goes.
// - The host memcpy must outrun the copy engine, which reads pinned memory at 50-55 GB/s,
//   while both share the host's memory bandwidth; one thread copies 8-12 GB/s, so 8 threads
//   leave little margin: 3/4 of the hardware threads, at most 16 (12 on a 16-thread host).
#pragma once

#include <array>
#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

#include "backends/cuda/cuda_api.hpp"
#include "runtime/parallel_memcpy.hpp"

namespace weft::detail {

class CudaDevice;

class CudaStaging {
 public:
  static constexpr std::size_t kStageMinBytes = std::size_t{8} << 20;

  explicit CudaStaging(const CudaDevice& device) : device_(device), plan_(staging_plan()) {}
  ~CudaStaging();
  CudaStaging(const CudaStaging&) = delete;
  CudaStaging& operator=(const CudaStaging&) = delete;

  /// Enqueues dst <- src on stream in chunks and returns once src has been read (as a
  /// pageable cuMemcpyHtoDAsync does); false when it did not copy (small, pinned source, busy,
  /// or no pinned memory to stage through): the caller copies directly.
  bool write(cu::CUstream stream, cu::CUdeviceptr dst, const void* src, std::size_t bytes);
  /// dst <- src after the work before it on stream; returns when dst holds the data. false as
  /// write's.
  bool read(cu::CUstream stream, void* dst, cu::CUdeviceptr src, std::size_t bytes);

 private:
  static constexpr std::size_t kBuffers = 4;
  static constexpr std::size_t kAhead = 2;  // chunks whose memcpy is queued ahead of the DMA (write)
  bool worth_staging(const void* host, std::size_t bytes) const;
  bool ready();  // the pinned buffers and their events, made on first use
  void reuse(std::size_t k);  // waits until buffer k's last copy (of any call) is done
  void record(std::size_t k, cu::CUstream stream);

  const CudaDevice& device_;
  const StagingPlan plan_;
  std::mutex busy_;
  bool failed_ = false;  // pinning failed once: copy directly from then on
  std::array<void*, kBuffers> buffers_{};
  std::array<cu::CUevent, kBuffers> events_{};
  std::array<bool, kBuffers> recorded_{};
};

}  // namespace weft::detail
