// Devices, buffers, queues and events, on every device this machine has.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "embedded/weft_test_kernels.hpp"
#include "support.hpp"

namespace weft {
namespace {

using test::download;
using test::upload;

TEST(Registry, ListsTheHostAndSelects) {
  const auto& bs = backends();
  ASSERT_FALSE(bs.empty());
  EXPECT_EQ(bs[0].name, "host");
  EXPECT_TRUE(bs[0].loaded);
  ASSERT_EQ(bs[0].devices.size(), 1u);
  const Device h = device("host");
  EXPECT_EQ(h.selector(), "host");
  EXPECT_EQ(h.type(), DeviceType::cpu);
  EXPECT_GE(h.info().compute_units, 1u);
  EXPECT_GT(h.info().global_mem_bytes, 0u);
  EXPECT_EQ(device("host:0"), h);
  EXPECT_TRUE(static_cast<bool>(device("auto")));
}

TEST(Registry, UnknownDeviceListsWhatExists) {
  try {
    device("cuda:7");
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("cuda:7"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("host"), std::string::npos) << e.what();
  }
  EXPECT_THROW(device("gpu please"), ConfigError);
}

class Runtime : public ::testing::TestWithParam<Device> {};

TEST_P(Runtime, BufferCopiesRoundTrip) {
  Device dev = GetParam();
  Queue q(dev);
  const auto v = test::random_vector<int>(1000, 1, -1000, 1000);
  Buffer a = upload(q, v);
  Buffer b(dev, a.size());
  q.copy(a, b, a.size());
  EXPECT_EQ(download<int>(q, b, v.size()), v);
  // Partial write and read with offsets.
  const int seven = 7;
  q.write(b, &seven, sizeof seven, 10 * sizeof(int));
  int back = 0;
  q.read(b, &back, sizeof back, 10 * sizeof(int));
  EXPECT_EQ(back, 7);
  // Fill with a 4-byte pattern over a sub-range.
  const float pattern = 2.5f;
  q.fill(b, &pattern, sizeof pattern, 8, 16);
  auto f = download<float>(q, b, 8);
  EXPECT_EQ(f[2], 2.5f);
  EXPECT_EQ(f[5], 2.5f);
  EXPECT_EQ(download<int>(q, b, 2)[1], v[1]);
}

TEST_P(Runtime, BadRangesAreRefusedBeforeAnythingRuns) {
  Device dev = GetParam();
  Queue q(dev);
  Buffer b(dev, 64);
  std::vector<char> host(128);
  EXPECT_THROW(q.write(b, host.data(), 65), InvalidArgument);
  EXPECT_THROW(q.read(b, host.data(), 8, 60), InvalidArgument);
  EXPECT_THROW(q.copy(b, b, 32, 0, 16), InvalidArgument);  // overlapping
  const int pat = 1;
  EXPECT_THROW(q.fill(b, &pat, 3, 0, 12), InvalidArgument);
  EXPECT_THROW(q.fill(b, &pat, 4, 2, 8), InvalidArgument);
  // The queue still works afterwards.
  q.write(b, host.data(), 64);
  q.finish();
}

TEST_P(Runtime, HugeAllocationRaisesOutOfMemory) {
  Device dev = GetParam();
  const std::size_t huge = static_cast<std::size_t>(dev.info().global_mem_bytes) * 4 + (1ull << 40);
  try {
    Buffer b(dev, huge);
    FAIL() << "expected OutOfMemory";
  } catch (const OutOfMemory& e) {
    EXPECT_EQ(e.requested(), huge);
    EXPECT_NE(std::string(e.what()).find(std::to_string(huge)), std::string::npos) << e.what();
  }
  Buffer ok(dev, 1024);  // and the device keeps working
  EXPECT_EQ(ok.size(), 1024u);
}

TEST_P(Runtime, EventsCarryStatusProfilingAndCallbacks) {
  Device dev = GetParam();
  Queue q(dev);
  Kernel k = Program::build(dev, test_kernels::seed_vadd_cl).kernel("vadd");
  const std::size_t n = 1 << 20;
  Buffer a(dev, n * 4), b(dev, n * 4), c(dev, n * 4);
  q.fill(a, &n, 4, 0, n * 4);
  q.fill(b, &n, 4, 0, n * 4);
  k.set_args(a, b, c);
  std::atomic<int> called{0};
  Event e = q.launch(k, n);
  e.then([&](const Event& done) {
    EXPECT_EQ(done.status(), EventStatus::complete);
    called.fetch_add(1);
  });
  Event m = q.marker();
  wait_for_all({e, m});
  EXPECT_EQ(e.status(), EventStatus::complete);
  const auto p = e.profile();
  EXPECT_GT(p.queued, 0u);
  EXPECT_LE(p.queued, p.submitted);
  EXPECT_LE(p.submitted, p.start);
  EXPECT_LE(p.start, p.end);
  EXPECT_GT(p.end, p.start);
  EXPECT_LE(e.profile().end, m.profile().end);  // in order
  for (int i = 0; i < 1000 && called.load() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(called.load(), 1);
  // A callback on a finished event runs at once.
  bool now = false;
  e.then([&](const Event&) { now = true; });
  EXPECT_TRUE(now);
}

TEST_P(Runtime, EnqueueReturnsBeforeTheWorkIsDone) {
  Device dev = GetParam();
  Queue q(dev);
  Kernel k = Program::build(dev, test_kernels::seed_vadd_cl).kernel("vadd");
  const std::size_t n = 1 << 22;
  Buffer a(dev, n * 4), b(dev, n * 4), c(dev, n * 4);
  k.set_args(a, b, c);
  // A queue of launches: the host gets control back while they are still running.
  std::vector<Event> events;
  for (int i = 0; i < 20; ++i) events.push_back(q.launch(k, n));
  EXPECT_FALSE(events.back().done());
  q.finish();
  EXPECT_TRUE(events.back().done());
}

TEST_P(Runtime, WaitListsOrderWorkAcrossQueues) {
  Device dev = GetParam();
  Queue q1(dev), q2(dev);
  const auto v = test::random_vector<float>(4096, 2, -1.0f, 1.0f);
  Buffer a(dev, v.size() * 4), b(dev, v.size() * 4);
  Event w = q1.write(a, v.data(), a.size(), 0, Blocking::no);
  Event c = q2.copy(a, b, a.size(), 0, 0, std::span<const Event>(&w, 1));
  std::vector<float> out(v.size());
  q2.read(b, out.data(), b.size(), 0, Blocking::yes, std::span<const Event>(&c, 1));
  EXPECT_EQ(out, v);
}

TEST_P(Runtime, PinnedMemoryTransfersAsynchronously) {
  Device dev = GetParam();
  Queue q(dev);
  const std::size_t n = 1 << 20;
  PinnedMemory src(dev, n * 4), dst(dev, n * 4);
  ASSERT_NE(src.data(), nullptr);
  EXPECT_EQ(src.size(), n * 4);
  for (std::size_t i = 0; i < n; ++i) src.as<float>()[i] = static_cast<float>(i) * 0.5f;
  Buffer b(dev, n * 4);
  Event up = q.write(b, src.data(), n * 4, 0, Blocking::no);
  Event down = q.read(b, dst.data(), n * 4, 0, Blocking::no, std::span<const Event>(&up, 1));
  down.wait();
  EXPECT_EQ(std::memcmp(src.data(), dst.data(), n * 4), 0);
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Runtime, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
