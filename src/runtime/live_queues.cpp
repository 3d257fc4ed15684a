#include "runtime/live_queues.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "core/lifetime.hpp"
#include "core/log.hpp"
#include "runtime/backend.hpp"
#include "weft/queue.hpp"

namespace weft::detail {
namespace {

struct LiveQueues {
  std::mutex mutex;
  std::vector<std::weak_ptr<QueueImpl>> queues;  // guarded by mutex
};

// Never destroyed (core/lifetime.hpp): queues may be made and finished during exit.
LiveQueues& live() {
  static Immortal<LiveQueues> instance;
  return instance.get();
}


// The exit handler (finish_queues_at_exit): the process that registered it, and whether an exit
// drained the queues already.
std::atomic<pid_t> exit_handler_pid{0};
std::atomic<bool> drained_at_exit{false};

void drain_at_exit() {
  if (getpid() != exit_handler_pid.load(std::memory_order_relaxed)) return;  // a forked child
  if (drained_at_exit.exchange(true)) return;
  (void)finish_every_queue(std::chrono::seconds(10));
}

}  // namespace

void finish_queues_at_exit() noexcept {
  exit_handler_pid.store(getpid(), std::memory_order_relaxed);
  (void)std::atexit(&drain_at_exit);  // (a full table leaves the handlers registered before)
}

void register_queue(const std::shared_ptr<QueueImpl>& queue) {
  LiveQueues& l = live();
  std::lock_guard lock(l.mutex);
  // Dropping the expired ones when the list would grow keeps it as long as the live queues
  // (amortized: each entry is looked at once per doubling).
  if (l.queues.size() == l.queues.capacity()) {
    std::erase_if(l.queues, [](const std::weak_ptr<QueueImpl>& q) { return q.expired(); });
  }
  l.queues.push_back(queue);
}

bool finish_every_queue(std::chrono::milliseconds limit) noexcept {
  std::vector<std::shared_ptr<QueueImpl>> alive;
  try {
    LiveQueues& l = live();
    std::lock_guard lock(l.mutex);
    for (const auto& w : l.queues) {
      if (auto q = w.lock()) alive.push_back(std::move(q));
    }
  } catch (...) {
    return false;  // out of memory
  }
  // A marker with no wait list completes after everything enqueued on its queue so far (in
  // order or not); waiting for the markers with a deadline bounds the wait, which finish()
  // cannot.
  std::vector<EventPtr> marks;
  for (const auto& q : alive) {
    try {
      marks.push_back(q->marker({}));
    } catch (const std::exception& e) {
      WEFT_LOG_WARNING("finish_all_queues: a queue on " << q->device()->info().selector << " refused a marker: " << e.what());
    } catch (...) {
    }
  }
  using clock = std::chrono::steady_clock;
  const bool bounded = limit < std::chrono::duration_cast<std::chrono::milliseconds>(clock::duration::max()) / 2;
  const clock::time_point end = bounded ? clock::now() + limit : clock::time_point::max();
  for (const auto& m : marks) {
    while (!m->finished()) {
      if (clock::now() >= end) {
        WEFT_LOG_WARNING("finish_all_queues: work still running after " << limit.count() << " ms; not waiting longer");
        return false;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
  return true;
}

}  // namespace weft::detail

bool weft::finish_all_queues(std::chrono::milliseconds limit) noexcept { return detail::finish_every_queue(limit); }
