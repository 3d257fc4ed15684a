#include "backends/opencl/opencl_staging.hpp"

#include <algorithm>
#include <optional>

#include "runtime/backend.hpp"
#include "runtime/staging_trace.hpp"
#include "weft/error.hpp"

namespace weft::detail {

using namespace cl;

namespace {
constexpr cl_int kComplete = 0;  // CL_COMPLETE

// WEFT_STAGING_TRACE: a chunk's DMA end as the host learns it (runtime/staging_trace.hpp).
void note_done(cl_event, cl_int, void* at) {
  static_cast<std::atomic<std::int64_t>*>(at)->store(trace_now_ns(), std::memory_order_release);
}

void trace_done(StagingTrace* trace, std::size_t i, cl_event e) {
  if (!trace) return;
  check(api().clSetEventCallback(e, kComplete, note_done, trace->completion(i)), "clSetEventCallback");
  trace->registered(i);
}
}  // namespace

void PinnedRanges::add(const void* p, std::size_t bytes) {
  std::lock_guard lock(mutex_);
  ranges_[static_cast<const char*>(p)] = bytes;
}

void PinnedRanges::remove(const void* p) {
  std::lock_guard lock(mutex_);
  ranges_.erase(static_cast<const char*>(p));
}

bool PinnedRanges::contains(const void* p, std::size_t bytes) const {
  const char* c = static_cast<const char*>(p);
  std::lock_guard lock(mutex_);
  auto it = ranges_.upper_bound(c);
  if (it == ranges_.begin()) return false;
  --it;
  return c >= it->first && c + bytes <= it->first + it->second;
}

OpenclStaging::OpenclStaging(std::function<std::shared_ptr<PinnedImpl>(std::size_t)> allocate,
                             const PinnedRanges& pinned)
    : allocate_(std::move(allocate)), pinned_(pinned), plan_(staging_plan()) {}

OpenclStaging::~OpenclStaging() {
  for (std::size_t k = 0; k < kBuffers; ++k) {
    if (events_[k]) {
      api().clWaitForEvents(1, &events_[k]);
      api().clReleaseEvent(events_[k]);
    }
  }
}

bool OpenclStaging::worth_staging(const void* host, std::size_t bytes) const {
  return bytes >= kStageMinBytes && !pinned_.contains(host, bytes);
}

bool OpenclStaging::ready() {
  if (buffers_[0]) return true;
  if (failed_) return false;
  try {
    for (auto& b : buffers_) b = allocate_(plan_.chunk);
  } catch (const Error&) {
    for (auto& b : buffers_) b.reset();
    failed_ = true;  // no pinned memory: copy directly from then on
    return false;
  }
  return true;
}

void OpenclStaging::reuse(std::size_t k) {
  if (events_[k]) check(api().clWaitForEvents(1, &events_[k]), "clWaitForEvents");
}

void OpenclStaging::record(std::size_t k, cl_event e) {
  if (events_[k]) api().clReleaseEvent(events_[k]);
  api().clRetainEvent(e);
  events_[k] = e;
}

StagedCopy OpenclStaging::write(cl_command_queue queue, cl_mem dst, std::size_t offset, const void* src,
                                std::size_t bytes, const std::vector<cl_event>& wait) {
  const std::int64_t entry = StagingTrace::enabled() ? trace_now_ns() : 0;
  if (!worth_staging(src, bytes)) return {};
  std::unique_lock lock(busy_, std::try_to_lock);
  if (!lock.owns_lock() || !ready()) return {};
  const char* from = static_cast<const char*>(src);
  const auto parts = staging_chunks(plan_, bytes);
  ParallelMemcpy& pool = parallel_memcpy();
  std::optional<StagingTrace> trace;  // WEFT_STAGING_TRACE (runtime/staging_trace.hpp)
  if (entry) trace.emplace("opencl", true, bytes, parts.size(), pool.threads(), entry);
  StagingTrace* const tr = trace ? &*trace : nullptr;
  MemcpyJobs jobs(pool, parts.size());  // (after trace: waited for before it goes)
  // As CudaStaging::write: the memcpy of chunk i + kAhead is queued before chunk i goes.
  auto fill = [&](std::size_t i) {
    const auto [off, len] = parts[i];
    const std::size_t k = i % kBuffers;
    ChunkTrace* t = tr ? &tr->begin(i, off, len) : nullptr;
    reuse(k);
    if (t) t->reuse_end = t->submitted = trace_now_ns();
    jobs[i] = pool.submit(buffers_[k]->data(), from + off, len, ParallelMemcpy::Stores::cached, t ? &t->memcpy : nullptr);
  };
  for (std::size_t i = 0; i < std::min(kAhead, parts.size()); ++i) fill(i);
  cl_event first_event = nullptr, last = nullptr;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto [off, len] = parts[i];
    const std::size_t k = i % kBuffers;
    pool.wait(jobs[i]);
    if (tr) (*tr)[i].seen = trace_now_ns();
    // The first chunk waits for the caller's events; the queue is in order for the rest.
    const bool first = i == 0 && !wait.empty();
    cl_event e = nullptr;
    check(api().clEnqueueWriteBuffer(queue, dst, CL_FALSE, offset + off, len, buffers_[k]->data(),
                                     first ? static_cast<cl_uint>(wait.size()) : 0, first ? wait.data() : nullptr, &e),
          "clEnqueueWriteBuffer");
    record(k, e);
    api().clFlush(queue);  // on its way now, not when a later wait flushes the queue
    if (tr) {
      (*tr)[i].dma_queued = trace_now_ns();
      trace_done(tr, i, e);
    }
    if (i == 0) {
      first_event = e;  // (its reference is the caller's)
    } else {
      if (last) api().clReleaseEvent(last);
      last = e;
    }
    if (i + kAhead < parts.size()) fill(i + kAhead);
  }
  if (!last) {  // (one chunk: first is last; the caller releases both)
    last = first_event;
    api().clRetainEvent(first_event);
  }
  if (tr) {  // (traced: returns after every chunk, whose completion times are taken then)
    tr->returned();
    check(api().clWaitForEvents(1, &last), "clWaitForEvents");
    tr->all_done();
    tr->take_completions(parts.size());
  }
  return {first_event, last};
}

StagedCopy OpenclStaging::read(cl_command_queue queue, void* dst, cl_mem src, std::size_t offset, std::size_t bytes,
                               const std::vector<cl_event>& wait) {
  const std::int64_t entry = StagingTrace::enabled() ? trace_now_ns() : 0;
  if (!worth_staging(dst, bytes)) return {};
  std::unique_lock lock(busy_, std::try_to_lock);
  if (!lock.owns_lock() || !ready()) return {};
  cl_event first_event = nullptr;
  char* to = static_cast<char*>(dst);
  const auto parts = staging_chunks(plan_, bytes, true);  // tapered, as CudaStaging::read
  ParallelMemcpy& pool = parallel_memcpy();
  std::optional<StagingTrace> trace;  // WEFT_STAGING_TRACE (runtime/staging_trace.hpp)
  if (entry) trace.emplace("opencl", false, bytes, parts.size(), pool.threads(), entry);
  StagingTrace* const tr = trace ? &*trace : nullptr;
  MemcpyJobs jobs(pool, parts.size());  // (after trace: waited for before it goes)
  auto issue = [&](std::size_t i) {
    const auto [off, len] = parts[i];
    const std::size_t k = i % kBuffers;
    ChunkTrace* t = tr ? &tr->begin(i, off, len) : nullptr;
    reuse(k);
    if (t) t->reuse_end = trace_now_ns();
    const bool first = i == 0 && !wait.empty();
    cl_event e = nullptr;
    check(api().clEnqueueReadBuffer(queue, src, CL_FALSE, offset + off, len, buffers_[k]->data(),
                                    first ? static_cast<cl_uint>(wait.size()) : 0, first ? wait.data() : nullptr, &e),
          "clEnqueueReadBuffer");
    record(k, e);
    if (t) {
      t->dma_queued = trace_now_ns();
      trace_done(tr, i, e);
    }
    if (i == 0) first_event = e;  // (its reference is the caller's)
    else api().clReleaseEvent(e);  // (record retained it)
  };
  for (std::size_t i = 0; i < std::min(kBuffers, parts.size()); ++i) issue(i);
  api().clFlush(queue);
  // As CudaStaging::read: chunk i's memcpy is queued once its read is done, before this thread
  // waits for chunk i - 1's and gives that buffer its next read.
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto [off, len] = parts[i];
    const std::size_t k = i % kBuffers;
    reuse(k);
    ChunkTrace* t = tr ? &(*tr)[i] : nullptr;
    if (t) t->seen = t->submitted = trace_now_ns();
    jobs[i] = pool.submit(to + off, buffers_[k]->data(), len, ParallelMemcpy::Stores::streaming,
                          t ? &t->memcpy : nullptr);
    if (i > 0) {
      pool.wait(jobs[i - 1]);
      if (i - 1 + kBuffers < parts.size()) {
        issue(i - 1 + kBuffers);
        api().clFlush(queue);
      }
    }
  }
  pool.wait(jobs[parts.size() - 1]);
  if (tr) {
    tr->returned();
    tr->all_done();
    tr->take_completions(parts.size());
  }
  cl_event last = events_[(parts.size() - 1) % kBuffers];
  api().clRetainEvent(last);
  return {first_event, last};
}

}  // namespace weft::detail
