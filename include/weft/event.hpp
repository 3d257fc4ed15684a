// Events: the handle every enqueue returns.
//
//   weft::Event e = queue.launch(kernel, n);
//   e.then([](const weft::Event& done) { ... });     // runs on the completion thread when done
//   e.wait();                                          // rethrows the command's error, if any
//   auto p = e.profile();  double ms = (p.end - p.start) * 1e-6;   // a profiling queue's event
//   weft::wait_for_all({e1, e2});
#pragma once

#include "weft/export.hpp"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace weft {

namespace detail {
class EventImpl;
}

enum class EventStatus : std::uint8_t { queued, submitted, running, complete, error };
WEFT_API std::string_view to_string(EventStatus s) noexcept;

/// Profiling times in nanoseconds on one monotonic clock per device: when the command was
/// enqueued, handed to the device, started and ended. Valid once the event is complete.
struct WEFT_API EventProfile {
  std::uint64_t queued = 0;
  std::uint64_t submitted = 0;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  /// end - start, in seconds.
  double seconds() const noexcept { return static_cast<double>(end - start) * 1e-9; }
};

class WEFT_API Event {
 public:
  /// An event that is already complete (nothing to wait for).
  Event() = default;
  explicit Event(std::shared_ptr<detail::EventImpl> impl) : impl_(std::move(impl)) {}

  EventStatus status() const;
  bool done() const {
    const auto s = status();
    return s == EventStatus::complete || s == EventStatus::error;
  }
  /// Blocks until the command finished; throws the error it failed with.
  void wait() const;
  /// Profiling times; waits for completion first. Throws weft::Error for an event of a queue
  /// made without QueueOptions::profiling (markers on host and CUDA queues excepted).
  EventProfile profile() const;
  /// Calls callback once the command has finished (soon, if it already has) on the process's
  /// one completion thread, after the callbacks added to this event before it, so
  /// `e.then(f).then(g)` runs f, then g; callbacks of different events are not ordered by when
  /// the events completed. The event is kept alive until then. A callback that
  /// throws is logged and the next ones run. Callbacks share the thread: one must not block
  /// on work queued behind this event, nor on another callback.
  const Event& then(std::function<void(const Event&)> callback) const;

  explicit operator bool() const noexcept { return impl_ != nullptr; }
  const std::shared_ptr<detail::EventImpl>& impl() const noexcept { return impl_; }

 private:
  std::shared_ptr<detail::EventImpl> impl_;
};

/// An event the host program completes: gate device work on something the host does, on
/// any device's queue.
///
///   weft::UserEvent ready;
///   const weft::Event after[] = {ready};
///   weft::Event e = q.launch(k, n, {}, {}, after);           // waits for ready
///   ...; ready.complete();
class WEFT_API UserEvent : public Event {
 public:
  UserEvent();
  /// Marks the event done: commands waiting on it may run.
  void complete() const;
  /// Marks the event failed: commands waiting on it fail with this message.
  void fail(const std::string& message) const;
};

/// Waits for every event; throws the first error after all have finished.
WEFT_API void wait_for_all(std::span<const Event> events);
inline void wait_for_all(std::initializer_list<Event> events) {
  wait_for_all(std::span<const Event>(events.begin(), events.size()));
}

}  // namespace weft
