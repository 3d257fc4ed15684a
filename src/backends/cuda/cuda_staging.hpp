// Pageable host memory at pinned speed: a copy between a device and pageable (NumPy, malloc)
// memory of at least kStageMinBytes goes through three pinned buffers, the host side copied by
// the process's ParallelMemcpy threads while the copy engine moves the chunk before. Host
// memory the driver already knows as pinned or registered is copied directly. Two stagers per
// device, one per direction; a copy that finds its stager busy (another thread's copy in the
// same direction) goes direct rather than wait.
//
// The plan (StagingPlan, WEFT_STAGING overrides it): measured on an H100 machine, 64-256 MiB:
// direct pageable 9-16 GB/s; staged with 8 threads and 8 MiB chunks 39-49 GB/s (0.65-0.68 of
// pinned); pinned 49-55 GB/s. Two losses explain most of the gap, and the defaults below
// address both (to be confirmed by `weft bench transfer` on the lent GPU):
// - Fill and drain: the first chunk's memcpy (write) or DMA (read) overlaps nothing, nor does
//   the last one's other half: 8 MiB of 64 is an eighth. Chunks now grow from kFirstChunk
//   (2 MiB, ~40 us at 50 GB/s) doubling up to the largest, so only 2 MiB runs alone.
// - Per-chunk cost: an event wait and waking the memcpy threads, some 20-40 us, is a tenth of
//   an 8 MiB DMA (160 us at 50 GB/s) but a twentieth of a 16 MiB one: largest chunk 16 MiB.
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
  static constexpr std::size_t kBuffers = 3;
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
