// The host backend's thread pool: threads-1 workers plus the calling thread split each
// parallel region into chunks claimed from an atomic counter. One region runs at a time;
// a second caller waits for the first.
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace weft::detail {

class ThreadPool {
 public:
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Threads that work on a region, the caller included.
  unsigned size() const noexcept { return static_cast<unsigned>(workers_.size()) + 1; }

  /// Calls fn(chunk) for every chunk in [0, chunks) and returns when all are done. fn must
  /// not throw.
  template <class F>
  void run(std::size_t chunks, F& fn) {
    run_impl(chunks, [](void* ctx, std::size_t c) { (*static_cast<F*>(ctx))(c); }, &fn);
  }

 private:
  using ChunkFn = void (*)(void*, std::size_t);
  struct Job {
    ChunkFn fn;
    void* ctx;
    std::size_t chunks;
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> finished{0};
  };

  void run_impl(std::size_t chunks, ChunkFn fn, void* ctx);
  void worker_loop();
  static void work_on(Job& job);

  std::vector<std::thread> workers_;
  std::mutex run_mutex_;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<Job*> job_{nullptr};
  std::atomic<unsigned> inside_{0};
  std::atomic<bool> stop_{false};
};

}  // namespace weft::detail
