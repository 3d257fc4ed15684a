// A host memcpy spread over several threads, for the copies a single thread cannot make at the
// memory system's speed: staging pageable memory through pinned buffers (a device copy engine
// reads pinned memory at 50+ GB/s; one thread's memcpy gives 8-12 GB/s on the machines we
// measured). One pool per process, its threads started on first use and waiting on a condition
// variable between jobs; jobs from several threads take turns.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace weft::detail {

class ParallelMemcpy {
 public:
  /// threads: how many threads share one copy, the caller's included (1: a plain memcpy).
  explicit ParallelMemcpy(unsigned threads);
  ~ParallelMemcpy();
  ParallelMemcpy(const ParallelMemcpy&) = delete;
  ParallelMemcpy& operator=(const ParallelMemcpy&) = delete;

  /// Copies bytes from src to dst (not overlapping), split into page-aligned parts, one per
  /// thread; returns when every part is copied.
  void copy(void* dst, const void* src, std::size_t bytes);
  unsigned threads() const noexcept { return threads_; }

 private:
  void worker(unsigned index);
  void part(unsigned index) const;

  unsigned threads_;
  std::mutex turn_;  // one job at a time
  std::mutex m_;
  std::condition_variable start_, done_;
  unsigned long generation_ = 0;
  unsigned finished_ = 0;
  bool stop_ = false;
  char* dst_ = nullptr;
  const char* src_ = nullptr;
  std::size_t bytes_ = 0;
  std::vector<std::thread> workers_;
};

/// How a stager (backends/cuda/cuda_staging.hpp, backends/opencl/opencl_staging.hpp) splits a
/// copy: chunks from first_chunk doubling to chunk (its pinned buffers' size); the defaults
/// are argued in cuda_staging.hpp.
struct StagingPlan {
  std::size_t chunk = std::size_t{16} << 20;
  std::size_t first_chunk = std::size_t{2} << 20;
};
/// The defaults, or WEFT_STAGING's chunk (Config::staging_chunk_bytes).
StagingPlan staging_plan();
/// (offset, length) of each chunk of a copy of bytes on plan.
std::vector<std::pair<std::size_t, std::size_t>> staging_chunks(const StagingPlan& plan, std::size_t bytes);

/// How many threads the process's pool has: WEFT_STAGING's (Config::staging_threads), else 3/4
/// of the hardware threads, 1 to 16 (why: src/backends/cuda/cuda_staging.hpp).
unsigned parallel_memcpy_threads();
/// The process's pool, made on first use.
ParallelMemcpy& parallel_memcpy();

}  // namespace weft::detail
