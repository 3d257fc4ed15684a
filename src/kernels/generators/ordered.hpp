// A generator's own commands in order on any queue. On an in-order queue they already are,
// and nothing is added. On an out-of-order queue each waits for the one before it, and the
// first for everything enqueued before the call: the passes read what the pass before wrote,
// and scratch buffers (partials, tile status, counters) are shared between calls.
#pragma once

#include <span>

#include "weft/queue.hpp"

namespace weft::detail {

class Ordered {
 public:
  explicit Ordered(Queue& queue) : out_of_order_(queue.out_of_order()) {
    if (out_of_order_) last_ = queue.marker();
  }
  /// The wait list of the next command.
  std::span<const Event> wait() const {
    return out_of_order_ ? std::span<const Event>(&last_, 1) : std::span<const Event>();
  }
  /// Records a command just enqueued; returns its event.
  Event operator()(Event e) {
    if (out_of_order_) last_ = e;
    return e;
  }

 private:
  bool out_of_order_;
  Event last_;
};

}  // namespace weft::detail
