// The seed kernels of shared/seeds/000, concurrency between queues, user events, markers,
// __local arguments and sub-devices, on every device (with what each device can do).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "embedded/weft_test_kernels.hpp"
#include "support.hpp"

namespace weft {
namespace {

using test::download;
using test::upload;

float external_function(float x) { return 3.0f * x * x - 2.0f * x + 1.0f; }

bool runs_work_groups(const Device& d) { return d.capabilities().has_barriers; }

class DeviceFeatures : public ::testing::TestWithParam<Device> {
 protected:
  Device dev = GetParam();
  Queue q{dev, QueueOptions{.profiling = true}};  // CopyOnOneQueueOverlapsKernelOnAnother reads times
};

TEST_P(DeviceFeatures, SeedKernelsWithAnExternalFunction) {
  const std::size_t n = 1024 * 1024;
  Program p = Program::build(dev, test_kernels::seed_external_cl, "-D LOCAL_SIZE=256");
  const auto a = test::random_vector<float>(n, 21, -2.0f, 2.0f);
  std::vector<float> ref(n);
  for (std::size_t i = 0; i < n; ++i) ref[i] = external_function(a[i]);
  auto close = [&](const std::vector<float>& b) {
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) bad += std::fabs(b[i] - ref[i]) > 1e-5f * std::max(1.0f, std::fabs(ref[i]));
    return bad;
  };
  Buffer da = upload(q, a);
  {
    Buffer db = test::poisoned<float>(q, n);
    Kernel k = p.kernel("inefficient_kernel");
    k.set_args(da, db);
    q.launch(k, n);
    EXPECT_EQ(close(download<float>(q, db, n)), 0u);
  }
  {
    // The input uploaded asynchronously; the kernel waits for the upload's event.
    Buffer da2(dev, n * 4), db = test::poisoned<float>(q, n);
    Queue upload_queue(dev);
    Event up = upload_queue.write(da2, a.data(), n * 4, 0, Blocking::no);
    Kernel k = p.kernel("efficient_kernel");
    k.set_args(da2, db);
    Event run = q.launch(k, n, {}, {}, std::span<const Event>(&up, 1));
    std::vector<float> b(n);
    q.read(db, b.data(), n * 4, 0, Blocking::yes, std::span<const Event>(&run, 1));
    EXPECT_EQ(close(b), 0u);
  }
  if (!runs_work_groups(dev)) {
    EXPECT_THROW(p.kernel("local_mem_kernel"), Unsupported);
    return;
  }
  Buffer db = test::poisoned<float>(q, n);
  Kernel k = p.kernel("local_mem_kernel");
  k.set_args(da, db);
  q.launch(k, n, 256);
  EXPECT_EQ(close(download<float>(q, db, n)), 0u);
}

TEST_P(DeviceFeatures, CapabilitiesAgreeWithWhatTheDeviceDoes) {
  // What the layers above the backends ask instead of a backend's name: each answer is
  // checked against what the device then does.
  const DeviceCapabilities& caps = dev.capabilities();
  Buffer b(dev, 64);
  EXPECT_EQ(caps.memory_is_host, b.host_ptr() != nullptr) << dev.selector();
  EXPECT_EQ(caps.addressable_memory, b.address() != 0) << dev.selector();
  if (caps.addressable_memory) {
    Buffer w = Buffer::wrap(dev, b.address(), 64, std::make_shared<Buffer>(b));
    EXPECT_EQ(w.address(), b.address());
  } else {
    EXPECT_THROW(Buffer::wrap(dev, 4096, 64, nullptr), Unsupported);
  }
  // Barriers and __local memory go together: a device without them has no local memory and
  // refuses a kernel that uses them.
  EXPECT_EQ(caps.has_barriers, dev.info().local_mem_bytes > 0) << dev.selector();
  Program p = Program::build(dev, test_kernels::busy_cl);
  if (caps.has_barriers) {
    EXPECT_NO_THROW(p.kernel("group_sum"));
  } else {
    EXPECT_THROW(p.kernel("group_sum"), Unsupported);
  }
  // The helpers of WEFT_PTX are built in only where kernels may use inline PTX at all.
  EXPECT_TRUE(!caps.native_ptx || caps.inline_ptx);
  EXPECT_TRUE(!caps.inline_ptx || dev.info().nvidia_arch > 0);
  // DLPack: one of its device types, the CUDA ordinal as the id.
  EXPECT_TRUE(caps.dlpack_device_type == 1 || caps.dlpack_device_type == 2 || caps.dlpack_device_type == 4)
      << caps.dlpack_device_type;
  EXPECT_TRUE(!caps.memory_is_host || caps.dlpack_device_type == 1);
  EXPECT_TRUE(caps.dlpack_device_type == 2 || caps.dlpack_device_id == 0);
  // Markers stamped on the host's steady clock without a profiling queue, where the backend
  // says so (device auto's online learning times operations by them).
  if (caps.markers_carry_host_times) {
    const auto ns = [] {
      return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                            std::chrono::steady_clock::now().time_since_epoch())
                                            .count());
    };
    Queue plain(dev);
    const std::uint64_t before = ns();
    Event m = plain.marker();
    m.wait();
    const std::uint64_t after = ns();
    const std::uint64_t slack = 1'000'000;  // 1 ms: an anchored device clock may drift a little
    EXPECT_GE(m.profile().end + slack, before) << dev.selector();
    EXPECT_LE(m.profile().end, after + slack) << dev.selector();
  }
  // `auto` takes a device of a native interface before a portable one of the same type.
  const Device chosen = device("auto");
  for (const Device& d : devices()) {
    EXPECT_FALSE(d.type() == chosen.type() && d.capabilities().native_api && !chosen.capabilities().native_api)
        << d.selector() << " before " << chosen.selector();
  }
}

TEST_P(DeviceFeatures, LocalMemoryArguments) {
  if (!runs_work_groups(dev)) GTEST_SKIP() << dev.selector() << " has no work-group barriers";
  Kernel k = Program::build(dev, test_kernels::busy_cl).kernel("group_sum");
  const std::size_t n = 64 * 128;
  const auto x = test::random_vector<float>(n, 22, 0.0f, 1.0f);
  Buffer dx = upload(q, x), out = test::poisoned<float>(q, 128);
  k.set_args(dx, out, LocalMemory{64 * sizeof(float)});
  q.launch(k, n, 64);
  const auto o = download<float>(q, out, 128);
  for (std::size_t g = 0; g < 128; ++g) {
    double s = 0;
    for (std::size_t i = 0; i < 64; ++i) s += x[64 * g + i];
    EXPECT_NEAR(o[g], s, 1e-4);
  }
}

TEST_P(DeviceFeatures, CopyOnOneQueueOverlapsKernelOnAnother) {
  Kernel k = Program::build(dev, test_kernels::busy_cl).kernel("busy");
  const std::size_t n = 1 << 16;
  Buffer x(dev, n * 4);
  q.fill(x, &n, 4, 0, n * 4);
  // Calibrate: the kernel must outlast the start of the copy by a wide margin on any device.
  int iterations = 2000;
  k.set_args(x, iterations);
  q.launch(k, n).wait();  // warm
  const double seconds = q.launch(k, n).profile().seconds();
  iterations = static_cast<int>(std::clamp(0.4 / std::max(seconds, 1e-6) * iterations, 2000.0, 8e7));
  k.set_arg(1, iterations);
  const std::size_t bytes = 64 << 20;
  std::vector<char> host(bytes, 1);
  Buffer big(dev, bytes);
  Queue copier(dev, QueueOptions{.profiling = true});
  Event kernel_event = q.launch(k, n);
  Event copy_event = copier.write(big, host.data(), bytes, 0, Blocking::no);
  wait_for_all({kernel_event, copy_event});
  const auto kp = kernel_event.profile(), cp = copy_event.profile();
  const bool overlap = std::max(kp.start, cp.start) < std::min(kp.end, cp.end);
  EXPECT_TRUE(overlap) << "kernel [" << kp.start << ", " << kp.end << "] copy [" << cp.start << ", " << cp.end
                       << "] on " << dev.selector();
}

TEST_P(DeviceFeatures, UserEventsGateWorkAndMarkersFollow) {
  Kernel k = Program::build(dev, test_kernels::seed_vadd_cl).kernel("vadd");
  const std::size_t n = 4096;
  std::vector<float> a(n, 1.0f), b(n, 2.0f);
  Buffer da = upload(q, a), db = upload(q, b), dc = test::poisoned<float>(q, n);
  k.set_args(da, db, dc);
  UserEvent gate;
  const Event gate_list[] = {gate};
  Event run = q.launch(k, n, {}, {}, gate_list);
  Event mark = q.marker();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(run.done()) << "the launch ran before its user event completed";
  gate.complete();
  mark.wait();
  EXPECT_TRUE(run.done());
  EXPECT_EQ(download<float>(q, dc, n), std::vector<float>(n, 3.0f));

  UserEvent failing;
  const Event failing_list[] = {failing};
  Event doomed = q.launch(k, n, {}, {}, failing_list);
  failing.fail("the host gave up");
  EXPECT_THROW(doomed.wait(), Error);
}

TEST_P(DeviceFeatures, SeveralQueuesAndOutOfOrder) {
  Kernel k = Program::build(dev, test_kernels::seed_vadd_cl).kernel("vadd");
  const std::size_t n = 10000;
  Queue ooo(dev, QueueOptions{.out_of_order = true, .profiling = true});
  std::vector<Queue> queues{q, Queue(dev), ooo};
  std::vector<float> a(n, 1.5f), b(n, 2.0f);
  for (auto& queue : queues) {
    Buffer da = upload(queue, a), db = upload(queue, b), dc = test::poisoned<float>(queue, n);
    Kernel kk = Program::build(dev, test_kernels::seed_vadd_cl).kernel("vadd");
    kk.set_args(da, db, dc);
    Event e = queue.launch(kk, n);
    std::vector<float> c(n);
    queue.read(dc, c.data(), n * 4, 0, Blocking::yes, std::span<const Event>(&e, 1));
    EXPECT_EQ(c, std::vector<float>(n, 3.5f));
  }
  (void)k;
}

TEST_P(DeviceFeatures, SubDevices) {
  if (dev.capabilities().dlpack_device_type != 4 || dev.info().compute_units < 2) {
    EXPECT_THROW(dev.partition(1), Unsupported);
    return;
  }
  std::vector<Device> subs;
  try {
    subs = dev.partition(1);
  } catch (const Unsupported& e) {
    GTEST_SKIP() << e.what();
  }
  ASSERT_GE(subs.size(), 2u);
  for (const auto& s : subs) {
    EXPECT_EQ(s.info().compute_units, 1u);
    Queue sq(s);
    Kernel k = Program::build(s, test_kernels::seed_vadd_cl).kernel("vadd");
    std::vector<float> a(100, 1.0f);
    Buffer da = upload(sq, a), db = upload(sq, a), dc = test::poisoned<float>(sq, 100);
    k.set_args(da, db, dc);
    sq.launch(k, 100);
    EXPECT_EQ(download<float>(sq, dc, 100), std::vector<float>(100, 2.0f));
  }
}

TEST_P(DeviceFeatures, SubDevicesByCountsAndBySelector) {
  const unsigned counts[] = {1, 1};
  if (dev.capabilities().dlpack_device_type != 4 || dev.info().compute_units < 2) {
    EXPECT_THROW(dev.partition_by_counts(counts), Unsupported);
    EXPECT_THROW(device(dev.selector() + "/0"), InvalidArgument);  // no sub-devices to name
    return;
  }
  std::vector<Device> subs;
  try {
    subs = dev.partition_by_counts(counts);
  } catch (const Unsupported& e) {
    GTEST_SKIP() << e.what();
  }
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(subs[0].info().compute_units, 1u);
  // A selector names each while it lives; its own selector names it.
  EXPECT_EQ(device(dev.selector() + "/1"), subs[1]);
  EXPECT_EQ(device(subs[0].selector()), subs[0]);
  EXPECT_THROW(device(dev.selector() + "/7"), InvalidArgument);
  const unsigned too_many[] = {1000000};
  EXPECT_THROW(dev.partition_by_counts(too_many), InvalidArgument);
  const unsigned zero[] = {0};
  EXPECT_THROW(dev.partition_by_counts(zero), InvalidArgument);
  subs.clear();
  EXPECT_THROW(device(dev.selector() + "/1"), InvalidArgument);  // gone with the last handle
}

INSTANTIATE_TEST_SUITE_P(AllDevices, DeviceFeatures, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
