#pragma once
// One command on a queue, in order with the device's array queue: shared by Queue's own
// commands and the libraries that enqueue on a queue (the FFT engines).

#include <memory>
#include <span>
#include <utility>

#include "runtime/backend.hpp"
#include "weft/event.hpp"

namespace weft::detail {

// Every command goes through here: its wait list, plus what the ordering with the device's
// array queue adds (queue_order.hpp), then the backend's enqueue, then the record of it.
template <class Enqueue>
Event ordered(const std::shared_ptr<QueueImpl>& queue, std::span<const Event> wait, Enqueue&& enqueue) {
  QueueImpl& q = *queue;
  WaitList w;
  for (const Event& e : wait) {
    if (e.impl()) w.push_back(e.impl());
  }
  DeviceOrder* order = q.order_state.device;
  if (order) order->before_command(q, w);
  EventPtr done = enqueue(w.span());
  if (order) order->after_command(queue, done);
  return Event(std::move(done));
}

}  // namespace weft::detail
