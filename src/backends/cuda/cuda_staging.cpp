#include "backends/cuda/cuda_staging.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "backends/cuda/cuda_device.hpp"
#include "runtime/parallel_memcpy.hpp"
#include "runtime/staging_trace.hpp"

namespace weft::detail {

using namespace cu;

namespace {
constexpr int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;

// WEFT_STAGING_TRACE's device times: timing events before and after each chunk's DMA,
// measured from one recorded at the copy's entry (runtime/staging_trace.hpp).
class DmaTimes {
 public:
  DmaTimes(CUstream stream, std::size_t chunks) : stream_(stream), events_(2 * chunks + 1, nullptr) {
    try {
      for (auto& e : events_) check(driver().cuEventCreate(&e, 0), "cuEventCreate");
      check(driver().cuEventRecord(events_[0], stream_), "cuEventRecord");
    } catch (...) {
      release();
      throw;
    }
  }
  ~DmaTimes() { release(); }
  DmaTimes(const DmaTimes&) = delete;
  DmaTimes& operator=(const DmaTimes&) = delete;
  void before(std::size_t i) { check(driver().cuEventRecord(events_[2 * i + 1], stream_), "cuEventRecord"); }
  void after(std::size_t i) { check(driver().cuEventRecord(events_[2 * i + 2], stream_), "cuEventRecord"); }
  /// Waits for chunk n - 1's DMA, then gives trace the device times of chunks [0, n).
  void read(StagingTrace& trace, std::size_t n) {
    check(driver().cuEventSynchronize(events_[2 * n]), "cuEventSynchronize");
    trace.all_done();
    for (std::size_t i = 0; i < n; ++i) {
      float start = 0, end = 0;
      check(driver().cuEventElapsedTime(&start, events_[0], events_[2 * i + 1]), "cuEventElapsedTime");
      check(driver().cuEventElapsedTime(&end, events_[0], events_[2 * i + 2]), "cuEventElapsedTime");
      trace[i].dma_start_us = 1e3 * start;
      trace[i].dma_end_us = 1e3 * end;
    }
  }

 private:
  void release() noexcept {
    for (auto& e : events_) {
      if (e) driver().cuEventDestroy(e);
      e = nullptr;
    }
  }
  CUstream stream_;
  std::vector<CUevent> events_;
};
}  // namespace

CudaStaging::~CudaStaging() {
  if (!buffers_[0]) return;
  device_.make_current();
  for (std::size_t k = 0; k < kBuffers; ++k) {
    if (events_[k]) driver().cuEventDestroy(events_[k]);
    if (buffers_[k]) driver().cuMemFreeHost(buffers_[k]);
  }
}

bool CudaStaging::worth_staging(const void* host, std::size_t bytes) const {
  if (bytes < kStageMinBytes || parallel_memcpy().threads() < 2) return false;
  // Host memory the driver knows (pinned, registered, managed) has a memory type: copied
  // directly at full speed. Pageable memory has none (cuPointerGetAttributes, unlike
  // cuPointerGetAttribute, answers 0 for it rather than an error that tools would report).
  int attribute = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
  unsigned type = 0;
  void* data[] = {&type};
  const CUresult r = driver().cuPointerGetAttributes(1, &attribute, data, reinterpret_cast<CUdeviceptr>(host));
  return r == CUDA_SUCCESS && type == 0;
}

bool CudaStaging::ready() {
  if (buffers_[0]) return true;
  if (failed_) return false;
  for (std::size_t k = 0; k < kBuffers; ++k) {
    if (driver().cuMemAllocHost(&buffers_[k], plan_.chunk) != CUDA_SUCCESS ||
        driver().cuEventCreate(&events_[k], CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
      for (std::size_t j = 0; j <= k; ++j) {
        if (events_[j]) driver().cuEventDestroy(events_[j]);
        if (buffers_[j]) driver().cuMemFreeHost(buffers_[j]);
        events_[j] = nullptr;
        buffers_[j] = nullptr;
      }
      failed_ = true;
      return false;
    }
  }
  return true;
}

void CudaStaging::reuse(std::size_t k) {
  if (recorded_[k]) check(driver().cuEventSynchronize(events_[k]), "cuEventSynchronize");
}

void CudaStaging::record(std::size_t k, CUstream stream) {
  check(driver().cuEventRecord(events_[k], stream), "cuEventRecord");
  recorded_[k] = true;
}

bool CudaStaging::write(CUstream stream, CUdeviceptr dst, const void* src, std::size_t bytes) {
  const std::int64_t entry = StagingTrace::enabled() ? trace_now_ns() : 0;
  if (!worth_staging(src, bytes)) return false;
  std::unique_lock lock(busy_, std::try_to_lock);
  if (!lock.owns_lock() || !ready()) return false;
  const char* from = static_cast<const char*>(src);
  const auto parts = staging_chunks(plan_, bytes);
  ParallelMemcpy& pool = parallel_memcpy();
  std::optional<StagingTrace> trace;  // WEFT_STAGING_TRACE (runtime/staging_trace.hpp)
  std::optional<DmaTimes> times;
  if (entry) {
    trace.emplace("cuda", true, bytes, parts.size(), pool.threads(), entry);
    times.emplace(stream, parts.size());
  }
  MemcpyJobs jobs(pool, parts.size());  // (after trace: waited for before it goes)
  // The memcpy of chunk i + kAhead is queued before chunk i's DMA goes: the pool's threads
  // copy the next chunks while this thread waits for the current one and the copy engine
  // moves the ones before (buffer i + kAhead's last DMA, chunk i + kAhead - kBuffers, is
  // queued by then).
  auto fill = [&](std::size_t i) {
    const auto [off, len] = parts[i];
    const std::size_t k = i % kBuffers;
    ChunkTrace* t = trace ? &trace->begin(i, off, len) : nullptr;
    reuse(k);
    if (t) t->reuse_end = t->submitted = trace_now_ns();
    jobs[i] = pool.submit(buffers_[k], from + off, len, ParallelMemcpy::Stores::cached, t ? &t->memcpy : nullptr);
  };
  for (std::size_t i = 0; i < std::min(kAhead, parts.size()); ++i) fill(i);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto [off, len] = parts[i];
    const std::size_t k = i % kBuffers;
    pool.wait(jobs[i]);
    if (trace) (*trace)[i].seen = trace_now_ns();
    if (times) times->before(i);
    check(driver().cuMemcpyHtoDAsync(dst + off, buffers_[k], len, stream), "cuMemcpyHtoDAsync");
    if (times) times->after(i);
    record(k, stream);
    if (trace) (*trace)[i].dma_queued = trace_now_ns();
    if (i + kAhead < parts.size()) fill(i + kAhead);
  }
  // Returns once src is read, as a pageable copy does; the last chunks may still be on their
  // way from the pinned buffers, which the next staged copy (any stream) reuses only after
  // their events. (Traced: after every chunk's DMA, whose device times are read then.)
  if (trace) {
    trace->returned();
    times->read(*trace, parts.size());
  }
  return true;
}

bool CudaStaging::read(CUstream stream, void* dst, CUdeviceptr src, std::size_t bytes) {
  const std::int64_t entry = StagingTrace::enabled() ? trace_now_ns() : 0;
  if (!worth_staging(dst, bytes)) return false;
  std::unique_lock lock(busy_, std::try_to_lock);
  if (!lock.owns_lock() || !ready()) return false;
  char* to = static_cast<char*>(dst);
  // Tapered: the last chunk's memcpy follows every DMA, so it is small.
  const auto parts = staging_chunks(plan_, bytes, true);
  ParallelMemcpy& pool = parallel_memcpy();
  std::optional<StagingTrace> trace;  // WEFT_STAGING_TRACE (runtime/staging_trace.hpp)
  std::optional<DmaTimes> times;
  if (entry) {
    trace.emplace("cuda", false, bytes, parts.size(), pool.threads(), entry);
    times.emplace(stream, parts.size());
  }
  MemcpyJobs jobs(pool, parts.size());  // (after trace: waited for before it goes)
  auto issue = [&](std::size_t i) {
    const auto [off, len] = parts[i];
    const std::size_t k = i % kBuffers;
    ChunkTrace* t = trace ? &trace->begin(i, off, len) : nullptr;
    reuse(k);
    if (t) t->reuse_end = trace_now_ns();
    if (times) times->before(i);
    check(driver().cuMemcpyDtoHAsync(buffers_[k], src + off, len, stream), "cuMemcpyDtoHAsync");
    if (times) times->after(i);
    record(k, stream);
    if (t) t->dma_queued = trace_now_ns();
  };
  for (std::size_t i = 0; i < std::min(kBuffers, parts.size()); ++i) issue(i);
  // Chunk i's memcpy is queued as soon as its DMA is done, before this thread waits for chunk
  // i - 1's: the pool's threads go from one chunk to the next without a pause, while the
  // copy engine fills the other buffers.
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto [off, len] = parts[i];
    const std::size_t k = i % kBuffers;
    check(driver().cuEventSynchronize(events_[k]), "cuEventSynchronize");
    ChunkTrace* t = trace ? &(*trace)[i] : nullptr;
    if (t) t->seen = t->submitted = trace_now_ns();
    jobs[i] = pool.submit(to + off, buffers_[k], len, ParallelMemcpy::Stores::streaming, t ? &t->memcpy : nullptr);
    if (i > 0) {
      pool.wait(jobs[i - 1]);
      if (i - 1 + kBuffers < parts.size()) issue(i - 1 + kBuffers);
    }
  }
  pool.wait(jobs[parts.size() - 1]);
  if (trace) {
    trace->returned();
    times->read(*trace, parts.size());
  }
  return true;
}

}  // namespace weft::detail
