#include "runtime/parallel_memcpy.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>

#include "runtime/spin_wait.hpp"
#include "weft/config.hpp"

namespace weft::detail {

namespace {
constexpr std::size_t kPage = 4096;
constexpr std::size_t kMinJobBytes = std::size_t{1} << 20;  // smaller: one memcpy here
constexpr std::size_t kMinSlice = std::size_t{128} << 10;
// How long a polling thread only pauses; after that it yields between polls (in case the
// process has more busy threads than cores).
constexpr auto kSpin = std::chrono::microseconds(30);
// How long an idle pool thread polls for the next job before it sleeps: a stager queues its
// next chunk within microseconds, and the next copy of a pipeline (or of a loop of copies)
// often comes within a few hundred, while a sleeping thread's wake-up costs tens of them in a
// VM, each of the pool's threads, at the start of the copy where the copy engine waits for
// the first chunk.
constexpr auto kIdleSpin = std::chrono::microseconds(250);
// How long a caller whose job's last slices are on other threads polls for them before it
// sleeps (yielding after kSpin, in case the pool has more threads than cores). The caller is a
// stager that queues the chunk's DMA (or its next chunk's) the moment the job is done: a
// sleeping one woke tens of microseconds later, once per chunk, while the copy engine could
// be idle. The slices in flight take at most a slice's copy: ~100 us for the largest on one thread.
constexpr auto kSliceWaitSpin = std::chrono::microseconds(2000);
}  // namespace

ParallelMemcpy::ParallelMemcpy(unsigned threads) : threads_(std::max(1u, threads)) {
  workers_.reserve(threads_ - 1);
  for (unsigned i = 1; i < threads_; ++i) workers_.emplace_back([this] { worker(); });
}

ParallelMemcpy::~ParallelMemcpy() {
  {
    std::lock_guard lock(m_);
    stop_ = true;
  }
  work_.notify_all();
  for (auto& t : workers_) t.join();
}

// Guided slices: a share of what is left of the job (at most its slice, at least kMinSlice,
// whole pages), so that its last slices are short and the job is done soon after they are
// taken, rather than a full slice's copy after the others on one straggling thread.
bool ParallelMemcpy::claim(Ticket upto, Slice& s, bool waiter) {
  for (Job& j : jobs_) {
    if (j.id > upto) return false;
    if (j.next < j.bytes) {
      const std::size_t rest = j.bytes - j.next;
      const std::size_t share = (rest / threads_ + kPage - 1) & ~(kPage - 1);
      s = {&j, j.next, std::min(rest, std::clamp(share, kMinSlice, j.slice))};
      j.next += s.length;
      if (j.trace) {
        const std::int64_t now = trace_now_ns();
        if (!j.trace->claimed) j.trace->claimed = now;
        if (!waiter && !j.trace->worker) j.trace->worker = now;
        ++j.trace->slices;
        if (waiter) ++j.trace->by_waiter;
      }
      return true;
    }
  }
  return false;
}

// A slice's copy; a streaming job's with non-temporal stores on x86-64 (the Stores comment in
// the header: ordinary stores first read every destination line, a third more memory traffic
// on a memory system the copy engine shares). glibc's memcpy streams only copies larger than
// a share of the last-level cache, which a slice is not.
void ParallelMemcpy::run(const Slice& s) {
  char* dst = s.job->dst + s.offset;
  const char* src = s.job->src + s.offset;
  std::size_t n = s.length;
#if defined(__x86_64__)
  const std::size_t head = (64 - reinterpret_cast<std::uintptr_t>(dst) % 64) % 64;
  if (s.job->stores == Stores::streaming && n >= head + 4096) {
    std::memcpy(dst, src, head);
    dst += head;
    src += head;
    n -= head;
    const std::size_t body = n & ~std::size_t{63};
    for (std::size_t i = 0; i < body; i += 64) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
      const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
      const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
    }
    _mm_sfence();  // (streaming stores are weakly ordered: visible before the slice counts as done)
    std::memcpy(dst + body, src + body, n - body);
    return;
  }
#endif
  std::memcpy(dst, src, n);
}

void ParallelMemcpy::finish(const Slice& s) {
  s.job->left -= s.length;
  if (s.job->trace && s.job->left == 0) s.job->trace->done = trace_now_ns();
  if (jobs_.front().left != 0) return;
  Ticket done = 0;
  while (!jobs_.empty() && jobs_.front().left == 0) {
    done = jobs_.front().id;
    jobs_.pop_front();
  }
  done_upto_.store(done, std::memory_order_release);
  if (waiters_) done_.notify_all();
}

void ParallelMemcpy::worker() {
  std::unique_lock lock(m_);
  for (;;) {
    Slice s;
    if (claim(~Ticket{0}, s, false)) {
      lock.unlock();
      run(s);
      lock.lock();
      finish(s);
      continue;
    }
    if (stop_) return;
    const Ticket seen = submitted_.load(std::memory_order_relaxed);
    lock.unlock();
    spin_until([&] { return submitted_.load(std::memory_order_acquire) != seen; }, kIdleSpin, kSpin);
    lock.lock();
    if (submitted_.load(std::memory_order_relaxed) != seen) continue;
    ++sleepers_;
    work_.wait(lock, [&] { return stop_ || submitted_.load(std::memory_order_relaxed) != seen; });
    --sleepers_;
  }
}

ParallelMemcpy::Ticket ParallelMemcpy::submit(void* dst, const void* src, std::size_t bytes, Stores stores,
                                              MemcpyTrace* trace) {
  if (threads_ == 1 || bytes < kMinJobBytes) {
    if (trace) trace->claimed = trace_now_ns();
    std::memcpy(dst, src, bytes);
    if (trace) {
      trace->done = trace_now_ns();
      trace->slices = trace->by_waiter = 1;
    }
    return 0;
  }
  // Page-aligned slices, about two per thread (the faster threads take more): no two threads
  // write one page.
  const std::size_t slice = std::max(kMinSlice, (bytes / (2 * threads_) + kPage - 1) & ~(kPage - 1));
  std::lock_guard lock(m_);
  Job& j = jobs_.emplace_back();
  j.id = ++last_id_;
  j.dst = static_cast<char*>(dst);
  j.src = static_cast<const char*>(src);
  j.bytes = j.left = bytes;
  j.slice = slice;
  j.stores = stores;
  j.trace = trace;
  if (trace) trace->sleeping = sleepers_;
  submitted_.store(j.id, std::memory_order_release);
  if (sleepers_) work_.notify_all();
  return j.id;
}

void ParallelMemcpy::wait(Ticket t) {
  if (t == 0 || done_upto_.load(std::memory_order_acquire) >= t) return;
  std::unique_lock lock(m_);
  Slice s;
  while (claim(t, s, true)) {
    lock.unlock();
    run(s);
    lock.lock();
    finish(s);
  }
  if (done_upto_.load(std::memory_order_relaxed) >= t) return;
  // Every slice is taken and being copied: poll for them before sleeping (kSliceWaitSpin).
  lock.unlock();
  if (spin_until([&] { return done_upto_.load(std::memory_order_acquire) >= t; }, kSliceWaitSpin, kSpin)) return;
  lock.lock();
  ++waiters_;
  done_.wait(lock, [&] { return done_upto_.load(std::memory_order_relaxed) >= t; });
  --waiters_;
}

StagingPlan staging_plan() {
  StagingPlan plan;
  if (const std::size_t chunk = config().staging_chunk_bytes) {
    plan.chunk = chunk;
    plan.first_chunk = std::min(plan.first_chunk, chunk);
  }
  return plan;
}

std::vector<std::pair<std::size_t, std::size_t>> staging_chunks(const StagingPlan& plan, std::size_t bytes,
                                                                bool taper) {
  std::vector<std::size_t> head;  // the doubling chunks before the full ones
  for (std::size_t size = plan.first_chunk; size < plan.chunk; size *= 2) head.push_back(size);
  std::size_t ramp = 0;
  for (const std::size_t h : head) ramp += h;
  std::vector<std::size_t> sizes;
  if (taper && bytes >= 2 * ramp + plan.chunk) {
    sizes = head;
    std::size_t middle = bytes - 2 * ramp;
    for (; middle > 0; middle -= std::min(middle, plan.chunk)) sizes.push_back(std::min(middle, plan.chunk));
    sizes.insert(sizes.end(), head.rbegin(), head.rend());
  } else {
    std::size_t size = plan.first_chunk, left = bytes;
    for (; left > 0; left -= sizes.back()) {
      sizes.push_back(std::min(size, left));
      size = std::min(size * 2, plan.chunk);
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> out;
  out.reserve(sizes.size());
  std::size_t off = 0;
  for (const std::size_t len : sizes) {
    out.emplace_back(off, len);
    off += len;
  }
  return out;
}

unsigned parallel_memcpy_threads() {
  if (const unsigned t = config().staging_threads) return t;
  return std::clamp(std::thread::hardware_concurrency() * 3 / 4, 1u, 16u);
}

ParallelMemcpy& parallel_memcpy() {
  static ParallelMemcpy pool(parallel_memcpy_threads());
  return pool;
}

}  // namespace weft::detail
