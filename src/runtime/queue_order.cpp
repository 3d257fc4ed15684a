#include "runtime/queue_order.hpp"

#include <algorithm>

#include "runtime/backend.hpp"

namespace weft::detail {

void DeviceOrder::add_queue(const std::shared_ptr<QueueImpl>& queue) { queue->order_state.device = this; }

void DeviceOrder::set_array_queue(const std::shared_ptr<QueueImpl>& queue) {
  std::lock_guard lock(mutex_);
  std::erase_if(flagged_, [&](const std::weak_ptr<QueueImpl>& w) { return w.expired() || w.lock() == queue; });
  queue->order_state.array_queue = true;
  array_queue_ = queue;
  // Its first command gathers whatever the other queues have pending.
  queue->order_state.seen_other_work.store(~std::uint64_t{0}, std::memory_order_relaxed);
  has_array_queue_.store(true, std::memory_order_release);
}

void DeviceOrder::before_command(QueueImpl& queue, WaitList& wait) {
  QueueOrderState& q = queue.order_state;
  if (q.array_queue) {
    const std::uint64_t other = other_work_.load(std::memory_order_acquire);
    if (other == q.seen_other_work.load(std::memory_order_relaxed)) return;
    q.seen_other_work.store(other, std::memory_order_relaxed);
    std::vector<std::weak_ptr<QueueImpl>> flagged;
    std::vector<EventPtr> retired;
    {
      std::lock_guard lock(mutex_);
      flagged.swap(flagged_);
      retired.swap(retired_);
    }
    for (auto& e : retired) {
      if (!e->finished()) wait.push_back(std::move(e));
    }
    for (const auto& w : flagged) {
      auto o = w.lock();
      if (!o) continue;  // gone: it left its marker in retired_
      o->order_state.has_work.store(false, std::memory_order_release);
      // A marker with no wait list completes after every command enqueued on its queue so
      // far (in or out of order): the point to wait for.
      EventPtr m = o->marker({});
      if (!m->finished()) wait.push_back(std::move(m));
    }
    return;
  }
  if (!has_array_queue_.load(std::memory_order_acquire)) return;
  const std::uint64_t work = array_work_.load(std::memory_order_acquire);
  if (work == q.seen_array_work.load(std::memory_order_relaxed)) return;
  q.seen_array_work.store(work, std::memory_order_relaxed);
  // The array queue is in order: its last command ends after the ones before it. Waiting for
  // that event (only while it is not done) adds no command to the array queue and no
  // dependency between queues that a driver might serialize on.
  EventPtr last;
  {
    std::lock_guard lock(last_mutex_);
    last = array_last_;
  }
  if (last && !last->finished()) wait.push_back(std::move(last));
}

void DeviceOrder::after_command(const std::shared_ptr<QueueImpl>& queue, const EventPtr& done) {
  QueueOrderState& q = queue->order_state;
  if (q.array_queue) {
    if (done) {
      std::lock_guard lock(last_mutex_);
      array_last_ = done;
    }
    array_work_.fetch_add(1, std::memory_order_release);
    return;
  }
  // Nothing left for the array queue to wait for. (Only a look: a CUDA launch's event is not
  // recorded unless it is wanted.)
  if (!done || done->finished_if_known()) return;
  if (!q.has_work.exchange(true, std::memory_order_acq_rel)) {
    std::lock_guard lock(mutex_);
    flagged_.push_back(queue);
  }
  other_work_.fetch_add(1, std::memory_order_release);
}

void DeviceOrder::retire(QueueImpl& queue) {
  QueueOrderState& q = queue.order_state;
  if (q.array_queue || !q.has_work.exchange(false, std::memory_order_acq_rel)) return;
  EventPtr m = queue.marker({});
  if (m->finished()) return;
  std::lock_guard lock(mutex_);
  std::erase_if(retired_, [](const EventPtr& e) { return e->finished(); });  // keeps the list short where no array queue ever gathers it
  retired_.push_back(std::move(m));
}

bool DeviceOrder::array_pending() {
  if (array_work_.load(std::memory_order_relaxed) == 0) return false;
  EventPtr last;
  {
    std::lock_guard lock(last_mutex_);
    last = array_last_;
  }
  return last && last->pending_if_known();
}

}  // namespace weft::detail
