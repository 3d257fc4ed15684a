// The chooser on a GPU machine's measured table (device_tables.hpp: host threads, NVIDIA
// OpenCL and CUDA as `weft calibrate` measured them on an H100, sort rates fitted to an H200's
// runs): the cases `weft bench placement` missed there. Data resident on the OpenCL GPU at
// 10^5..10^6 elements stays there; sorts of 10^5..10^6 keys go to CUB, small ones stay on the
// host; a device's measured sort rate replaces the radix passes' bytes and operations.
#include <gtest/gtest.h>

#include <vector>

#include "placement/device_tables.hpp"
#include "weft/placement.hpp"

namespace weft {
namespace {

using test::h100_table;
using test::on_h100_cuda;
using test::on_h100_opencl;
using namespace test::table;

// eval(a*b+c) (or, with reduce, float(sum(sqrt(a*b+c)*2))) of three float32 arrays of n
// elements, as src/placement/auto_placement.cpp estimates it.
WorkEstimate three_inputs(double n, double ops_per_element, bool reduce) {
  WorkEstimate w;
  w.elements = static_cast<std::int64_t>(n);
  w.bytes_read = 12 * n;
  w.ops = n * (ops_per_element + (reduce ? 1 : 0));
  if (reduce) {
    w.result_to_host = true;
    w.result_bytes = 8;
  } else {
    w.bytes_written = 4 * n;
    w.result_bytes = 4 * n;  // (resident inputs: the result is assumed to stay)
  }
  return w;
}

std::vector<InputResidence> resident(double bytes, std::size_t count, std::uint64_t where) {
  return std::vector<InputResidence>(count, InputResidence{bytes, where, false});
}

TEST(PlacementModel, DataResidentOnAnOpenclGpuStaysThere) {
  // The bench's "from opencl:0:0" cases at 10^5 and 10^6: staying takes 30-45 us there; the
  // host must first read 1.2-12 MB over PCIe, CUDA copy them through the host.
  Chooser chooser(h100_table());
  for (const double n : {1e4, 1e5, 1e6}) {
    const auto in = resident(4 * n, 3, on_h100_opencl);
    const WorkEstimate light = three_inputs(n, 2, false), heavy = three_inputs(n, 100, false);
    const WorkEstimate sum = three_inputs(n, 7, true);
    for (const WorkEstimate* w : {&light, &heavy, &sum}) {
      EXPECT_EQ(chooser.choose(*w, in), opencl) << n << "\n" << chooser.explain("op", *w, in);
      // The copies weigh: the host's estimate is at least the inputs' reads.
      EXPECT_GT(chooser.estimate(host, *w, in).copy_in, 3 * (8.5e-6 + 4 * n / 15e9) * 0.999);
      EXPECT_DOUBLE_EQ(chooser.estimate(opencl, *w, in).copy_in, 0);
    }
    // A scan's three launches there (35 us) against the host's read of its one input: from
    // 10^5 elements the read weighs more. (At 10^4 the model takes the host, 16 us against
    // 35 us, where an H200 measured the host's path at 95 us and staying at 25 us: the read
    // of a resident array into host memory costs more than this table's 64-byte read and
    // 8 MiB rate say. Copies timed as arrays make them correct it: test_copy_terms.cpp.)
    if (n >= 1e5) {
      WorkEstimate scan = scan_work(static_cast<std::int64_t>(n), 4 * n, 1, 4, Arithmetic::float64);
      EXPECT_EQ(chooser.choose(scan, resident(4 * n, 1, on_h100_opencl)), opencl) << n;
    }
  }
  // The same on CUDA.
  const auto in = resident(4e5, 3, on_h100_cuda);
  EXPECT_EQ(chooser.choose(three_inputs(1e5, 2, false), in), cuda);
}

TEST(PlacementModel, AMeasuredSortRateReplacesTheRadixPasses) {
  const std::vector<DeviceCosts> table = h100_table();
  Chooser chooser(table);
  WorkEstimate w = sort_work(1'000'000, 4);
  EXPECT_DOUBLE_EQ(w.sort_keys, 1e6);  // float32 keys: the unit the rate is measured in
  EXPECT_DOUBLE_EQ(sort_work(1000, 8).sort_keys, 4000);  // twice the passes, twice the bytes
  const auto in = resident(4e6, 1, on_h100_cuda);
  for (const std::size_t d : {host, opencl, cuda}) {
    const PlacementEstimate e = chooser.estimate(d, w, in);
    EXPECT_DOUBLE_EQ(e.launch, table[d].sort_overhead_s + table[d].sync_s) << d;
    EXPECT_DOUBLE_EQ(e.compute, 1e6 / table[d].sort_keys_per_s) << d;
  }
  // Not measured (a calibration of before, an injected table): the passes' bytes and operations.
  std::vector<DeviceCosts> unmeasured = table;
  unmeasured[cuda].sort_keys_per_s = 0;
  Chooser old(unmeasured);
  EXPECT_DOUBLE_EQ(old.estimate(cuda, w, in).launch, 12 * table[cuda].launch_s + table[cuda].sync_s);
}

TEST(PlacementModel, SortsGoWhereTheirMeasuredRateSays) {
  // Before the sort rate every device got the same radix-pass estimate, and the host's sort
  // (2.6-9 ms at 10^5-10^6 keys) was taken where CUB takes 0.2-1.7 ms.
  Chooser chooser(h100_table());
  for (const double n : {1e5, 1e6}) {
    const auto keys = static_cast<std::int64_t>(n);
    WorkEstimate from_host = sort_work(keys, 4);
    from_host.result_to_host = true;
    from_host.result_bytes = 4 * n;
    const std::vector<InputResidence> host_memory = {{4 * n, 0, true}};
    EXPECT_EQ(chooser.choose(from_host, host_memory), cuda) << n << "\n" << chooser.explain("sort", from_host, host_memory);
    const WorkEstimate stays = sort_work(keys, 4);
    EXPECT_EQ(chooser.choose(stays, resident(4 * n, 1, on_h100_cuda)), cuda) << n;
    EXPECT_EQ(chooser.choose(stays, resident(4 * n, 1, on_h100_opencl)), cuda) << n;
  }
  // A few hundred keys: the host's sort costs less than any launch.
  for (const double n : {100.0, 1000.0}) {
    WorkEstimate w = sort_work(static_cast<std::int64_t>(n), 4);
    w.result_to_host = true;
    w.result_bytes = 4 * n;
    const std::vector<InputResidence> host_memory = {{4 * n, 0, true}};
    EXPECT_EQ(chooser.choose(w, host_memory), host) << n;
  }
}

}  // namespace
}  // namespace weft
