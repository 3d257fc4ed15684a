#include "backends/host/thread_pool.hpp"

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
  std::uint64_t seen = 0;
  while (true) {
    if (stop_.load()) return;
    generation_.wait(seen);
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
  generation_.notify_all();
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
