// The model's copy, launch and math terms (format 4 of the calibration) on the H200's table
// (device_tables.hpp): the cases `weft bench placement` missed there with the format 3 terms
// (a raw 64-byte read and a warm 64 MiB rate for every copy, one launch figure, math
// functions as 16 multiply-adds), decided again. Each test shows the old decision beside the
// corrected one.
#include <gtest/gtest.h>

#include <vector>

#include "placement/device_tables.hpp"
#include "weft/placement.hpp"

namespace weft {
namespace {

using test::h200_format3_table;
using test::h200_table;
using namespace test::table;

// eval of three float32 arrays of n elements with ops_per_element operations of which math
// math-library functions (auto_placement.cpp's estimate); the result is read on the host when
// the inputs came from there.
WorkEstimate three_inputs(double n, double ops_per_element, double math, bool from_host) {
  WorkEstimate w;
  w.elements = static_cast<std::int64_t>(n);
  w.bytes_read = 12 * n;
  w.bytes_written = 4 * n;
  w.ops = n * ops_per_element;
  w.math_calls = n * math;
  w.result_to_host = from_host;
  w.result_bytes = 4 * n;
  return w;
}

std::vector<InputResidence> inputs(double bytes, std::size_t count, std::uint64_t where) {
  return std::vector<InputResidence>(count, InputResidence{bytes, where, where == on_host});
}

TEST(PlacementCopyTerms, ACopyIsItsLatencyThenTheSmallRateThenTheRate) {
  const DeviceCosts c = h200_table()[cuda];
  EXPECT_DOUBLE_EQ(c.transfer_s(0, false), 11e-6);
  EXPECT_DOUBLE_EQ(c.transfer_s(4e4, false), 11e-6 + 4e4 / 2.2e9);
  EXPECT_DOUBLE_EQ(c.transfer_s(4e6, false), 11e-6 + 65536 / 2.2e9 + (4e6 - 65536) / 9.3e9);
  EXPECT_DOUBLE_EQ(c.transfer_s(4e6, true), 55e-6 + 65536 / 4.5e9 + (4e6 - 65536) / 6.6e9);
  // Reads the bench timed on the H200 (per array, from cuda:0): 30 us at 40 KB, 72 us at
  // 400 KB, 459 us at 4 MB; the format 3 terms said 10, 19 and 104 us.
  EXPECT_NEAR(c.transfer_s(4e4, false), 29e-6, 3e-6);
  EXPECT_NEAR(c.transfer_s(4e5, false), 72e-6, 10e-6);
  EXPECT_NEAR(c.transfer_s(4e6, false), 459e-6, 30e-6);
  // Without a small rate (a table of before, an injected one): one rate throughout.
  const DeviceCosts old = h200_format3_table()[cuda];
  EXPECT_DOUBLE_EQ(old.transfer_s(4e6, false), 9.3e-6 + 4e6 / 42e9);
}

TEST(PlacementCopyTerms, AResidentScanStaysOnItsGpu) {
  // cumsum of 10^4 resident floats: the host's path read them into host memory (83 us
  // measured), staying took 20 us (CUDA) and 31 us (OpenCL); format 3 estimated the read 10 us.
  const WorkEstimate scan = scan_work(10'000, 4e4, 1, 4, Arithmetic::float64);
  for (const std::uint64_t where : {on_cuda, on_opencl}) {
    const auto in = inputs(4e4, 1, where);
    const std::size_t there = where == on_cuda ? cuda : opencl;
    EXPECT_EQ(Chooser(h200_format3_table()).choose(scan, in), host);  // the miss: 4.8x (CUDA), 2.8x (OpenCL)
    Chooser chooser(h200_table());
    EXPECT_EQ(chooser.choose(scan, in), there) << chooser.explain("cumsum", scan, in);
  }
}

TEST(PlacementCopyTerms, ASmallResidentReductionStaysAndEveryDeviceReadsItsValue) {
  // sum(sqrt(a*b+c)*2) of arrays resident on CUDA: the 8-byte value is read on the host from
  // wherever it runs, so it weighs alike; the inputs' reads are what the host would pay.
  Chooser chooser(h200_table());
  const std::vector<DeviceCosts>& t = chooser.devices();
  for (const double n : {1e2, 1e3, 1e4, 1e5, 1e6}) {
    WorkEstimate w = three_inputs(n, 8, 0, true);
    w.bytes_written = 0;
    w.result_bytes = 8;
    const auto in = inputs(4 * n, 3, on_cuda);
    EXPECT_EQ(chooser.choose(w, in), cuda) << n << "\n" << chooser.explain("sum", w, in);
    for (const std::size_t d : {host, opencl, cuda}) {
      EXPECT_DOUBLE_EQ(chooser.estimate(d, w, in).copy_out, t[d].transfer_s(8, false)) << d;
    }
    EXPECT_DOUBLE_EQ(chooser.estimate(host, w, in).copy_in, 3 * t[cuda].transfer_s(4 * n, false));
  }
}

TEST(PlacementCopyTerms, ReadsFromOneDeviceIntoHostMemoryAreTogether) {
  // An operation on the host reading several arrays resident on one device reads them together
  // (detail::make_current_all): the first read pays the device's latency, each further one its
  // to_host_more_s (format 14), the bytes as ever. A GPU reading them from another GPU goes
  // through the host one array at a time: each pays in full. Not measured (0): each in full.
  std::vector<DeviceCosts> t = h200_table();
  const WorkEstimate w = three_inputs(100, 2, 0, false);
  const auto in = inputs(400, 3, on_cuda);
  const double one = t[cuda].transfer_s(400, false);
  EXPECT_DOUBLE_EQ(Chooser(t).estimate(host, w, in).copy_in, 3 * one);
  t[cuda].to_host_more_s = 3e-6;
  t[opencl].to_host_more_s = 2e-6;
  Chooser chooser(t);
  EXPECT_NEAR(chooser.estimate(host, w, in).copy_in, one + 2 * (one - t[cuda].to_host_latency_s + 3e-6), 1e-12);
  EXPECT_NEAR(chooser.estimate(opencl, w, in).copy_in, 3 * (one + t[opencl].transfer_s(400, true)), 1e-12);
  // Two from CUDA, one from OpenCL: one latency per device read from (and OpenCL's read after
  // CUDA's pays the switch between the GPU's contexts).
  std::vector<InputResidence> mixed = inputs(400, 3, on_cuda);
  mixed[1] = InputResidence{400, on_opencl, false};
  const double from_cl = t[opencl].transfer_s(400, false) + chooser.switch_s(opencl, cuda);
  EXPECT_NEAR(chooser.estimate(host, w, mixed).copy_in, one + from_cl + (one - t[cuda].to_host_latency_s + 3e-6),
              1e-12);
}

TEST(PlacementCopyTerms, TheFirstOfSeveralReadsFromPoclIsTheFirstOfReadsTogether) {
  // An OpenCL CPU device's first read of several queued together (format 23: PoCL on the 2-core
  // VM 9.9-11.5 us where a read alone took 13.3-16.6): what an operation on the host reading two
  // or more arrays from there pays first; one array alone still pays a read alone.
  std::vector<DeviceCosts> t = h200_table();
  t[opencl].to_host_more_s = 4e-6;
  t[opencl].to_host_first_together_s = t[opencl].to_host_latency_s - 4e-6;
  const Chooser chooser(t);
  const double one = t[opencl].transfer_s(400, false);
  EXPECT_NEAR(chooser.estimate(host, three_inputs(100, 2, 0, false), inputs(400, 3, on_opencl)).copy_in,
              (one - 4e-6) + 2 * (one - t[opencl].to_host_latency_s + 4e-6), 1e-12);
  EXPECT_NEAR(chooser.estimate(host, three_inputs(100, 2, 0, false), inputs(400, 1, on_opencl)).copy_in, one, 1e-12);
  // Not for a device whose memory is not the host's (each read goes through the host alone).
  EXPECT_NEAR(chooser.estimate(cuda, three_inputs(100, 2, 0, false), inputs(400, 3, on_opencl)).copy_in,
              3 * (one + t[cuda].transfer_s(400, true)), 1e-12);
}

TEST(PlacementCopyTerms, AGpuReadsTogetherWhatGoesThroughItsPinnedBlock) {
  // A GPU's reads go together through its pinned block up to its to_host_more_bytes (64 KiB,
  // format 20): three inputs of 400 bytes pay one latency, three of 400 KB each their own.
  std::vector<DeviceCosts> t = h200_table();
  t[cuda].to_host_more_s = 1.6e-6;
  t[cuda].to_host_more_bytes = 65536;
  Chooser chooser(t);
  const double one = t[cuda].transfer_s(400, false);
  EXPECT_NEAR(chooser.estimate(host, three_inputs(100, 2, 0, false), inputs(400, 3, on_cuda)).copy_in,
              one + 2 * (one - t[cuda].to_host_latency_s + 1.6e-6), 1e-12);
  EXPECT_NEAR(chooser.estimate(host, three_inputs(1e5, 2, 0, false), inputs(4e5, 3, on_cuda)).copy_in,
              3 * t[cuda].transfer_s(4e5, false), 1e-12);
  // 64 KiB itself goes through the block.
  const double edge = t[cuda].transfer_s(65536, false);
  EXPECT_NEAR(chooser.estimate(host, three_inputs(16384, 2, 0, false), inputs(65536, 3, on_cuda)).copy_in,
              edge + 2 * (edge - t[cuda].to_host_latency_s + 1.6e-6), 1e-12);
}

TEST(PlacementCopyTerms, AnElementwiseOperationPaysItsLaunchAsArraysMakeIt) {
  // The heavy expression of 10^2 floats resident on PoCL (run AW's figures): launch_s 13 us,
  // the launch as arrays make it 19; with it the host path (reads together, 23 us) is cheaper.
  DeviceCosts host_c, pocl;
  host_c.selector = "host";
  host_c.memory_is_host = true;
  host_c.launch_s = 0.6e-6;
  host_c.sync_s = 0.2e-6;
  host_c.ops_per_s[0] = 3e11;
  host_c.bandwidth_Bps = 2e10;
  pocl.selector = "opencl:0:0";
  pocl.launch_s = 13e-6;
  pocl.sync_s = 0.1e-6;
  pocl.ops_per_s[0] = 2e10;
  pocl.bandwidth_Bps = 1.3e10;
  pocl.to_host_latency_s = 11e-6;
  pocl.to_host_more_s = 4.4e-6;
  pocl.to_device_latency_s = 17e-6;
  const std::vector<DeviceCosts> t{host_c, pocl};
  const WorkEstimate w = three_inputs(100, 2, 0, false);
  const std::uint64_t on_pocl = 2;
  const auto in = inputs(400, 3, on_pocl);
  const double before = Chooser(t).estimate(1, w, in).launch;
  std::vector<DeviceCosts> timed = t;
  timed[1].eval_launch_s = 19e-6;
  EXPECT_NEAR(Chooser(timed).estimate(1, w, in).launch - before, 6e-6, 1e-12);
  // Never below launch_s; queued behind a pending producer, the queued launch as before.
  timed[1].eval_launch_s = 5e-6;
  EXPECT_DOUBLE_EQ(Chooser(timed).estimate(1, w, in).launch, before);
  // The host's own figure moves the host's estimate the same way.
  timed = t;
  timed[0].eval_launch_s = 2.6e-6;
  EXPECT_NEAR(Chooser(timed).estimate(0, w, in).launch - Chooser(t).estimate(0, w, in).launch, 2e-6, 1e-12);
}

TEST(PlacementCopyTerms, ALightOperationFromHostMemoryStaysOnTheHost) {
  // a*b+c of 10^6 floats in host memory, the result read there: the host 0.27-1.3 ms, a GPU
  // 1.9-2.5 ms (three arrays made there, the result read back). Format 3's warm 34-42 GB/s
  // sent it to a GPU (auto/best 7.05).
  const WorkEstimate w = three_inputs(1e6, 2, 0, true);
  const auto in = inputs(4e6, 3, on_host);
  EXPECT_NE(Chooser(h200_format3_table()).choose(w, in), host);
  Chooser chooser(h200_table());
  EXPECT_EQ(chooser.choose(w, in), host) << chooser.explain("eval", w, in);
  // cumsum of 10^4 floats from NumPy, its result read there: the host (7-71 us against 186-249).
  WorkEstimate scan = scan_work(10'000, 4e4, 1, 4, Arithmetic::float64);
  scan.result_to_host = true;
  EXPECT_EQ(chooser.choose(scan, inputs(4e4, 1, on_host)), host);
}

TEST(PlacementCopyTerms, MathFunctionsAtTheirMeasuredRate) {
  // sin/exp/cos (101 operations, 6 math functions an element) from host memory: the host took
  // 3.3 ms at 10^6 where a GPU took 1.7-1.9 ms copies included; at 10^3 the host 0.07 ms.
  Chooser chooser(h200_table());
  const WorkEstimate big = three_inputs(1e6, 101, 6, true), small = three_inputs(1e3, 101, 6, true);
  EXPECT_NE(chooser.choose(big, inputs(4e6, 3, on_host)), host) << chooser.explain("eval", big, inputs(4e6, 3, on_host));
  EXPECT_EQ(chooser.choose(small, inputs(4e3, 3, on_host)), host);
  // The host's compute: 95 operations at the multiply-add rate, 6 functions at the math rate.
  const PlacementEstimate e = chooser.estimate(host, big, inputs(4e6, 3, on_host));
  EXPECT_DOUBLE_EQ(e.compute, (101e6 - 96e6) / 807e9 + 6e6 / 2e9);
  // Without a math rate (format 3, an injected table): 16 operations a function, as before.
  EXPECT_DOUBLE_EQ(Chooser(h200_format3_table()).estimate(host, big, inputs(4e6, 3, on_host)).compute,
                   std::max(16e6 / 98e9, 101e6 / 807e9));
}

TEST(PlacementCopyTerms, AFewThreadsMathScalesFromFourChunksNotFromOne) {
  // PoCL on the 2-core VM (session 22): sin/exp/cos over 4096 elements at 0.064 G calls/s
  // (both threads at work already), over 16384 at 0.07, over 65536 at 0.13. The chunks' rule
  // alone put 10^4 elements (three chunks) at 0.13; four chunks' measured rate caps it.
  DeviceCosts pocl;
  pocl.math_per_s = 0.13e9;
  pocl.narrow_math_per_s = 0.064e9;
  EXPECT_DOUBLE_EQ(pocl.math_s(3e4, 10'000), 3e4 / 0.13e9);
  pocl.mid_math_per_s = 0.07e9;
  EXPECT_DOUBLE_EQ(pocl.math_s(3e4, 10'000), 3e4 / 0.07e9);
  // Below four chunks it is no cap of its own scaled down: one chunk keeps one chunk's rate.
  EXPECT_DOUBLE_EQ(pocl.math_s(3 * 4096.0, 4096), 3 * 4096.0 / 0.064e9);
  // Beyond four chunks it scales a chunk at a time (five: 1.25 times), up to the wide rate.
  EXPECT_DOUBLE_EQ(pocl.math_s(6e4, 20'000), 6e4 / (0.07e9 * 1.25));
  EXPECT_DOUBLE_EQ(pocl.math_s(3 * 65536.0, 65536), 3 * 65536.0 / 0.13e9);
  // The host backend's pool, a thread a chunk (the H200's host: one chunk 0.15 G calls/s, four
  // 0.6): the same estimates as without it.
  DeviceCosts host;
  host.math_per_s = 2.1e9;
  host.narrow_math_per_s = 0.15e9;
  const double before[] = {host.math_s(3e3, 1'000), host.math_s(3e4, 10'000), host.math_s(3e5, 100'000)};
  host.mid_math_per_s = 0.6e9;
  EXPECT_DOUBLE_EQ(host.math_s(3e3, 1'000), before[0]);
  EXPECT_DOUBLE_EQ(host.math_s(3e4, 10'000), before[1]);
  EXPECT_DOUBLE_EQ(host.math_s(3e5, 100'000), before[2]);
}

// The host backend cuts a launch whose work-items take 50 us or more on one thread over every
// thread, whatever its size (DeviceCosts::spread_from_s). The H200's host (run BS): one thread
// 0.17 G calls/s, four chunks 3.4, wide 2.4; sin/exp/cos (six calls an element) of 4096
// elements took 23-29 us where one thread a chunk said 145 us.
TEST(PlacementCopyTerms, AHeavyOperationSpreadOverTheHostsThreadsTakesTheirRateAndWakesThePool) {
  DeviceCosts cpu;
  cpu.math_per_s = 2.4e9;
  cpu.narrow_math_per_s = 0.17e9;
  cpu.mid_math_per_s = 3.4e9;
  // Not spread: one thread a chunk (10^4 elements: three chunks).
  EXPECT_DOUBLE_EQ(cpu.math_s(6e4, 10'000), 6e4 / (0.17e9 * 3));
  cpu.spread_from_s = 50e-6;
  // 6e4 calls take 353 us on one thread: spread, at all threads' rate, however few chunks.
  EXPECT_TRUE(cpu.spreads(6e4));
  EXPECT_DOUBLE_EQ(cpu.math_s(6e4, 10'000), 6e4 / 2.4e9);
  EXPECT_DOUBLE_EQ(cpu.math_s(6e4, 2'000), 6e4 / 2.4e9);
  // At most the four chunks' rate where that is lower.
  cpu.mid_math_per_s = 1.5e9;
  EXPECT_DOUBLE_EQ(cpu.math_s(6e4, 10'000), 6e4 / 1.5e9);
  // 6e3 calls (10^3 elements) take 35 us on one thread: below the spread, one chunk's rate.
  EXPECT_FALSE(cpu.spreads(6e3));
  EXPECT_DOUBLE_EQ(cpu.math_s(6e3, 1'000), 6e3 / 0.17e9);
  // A spread operation (2000 elements: 71 us on one thread) wakes the pool however small; one
  // below the spread does not.
  std::vector<DeviceCosts> t = h200_table();
  t[host].math_per_s = 2.4e9;
  t[host].narrow_math_per_s = 0.17e9;
  t[host].spread_from_s = 50e-6;
  const Chooser chooser(t);
  const DeviceCosts& h = chooser.devices()[host];
  const auto in3 = inputs(8e3, 3, on_host);
  const double heavy = chooser.estimate(host, three_inputs(2000, 100, 6, false), in3).launch;
  const double light = chooser.estimate(host, three_inputs(2000, 2, 0, false), in3).launch;
  EXPECT_DOUBLE_EQ(heavy - light, h.wide_launch_s - h.launch_s);
  EXPECT_GT(h.wide_launch_s, h.launch_s);
}

TEST(PlacementCopyTerms, AWideOperationWakesTheHostsPoolOnce) {
  Chooser chooser(h200_table());
  const DeviceCosts& h = chooser.devices()[host];
  const auto in3 = inputs(4e4, 3, on_host);
  EXPECT_DOUBLE_EQ(chooser.estimate(host, three_inputs(4096, 2, 0, false), in3).launch, h.launch_s + h.sync_s);
  EXPECT_DOUBLE_EQ(chooser.estimate(host, three_inputs(1e4, 2, 0, false), in3).launch, h.wide_launch_s + h.sync_s);
  // A scan's three launches: the pool woken once, the next two find it awake.
  const WorkEstimate scan = scan_work(10'000, 4e4, 1, 4, Arithmetic::float64);
  EXPECT_DOUBLE_EQ(chooser.estimate(host, scan, inputs(4e4, 1, on_host)).launch,
                   h.wide_launch_s + 2 * h.launch_s + h.sync_s);
}

// Launches queued behind an operation's first cost what `weft calibrate` measured for them
// (PoCL on the 2-core VM: 19.7 us a launch waited for alone, about 3 us more for each queued
// behind it), not a round trip each: a scan of 10^3 floats resident on PoCL took 28-37 us
// there, and 3 x 19.7 us had sent it to the host (a 33 us read first), which made a chain of
// operations on that data 1.3 times slower than staying.
TEST(PlacementCopyTerms, LaunchesQueuedBehindTheFirstCostTheirMeasuredShare) {
  std::vector<DeviceCosts> t = test::vm2core_format5_table();
  constexpr std::size_t vm_host = 0, pocl = 1;
  t[pocl].launch_s = 19.7e-6;
  t[pocl].to_host_latency_s = 33e-6;
  const WorkEstimate scan = scan_work(1000, 4e3, 1, 4, Arithmetic::float64);
  const std::vector<InputResidence> in{{4e3, 0b10, false}};
  const Chooser round_trips(t);
  EXPECT_DOUBLE_EQ(round_trips.estimate(pocl, scan, in).launch, 3 * 19.7e-6 + t[pocl].sync_s);
  EXPECT_EQ(round_trips.choose(scan, in), vm_host) << round_trips.explain("cumsum", scan, in);
  t[pocl].queued_launch_s = 3e-6;
  const Chooser queued(t);
  EXPECT_DOUBLE_EQ(queued.estimate(pocl, scan, in).launch, 19.7e-6 + 2 * 3e-6 + t[pocl].sync_s);
  EXPECT_EQ(queued.choose(scan, in), pocl) << queued.explain("cumsum", scan, in);
}

// A scan whose device's scan was timed (weft calibrate: cumsum of 1024 floats there) takes that
// time for its launches, whatever algorithm the device runs: on the H200 a resident cumsum of
// 10^2 floats took 14 us on cuda:0 in one single-pass launch, and three launches at the launch
// figures (21 us) sent it to the host (18 us with the read).
TEST(PlacementCopyTerms, AScanTakesTheLaunchesItsDeviceWasTimedAt) {
  std::vector<DeviceCosts> t = h200_table();
  const WorkEstimate scan = scan_work(100, 400, 1, 4, Arithmetic::float64);
  const std::vector<InputResidence> in{{400, on_cuda, false}};
  const double three = Chooser(t).estimate(cuda, scan, in).launch;
  EXPECT_DOUBLE_EQ(three, 3 * t[cuda].launch_s + t[cuda].sync_s);
  t[cuda].scan_launch_s = 6e-6;
  const Chooser timed(t);
  EXPECT_DOUBLE_EQ(timed.estimate(cuda, scan, in).launch, 6e-6 + t[cuda].sync_s);
  EXPECT_EQ(timed.choose(scan, in), cuda) << timed.explain("cumsum", scan, in);
  // An elementwise operation keeps the launch figures.
  const WorkEstimate eval = three_inputs(100, 2, 0, false);
  EXPECT_DOUBLE_EQ(timed.estimate(cuda, eval, inputs(400, 3, on_cuda)).launch, t[cuda].launch_s + t[cuda].sync_s);
}

// Below 1024 elements a scan's fixed cost is interpolated down to the tiny scan's where that
// was timed. On the H200, charged the host's scan of 1024 elements (5.7 us), auto left 100
// elements resident on NVIDIA OpenCL (15.8 us) rather than read them to the host and scan
// there (13.0 us); a later calibration timed the host's scan of 64 elements at 5.0 us against
// 6.5 for 1024 (session 15), which leaves that case a near-tie. The tiny scan below (1.6 us) is
// a host whose short scans are much cheaper: the choice follows the interpolated cost.
TEST(PlacementCopyTerms, AShortScanIsInterpolatedDownToTheTinyScan) {
  std::vector<DeviceCosts> t = h200_table();
  t[host].scan_launch_s = 5.7e-6;
  t[host].sync_s = 0.3e-6;
  t[opencl].scan_launch_s = 14.9e-6;
  t[opencl].sync_s = 1.2e-6;
  t[opencl].to_host_latency_s = 10.4e-6;
  const WorkEstimate scan = scan_work(100, 400, 1, 4, Arithmetic::float32);
  const std::vector<InputResidence> in{{400, on_opencl, false}};
  EXPECT_EQ(Chooser(t).choose(scan, in), opencl) << Chooser(t).explain("cumsum", scan, in);
  t[host].scan_tiny_s = 1.6e-6;
  // 64 elements or fewer: the tiny scan; 1024 and more: the timed one; linear between.
  EXPECT_DOUBLE_EQ(t[host].scan_fixed_s(10), 1.6e-6);
  EXPECT_DOUBLE_EQ(t[host].scan_fixed_s(64), 1.6e-6);
  EXPECT_NEAR(t[host].scan_fixed_s(544), 1.6e-6 + 0.5 * (5.7e-6 - 1.6e-6), 1e-15);
  EXPECT_DOUBLE_EQ(t[host].scan_fixed_s(1024), 5.7e-6);
  EXPECT_DOUBLE_EQ(t[host].scan_fixed_s(1e6), 5.7e-6);
  const Chooser tiny(t);
  const double f = (100.0 - 64) / (1024 - 64);
  EXPECT_NEAR(tiny.estimate(host, scan, in).launch, 1.6e-6 + f * (5.7e-6 - 1.6e-6) + 0.3e-6, 1e-15);
  EXPECT_EQ(tiny.choose(scan, in), host) << tiny.explain("cumsum", scan, in);
  // A tiny scan timed slower than the longer one (a busy moment) is not used.
  t[opencl].scan_tiny_s = 20e-6;
  EXPECT_DOUBLE_EQ(t[opencl].scan_fixed_s(100), 14.9e-6);
}

// Above 1024 elements a scan's fixed cost rises to the wide scan's where that was timed (format
// 16), the pool's wake-up within it. The H200's host (session 21): the scan of 1024 elements
// 5.6 us, a wide launch 16.8 against 0.8; a scan of 10^4 elements took 42-60 us where the small
// scan and one wake-up said 22, and a chain with it stayed on the host at 1.25-1.35 times
// cuda:0's time.
TEST(PlacementCopyTerms, ALongScanIsInterpolatedUpToTheWideScan) {
  std::vector<DeviceCosts> t = h200_table();
  DeviceCosts& h = t[host];
  h.scan_launch_s = 5.6e-6;
  h.launch_s = 0.8e-6;
  h.wide_launch_s = 16.8e-6;
  h.sync_s = 0.4e-6;
  const WorkEstimate scan = scan_work(10000, 40000, 1, 4, Arithmetic::float32);
  const std::vector<InputResidence> in{{40000, on_host, true}};
  // Not timed: the small scan and the pool's wake-up.
  const double before = Chooser(t).estimate(host, scan, in).launch;
  EXPECT_NEAR(before, 5.6e-6 + (16.8e-6 - 0.8e-6) + 0.4e-6, 1e-15);
  h.scan_wide_s = 45e-6;
  const double woken = 5.6e-6 + 16e-6;
  EXPECT_DOUBLE_EQ(h.scan_fixed_s(1024), 5.6e-6);
  EXPECT_NEAR(h.scan_fixed_s(1024 + 0.5 * (16384 - 1024)), woken + 0.5 * (45e-6 - woken), 1e-15);
  EXPECT_DOUBLE_EQ(h.scan_fixed_s(16384), 45e-6);
  EXPECT_DOUBLE_EQ(h.scan_fixed_s(1e7), 45e-6);  // (beyond, the bytes are counted apart)
  // The wake-up is not charged again.
  const double f = (10000.0 - 1024) / (16384 - 1024);
  EXPECT_NEAR(Chooser(t).estimate(host, scan, in).launch, woken + f * (45e-6 - woken) + 0.4e-6, 1e-15);
  // A GPU's scan (no wide launch's extra) rises from its small scan alone.
  t[cuda].scan_launch_s = 11.8e-6;
  t[cuda].scan_wide_s = 13e-6;
  EXPECT_NEAR(t[cuda].scan_fixed_s(1024 + 0.5 * (16384 - 1024)), 12.4e-6, 1e-15);
}

// A scan queued behind its input's pending producer is charged what a scan adds in a stream,
// where that was timed (format 12). The figures are a 2-core VM calibration's (session 16):
// there the scan waited for alone took 60.6 us on PoCL, and that less a launch's round trip
// (36.4 us) sent the scan of a chain resident on PoCL to the host (31.8 us with the read),
// where staying was 1.2-1.4 times faster: a scan in PoCL's stream adds 9-15 us.
TEST(PlacementCopyTerms, AScanQueuedBehindItsProducerCostsWhatItAddsInAStream) {
  std::vector<DeviceCosts> t = test::vm2core_format5_table();
  constexpr std::size_t vm_host = 0, pocl = 1;
  t[vm_host].launch_s = 0.7e-6;
  t[vm_host].wide_launch_s = 56.7e-6;
  t[vm_host].scan_launch_s = 3.6e-6;
  t[vm_host].scan_tiny_s = 2.4e-6;
  t[vm_host].sync_s = 0.34e-6;
  t[pocl].launch_s = 27e-6;
  t[pocl].queued_launch_s = 2.85e-6;
  t[pocl].scan_launch_s = 60.6e-6;
  t[pocl].scan_tiny_s = 57.8e-6;
  t[pocl].sync_s = 0.07e-6;
  t[pocl].to_host_latency_s = 26.6e-6;
  t[pocl].to_host_small_Bps = 3.07e9;
  const WorkEstimate scan = scan_work(1000, 4e3, 1, 4, Arithmetic::float32);
  const std::vector<InputResidence> pending{{4e3, on_opencl, false, on_opencl}}, done{{4e3, on_opencl, false, 0}};
  const double fixed = t[pocl].scan_fixed_s(1000);
  const Chooser derived(t);
  EXPECT_NEAR(derived.estimate(pocl, scan, pending).launch, fixed - (27e-6 - 2.85e-6), 1e-12);
  EXPECT_EQ(derived.choose(scan, pending), vm_host) << derived.explain("cumsum", scan, pending);
  t[pocl].scan_queued_s = 12e-6;
  const Chooser timed(t);
  EXPECT_NEAR(timed.estimate(pocl, scan, pending).launch, 12e-6 * fixed / 60.6e-6, 1e-12);
  EXPECT_EQ(timed.choose(scan, pending), pocl) << timed.explain("cumsum", scan, pending);
  // Not queued (its input complete), a scan still pays the scan waited for alone.
  EXPECT_NEAR(timed.estimate(pocl, scan, done).launch, fixed + t[pocl].sync_s, 1e-12);
  // Never below one queued launch.
  t[pocl].scan_queued_s = 1e-9;
  EXPECT_NEAR(Chooser(t).estimate(pocl, scan, pending).launch, 2.85e-6, 1e-12);
}

// A reduction whose value the host reads costs its timed whole (format 13): on the H200 a sum of
// 100 floats resident on NVIDIA OpenCL took 31.7 us where a launch, a sync and the value's copy
// said 19.6; queued behind its input's producer, one launch's round trip less.
TEST(PlacementCopyTerms, AReductionsValueCostsItsTimedWhole) {
  std::vector<DeviceCosts> t = h200_table();
  DeviceCosts& cl = t[opencl];
  cl.launch_s = 12.7e-6;
  cl.queued_launch_s = 8.4e-6;
  cl.sync_s = 1.3e-6;
  cl.to_host_latency_s = 11.2e-6;
  const WorkEstimate sum{.elements = 100, .bytes_read = 1200, .ops = 400, .result_to_host = true, .result_bytes = 8,
                         .reduction = true};
  const std::vector<InputResidence> done(3, InputResidence{400, on_opencl, false});
  const std::vector<InputResidence> pending(3, InputResidence{400, on_opencl, false, on_opencl});
  const PlacementEstimate untimed = Chooser(t).estimate(opencl, sum, done);
  EXPECT_NEAR(untimed.launch, 12.7e-6 + 1.3e-6, 1e-12);
  EXPECT_NEAR(untimed.copy_out, cl.transfer_s(8, false), 1e-12);
  cl.reduce_s = 25.1e-6;
  const Chooser timed(t);
  const PlacementEstimate whole = timed.estimate(opencl, sum, done);
  EXPECT_NEAR(whole.launch + whole.copy_out, 25.1e-6, 1e-12);
  EXPECT_NEAR(whole.copy_out, untimed.copy_out, 1e-12);
  EXPECT_NEAR(whole.compute, untimed.compute, 1e-12);
  const PlacementEstimate queued = timed.estimate(opencl, sum, pending);
  EXPECT_NEAR(queued.launch + queued.copy_out, 25.1e-6 - (12.7e-6 - 8.4e-6), 1e-12);
  // The read shown as copy_out is never more than the whole (PoCL on the 2-core VM reads a
  // value in a few microseconds where a 64-byte array read took 41).
  cl.reduce_s = 5e-6;
  const PlacementEstimate cheap = Chooser(t).estimate(opencl, sum, done);
  EXPECT_NEAR(cheap.launch + cheap.copy_out, 5e-6, 1e-12);
  EXPECT_NEAR(cheap.launch, 0, 1e-12);
  // An operation whose result stays on the device, or a value not marked a reduction, keeps
  // the launch terms.
  WorkEstimate plain = sum;
  plain.reduction = false;
  EXPECT_NEAR(timed.estimate(opencl, plain, done).launch, untimed.launch, 1e-12);
}

}  // namespace
}  // namespace weft
