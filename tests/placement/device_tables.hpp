// Synthetic device tables for the chooser's unit tests (test_chooser.cpp, test_operations.cpp,
// test_resident_choice.cpp): one set of figures, shared, so that every test of the model
// reasons on the same machine.
//
//   weft::Chooser chooser({weft::test::host_costs(), weft::test::gpu_costs()});
//   weft::Chooser h100(weft::test::h100_table());   // host, opencl:0:0, cuda:0 as measured
#pragma once

#include <cstdint>
#include <vector>

#include "weft/placement.hpp"

namespace weft::test {

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

}  // namespace weft::test
