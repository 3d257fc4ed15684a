// Pageable host memory at pinned speed on OpenCL GPUs (NVIDIA's): as CudaStaging
// (backends/cuda/cuda_staging.hpp), a copy of at least kStageMinBytes between a device whose
// memory is not host memory and pageable memory goes in chunks through four pinned buffers
// (mapped CL_MEM_ALLOC_HOST_PTR buffers, which NVIDIA's driver page-locks), the host side
// copied by the process's ParallelMemcpy threads while the device moves the chunk before, on
// the same plan (chunk sizes, threads: StagingPlan). Host memory that is itself a mapped pinned
// buffer of the device (weft::PinnedMemory, result_memory) is copied directly: the device
// remembers those ranges (PinnedRanges). In-order queues only; one stager per direction.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "backends/opencl/opencl_api.hpp"
#include "runtime/parallel_memcpy.hpp"

namespace weft::detail {

class PinnedImpl;

/// The host ranges of a device's mapped pinned buffers, so that the stager leaves them be.
class PinnedRanges {
 public:
  void add(const void* p, std::size_t bytes);
  void remove(const void* p);
  /// Whether [p, p + bytes) lies inside one registered range.
  bool contains(const void* p, std::size_t bytes) const;

 private:
  mutable std::mutex mutex_;
  std::map<const char*, std::size_t> ranges_;  // start -> length
};

/// A staged copy's first and last chunk events (both owned by the caller; first may be last):
/// the copy's device time runs from first's start to last's end.
struct StagedCopy {
  cl::cl_event first = nullptr, last = nullptr;
  explicit operator bool() const noexcept { return last != nullptr; }
};

class OpenclStaging {
 public:
  static constexpr std::size_t kStageMinBytes = std::size_t{8} << 20;

  /// allocate: the device's pinned allocation (OpenclDevice::allocate_pinned).
  OpenclStaging(std::function<std::shared_ptr<PinnedImpl>(std::size_t)> allocate, const PinnedRanges& pinned);
  ~OpenclStaging();
  OpenclStaging(const OpenclStaging&) = delete;
  OpenclStaging& operator=(const OpenclStaging&) = delete;

  /// Enqueues dst[offset...] <- src after wait on queue (in order), in chunks; returns the
  /// first and last chunks' events once src has been read, or none (false) when it did not
  /// copy (small, pinned source, busy, no pinned memory): the caller copies directly.
  StagedCopy write(cl::cl_command_queue queue, cl::cl_mem dst, std::size_t offset, const void* src,
                     std::size_t bytes, const std::vector<cl::cl_event>& wait);
  /// dst <- src[offset...] after wait; returns once dst holds the data, with the first and last
  /// chunks' events; none as write's.
  StagedCopy read(cl::cl_command_queue queue, void* dst, cl::cl_mem src, std::size_t offset, std::size_t bytes,
                    const std::vector<cl::cl_event>& wait);

 private:
  static constexpr std::size_t kBuffers = 4;
  static constexpr std::size_t kAhead = 2;  // as CudaStaging's
  bool worth_staging(const void* host, std::size_t bytes) const;
  bool ready();
  void reuse(std::size_t k);  // waits for buffer k's last copy
  void record(std::size_t k, cl::cl_event e);  // buffer k's last copy is e (retained)

  std::function<std::shared_ptr<PinnedImpl>(std::size_t)> allocate_;
  const PinnedRanges& pinned_;
  const StagingPlan plan_;
  std::mutex busy_;
  bool failed_ = false;
  std::array<std::shared_ptr<PinnedImpl>, kBuffers> buffers_{};
  std::array<cl::cl_event, kBuffers> events_{};  // retained; nullptr: none yet
};

}  // namespace weft::detail
