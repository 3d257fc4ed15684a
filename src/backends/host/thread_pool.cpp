#include "backends/host/thread_pool.hpp"

#include <algorithm>

#include "runtime/spin_wait.hpp"

namespace weft::detail {

ThreadPool::ThreadPool(unsigned threads) {
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  stop_.store(true);
  generation_.fetch_add(1);
  generation_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::work_on(Job& job) {
  while (true) {
    const std::size_t c = job.next.fetch_add(1);
    if (c >= job.chunks) return;
    job.fn(job.ctx, c);
    if (job.finished.fetch_add(1) + 1 == job.chunks) job.finished.notify_all();
  }
}

void ThreadPool::worker_loop() {
  // Start from generation 0, not the current one: a worker that starts late must still see
  // the regions (and the stop) announced before it ran.
  std::uint32_t seen = 0;
  while (true) {
    if (stop_.load()) return;
    if (!polling_pays() || !spin_until([&] { return generation_.load() != seen; }, kSpin)) {
      // Counted before the last look at generation_ (run_impl bumps it, then reads the count):
      // either run_impl sees this sleeper and wakes it, or this look sees its region.
      sleepers_.fetch_add(1);
      generation_.wait(seen);
      sleepers_.fetch_sub(1);
    }
    seen = generation_.load();
    if (stop_.load()) return;
    // Announce ourselves before touching the job; run_impl clears job_ and then waits for
    // inside_ to drop, so a late worker never sees a job whose frame has returned.
    inside_.fetch_add(1);
    if (Job* job = job_.load()) work_on(*job);
    inside_.fetch_sub(1);
  }
}

void ThreadPool::run_impl(std::size_t chunks, ChunkFn fn, void* ctx) {
  if (chunks == 0) return;
  if (chunks == 1 || workers_.empty()) {
    for (std::size_t c = 0; c < chunks; ++c) fn(ctx, c);
    return;
  }
  std::lock_guard lock(run_mutex_);
  Job job{fn, ctx, chunks};
  job_.store(&job);
  generation_.fetch_add(1);
  // Spinning workers see the new generation by themselves; of the sleeping ones, wake only as
  // many as there are chunks beyond the caller's first.
  const unsigned sleeping = sleepers_.load();
  const std::size_t wanted = std::min<std::size_t>(chunks - 1, workers_.size());
  if (sleeping > 0) {
    if (wanted >= sleeping) {
      generation_.notify_all();
    } else {
      for (std::size_t i = 0; i < wanted; ++i) generation_.notify_one();
    }
  }
  work_on(job);
  std::size_t done = job.finished.load();
  while (done != chunks) {
    job.finished.wait(done);
    done = job.finished.load();
  }
  job_.store(nullptr);
  while (inside_.load() != 0) std::this_thread::yield();
}

}  // namespace weft::detail
