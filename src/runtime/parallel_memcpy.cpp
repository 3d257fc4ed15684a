#include "runtime/parallel_memcpy.hpp"

#include <algorithm>
#include <cstring>

#include "weft/config.hpp"

namespace weft::detail {

ParallelMemcpy::ParallelMemcpy(unsigned threads) : threads_(std::max(1u, threads)) {
  workers_.reserve(threads_ - 1);
  for (unsigned i = 1; i < threads_; ++i) workers_.emplace_back([this, i] { worker(i); });
}

ParallelMemcpy::~ParallelMemcpy() {
  {
    std::lock_guard lock(m_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& t : workers_) t.join();
}

void ParallelMemcpy::part(unsigned index) const {
  // Page-aligned parts: no two threads write one page.
  const std::size_t per = (bytes_ / threads_ + 4095) & ~std::size_t{4095};
  const std::size_t begin = std::min(bytes_, per * index);
  const std::size_t end = index + 1 == threads_ ? bytes_ : std::min(bytes_, begin + per);
  if (end > begin) std::memcpy(dst_ + begin, src_ + begin, end - begin);
}

void ParallelMemcpy::worker(unsigned index) {
  unsigned long seen = 0;
  for (;;) {
    {
      std::unique_lock lock(m_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    part(index);
    {
      std::lock_guard lock(m_);
      ++finished_;
    }
    done_.notify_one();
  }
}

void ParallelMemcpy::copy(void* dst, const void* src, std::size_t bytes) {
  if (threads_ == 1 || bytes < (std::size_t{1} << 20)) {
    std::memcpy(dst, src, bytes);
    return;
  }
  std::lock_guard turn(turn_);
  {
    std::lock_guard lock(m_);
    dst_ = static_cast<char*>(dst);
    src_ = static_cast<const char*>(src);
    bytes_ = bytes;
    finished_ = 0;
    ++generation_;
  }
  start_.notify_all();
  part(0);
  std::unique_lock lock(m_);
  done_.wait(lock, [&] { return finished_ == threads_ - 1; });
}

StagingPlan staging_plan() {
  StagingPlan plan;
  if (const std::size_t chunk = config().staging_chunk_bytes) {
    plan.chunk = chunk;
    plan.first_chunk = std::min(plan.first_chunk, chunk);
  }
  return plan;
}

std::vector<std::pair<std::size_t, std::size_t>> staging_chunks(const StagingPlan& plan, std::size_t bytes) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t size = plan.first_chunk;
  for (std::size_t off = 0; off < bytes; off += out.back().second) {
    out.emplace_back(off, std::min(size, bytes - off));
    size = std::min(size * 2, plan.chunk);
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
