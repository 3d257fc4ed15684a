#include <chrono>

#include "core/log.hpp"
#include "runtime/completion_event.hpp"
#include "weft/error.hpp"

namespace weft {

std::string_view to_string(EventStatus s) noexcept {
  switch (s) {
    case EventStatus::queued: return "queued";
    case EventStatus::submitted: return "submitted";
    case EventStatus::running: return "running";
    case EventStatus::complete: return "complete";
    case EventStatus::error: return "error";
  }
  return "?";
}

EventStatus Event::status() const { return impl_ ? impl_->status() : EventStatus::complete; }

void Event::wait() const {
  if (impl_) impl_->wait();
}

EventProfile Event::profile() const { return impl_ ? impl_->profile() : EventProfile{}; }

const Event& Event::then(std::function<void(const Event&)> callback) const {
  if (!impl_) {
    callback(*this);
    return *this;
  }
  // Done already: run it here and now, whatever the backend.
  if (const auto s = impl_->status(); s == EventStatus::complete || s == EventStatus::error) {
    callback(*this);
    return *this;
  }
  // The callback holds a weak reference: an event must not keep itself alive.
  std::weak_ptr<detail::EventImpl> weak = impl_;
  impl_->on_complete([weak, cb = std::move(callback)] {
    if (auto self = weak.lock()) cb(Event(std::move(self)));
  });
  return *this;
}

UserEvent::UserEvent() : Event(std::make_shared<detail::CompletionEvent>()) {}

void UserEvent::complete() const { static_cast<detail::CompletionEvent&>(*impl()).complete(); }

void UserEvent::fail(const std::string& message) const {
  static_cast<detail::CompletionEvent&>(*impl()).fail(std::make_exception_ptr(Error("user event failed: " + message)));
}

void wait_for_all(std::span<const Event> events) {
  std::exception_ptr first;
  for (const auto& e : events) {
    try {
      e.wait();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

namespace detail {

std::uint64_t now_ns() noexcept {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

CompletionEvent::CompletionEvent() noexcept { times_.queued = now_ns(); }

// The times are written by the one thread that runs the command, before the status that
// publishes them; readers wait for completion (await_end) first. No lock is needed.
void CompletionEvent::mark_submitted() noexcept {
  times_.submitted = now_ns();
  status_.store(EventStatus::submitted, std::memory_order_release);
}

void CompletionEvent::mark_running() noexcept {
  const std::uint64_t t = now_ns();
  if (times_.submitted == 0) times_.submitted = t;
  times_.start = t;
  status_.store(EventStatus::running, std::memory_order_release);
}

void CompletionEvent::complete() noexcept { finish(EventStatus::complete, nullptr); }

void CompletionEvent::fail(std::exception_ptr error) noexcept {
  finish(EventStatus::error, std::move(error));
}

void CompletionEvent::finish(EventStatus final_status, std::exception_ptr error) noexcept {
  std::vector<std::function<void()>> callbacks;
  {
    std::lock_guard lock(mutex_);
    const std::uint64_t t = now_ns();
    if (times_.submitted == 0) times_.submitted = t;
    if (times_.start == 0) times_.start = t;
    times_.end = t;
    error_ = std::move(error);
    callbacks.swap(callbacks_);
    status_.store(final_status, std::memory_order_release);
  }
  // Waiters register under the lock before they sleep: none registered, none to wake.
  if (waiters_.load(std::memory_order_relaxed) != 0) cv_.notify_all();
  for (auto& cb : callbacks) {
    try {
      cb();
    } catch (const std::exception& e) {
      WEFT_LOG_WARNING("an event callback threw: " << e.what());
    } catch (...) {
      WEFT_LOG_WARNING("an event callback threw");
    }
  }
}

EventStatus CompletionEvent::await_end() {
  auto s = status_.load(std::memory_order_acquire);
  if (s != EventStatus::complete && s != EventStatus::error) {
    std::unique_lock lock(mutex_);
    waiters_.fetch_add(1, std::memory_order_relaxed);
    cv_.wait(lock, [&] {
      s = status_.load(std::memory_order_acquire);
      return s == EventStatus::complete || s == EventStatus::error;
    });
    waiters_.fetch_sub(1, std::memory_order_relaxed);
  }
  return s;
}

void CompletionEvent::wait() {
  if (await_end() == EventStatus::error) {
    std::exception_ptr e;
    {
      std::lock_guard lock(mutex_);
      e = error_;
    }
    if (e) std::rethrow_exception(e);
    throw Error("a command failed");
  }
}

EventProfile CompletionEvent::profile() {
  await_end();
  std::lock_guard lock(mutex_);
  return times_;
}

void CompletionEvent::on_complete(std::function<void()> callback) {
  {
    std::lock_guard lock(mutex_);
    const auto s = status_.load(std::memory_order_acquire);
    if (s != EventStatus::complete && s != EventStatus::error) {
      callbacks_.push_back(std::move(callback));
      return;
    }
  }
  callback();
}

std::vector<EventPtr> to_event_ptrs(std::span<const Event> events) {
  std::vector<EventPtr> out;
  out.reserve(events.size());
  for (const auto& e : events) {
    if (e.impl()) out.push_back(e.impl());
  }
  return out;
}

}  // namespace detail
}  // namespace weft
