#include "runtime/staging_trace.hpp"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include "weft/config.hpp"
#include "weft/error.hpp"

namespace weft::detail {

namespace {

struct Record {
  const char* backend;
  bool upload;
  std::size_t bytes;
  unsigned threads;
  std::int64_t entry, returned, all_done;
  std::vector<ChunkTrace> chunks;
};

double us(std::int64_t t, std::int64_t entry) { return t ? static_cast<double>(t - entry) / 1e3 : -1.0; }

std::string format(const Record& r) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line,
                "weft staging trace: %s %s of %zu B in %zu chunks, %u memcpy threads: returned at %.1f us, every "
                "DMA seen done at %.1f us\n",
                r.backend, r.upload ? "upload" : "download", r.bytes, r.chunks.size(), r.threads,
                us(r.returned, r.entry), us(r.all_done, r.entry));
  out += line;
  for (std::size_t i = 0; i < r.chunks.size(); ++i) {
    const ChunkTrace& c = r.chunks[i];
    const MemcpyTrace& m = c.memcpy;
    std::snprintf(line, sizeof line,
                  "  #%zu off=%zu len=%zu reuse=%.1f..%.1f memcpy: queued=%.1f sleeping=%u first=%.1f worker=%.1f "
                  "done=%.1f slices=%u by_waiter=%u seen=%.1f dma: queued=%.1f start=%.1f end=%.1f\n",
                  i, c.offset, c.length, us(c.reuse_begin, r.entry), us(c.reuse_end, r.entry), us(c.submitted, r.entry),
                  m.sleeping, us(m.claimed, r.entry), us(m.worker, r.entry), us(m.done, r.entry), m.slices, m.by_waiter,
                  us(c.seen, r.entry), us(c.dma_queued, r.entry), c.dma_start_us, c.dma_end_us);
    out += line;
  }
  return out;
}

// The records, printed when the process exits (at most kMaxRecords; later ones are counted).
class TraceLog {
 public:
  static constexpr std::size_t kMaxRecords = 4096;
  void add(Record r) {
    std::lock_guard lock(m_);
    if (records_.size() < kMaxRecords) records_.push_back(std::move(r));
    else ++dropped_;
  }
  ~TraceLog() {
    for (const Record& r : records_) {
      const std::string s = format(r);
      std::fwrite(s.data(), 1, s.size(), stderr);
    }
    if (dropped_) std::fprintf(stderr, "weft staging trace: %zu later copies not kept\n", dropped_);
    std::fflush(stderr);
  }

 private:
  std::mutex m_;
  std::vector<Record> records_;
  std::size_t dropped_ = 0;
};

TraceLog& trace_log() {
  static TraceLog log;
  return log;
}

}  // namespace

std::int64_t trace_now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool StagingTrace::enabled() noexcept {
  static const bool on = [] {
    try {
      if (!config().staging_trace) return false;
      (void)trace_log();  // made before any record is filed, so destroyed after every stager's last
      return true;
    } catch (const Error&) {
      return false;
    }
  }();
  return on;
}

StagingTrace::StagingTrace(const char* backend, bool upload, std::size_t bytes, std::size_t chunks, unsigned threads,
                           std::int64_t entry)
    : backend_(backend),
      upload_(upload),
      bytes_(bytes),
      threads_(threads),
      entry_(entry),
      chunks_(chunks),
      completions_(chunks),
      registered_(chunks, 0) {}

StagingTrace::~StagingTrace() {
  // A callback still to run (a copy left by an exception) writes into completions_.
  for (std::size_t i = 0; i < registered_.size(); ++i) {
    while (registered_[i] && completions_[i].load(std::memory_order_acquire) == 0) std::this_thread::yield();
  }
  try {
    trace_log().add({backend_, upload_, bytes_, threads_, entry_, returned_, all_done_, chunks_});
  } catch (...) {
    // (no memory for the record: the trace misses one copy)
  }
}

void StagingTrace::take_completions(std::size_t n) {
  // (no time limit: a callback still to run writes into completions_, so this must outlive it;
  // OpenCL calls a CL_COMPLETE callback of every event that completes, in error too)
  for (std::size_t i = 0; i < n && i < chunks_.size(); ++i) {
    std::int64_t t = 0;
    while ((t = completions_[i].load(std::memory_order_acquire)) == 0) std::this_thread::yield();
    chunks_[i].dma_end_us = static_cast<double>(t - entry_) / 1e3;
  }
}

}  // namespace weft::detail
