// Ordering between the array layer's queue and the user's queues (runtime/queue_order.hpp):
// a raw kernel on a queue of the user's, not waited for, and array work on the same memory
// (evaluations, copies back to the host, copies between devices) happen in the order they
// were asked for, on every device and between every pair of devices.
#include <gtest/gtest.h>

#include <numeric>

#include "embedded/weft_test_kernels.hpp"
#include "support.hpp"

namespace weft {
namespace {

class Ordering : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();
  Kernel slow_add = Program::build(dev, test_kernels::ordering_cl).kernel("slow_add");
  Kernel copy_int = Program::build(dev, test_kernels::ordering_cl).kernel("copy_int");
};

constexpr int spin = 20000;

TEST_P(Ordering, ArrayWorkWaitsForARawKernelOnAnotherQueue) {
  Queue q(dev);
  for (int round = 0; round < 20; ++round) {
    std::vector<std::int32_t> x(4096);
    std::iota(x.begin(), x.end(), round);
    Array a = Array::from_host<std::int32_t>(x, Shape{4096}, dev);
    KernelArgs args(slow_add);
    args.set_all(a.buffer(), 7, spin);
    q.launch(args, 4096);  // not waited for
    a.mark_written();
    // The array layer's read must come after the kernel's write.
    const auto got = a.to_host<std::int32_t>();
    for (std::size_t i = 0; i < x.size(); i += 511) ASSERT_EQ(got[i], x[i] + 7) << "round " << round << " at " << i;
    // And an evaluation reading it too.
    const auto doubled = eval(a * 2).to_host<std::int32_t>();
    ASSERT_EQ(doubled[100], 2 * (x[100] + 7));
  }
}

TEST_P(Ordering, AQueueDroppedRightAfterItsLaunchIsStillWaitedFor) {
  std::vector<std::int32_t> x(4096, 3);
  Array a = Array::from_host<std::int32_t>(x, Shape{4096}, dev);
  for (int round = 0; round < 10; ++round) {
    {
      Queue q(dev);
      KernelArgs args(slow_add);
      args.set_all(a.buffer(), 1, spin);
      q.launch(args, 4096);
      a.mark_written();
    }  // the queue is gone; its launch is still in flight
    ASSERT_EQ(a.to_host<std::int32_t>()[4000], 4 + round) << "round " << round;
  }
}

TEST_P(Ordering, ARawKernelWaitsForArrayWork) {
  Queue q(dev);
  for (int round = 0; round < 20; ++round) {
    const Array a = Array::arange(0, 4096, 1, DType::int32, dev);
    Array b = Array::zeros({4096}, DType::int32, dev);
    b.assign(a * 3 + round);  // queued on the array queue, not waited for
    Buffer out(dev, 4096 * sizeof(std::int32_t));
    KernelArgs args(copy_int);
    args.set_all(b.buffer(), out);
    q.launch(args, 4096);
    std::vector<std::int32_t> got(4096);
    q.read(out, got.data(), got.size() * sizeof(std::int32_t));
    for (std::size_t i = 0; i < got.size(); i += 511) ASSERT_EQ(got[i], 3 * static_cast<int>(i) + round) << i;
  }
}

// A queue made with ordered_with_arrays = false (weft.stream_map's copy queues) is ordered
// with array work only by the events it is given, both ways.
TEST_P(Ordering, AnIndependentQueueFollowsItsEvents) {
  Queue q(dev, QueueOptions{.ordered_with_arrays = false});
  for (int round = 0; round < 10; ++round) {
    std::vector<std::int32_t> x(4096, round);
    Array a = Array::from_host<std::int32_t>(x, Shape{4096}, dev);
    KernelArgs args(slow_add);
    args.set_all(a.buffer(), 7, spin);
    const Event uploaded[] = {array_queue(dev).marker()};
    const Event added[] = {q.launch(args, 4096, {}, {}, uploaded)};
    a.mark_written();
    array_queue(dev).barrier(added);
    const auto got = eval(a * 2).to_host<std::int32_t>();
    ASSERT_EQ(got[4000], 2 * (round + 7)) << "round " << round;
  }
}

// The case a new user met from Python: an array on the host seen from another device, a raw
// kernel there (not waited for) writing it, then the host copy read back.
TEST_P(Ordering, ACopyBetweenDevicesWaitsForARawKernelThere) {
  const Device host = device("host");
  if (dev == host) GTEST_SKIP() << "needs a second device";
  Queue q(dev);
  for (int round = 0; round < 20; ++round) {
    std::vector<std::int32_t> x(4096);
    std::iota(x.begin(), x.end(), 10 * round);
    const Array h = Array::from_host<std::int32_t>(x, Shape{4096}, host);
    const Array g = h.to(dev);
    (void)eval(g * 1).to_host<std::int32_t>();  // g's copy on dev is now valid
    KernelArgs args(slow_add);
    args.set_all(g.buffer(), 1, spin);
    q.launch(args, 4096);  // not waited for
    g.mark_written();
    const auto got = h.to_host<std::int32_t>();
    for (std::size_t i = 0; i < x.size(); i += 511) ASSERT_EQ(got[i], x[i] + 1) << "round " << round << " at " << i;
  }
}

TEST_P(Ordering, AZeroSizeLaunchIsANoOpWithACompleteEvent) {
  Queue q(dev);
  Buffer b(dev, 64);
  KernelArgs args(copy_int);
  args.set_all(b, b);
  Event e = q.launch(args, 0);
  e.wait();
  EXPECT_EQ(e.status(), EventStatus::complete);
  EXPECT_EQ(q.launch(args, NDRange(0, 5)).status() == EventStatus::error, false);
  q.finish();
}

TEST_P(Ordering, AGlobalSizeWhoseProductOverflowsIsRefused) {
  Queue q(dev);
  Buffer b(dev, 64);
  KernelArgs args(copy_int);
  args.set_all(b, b);
  const std::size_t big = std::size_t{1} << 40;
  try {
    q.launch(args, NDRange(big, big));
    FAIL() << "an overflowing global size was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("overflows"), std::string::npos) << e.what();
  }
}

TEST_P(Ordering, AKernelBuiltForOneDeviceIsRefusedOnAnother) {
  for (const Device& other : devices()) {
    if (other == dev) continue;
    Queue q(other);
    Buffer b(other, 64);
    Kernel k = copy_int;  // built for dev
    try {
      KernelArgs args(k);
      args.set_all(b, b);
      q.launch(args, 16);
      FAIL() << "a kernel built for " << dev.selector() << " ran on " << other.selector();
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("built for"), std::string::npos) << e.what();
    }
  }
}

TEST_P(Ordering, LocalMemoryBeyondTheDeviceIsRefusedBeforeTheLaunch) {
  if (dev.info().local_mem_bytes == 0) GTEST_SKIP() << "no local memory on " << dev.selector();
  Kernel k = Program::build(dev, test_kernels::busy_cl).kernel("group_sum");
  Buffer x(dev, 1024 * 4), out(dev, 4 * 4);
  Queue q(dev);
  KernelArgs args(k);
  args.set_all(x, out, LocalMemory{static_cast<std::size_t>(dev.info().local_mem_bytes) + 1024});
  try {
    q.launch(args, 1024, 256);
    FAIL() << "too much local memory was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("__local"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Ordering, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
