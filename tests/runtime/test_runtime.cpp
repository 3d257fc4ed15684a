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
  Queue q(dev, QueueOptions{.profiling = true});
  EXPECT_TRUE(q.profiling());
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
  // A callback on a finished event runs soon, on the completion thread as every callback.
  std::atomic<bool> later{false};
  e.then([&](const Event&) { later = true; });
  for (int i = 0; i < 1000 && !later.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(later.load());
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

TEST_P(Runtime, BarriersHoldBackLaterCommandsOnEveryKindOfQueue) {
  // PyOpenCL's enqueue_barrier: a command enqueued after the barrier with no wait list of its
  // own still waits for what came before (on an out-of-order queue a marker would not do this).
  Device dev = GetParam();
  for (const bool out_of_order : {false, true}) {
    Queue q(dev, QueueOptions{.out_of_order = out_of_order, .profiling = false});
    const std::vector<int> v{1, 2, 3, 4};
    Buffer a = upload(q, v), b(dev, v.size() * 4);
    UserEvent gate;
    const Event gates[] = {gate};
    Event first = q.marker(gates);
    Event fence = q.barrier();
    Event later = q.copy(a, b, a.size());
    q.flush();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_FALSE(first.done());
    EXPECT_FALSE(fence.done());
    EXPECT_FALSE(later.done()) << (out_of_order ? "out-of-order queue" : "in-order queue");
    gate.complete();
    later.wait();
    EXPECT_TRUE(fence.done());
    EXPECT_EQ(download<int>(q, b, v.size()), v);
  }
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

// x = x * 3 + k: launches that do not commute, so any reordering shows in the result.
constexpr const char* graph_step_source = R"(
__kernel void graph_step(__global int *x, int k) {
  const size_t i = get_global_id(0);
  x[i] = x[i] * 3 + k + (int)i;
}
)";

std::vector<int> graph_steps(std::vector<int> x, std::initializer_list<int> ks, int times) {
  for (int t = 0; t < times; ++t) {
    for (int k : ks) {
      for (std::size_t i = 0; i < x.size(); ++i) x[i] = x[i] * 3 + k + static_cast<int>(i);
    }
  }
  return x;
}

TEST_P(Runtime, KernelsTellHowManyWorkGroupsAComputeUnitHolds) {
  Device dev = GetParam();
  Kernel k = Program::build(dev, graph_step_source).kernel("graph_step");
  const std::size_t small = k.resident_groups_per_unit(64);
  if (dev.backend() != "cuda") {
    EXPECT_EQ(small, 0u) << "only the CUDA backend can tell";
    return;
  }
  // A multiprocessor holds several small blocks, fewer large ones, and none that asks for more
  // shared memory than it has.
  const std::size_t large = k.resident_groups_per_unit(1024);
  EXPECT_GE(small, 2u);
  EXPECT_GE(large, 1u);
  EXPECT_LT(large, small);
  EXPECT_EQ(k.resident_groups_per_unit(64, std::size_t(1) << 30), 0u);
  EXPECT_EQ(k.resident_groups_per_unit(0), 0u);
}

TEST_P(Runtime, KernelsTellThePrivateMemoryTheirBuildPlacedInDeviceMemory) {
  Device dev = GetParam();
  // A private array read at an index known only at run time cannot stay in registers.
  Program p = Program::build(dev, R"(
__kernel void private_none(__global int *x) { x[get_global_id(0)] += 1; }
__kernel void private_array(__global const int *idx, __global int *out) {
  int t[256];
  for (int k = 0; k < 256; ++k) t[k] = k * idx[0];
  out[get_global_id(0)] = t[idx[get_global_id(0)] & 255];
}
)");
  Kernel none = p.kernel("private_none"), array = p.kernel("private_array");
  Queue q(dev);
  const std::vector<int> idx{3, 7, 255, 256, 0, 1000};
  Buffer di = upload(q, idx), dout = Buffer::of<int>(dev, idx.size());
  array.set_args(di, dout);
  q.launch(array, idx.size());
  const auto out = download<int>(q, dout, idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) EXPECT_EQ(out[i], (idx[i] & 255) * idx[0]) << "element " << i;
  if (dev.backend() == "host") {
    EXPECT_FALSE(none.private_bytes_per_item().has_value()) << "the host backend cannot tell";
    EXPECT_FALSE(array.private_bytes_per_item().has_value());
    return;
  }
  ASSERT_TRUE(none.private_bytes_per_item().has_value()) << dev.selector();
  ASSERT_TRUE(array.private_bytes_per_item().has_value()) << dev.selector();
  if (dev.info().nvidia_arch != 0) {
    // NVIDIA GPUs, through CUDA or OpenCL: the array is in local memory, nothing else is.
    EXPECT_EQ(*none.private_bytes_per_item(), 0u) << dev.selector();
    EXPECT_GE(*array.private_bytes_per_item(), 256 * sizeof(int)) << dev.selector();
  }
}

TEST_P(Runtime, GraphsReplayTheirLaunchesInOrder) {
  Device dev = GetParam();
  Kernel k = Program::build(dev, graph_step_source).kernel("graph_step");
  for (const bool out_of_order : {false, true}) {
    Queue q(dev, QueueOptions{.out_of_order = out_of_order, .profiling = !out_of_order});
    const std::vector<int> start{1, -2, 3, 0, 5, 7, -1};
    Buffer x = upload(q, start), other = upload(q, start);
    Graph g(dev);
    EXPECT_TRUE(g.empty());
    for (int kv : {2, -5, 7}) g.add_with(k, start.size(), {}, x, kv);
    // The records snapshot the arguments: these change neither the buffer nor the value.
    k.set_args(other, 1000);
    EXPECT_EQ(g.size(), 3u);
    g.launch(q).wait();
    EXPECT_EQ(download<int>(q, x, start.size()), graph_steps(start, {2, -5, 7}, 1));
    Event first = g.launch(q);
    g.launch(q, std::span<const Event>(&first, 1)).wait();
    EXPECT_EQ(download<int>(q, x, start.size()), graph_steps(start, {2, -5, 7}, 3));
    EXPECT_EQ(download<int>(q, other, start.size()), start);
    // Recording after a launch: the next launch runs the longer graph.
    g.add_with(k, start.size(), {}, x, 11);
    g.launch(q).wait();
    EXPECT_EQ(download<int>(q, x, start.size()),
              graph_steps(graph_steps(start, {2, -5, 7}, 3), {2, -5, 7, 11}, 1));
    g.clear();
    EXPECT_TRUE(g.empty());
    g.launch(q).wait();  // nothing to run: completes
    EXPECT_EQ(download<int>(q, x, start.size()),
              graph_steps(graph_steps(start, {2, -5, 7}, 3), {2, -5, 7, 11}, 1));
  }
}

TEST_P(Runtime, GraphsWaitForTheirWaitListAndReportToLaunchLogs) {
  Device dev = GetParam();
  Kernel k = Program::build(dev, graph_step_source).kernel("graph_step");
  Queue q1(dev), q2(dev);
  const auto v = test::random_vector<int>(1000, 5, -100, 100);
  Buffer x(dev, v.size() * 4);
  Graph g(dev);
  g.add_with(k, v.size(), {}, x, 4);
  g.add_with(k, v.size(), {}, x, -3);
  LaunchLog log(q2);
  Event w = q1.write(x, v.data(), x.size(), 0, Blocking::no);
  Event e = g.launch(q2, std::span<const Event>(&w, 1));
  EXPECT_EQ(download<int>(q2, x, v.size()), graph_steps(v, {4, -3}, 1));
  const auto entries = log.entries();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].kernel, "graph of 2 launches");
  EXPECT_TRUE(e.done());
}

TEST_P(Runtime, GraphsRefuseBadLaunchesWhenRecorded) {
  Device dev = GetParam();
  Kernel k = Program::build(dev, graph_step_source).kernel("graph_step");
  Graph g(dev);
  try {
    g.add(k, 16);
    FAIL() << "expected InvalidArgument for unset arguments";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("never set"), std::string::npos) << e.what();
  }
  Buffer x(dev, 64);
  k.set_args(x, 1);
  EXPECT_THROW(g.add(k, 16, 5), InvalidArgument);  // 16 is not a multiple of 5
  EXPECT_TRUE(g.empty());
  EXPECT_THROW(Graph().add(k, 16), InvalidArgument);
  EXPECT_THROW(g.launch(Queue()), InvalidArgument);
  // A graph runs only on queues of its own device.
  for (const Device& other : devices()) {
    if (other == dev) continue;
    Queue q(other);
    try {
      g.launch(q);
      FAIL() << "expected InvalidArgument for a queue on " << other.selector();
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find(dev.selector()), std::string::npos) << e.what();
    }
    break;
  }
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Runtime, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
