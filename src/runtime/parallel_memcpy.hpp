// A host memcpy spread over several threads, for the copies a single thread cannot make at the
// memory system's speed: staging pageable memory through pinned buffers (a device copy engine
// reads pinned memory at 50+ GB/s; one thread's memcpy gives 8-12 GB/s on the machines we
// measured). One pool per process, its threads started on first use.
//
// Copies are jobs in a queue (submit), cut into slices that the pool's threads take in order,
// so a stager queues the memcpy of its next chunk before it waits for the current one (wait)
// and the threads go from one chunk's slices straight on to the next: no barrier per chunk,
// no thread idle while others finish their part, and no wake-up of the whole pool per chunk
// (idle threads spin briefly before they sleep). A caller that waits copies slices of its own
// job (and of earlier ones) meanwhile.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/staging_trace.hpp"

namespace weft::detail {

class ParallelMemcpy {
 public:
  /// Which job a wait is for; 0: none (a copy done at once).
  using Ticket = std::uint64_t;

  /// threads: how many threads share the copies, a waiting caller included (1: plain memcpy).
  explicit ParallelMemcpy(unsigned threads);
  ~ParallelMemcpy();
  ParallelMemcpy(const ParallelMemcpy&) = delete;
  ParallelMemcpy& operator=(const ParallelMemcpy&) = delete;

  /// How a job writes its destination. Streaming (non-temporal) stores skip the read of each
  /// destination line before it is written: on the H200 machine they took staged downloads into
  /// NumPy memory from 0.80 to 0.94 of pinned bandwidth, and uploads into pinned staging from
  /// 0.83 down to 0.65 (the copy engine then reads lines the stores had just sent to memory), so
  /// the stagers stream only where the destination is the caller's memory.
  enum class Stores { cached, streaming };
  /// Queues dst <- src (not overlapping) and returns at once; dst and src must stay valid
  /// until wait(ticket) has returned. A small copy (under 1 MiB) or one on a pool of one
  /// thread is made here and gets ticket 0. trace (WEFT_STAGING_TRACE): where the job's
  /// timeline goes, written under the pool's lock; it must stay valid until wait(ticket) has
  /// returned.
  Ticket submit(void* dst, const void* src, std::size_t bytes, Stores stores = Stores::cached,
                MemcpyTrace* trace = nullptr);
  /// Returns once job t has been copied (and possibly jobs queued before it); copies slices of
  /// it and of earlier jobs meanwhile.
  void wait(Ticket t);
  /// submit then wait.
  void copy(void* dst, const void* src, std::size_t bytes) { wait(submit(dst, src, bytes)); }
  unsigned threads() const noexcept { return threads_; }

 private:
  struct Job {
    Ticket id = 0;
    char* dst = nullptr;
    const char* src = nullptr;
    std::size_t bytes = 0, slice = 0, next = 0, left = 0;
    Stores stores = Stores::cached;
    MemcpyTrace* trace = nullptr;
  };
  struct Slice {
    Job* job = nullptr;
    std::size_t offset = 0, length = 0;
  };
  void worker();
  bool claim(Ticket upto, Slice& s, bool waiter);  // under m_: the first unclaimed slice of a job <= upto
  void finish(const Slice& s);        // under m_
  static void run(const Slice& s);

  unsigned threads_;
  std::mutex m_;
  std::condition_variable work_, done_;
  std::deque<Job> jobs_;  // unfinished jobs, oldest first (references stay valid: push back, pop front)
  Ticket last_id_ = 0;
  std::atomic<Ticket> submitted_{0};  // the last job queued
  std::atomic<Ticket> done_upto_{0};  // every job up to this one is copied
  unsigned sleepers_ = 0, waiters_ = 0;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

/// The tickets of a stager's memcpy jobs, one per chunk. Waits for every one when it goes, also
/// when the stager leaves by an exception, so that no pool thread still copies from or into
/// memory the caller is about to free.
class MemcpyJobs {
 public:
  MemcpyJobs(ParallelMemcpy& pool, std::size_t n) : pool_(pool), tickets_(n, 0) {}
  ~MemcpyJobs() {
    for (const auto t : tickets_) pool_.wait(t);
  }
  MemcpyJobs(const MemcpyJobs&) = delete;
  MemcpyJobs& operator=(const MemcpyJobs&) = delete;
  ParallelMemcpy::Ticket& operator[](std::size_t i) { return tickets_[i]; }

 private:
  ParallelMemcpy& pool_;
  std::vector<ParallelMemcpy::Ticket> tickets_;
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
/// (offset, length) of each chunk of a copy of bytes on plan. taper: the last chunks halve down
/// to first_chunk as the first ones double (for downloads, whose last chunk's memcpy follows
/// every DMA), where the copy is long enough.
std::vector<std::pair<std::size_t, std::size_t>> staging_chunks(const StagingPlan& plan, std::size_t bytes,
                                                                bool taper = false);

/// How many threads the process's pool has: WEFT_STAGING's (Config::staging_threads), else 3/4
/// of the hardware threads, 1 to 16 (why: src/backends/cuda/cuda_staging.hpp).
unsigned parallel_memcpy_threads();
/// The process's pool, made on first use.
ParallelMemcpy& parallel_memcpy();

}  // namespace weft::detail
