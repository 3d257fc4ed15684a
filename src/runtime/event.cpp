#include <chrono>

#include "core/log.hpp"
#include "runtime/completion_event.hpp"
#include "runtime/completion_thread.hpp"
#include "runtime/program_waits.hpp"
#include "runtime/spin_wait.hpp"
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

namespace detail {
std::atomic<std::uint64_t>& program_waits() noexcept {
  static std::atomic<std::uint64_t> count{0};
  return count;
}
}  // namespace detail

EventStatus Event::status() const {
  const EventStatus s = impl_ ? impl_->status() : EventStatus::complete;
  if (s == EventStatus::complete || s == EventStatus::error) detail::note_program_wait();
  return s;
}

void Event::wait() const {
  if (!impl_) return;
  const detail::CountedWait counted;  // (also when the command failed)
  impl_->wait();
}

EventProfile Event::profile() const { return impl_ ? impl_->profile() : EventProfile{}; }

namespace detail {
namespace {
// The callback always runs on the completion thread (completion_thread.hpp), after those added
// before it, also when the event is done already; the event is held until then, as OpenCL's
// clSetEventCallback does: `q.launch(k, n).then(f)` runs f though the handle is gone.
void add_then(const std::shared_ptr<EventImpl>& impl, std::function<void(const Event&)> callback, bool counted) {
  if (!impl) {
    CompletionThread::get().post([cb = std::move(callback), counted] {
      if (counted) note_program_wait();
      cb(Event());
    });
    return;
  }
  EventImpl::add_callback(impl, [self = impl, cb = std::move(callback), counted] {
    if (counted) note_program_wait();
    cb(Event(self));
  });
}
}  // namespace

bool done_within(const Event& e) {
  const EventStatus s = e.impl() ? e.impl()->status() : EventStatus::complete;
  return s == EventStatus::complete || s == EventStatus::error;
}

void wait_within(std::span<const Event> events) {
  std::exception_ptr first;
  for (const Event& e : events) {
    try {
      if (e.impl()) e.impl()->wait();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

void then_within(const Event& e, std::function<void(const Event&)> callback) {
  add_then(e.impl(), std::move(callback), false);
}
}  // namespace detail

const Event& Event::then(std::function<void(const Event&)> callback) const {
  if (!callback) throw InvalidArgument("Event::then: an empty callback was given");
  detail::add_then(impl_, std::move(callback), true);
  return *this;
}

UserEvent::UserEvent() : Event(std::make_shared<detail::CompletionEvent>()) {}

void UserEvent::complete() const { static_cast<detail::CompletionEvent&>(*impl()).complete(); }

void UserEvent::fail(const std::string& message) const {
  static_cast<detail::CompletionEvent&>(*impl()).fail(std::make_exception_ptr(Error("user event failed: " + message)));
}

void wait_for_all(std::span<const Event> events) {
  const detail::CountedWait counted;  // (also when a command failed)
  detail::wait_within(events);
}

namespace detail {

namespace {
// How long a waiter polls a host event before it sleeps (CompletionEvent::await_end).
constexpr std::chrono::microseconds kWaitSpin{20};
// ... yielding after this much (the queue's worker may need every core for a parallel region).
constexpr std::chrono::microseconds kWaitPolite{5};
}  // namespace

std::uint64_t now_ns() noexcept {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

void throw_not_profiled() {
  throw Error(
      "Event::profile: the event's queue was made without profiling (queues do not profile unless asked); "
      "make it with QueueOptions{.profiling = true} (Python: weft.Queue(device, profiling=True), or "
      "CommandQueue(ctx, properties=weft.command_queue_properties.PROFILING_ENABLE))");
}

CompletionEvent::CompletionEvent(bool profiling) noexcept : profiling_(profiling) {
  if (profiling_) times_.queued = now_ns();
}

// The times are written by the one thread that runs the command, before the status that
// publishes them; readers wait for completion (await_end) first. No lock is needed.
void CompletionEvent::mark_submitted() noexcept {
  if (profiling_) times_.submitted = now_ns();
  status_.store(EventStatus::submitted, std::memory_order_release);
}

void CompletionEvent::mark_running() noexcept {
  if (profiling_) {
    const std::uint64_t t = now_ns();
    if (times_.submitted == 0) times_.submitted = t;
    times_.start = t;
  }
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
    if (profiling_) {
      const std::uint64_t t = now_ns();
      if (times_.submitted == 0) times_.submitted = t;
      if (times_.start == 0) times_.start = t;
      times_.end = t;
    }
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
  const auto ended = [&] {
    s = status_.load(std::memory_order_acquire);
    return s == EventStatus::complete || s == EventStatus::error;
  };
  // A short command ends within microseconds: polled for, its end needs no wake-up (tens of
  // microseconds on a VM), then the waiter sleeps.
  if (s != EventStatus::complete && s != EventStatus::error && !(polling_pays() && spin_until(ended, kWaitSpin, kWaitPolite))) {
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
  if (!profiling_) throw_not_profiled();
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

void EventImpl::add_callback(const std::shared_ptr<EventImpl>& self, std::function<void()> job) {
  EventImpl& e = *self;
  CompletionThread& thread = CompletionThread::get();
  bool hook = false;
  {
    // Posting under the lock keeps the order: a job added after the hook fired is posted
    // after every job the hook posted.
    std::lock_guard lock(e.callbacks_mutex_);
    if (e.fired_) {
      thread.post(std::move(job));
      return;
    }
    e.callbacks_.push_back(std::move(job));
    hook = !e.hooked_;
    e.hooked_ = true;
  }
  if (!hook) return;
  // The hook runs on the thread that learns of completion (at once here when the event is
  // done already). It holds the event: the jobs it posts may release the last other
  // reference on the completion thread while it still holds the event's lock.
  try {
    e.on_complete([self, &thread] {
      std::vector<std::function<void()>> jobs;
      std::lock_guard lock(self->callbacks_mutex_);
      self->fired_ = true;
      jobs.swap(self->callbacks_);
      for (auto& j : jobs) thread.post(std::move(j));
    });
  } catch (...) {
    // The backend refused the hook (a driver error): the next then() tries again.
    std::lock_guard lock(e.callbacks_mutex_);
    e.hooked_ = false;
    e.callbacks_.clear();
    throw;
  }
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
