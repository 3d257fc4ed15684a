#include "backends/cuda/cuda_staging.hpp"

#include <algorithm>

#include "backends/cuda/cuda_device.hpp"
#include "runtime/parallel_memcpy.hpp"

namespace weft::detail {

using namespace cu;

namespace {
constexpr int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;
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
  if (!worth_staging(src, bytes)) return false;
  std::unique_lock lock(busy_, std::try_to_lock);
  if (!lock.owns_lock() || !ready()) return false;
  const char* from = static_cast<const char*>(src);
  const auto parts = staging_chunks(plan_, bytes);
  ParallelMemcpy& pool = parallel_memcpy();
  MemcpyJobs jobs(pool, parts.size());
  // The memcpy of chunk i + kAhead is queued before chunk i's DMA goes: the pool's threads
  // copy the next chunks while this thread waits for the current one and the copy engine
  // moves the ones before (buffer i + kAhead's last DMA, chunk i + kAhead - kBuffers, is
  // queued by then).
  auto fill = [&](std::size_t i) {
    const auto [off, len] = parts[i];
    const std::size_t k = i % kBuffers;
    reuse(k);
    jobs[i] = pool.submit(buffers_[k], from + off, len);
  };
  for (std::size_t i = 0; i < std::min(kAhead, parts.size()); ++i) fill(i);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto [off, len] = parts[i];
    const std::size_t k = i % kBuffers;
    pool.wait(jobs[i]);
    check(driver().cuMemcpyHtoDAsync(dst + off, buffers_[k], len, stream), "cuMemcpyHtoDAsync");
    record(k, stream);
    if (i + kAhead < parts.size()) fill(i + kAhead);
  }
  // Returns once src is read, as a pageable copy does; the last chunks may still be on their
  // way from the pinned buffers, which the next staged copy (any stream) reuses only after
  // their events.
  return true;
}

bool CudaStaging::read(CUstream stream, void* dst, CUdeviceptr src, std::size_t bytes) {
  if (!worth_staging(dst, bytes)) return false;
  std::unique_lock lock(busy_, std::try_to_lock);
  if (!lock.owns_lock() || !ready()) return false;
  char* to = static_cast<char*>(dst);
  // Tapered: the last chunk's memcpy follows every DMA, so it is small.
  const auto parts = staging_chunks(plan_, bytes, true);
  ParallelMemcpy& pool = parallel_memcpy();
  MemcpyJobs jobs(pool, parts.size());
  auto issue = [&](std::size_t i) {
    const auto [off, len] = parts[i];
    const std::size_t k = i % kBuffers;
    reuse(k);
    check(driver().cuMemcpyDtoHAsync(buffers_[k], src + off, len, stream), "cuMemcpyDtoHAsync");
    record(k, stream);
  };
  for (std::size_t i = 0; i < std::min(kBuffers, parts.size()); ++i) issue(i);
  // Chunk i's memcpy is queued as soon as its DMA is done, before this thread waits for chunk
  // i - 1's: the pool's threads go from one chunk to the next without a pause, while the
  // copy engine fills the other buffers.
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto [off, len] = parts[i];
    const std::size_t k = i % kBuffers;
    check(driver().cuEventSynchronize(events_[k]), "cuEventSynchronize");
    jobs[i] = pool.submit(to + off, buffers_[k], len, ParallelMemcpy::Stores::streaming);
    if (i > 0) {
      pool.wait(jobs[i - 1]);
      if (i - 1 + kBuffers < parts.size()) issue(i - 1 + kBuffers);
    }
  }
  pool.wait(jobs[parts.size() - 1]);
  return true;
}

}  // namespace weft::detail
