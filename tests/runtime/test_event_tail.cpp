// Events of commands that nobody keeps, and of those kept past later commands, on every
// device. On CUDA a queue without profiling records a command's end event only when it is
// wanted (backends/cuda/cuda_queue.hpp, CudaStreamTail): by the queue's next command if the
// event is still held then, or when asked for. Either way it must stand right after its own
// command: a kept event never waits for a later command (one held back by a user event
// would never end), and one whose queue is gone still waits and completes. Waits are
// bounded, nothing is timed.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "support.hpp"

namespace weft {
namespace {

constexpr const char* step_source = R"(
__kernel void tail_step(__global int *x, int k) {
  const size_t i = get_global_id(0);
  x[i] = x[i] * 3 + k;
}
)";

using test::eventually;

class EventTail : public ::testing::TestWithParam<Device> {
 protected:
  static constexpr std::size_t n = 64;
  Device dev = GetParam();
  Kernel step = Program::build(dev, step_source).kernel("tail_step");
  // n ints of value v, filled on q (its event dropped).
  Buffer filled(Queue& q, std::int32_t v) {
    Buffer x(dev, n * 4);
    q.fill(x, &v, 4, 0, n * 4);
    return x;
  }
};

// What n steps with k = 1, 2, 3, ... make of x0.
std::int32_t stepped(std::int32_t x0, int from, int to) {
  auto x = static_cast<std::uint32_t>(x0);
  for (int k = from; k < to; ++k) x = x * 3u + static_cast<std::uint32_t>(k);
  return static_cast<std::int32_t>(x);
}

TEST_P(EventTail, AKeptEventEndsWithItsOwnCommandNotWithALaterOneHeldBack) {
  Queue q(dev);
  Buffer x(dev, 64 * 4), y(dev, 64 * 4);
  const std::int32_t one = 1;
  const Event first = q.fill(x, &one, 4, 0, 64 * 4);
  UserEvent gate;
  const Event gates[] = {gate};
  // A command behind the gate: if `first` stood after it, waiting for `first` would never end.
  const Event held = q.fill(y, &one, 4, 0, 64 * 4, gates);
  first.wait();
  EXPECT_TRUE(first.done());
  EXPECT_FALSE(held.done());
  gate.complete();
  held.wait();
  EXPECT_TRUE(held.done());
}

TEST_P(EventTail, LaunchesWhoseEventsNobodyKeepsRunInOrderAndAKeptOneEndsInItsPlace) {
  Queue q(dev);
  Buffer x = filled(q, 0);
  Event middle;
  for (int k = 1; k <= 200; ++k) {
    step.set_args(x, k);
    const Event e = q.launch(step, n);
    if (k == 100) middle = e;
  }
  // The middle launch's event, asked for only now, is done once the 100th step is.
  middle.wait();
  EXPECT_TRUE(middle.done());
  std::vector<std::int32_t> out(n);
  q.read(x, out.data(), n * 4);
  for (const std::int32_t v : out) ASSERT_EQ(v, stepped(0, 1, 201));
}

TEST_P(EventTail, AnEventWaitsAndCompletesAfterItsQueueIsGone) {
  Buffer x;
  Event last;
  {
    Queue q(dev);
    x = filled(q, 2);
    step.set_args(x, 5);
    last = q.launch(step, n);
  }
  last.wait();
  EXPECT_TRUE(last.done());
  Queue r(dev);
  std::vector<std::int32_t> out(n);
  r.read(x, out.data(), n * 4);
  EXPECT_EQ(out[0], stepped(2, 5, 6));
}

TEST_P(EventTail, AnotherQueueWaitsForALaunchWhoseEventItWasGiven) {
  Queue a(dev), b(dev);
  Buffer x = filled(a, 3);
  step.set_args(x, 7);
  const Event stepped_once = a.launch(step, n);
  const Event after[] = {stepped_once};
  std::vector<std::int32_t> out(n);
  b.read(x, out.data(), n * 4, 0, Blocking::yes, after);
  EXPECT_EQ(out[n - 1], stepped(3, 7, 8));
}

TEST_P(EventTail, ACallbackOnALaunchsEventRunsOnceItIsDone) {
  Queue q(dev);
  Buffer x = filled(q, 0);
  step.set_args(x, 1);
  std::atomic<bool> ran{false};
  q.launch(step, n).then([&](const Event& e) { ran = e.done(); });
  step.set_args(x, 2);
  q.launch(step, n);  // the next command, the callback's event still held by its hook
  EXPECT_TRUE(eventually([&] { return ran.load(); }));
  q.finish();
}

INSTANTIATE_TEST_SUITE_P(AllDevices, EventTail, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
