// An opt-in timeline of staged copies (WEFT_STAGING_TRACE=1, Config::staging_trace), for
// finding where a copy between pageable memory and a device spends its time beyond the copy
// engine's: per chunk, when its host memcpy was queued, first taken by a thread, first taken by
// a pool thread (the wake-up of sleeping threads), done and seen done by the stager; when the
// stager waited for the chunk's pinned buffer; when its DMA was queued, started and finished.
// The records are kept in memory and printed to stderr when the process exits (printing during
// a copy would be timed with it); nothing is recorded when the trace is off, and a stager then
// pays one test of a flag per copy and of a null pointer per chunk.
//
// Times are in microseconds from the copy's entry into its stager. CUDA's DMA times come from
// timing events on the copy's stream, measured from an event recorded at entry (an idle
// stream's event completes at once, so device and host times are roughly aligned); OpenCL's
// are the host's time when the driver reported each chunk done (a callback), a little late.
// With the trace on, a CUDA or OpenCL upload waits for its last chunk before it returns (its
// device times are read then), which a blocking copy does anyway; a non-blocking one whose wait
// list holds a user event that the caller sets only after the upload returns then never returns:
// the trace is for timing copies, as `weft bench transfer` makes them, not for such programs.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace weft::detail {

/// The steady clock in nanoseconds.
std::int64_t trace_now_ns() noexcept;

/// What ParallelMemcpy records of one job when it is given one (absolute trace_now_ns times;
/// 0: not seen).
struct MemcpyTrace {
  std::int64_t claimed = 0;  // its first slice taken (by any thread)
  std::int64_t worker = 0;   // its first slice taken by a pool thread (not the waiting caller)
  std::int64_t done = 0;     // its last slice copied
  unsigned sleeping = 0;     // pool threads asleep when it was queued (woken by it)
  unsigned slices = 0, by_waiter = 0;  // slices, and those the waiting caller copied
};

/// One chunk's timeline (absolute trace_now_ns times; 0: not seen).
struct ChunkTrace {
  std::size_t offset = 0, length = 0;
  MemcpyTrace memcpy;
  std::int64_t submitted = 0;                   // memcpy job queued
  std::int64_t seen = 0;                        // the stager saw the memcpy (upload) or DMA (download) done
  std::int64_t reuse_begin = 0, reuse_end = 0;  // the wait for the pinned buffer's last DMA
  std::int64_t dma_queued = 0;                  // the DMA's enqueue returned
  double dma_start_us = -1, dma_end_us = -1;    // device times from the entry (CUDA), or host time of
                                                // the completion callback (OpenCL, end only); -1: none
};

class StagingTrace {
 public:
  /// Whether WEFT_STAGING_TRACE is on (read once).
  static bool enabled() noexcept;

  /// backend: "cuda" or "opencl"; upload: host -> device; entry: trace_now_ns() when the
  /// stager was entered.
  StagingTrace(const char* backend, bool upload, std::size_t bytes, std::size_t chunks, unsigned threads,
               std::int64_t entry);
  ~StagingTrace();  // files the record for printing at exit
  StagingTrace(const StagingTrace&) = delete;
  StagingTrace& operator=(const StagingTrace&) = delete;

  ChunkTrace& operator[](std::size_t i) { return chunks_[i]; }
  /// Chunk i's record, starting now (its reuse_begin).
  ChunkTrace& begin(std::size_t i, std::size_t offset, std::size_t length) {
    ChunkTrace& c = chunks_[i];
    c.offset = offset;
    c.length = length;
    c.reuse_begin = trace_now_ns();
    return c;
  }
  std::size_t size() const noexcept { return chunks_.size(); }
  std::int64_t entry() const noexcept { return entry_; }
  /// The stager is about to return / saw every DMA done.
  void returned() { returned_ = trace_now_ns(); }
  void all_done() { all_done_ = trace_now_ns(); }
  /// Where an OpenCL completion callback of chunk i writes its trace_now_ns time.
  std::atomic<std::int64_t>* completion(std::size_t i) { return &completions_[i]; }
  /// Once that callback is set: it must run before the trace goes (its destructor waits for
  /// it). A callback that could not be set is not waited for.
  void registered(std::size_t i) { registered_[i] = 1; }
  /// Waits for the completion times of chunks [0, n) (every one's callback set), then takes
  /// them as the chunks' DMA ends.
  void take_completions(std::size_t n);

 private:

  const char* backend_;
  bool upload_;
  std::size_t bytes_;
  unsigned threads_;
  std::int64_t entry_, returned_ = 0, all_done_ = 0;
  std::vector<ChunkTrace> chunks_;
  std::vector<std::atomic<std::int64_t>> completions_;
  std::vector<unsigned char> registered_;
};

}  // namespace weft::detail
