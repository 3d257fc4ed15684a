// An event completed by host code: the host backend's commands, markers, user events.
// Backends with native events (OpenCL, CUDA) may still use it for host-side work.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <vector>

#include "runtime/backend.hpp"

namespace weft::detail {

/// Nanoseconds on the steady clock, the time base of host-side profiling.
std::uint64_t now_ns() noexcept;

class CompletionEvent final : public EventImpl {
 public:
  /// profiling: whether profile() gives times (a queue made with QueueOptions::profiling,
  /// a user event, a marker); without it no clock is read and profile() throws.
  explicit CompletionEvent(bool profiling = true) noexcept;  // queued now

  void mark_submitted() noexcept;
  void mark_running() noexcept;
  /// Marks the command done and runs the callbacks on this thread.
  void complete() noexcept;
  void fail(std::exception_ptr error) noexcept;

  EventStatus status() const override { return status_.load(std::memory_order_acquire); }
  void wait() override;
  EventProfile profile() override;
  void on_complete(std::function<void()> callback) override;

 private:
  void finish(EventStatus final_status, std::exception_ptr error) noexcept;
  /// Blocks until the event is complete or failed; returns which.
  EventStatus await_end();

  std::atomic<EventStatus> status_{EventStatus::queued};
  const bool profiling_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<int> waiters_{0};  // threads asleep on cv_ (changed under mutex_)
  EventProfile times_;
  std::exception_ptr error_;
  std::vector<std::function<void()>> callbacks_;
};

}  // namespace weft::detail
