// The chooser on synthetic device tables for the operations that are not one fused kernel:
// the work estimates of a scan, a radix sort and polygon_mask are what their kernels do, and
// decisions on them follow the model (small work on the host, data resident on a device
// staying there, a large mask's copy to the host weighed).
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "placement/device_tables.hpp"
#include "weft/placement.hpp"

namespace weft {
namespace {

// The shared synthetic table (device_tables.hpp): a host and a discrete GPU.
using test::gpu_costs;
using test::host_costs;
using test::on_gpu;
using test::on_host_device;

std::vector<InputResidence> one_input(double bytes, std::uint64_t where) {
  return {{bytes, where, where == on_host_device}};
}

// The index of the cheapest device by the model's totals (the first of equals).
std::size_t argmin(const Chooser& c, const WorkEstimate& w, const std::vector<InputResidence>& in) {
  std::size_t best = 0;
  double best_t = std::numeric_limits<double>::infinity();
  for (std::size_t d = 0; d < c.devices().size(); ++d) {
    const double t = c.estimate(d, w, in).total();
    if (t < best_t) best = d, best_t = t;
  }
  return best;
}

TEST(OperationWork, ScanReadsItsInputTwiceInThreeLaunches) {
  const WorkEstimate w = scan_work(1000, 4000, 1, 4, Arithmetic::float64);
  EXPECT_EQ(w.elements, 1000);
  EXPECT_DOUBLE_EQ(w.bytes_read, 8000);
  EXPECT_DOUBLE_EQ(w.bytes_written, 4000);
  EXPECT_DOUBLE_EQ(w.ops, 3000);
  EXPECT_DOUBLE_EQ(w.launches, 3);
  EXPECT_EQ(w.arithmetic, Arithmetic::float64);
  EXPECT_FALSE(w.result_to_host);
}

TEST(OperationWork, SortMakesAPassPerKeyByte) {
  const WorkEstimate w = sort_work(1000, 4);
  EXPECT_DOUBLE_EQ(w.launches, 12);                // 4 passes of count, scan, scatter
  EXPECT_DOUBLE_EQ(w.bytes_read, 4 * 1000 * 8.0);  // each pass reads the keys twice
  EXPECT_DOUBLE_EQ(w.bytes_written, 4 * 1000 * 4.0);
  EXPECT_EQ(w.arithmetic, Arithmetic::integer);
  // 1000 rows of 10 doubles: 8 key passes and 2 over the row numbers, each moving an index too.
  const WorkEstimate r = sort_work(10000, 8, 1000);
  EXPECT_DOUBLE_EQ(r.launches, 30);
  EXPECT_DOUBLE_EQ(r.bytes_written, 10 * 10000 * 16.0);
}

TEST(OperationWork, PolygonCostsRowsTimesVerticesAndPixels) {
  const WorkEstimate w = polygon_work(256, 100, 200);
  EXPECT_EQ(w.elements, 20000);
  EXPECT_DOUBLE_EQ(w.ops, 100 * 256 * 8.0 + 2 * 20000.0);
  EXPECT_DOUBLE_EQ(w.bytes_written, 20000);
  EXPECT_TRUE(w.result_to_host);
  EXPECT_DOUBLE_EQ(w.result_bytes, 20000);
  EXPECT_EQ(w.arithmetic, Arithmetic::float64);
  EXPECT_GT(polygon_work(256, 100, 200).ops, polygon_work(4, 100, 200).ops);
}

TEST(OperationWork, LaunchesMultiplyTheLaunchCost) {
  Chooser chooser({host_costs(), gpu_costs()});
  const WorkEstimate w = sort_work(100, 4);
  EXPECT_DOUBLE_EQ(chooser.estimate(1, w, one_input(400, on_gpu)).launch, 12 * 20e-6 + 5e-6);
  EXPECT_DOUBLE_EQ(chooser.estimate(0, w, one_input(400, on_host_device)).launch, 12 * 5e-6 + 1e-6);
}

TEST(OperationChoice, SmallScansAndSortsStayOnTheHost) {
  Chooser chooser({host_costs(), gpu_costs()});
  for (const double n : {100.0, 1000.0}) {
    WorkEstimate scan = scan_work(static_cast<std::int64_t>(n), 4 * n, 1, 4, Arithmetic::float64);
    scan.result_to_host = true;
    EXPECT_EQ(chooser.choose(scan, one_input(4 * n, on_host_device)), 0u) << n;
    // Resident on the GPU, a 100-element sort's 12 launches there still cost more than a copy.
    EXPECT_EQ(chooser.choose(sort_work(static_cast<std::int64_t>(n), 4), one_input(4 * n, on_gpu)), 0u) << n;
  }
}

TEST(OperationChoice, LargeResidentWorkStaysOnTheDevice) {
  Chooser chooser({host_costs(), gpu_costs()});
  const double n = 1e8;
  EXPECT_EQ(chooser.choose(scan_work(100'000'000, 4 * n, 1, 4, Arithmetic::float64), one_input(4 * n, on_gpu)), 1u);
  EXPECT_EQ(chooser.choose(sort_work(100'000'000, 4), one_input(4 * n, on_gpu)), 1u);
}

TEST(OperationChoice, ALargeSortFromTheHostGoesWhereTheModelSays) {
  // 10^8 float32 keys in host memory: the host's 4 passes move 4.8 GB (0.24 s); the GPU's copies
  // there and back move 0.8 GB (0.16 s): the GPU, result copy included.
  Chooser chooser({host_costs(), gpu_costs()});
  const double n = 1e8;
  WorkEstimate w = sort_work(100'000'000, 4);
  w.result_to_host = true;
  const auto in = one_input(4 * n, on_host_device);
  EXPECT_EQ(chooser.choose(w, in), 1u);
  EXPECT_EQ(chooser.choose(w, in), argmin(chooser, w, in));
  EXPECT_NEAR(chooser.estimate(1, w, in).copy_out, 10e-6 + 4e8 / 5e9, 1e-9);
}

TEST(OperationChoice, PolygonMasksWeighTheMasksCopyBack) {
  Chooser chooser({host_costs(), gpu_costs()});
  const std::vector<InputResidence> few = {{16.0 * 4, 0, true}}, many = {{16.0 * 256, 0, true}};
  // A small mask: the host, whatever the vertex count.
  EXPECT_EQ(chooser.choose(polygon_work(4, 100, 100), few), 0u);
  EXPECT_EQ(chooser.choose(polygon_work(256, 100, 100), many), 0u);
  // A large image with few vertices: the pixels' work on the host (2 operations each in double, 8 ms)
  // against the mask's copy back from the GPU (20 ms) and its launch: the host.
  EXPECT_EQ(chooser.choose(polygon_work(4, 10000, 10000), few), 0u);
  // Many vertices make the rows' crossings dominate: 10^4 rows x 65536 edges in double.
  const std::vector<InputResidence> huge = {{16.0 * 65536, 0, true}};
  EXPECT_EQ(chooser.choose(polygon_work(65536, 10000, 10000), huge), 1u);
  for (const std::size_t v : {4u, 256u, 65536u}) {
    const std::vector<InputResidence> in = {{16.0 * static_cast<double>(v), 0, true}};
    for (const std::size_t side : {10u, 1000u, 10000u}) {
      const WorkEstimate w = polygon_work(v, side, side);
      EXPECT_EQ(chooser.choose_cached(v, w, in), argmin(chooser, w, in)) << v << " " << side;
    }
  }
}

}  // namespace
}  // namespace weft
