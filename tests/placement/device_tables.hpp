// Synthetic device tables for the chooser's unit tests (test_chooser.cpp, test_operations.cpp,
// test_resident_choice.cpp): one set of figures, shared, so that every test of the model
// reasons on the same machine.
//
//   weft::Chooser chooser({weft::test::host_costs(), weft::test::gpu_costs()});
//   weft::Chooser h100(weft::test::h100_table());   // host, opencl:0:0, cuda:0 as measured
//   weft::Chooser h200(weft::test::h200_table());   // the same on an H200, copies as arrays make them
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "weft/placement.hpp"

namespace weft::test {

/// The devices' places in the three-device tables (h100_table, h200_table and the like) and the
/// residence masks of an input valid on each (`using namespace test::table;`).
namespace table {
inline constexpr std::size_t host = 0, opencl = 1, cuda = 2;
inline constexpr std::uint64_t on_host = 0b001, on_opencl = 0b010, on_cuda = 0b100;
}  // namespace table

// A host with a few cores and a discrete GPU behind a PCIe link, in round figures of the
// order an H100 machine measures (exact values do not matter, only that the model is applied).
inline DeviceCosts host_costs() {
  DeviceCosts c;
  c.selector = "host";
  c.memory_is_host = true;
  c.launch_s = 5e-6;
  c.sync_s = 1e-6;
  c.bandwidth_Bps = 20e9;
  c.ops_per_s[0] = 50e9;
  c.ops_per_s[1] = 25e9;
  c.ops_per_s[2] = 50e9;
  return c;
}

inline DeviceCosts gpu_costs() {
  DeviceCosts c;
  c.selector = "cuda:0";
  c.launch_s = 20e-6;
  c.sync_s = 5e-6;
  c.bandwidth_Bps = 2000e9;
  c.ops_per_s[0] = 30e12;
  c.ops_per_s[1] = 15e12;
  c.ops_per_s[2] = 15e12;
  c.to_device_latency_s = 10e-6;
  c.to_host_latency_s = 10e-6;
  c.to_device_Bps = 5e9;
  c.to_host_Bps = 5e9;
  return c;
}

// Residence bits of the two-device table above.
constexpr std::uint64_t on_host_device = 0b01;  // bit 0: the table's host
constexpr std::uint64_t on_gpu = 0b10;          // bit 1: the table's GPU

// The table `weft devices --costs` printed on the lent H100 machine after `weft calibrate`
// (bench/results/2026-11-28-h100-placement.txt: 16 host threads, NVIDIA OpenCL, CUDA), in
// device order. The sort figures are fitted to the sort rows of `weft bench placement` on the
// lent H200 (bench/results/2026-11-28-h200-placement-workloads.txt: the host's sort 10 ms at
// 10^6 keys, CUB 0.13-0.16 ms, the OpenCL radix sort 3.4 ms at 10^4 and 8.7 ms at 10^6).
inline std::vector<DeviceCosts> h100_table() {
  DeviceCosts host;
  host.selector = "host";
  host.memory_is_host = true;
  host.launch_s = 0.9e-6;
  host.sync_s = 0.4e-6;
  host.bandwidth_Bps = 105e9;
  host.ops_per_s[0] = 571e9;
  host.ops_per_s[1] = 319e9;
  host.ops_per_s[2] = 238e9;
  host.to_device_latency_s = 0.4e-6;
  host.to_host_latency_s = 0.3e-6;
  host.to_device_pinned_Bps = 5.8e9;
  host.to_host_pinned_Bps = 6.5e9;
  host.sort_keys_per_s = 1.0e8;
  host.sort_overhead_s = 20e-6;

  DeviceCosts opencl;
  opencl.selector = "opencl:0:0";
  opencl.launch_s = 11.4e-6;
  opencl.sync_s = 0.7e-6;
  opencl.bandwidth_Bps = 2922e9;
  opencl.ops_per_s[0] = 39028e9;
  opencl.ops_per_s[1] = 25348e9;
  opencl.ops_per_s[2] = 49327e9;
  opencl.to_device_latency_s = 7.8e-6;
  opencl.to_host_latency_s = 8.5e-6;
  opencl.to_device_Bps = 8.4e9;
  opencl.to_host_Bps = 15e9;
  opencl.to_device_pinned_Bps = 54e9;
  opencl.to_host_pinned_Bps = 55e9;
  opencl.sort_keys_per_s = 1.9e8;
  opencl.sort_overhead_s = 3.3e-3;

  DeviceCosts cuda;
  cuda.selector = "cuda:0";
  cuda.launch_s = 10.5e-6;
  cuda.sync_s = 1.6e-6;
  cuda.bandwidth_Bps = 2957e9;
  cuda.ops_per_s[0] = 37562e9;
  cuda.ops_per_s[1] = 25704e9;
  cuda.ops_per_s[2] = 50137e9;
  cuda.to_device_latency_s = 7.8e-6;
  cuda.to_host_latency_s = 9.6e-6;
  cuda.to_device_Bps = 7.6e9;
  cuda.to_host_Bps = 12e9;
  cuda.to_device_pinned_Bps = 55e9;
  cuda.to_host_pinned_Bps = 55e9;
  cuda.sort_keys_per_s = 8e9;
  cuda.sort_overhead_s = 30e-6;
  return {host, opencl, cuda};
}

// Residence bits of h100_table().
constexpr std::uint64_t on_h100_host = 0b001;
constexpr std::uint64_t on_h100_opencl = 0b010;
constexpr std::uint64_t on_h100_cuda = 0b100;

// The table `weft devices --costs` printed on the lent H200 machine (format 3,
// bench/results/2026-11-28-h200-placement-sortrate.txt: 16 host threads, NVIDIA OpenCL, CUDA):
// copies timed as a raw 64-byte copy and a warm 64 MiB pageable rate, one launch figure,
// no math rate. Same device order as h100_table().
inline std::vector<DeviceCosts> h200_format3_table() {
  const auto device = [](const char* selector, bool host, double launch, double sync, double bw, double f32,
                         double f64, double i32, double lat_to, double lat_from, double to, double from) {
    DeviceCosts c;
    c.selector = selector;
    c.memory_is_host = host;
    c.launch_s = launch;
    c.sync_s = sync;
    c.bandwidth_Bps = bw;
    c.ops_per_s[0] = f32;
    c.ops_per_s[1] = f64;
    c.ops_per_s[2] = i32;
    c.to_device_latency_s = lat_to;
    c.to_host_latency_s = lat_from;
    c.to_device_Bps = to;
    c.to_host_Bps = from;
    return c;
  };
  // (The host's pageable rates print as "host mem"; its read is a memcpy as its pinned one, 5.1 GB/s.)
  DeviceCosts host = device("host", true, 0.6e-6, 0.3e-6, 98e9, 807e9, 409e9, 336e9, 0.2e-6, 0.2e-6, 0, 5.1e9);
  host.sort_keys_per_s = 0.10e9;
  host.sort_overhead_s = 79.8e-6;
  DeviceCosts opencl = device("opencl:0:0", false, 11.6e-6, 0.8e-6, 4098e9, 36807e9, 25841e9, 53946e9, 10.2e-6,
                              11.5e-6, 36e9, 39e9);
  opencl.sort_keys_per_s = 0.39e9;
  opencl.sort_overhead_s = 3038e-6;
  DeviceCosts cuda = device("cuda:0", false, 9.1e-6, 1.4e-6, 4176e9, 36364e9, 24781e9, 51253e9, 7.7e-6, 9.3e-6,
                            34e9, 42e9);
  cuda.sort_keys_per_s = 22e9;
  cuda.sort_overhead_s = 49.1e-6;
  return {host, opencl, cuda};
}

// The same H200 with the terms of format 4, fitted to what `weft bench placement` measured
// there (same file; per array, from the fixed devices' rows): a read of a resident array into
// host memory 11-13 us at 400 B, 27-30 us at 40 KB, 72-90 us at 400 KB, 420-460 us at 4 MB;
// an array made on a GPU from host memory 55-60 us at 400 B-40 KB, 125-130 us at 400 KB,
// 610-670 us at 4 MB; the host's own read (a memcpy into fresh memory) 1 ms at 4 MB; the
// host's launch over its thread pool 45 us (a*b+c: 5 us at 10^3, 47 us at 10^4); sin/exp/cos
// on the host 3.0 ms for 6 * 10^6 calls (2 G calls/s). What `weft calibrate` measures itself
// on the machine (these are fits, for the tests to reason on).
inline std::vector<DeviceCosts> h200_table() {
  std::vector<DeviceCosts> t = h200_format3_table();
  DeviceCosts& host = t[0];
  host.wide_launch_s = 45e-6;
  host.math_per_s = 2e9;
  host.to_host_latency_s = 1e-6;
  host.to_host_small_Bps = 8e9;
  host.to_host_Bps = 3.5e9;
  DeviceCosts& opencl = t[1];
  opencl.wide_launch_s = opencl.launch_s;
  opencl.math_per_s = 2e12;
  opencl.to_device_latency_s = 56e-6;
  opencl.to_device_small_Bps = 7e9;
  opencl.to_device_Bps = 7.5e9;
  opencl.to_host_latency_s = 13e-6;
  opencl.to_host_small_Bps = 3e9;
  opencl.to_host_Bps = 10.9e9;
  DeviceCosts& cuda = t[2];
  cuda.wide_launch_s = cuda.launch_s;
  cuda.math_per_s = 2e12;
  cuda.to_device_latency_s = 55e-6;
  cuda.to_device_small_Bps = 4.5e9;
  cuda.to_device_Bps = 6.6e9;
  cuda.to_host_latency_s = 11e-6;
  cuda.to_host_small_Bps = 2.2e9;
  cuda.to_host_Bps = 9.3e9;
  return t;
}

// What `weft calibrate` measured on the lent H200 in format 4
// (bench/results/2026-11-29-h200-costs-format4.txt), with the two terms format 5 adds fitted
// to that run's `weft bench placement` rows (2026-11-29-h200-placement-format4.json), as
// `weft calibrate` measures them now:
// - one chunk's math rate: sin/exp/cos (6 calls an element) on the host 12.7 us at 10^2, 50.4
//   us at 10^3 elements (from host): 5400 calls in 37.7 us, 143 M/s, one thread's share of
//   the 2.8 G/s of 16;
// - the switch between CUDA's and NVIDIA OpenCL's contexts: a GPU variant of a case from the
//   host timed 160-200 us where the copy, launch and sync terms say 45-60 us (`light a*b+c`
//   n=100 on cuda:0 168 us, on opencl:0:0 178 us; on cuda:0 52.5 us at n=1000 in the one case
//   whose rounds had cuda:0 last), about 130 us, as bench/placement_auto_overhead.py
//   --between cuda:0 showed.
inline std::vector<DeviceCosts> h200_measured_table() {
  std::vector<DeviceCosts> t = h200_format3_table();
  const auto set = [](DeviceCosts& c, double launch, double wide, double sync, double bw, double f32, double f64,
                      double i32, double math, double lat_to, double lat_from, double small_to, double small_from,
                      double to, double from, double sort_rate, double sort_plus) {
    c.launch_s = launch;
    c.wide_launch_s = wide;
    c.sync_s = sync;
    c.bandwidth_Bps = bw;
    c.ops_per_s[0] = f32;
    c.ops_per_s[1] = f64;
    c.ops_per_s[2] = i32;
    c.math_per_s = math;
    c.to_device_latency_s = lat_to;
    c.to_host_latency_s = lat_from;
    c.to_device_small_Bps = small_to;
    c.to_host_small_Bps = small_from;
    c.to_device_Bps = to;
    c.to_host_Bps = from;
    c.sort_keys_per_s = sort_rate;
    c.sort_overhead_s = sort_plus;
  };
  set(t[0], 0.7e-6, 30.5e-6, 0.3e-6, 137e9, 862e9, 474e9, 342e9, 2.8e9, 1.0e-6, 0.7e-6, 0, 18e9, 0, 5.9e9, 0.13e9,
      55.1e-6);
  set(t[1], 12.1e-6, 12.3e-6, 1.3e-6, 3996e9, 37880e9, 24224e9, 49752e9, 1368e9, 10.8e-6, 10.7e-6, 3.9e9, 2.8e9, 11e9,
      4.4e9, 0.39e9, 3037e-6);
  set(t[2], 9.5e-6, 9.3e-6, 1.6e-6, 4006e9, 36418e9, 24058e9, 50453e9, 1190e9, 8.5e-6, 9.5e-6, 3.8e9, 2.9e9, 12e9,
      4.3e9, 21e9, 43.1e-6);
  t[0].to_device_pinned_Bps = 6.5e9;
  t[0].to_host_pinned_Bps = 5.6e9;
  for (DeviceCosts* gpu : {&t[1], &t[2]}) gpu->to_device_pinned_Bps = gpu->to_host_pinned_Bps = 55e9;
  for (DeviceCosts& c : t) c.identity = c.selector + "|H200 machine";
  return t;
}

// h200_measured_table() with format 5's terms: one chunk's math rate and the two segments of
// the sort's rate on the host, and the 130 us switch between cuda:0 and opencl:0:0 (device
// indices as h100_table()).
inline std::vector<DeviceCosts> h200_format5_table() {
  std::vector<DeviceCosts> t = h200_measured_table();
  t[0].narrow_math_per_s = 143e6;
  // The host's sort in two segments, as three sizes fit it: 86.6 us at 4096 keys (format 4's
  // fit), about 1.5 ms at 65536 (between the bench's 291 us at 10^4 and 2.28 ms at 10^5), 16.2
  // ms at 2^21 (format 4's fit).
  t[0].sort_small_keys_per_s = 42.7e6;
  t[0].sort_keys_per_s = 138e6;
  t[0].sort_overhead_s = 0;
  t[1].switch_after = {{t[2].selector, t[2].identity, 130e-6}};
  t[2].switch_after = {{t[1].selector, t[1].identity, 130e-6}};
  return t;
}

// The table `weft devices --costs` printed on the 2-core VM after `weft calibrate` (format 5,
// bench/results/2026-11-29-vm2core-placement-format5.txt): the host's threads and PoCL, in
// the printed precision (PoCL's one-chunk math rate printed 0.0 G/s: left unmeasured).
inline std::vector<DeviceCosts> vm2core_format5_table() {
  DeviceCosts host;
  host.selector = "host";
  host.memory_is_host = true;
  host.launch_s = 0.3e-6;
  host.wide_launch_s = 49.6e-6;
  host.sync_s = 0.2e-6;
  host.bandwidth_Bps = 33e9;
  host.ops_per_s[0] = 190e9;
  host.ops_per_s[1] = 95e9;
  host.ops_per_s[2] = 91e9;
  host.math_per_s = 0.6e9;
  host.narrow_math_per_s = 0.2e9;
  host.to_device_latency_s = 0.5e-6;
  host.to_host_latency_s = 0.2e-6;
  host.to_host_small_Bps = 32e9;
  host.to_host_Bps = 14e9;
  host.to_device_pinned_Bps = 8.2e9;
  host.to_host_pinned_Bps = 7.8e9;
  host.sort_small_keys_per_s = 0.07e9;
  host.sort_keys_per_s = 0.06e9;
  DeviceCosts pocl;
  pocl.selector = "opencl:0:0";
  pocl.launch_s = 55.3e-6;
  pocl.wide_launch_s = 58.8e-6;
  pocl.sync_s = 0.1e-6;
  pocl.bandwidth_Bps = 20e9;
  pocl.ops_per_s[0] = 17e9;
  pocl.ops_per_s[1] = 19e9;
  pocl.ops_per_s[2] = 13e9;
  pocl.math_per_s = 0.1e9;
  pocl.to_device_latency_s = 41.8e-6;
  pocl.to_host_latency_s = 42.7e-6;
  pocl.to_device_small_Bps = 33e9;
  pocl.to_host_small_Bps = 1.6e9;
  pocl.to_device_Bps = 31e9;
  pocl.to_host_Bps = 23e9;
  pocl.to_device_pinned_Bps = 7.6e9;
  pocl.to_host_pinned_Bps = 6.2e9;
  pocl.sort_small_keys_per_s = 0.06e9;
  pocl.sort_keys_per_s = 0.11e9;
  pocl.sort_overhead_s = 107e-6;
  std::vector<DeviceCosts> t{host, pocl};
  for (DeviceCosts& c : t) c.identity = c.selector + "|2-core VM";
  return t;
}

// vm2core_format5_table() with the figures a format 9 calibration adds: PoCL's launch queued
// behind another 3 us (20-26 us waited for alone), its three-pass scan of 1024 elements 60 us;
// the host's queued launch 0.2 us.
inline std::vector<DeviceCosts> vm2core_queued_table() {
  std::vector<DeviceCosts> t = vm2core_format5_table();
  t[1].queued_launch_s = 3e-6;
  t[1].scan_launch_s = 60e-6;
  t[0].queued_launch_s = 0.2e-6;
  return t;
}

}  // namespace weft::test
