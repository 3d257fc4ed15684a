// Ordering between a device's array queue and its other queues, as CUDA's legacy default
// stream orders itself with the other streams of a context: a command on the array queue
// runs after every command enqueued before it on the device's other queues, and a command on
// another queue runs after every command enqueued before it on the array queue.
//
// The array layer runs its work (evaluations, copies between devices, reductions) on one
// in-order queue per device, while users launch raw kernels, generators and copies on queues
// of their own, often on the same memory. Without this order a raw kernel that writes an
// array and a copy of that array back to the host race (the copy may read the old values),
// whatever the language the calls come from. Enforcing it here, where every command is
// enqueued, makes it hold for every caller.
//
// Cost: a command on another queue loads one counter (has the array queue had work since
// this queue last waited for it?) and, only when it has, waits for the array queue's last
// command if that is not done yet; then it flags its queue as having work and bumps a counter. A command on
// the array queue loads that counter and, only when another queue has had work since,
// enqueues a marker on each flagged queue (after everything enqueued there so far) and waits
// for those. No process-wide lock: a lock per device, taken only when something new must be
// waited for.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace weft::detail {

class EventImpl;
class QueueImpl;
using EventPtr = std::shared_ptr<EventImpl>;

class DeviceOrder;

/// A command's wait list: four events inline, more on the heap.
class WaitList {
 public:
  void push_back(EventPtr e) {
    if (!big_.empty() || n_ == small_.size()) {
      if (big_.empty()) big_.assign(small_.begin(), small_.end());
      big_.push_back(std::move(e));
    } else {
      small_[n_++] = std::move(e);
    }
  }
  std::span<const EventPtr> span() const noexcept {
    return big_.empty() ? std::span<const EventPtr>(small_.data(), n_) : std::span<const EventPtr>(big_);
  }

 private:
  std::array<EventPtr, 4> small_;
  std::size_t n_ = 0;
  std::vector<EventPtr> big_;
};

/// What a queue keeps for the ordering (held by QueueImpl).
struct QueueOrderState {
  DeviceOrder* device = nullptr;  // its device's order (set when the queue is made)
  bool array_queue = false;  // the device's array queue (set before its first command)
  // Another queue: the array queue's work count it last waited for.
  std::atomic<std::uint64_t> seen_array_work{0};
  // The array queue: the other queues' work count it last gathered.
  std::atomic<std::uint64_t> seen_other_work{0};
  // Another queue: it has had commands since the array queue last waited for it.
  std::atomic<bool> has_work{false};
};

/// What a device keeps for the ordering (held by DeviceImpl).
class DeviceOrder {
 public:
  /// Registers a queue of the device (at its creation).
  void add_queue(const std::shared_ptr<QueueImpl>& queue);
  /// Makes queue the device's array queue (at most one per device).
  void set_array_queue(const std::shared_ptr<QueueImpl>& queue);

  /// What a command about to be enqueued on queue must also wait for, appended to wait.
  void before_command(QueueImpl& queue, WaitList& wait);
  /// Records the command just enqueued on queue, whose event is done.
  void after_command(const std::shared_ptr<QueueImpl>& queue, const EventPtr& done);
  /// queue's last handle is going while it may still have work in flight: a marker after its
  /// work, taken now, is what the array queue will wait for instead of the queue.
  void retire(QueueImpl& queue);

  /// The commands enqueued on the array queue so far (one relaxed load): what an allocation
  /// made on the device records (Residence::made_at) to tell later whether recent work wrote it.
  std::uint64_t array_work() const noexcept { return array_work_.load(std::memory_order_relaxed); }
  /// Whether the array queue's last command is known not to have finished yet (a look at its
  /// event, no wait; false where learning it would cost a driver call).
  bool array_pending();

 private:
  std::mutex mutex_;  // guards the array queue, the flagged queues and the retired markers
  std::weak_ptr<QueueImpl> array_queue_;
  // Other queues with work the array queue has not waited for yet. Held weakly (a queue holds
  // its device, which holds this: a strong hold would be a cycle); a queue dropped with work
  // in flight leaves a marker after that work in retired_ (retire()).
  std::vector<std::weak_ptr<QueueImpl>> flagged_;
  std::vector<EventPtr> retired_;
  std::mutex last_mutex_;  // guards array_last_
  EventPtr array_last_;    // the array queue's last command
  std::atomic<bool> has_array_queue_{false};
  std::atomic<std::uint64_t> array_work_{0};
  std::atomic<std::uint64_t> other_work_{0};
};

}  // namespace weft::detail
