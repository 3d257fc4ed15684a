// The host backend's thread pool: threads-1 workers plus the calling thread split each
// parallel region into chunks claimed from an atomic counter. One region runs at a time;
// a second caller waits for the first.
//
// Wake-ups: a region wakes only as many sleeping workers as it has chunks for, beyond the
// caller's (one futex wake each, or one for all), and none when workers are still spinning
// from the region before: a worker spins kSpin before it sleeps. On the H200 machine's 16-thread
// VM, waking all fifteen workers for every region (one notify_all, then waiting for chunks the
// late ones had claimed) made the smallest parallel region cost about 64 us (weft calibrate's
// "wide" launch), against about 1 us for a launch on one thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace weft::detail {

class ThreadPool {
 public:
  /// How long a worker that finished its part of a region looks for the next one before it
  /// sleeps (regions back to back, as an array expression's kernels are, then wake nobody);
  /// not at all with fewer than four hardware threads (runtime/spin_wait.hpp).
  static constexpr std::chrono::microseconds kSpin{50};

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
  // 32 bits: a futex's own width, so that notify_one wakes one sleeper (a wider atomic waits on
  // a shared proxy that libstdc++ may wake as a whole). Compared for inequality only: wraps.
  std::atomic<std::uint32_t> generation_{0};
  std::atomic<unsigned> sleepers_{0};  // workers asleep (or about to be) in generation_.wait
  std::atomic<Job*> job_{nullptr};
  std::atomic<unsigned> inside_{0};
  std::atomic<bool> stop_{false};
};

}  // namespace weft::detail
