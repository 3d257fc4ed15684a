// A value that a device computes and the host collects: a reduction's result, for one.
//
//   weft::Future<float> total = sum.reduce<float>(queue, n, x);
//   float s = total.get();                       // waits, then copies 4 bytes, once
//   weft::Buffer on_device = total.device_value(); // the same value, left on the device
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "weft/buffer.hpp"
#include "weft/event.hpp"
#include "weft/queue.hpp"

namespace weft {

template <class T>
class Future {
 public:
  Future() = default;
  /// The value will be in device (one element) when ready completes; queue reads it back.
  Future(Queue queue, Buffer device, Event ready)
      : state_(std::make_shared<State>(std::move(queue), std::move(device), std::move(ready))) {}

  /// Waits and returns the value (read from the device on the first call only); throws the
  /// computation's failure, if any.
  T get() const {
    State& s = *state_;
    std::lock_guard lock(s.mutex);
    if (!s.value) {
      const bool pending = s.collected && !s.ready.done();
      T v{};
      s.queue.read(s.device, &v, sizeof(T), 0, Blocking::yes, std::span<const Event>(&s.ready, 1));
      s.value = v;
      if (s.collected) {
        auto f = std::move(s.collected);
        f(pending, std::chrono::steady_clock::now());
      }
    }
    return *s.value;
  }
  /// Calls f once, when the first get() has the value, with whether the value was still
  /// pending when get() began and the time get() had it. Device auto's online learning times
  /// a reduction by it where the device's events carry no host times (docs/PLACEMENT.md).
  void on_collected(std::function<void(bool pending, std::chrono::steady_clock::time_point)> f) const {
    std::lock_guard lock(state_->mutex);
    state_->collected = std::move(f);
  }
  bool done() const { return state_->ready.done(); }
  /// Completes when the value is ready on the device.
  const Event& event() const noexcept { return state_->ready; }
  /// The one-element buffer holding the value on the device.
  const Buffer& device_value() const noexcept { return state_->device; }

 private:
  struct State {
    State(Queue q, Buffer d, Event r) : queue(std::move(q)), device(std::move(d)), ready(std::move(r)) {}
    Queue queue;
    Buffer device;
    Event ready;
    std::mutex mutex;
    std::optional<T> value;
    std::function<void(bool, std::chrono::steady_clock::time_point)> collected;
  };
  std::shared_ptr<State> state_;
};

}  // namespace weft
