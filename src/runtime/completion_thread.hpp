// The process's one completion thread: it runs every Event::then callback, whatever the
// backend that completed the command.
//
// Backends learn of completion on threads of their own (the host queue's worker, an OpenCL
// driver's callback thread, a CUDA device's watcher); they hand the user's callback over here
// instead of running it, so a slow or blocking callback never stalls a queue or a driver
// thread, no callback ever starts a thread, and callbacks of one event run in the order they
// were added. A callback that throws is logged and the thread goes on.
//
//   CompletionThread::get().post([] { ... });   // runs soon on the completion thread
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace weft::detail {

template <class T>
class Immortal;

class CompletionThread {
 public:
  /// The process's one instance, started on first use and never destroyed (core/lifetime.hpp):
  /// at exit, pending callbacks are dropped with the process, never waited for.
  static CompletionThread& get();

  /// Queues job; callable from any thread (the completion thread included: the job then runs
  /// after the ones already queued). Jobs run one at a time, in the order posted.
  void post(std::function<void()> job);
  /// Whether the caller is the completion thread.
  bool on_this_thread() const noexcept { return std::this_thread::get_id() == id_; }
  /// Jobs run so far, and jobs that threw (for tests and diagnostics).
  std::uint64_t delivered() const noexcept { return delivered_.load(std::memory_order_relaxed); }
  std::uint64_t failed() const noexcept { return failed_.load(std::memory_order_relaxed); }

  CompletionThread(const CompletionThread&) = delete;
  CompletionThread& operator=(const CompletionThread&) = delete;

 private:
  template <class T>
  friend class Immortal;
  CompletionThread();
  void run();

  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::function<void()>> pending_;  // guarded by mutex_
  bool idle_ = false;                           // asleep on cv_ (guarded by mutex_)
  std::thread::id id_;
  std::atomic<std::uint64_t> delivered_{0};
  std::atomic<std::uint64_t> failed_{0};
};

}  // namespace weft::detail
