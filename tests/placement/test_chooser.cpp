// The chooser on synthetic device tables: decisions follow the model's formula, data resident
// on a device stays there when copies dominate, cached decisions equal fresh ones.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "placement/device_tables.hpp"
#include "weft/error.hpp"
#include "weft/placement.hpp"

namespace weft {
namespace {

using test::gpu_costs;
using test::host_costs;
using test::on_gpu;
using test::on_host_device;

// sum(a*b) over float32 arrays of n elements.
WorkEstimate light_sum(double n) {
  WorkEstimate w;
  w.elements = static_cast<std::int64_t>(n);
  w.bytes_read = 8 * n;
  w.ops = 2 * n;
  w.result_to_host = true;
  w.result_bytes = 8;
  return w;
}

std::vector<InputResidence> two_inputs(double n, std::uint64_t where, bool on_host) {
  return {{4 * n, where, on_host}, {4 * n, where, on_host}};
}

TEST(Chooser, EstimateIsTheDocumentedFormula) {
  Chooser chooser({host_costs(), gpu_costs()});
  const double n = 1e6;
  const WorkEstimate w = light_sum(n);
  const auto in = two_inputs(n, on_host_device, true);
  const PlacementEstimate h = chooser.estimate(0, w, in);
  EXPECT_DOUBLE_EQ(h.launch, 5e-6 + 1e-6);
  EXPECT_DOUBLE_EQ(h.compute, std::max(8e6 / 20e9, 2e6 / 50e9));
  EXPECT_DOUBLE_EQ(h.copy_in, 0);   // the host reads host memory
  EXPECT_DOUBLE_EQ(h.copy_out, 0);  // and its result's read is a memcpy (this table has no rate for it)
  const PlacementEstimate g = chooser.estimate(1, w, in);
  EXPECT_DOUBLE_EQ(g.launch, 25e-6);
  EXPECT_DOUBLE_EQ(g.compute, std::max(8e6 / 2000e9, 2e6 / 30e12));
  EXPECT_DOUBLE_EQ(g.copy_in, 2 * (10e-6 + 4e6 / 5e9));
  EXPECT_DOUBLE_EQ(g.copy_out, 10e-6 + 8 / 5e9);
  EXPECT_DOUBLE_EQ(g.total(), g.launch + g.compute + g.copy_in + g.copy_out);
}

TEST(Chooser, AResultReadFromHostMemoryCountsItsMemcpy) {
  // Python's get() and C++'s to_host copy a result out of the host backend's memory too: at
  // the host's measured copy rate, when it was measured.
  DeviceCosts host = host_costs();
  host.to_host_latency_s = 1e-6;
  host.to_host_Bps = 10e9;
  Chooser chooser({host, gpu_costs()});
  WorkEstimate w = light_sum(1e6);
  w.bytes_written = 4e6;
  w.result_bytes = 4e6;  // an eval whose result is read on the host
  const auto in = two_inputs(1e6, on_host_device, true);
  EXPECT_DOUBLE_EQ(chooser.estimate(0, w, in).copy_in, 0);
  EXPECT_DOUBLE_EQ(chooser.estimate(0, w, in).copy_out, 1e-6 + 4e6 / 10e9);
  EXPECT_DOUBLE_EQ(chooser.estimate(1, w, in).copy_out, 10e-6 + 4e6 / 5e9);
}

TEST(Chooser, SmallWorkStaysOnTheHost) {
  Chooser chooser({host_costs(), gpu_costs()});
  EXPECT_EQ(chooser.choose(light_sum(100), two_inputs(100, on_host_device, true)), 0u);
  // Even with the data on the GPU, 100 elements cost less than a launch there.
  EXPECT_EQ(chooser.choose(light_sum(100), two_inputs(100, on_gpu, false)), 0u);
}

TEST(Chooser, LargeLightWorkFromTheHostStaysOnTheHost) {
  // 10^8 elements read from host memory: the copies (0.16 s) outweigh the host's pass (0.04 s).
  Chooser chooser({host_costs(), gpu_costs()});
  EXPECT_EQ(chooser.choose(light_sum(1e8), two_inputs(1e8, on_host_device, true)), 0u);
}

TEST(Chooser, DataResidentOnTheDeviceStaysThere) {
  // The same work with both inputs already (and only) on the GPU: copying them back costs
  // more than the GPU's pass, so it runs where the data is.
  Chooser chooser({host_costs(), gpu_costs()});
  EXPECT_EQ(chooser.choose(light_sum(1e8), two_inputs(1e8, on_gpu, false)), 1u);
  EXPECT_EQ(chooser.choose(light_sum(1e5), two_inputs(1e5, on_gpu, false)), 1u);
}

TEST(Chooser, HeavyArithmeticGoesToTheFastDevice) {
  Chooser chooser({host_costs(), gpu_costs()});
  WorkEstimate w = light_sum(1e8);
  w.ops = 400 * 1e8;  // transcendental functions of each element
  EXPECT_EQ(chooser.choose(w, two_inputs(1e8, on_host_device, true)), 1u);
}

TEST(Chooser, ADeviceWithoutTheArithmeticIsNeverChosen) {
  DeviceCosts no_fp64 = gpu_costs();
  no_fp64.ops_per_s[static_cast<int>(Arithmetic::float64)] = 0;
  Chooser chooser({host_costs(), no_fp64});
  WorkEstimate w = light_sum(1e8);
  w.arithmetic = Arithmetic::float64;
  w.ops = 400 * 1e8;
  EXPECT_EQ(chooser.choose(w, two_inputs(1e8, on_gpu, false)), 0u);
  EXPECT_TRUE(std::isinf(chooser.estimate(1, w, two_inputs(1e8, on_gpu, false)).compute));
}

TEST(Chooser, ResultLikelyReadOnTheHostCountsItsCopy) {
  Chooser chooser({host_costs(), gpu_costs()});
  WorkEstimate w;
  w.elements = 10'000'000;
  w.bytes_read = 4e7;
  w.bytes_written = 4e7;
  w.ops = 30 * 1e7;
  w.result_bytes = 4e7;
  const std::vector<InputResidence> in = {{4e7, on_gpu, false}};
  // Resident input, result staying: the GPU.
  EXPECT_EQ(chooser.choose(w, in), 1u);
  // The same, but the result goes back to the host (8 ms of copy): still cheaper there than
  // moving the input (8 ms) and computing on the host (6 ms)? The model says which.
  w.result_to_host = true;
  const double host_t = chooser.estimate(0, w, in).total(), gpu_t = chooser.estimate(1, w, in).total();
  EXPECT_EQ(chooser.choose(w, in), host_t < gpu_t ? 0u : 1u);
  EXPECT_GT(chooser.estimate(1, w, in).copy_out, 7e-3);
}

TEST(Chooser, CachedDecisionsEqualFreshOnes) {
  Chooser chooser({host_costs(), gpu_costs()});
  for (double n = 10; n < 1e9; n *= 3.7) {
    for (std::uint64_t where : {on_host_device, on_gpu}) {
      const WorkEstimate w = light_sum(n);
      const auto in = two_inputs(n, where, where == on_host_device);
      const std::size_t fresh = chooser.choose(w, in);
      // The first call decides, the second is remembered; both follow the model. (Each size
      // class here is met once per residence, so the remembered one is this very decision.)
      EXPECT_EQ(chooser.choose_cached(42, w, in), fresh) << n;
      EXPECT_EQ(chooser.choose_cached(42, w, in), fresh) << n;
    }
  }
  chooser.forget();
  EXPECT_EQ(chooser.choose_cached(42, light_sum(1e8), two_inputs(1e8, on_gpu, false)), 1u);
}

TEST(Chooser, AWrongCalibrationIsCorrectedOnline) {
  // The table claims a GPU 100 times faster than it is: the first decisions send large light
  // work there; after a few observed runs at the real speed the chooser keeps it on the host.
  DeviceCosts optimistic = gpu_costs();
  optimistic.to_device_Bps *= 100;
  optimistic.to_host_Bps *= 100;
  Chooser chooser({host_costs(), optimistic});
  const WorkEstimate w = light_sum(1e8);
  const auto in = two_inputs(1e8, on_host_device, true);
  constexpr std::uint64_t sig = 7;
  ASSERT_EQ(chooser.choose_cached(sig, w, in), 1u);
  const double real_gpu = 100 * chooser.estimate(1, w, in).total();  // what the runs measure there
  int calls = 0;
  while (chooser.choose_cached(sig, w, in) == 1u && calls < 10) {
    chooser.observe(sig, w, in, 1, real_gpu);
    ++calls;
  }
  EXPECT_EQ(chooser.choose_cached(sig, w, in), 0u);
  EXPECT_LE(calls, 4);
  EXPECT_GE(calls, 2);  // the first run (which builds the kernel) is not counted
  EXPECT_GT(chooser.correction(sig, w.elements, 1, in), 10.0);
  EXPECT_EQ(chooser.correction(sig, w.elements, 0, in), 1.0);  // nothing learnt about the host
  EXPECT_EQ(chooser.correction(sig + 1, w.elements, 1, in), 1.0);  // nor about another operation
  // Nor about the same operation on data already on the GPU: the runs timed copies to it.
  EXPECT_EQ(chooser.correction(sig, w.elements, 1, two_inputs(1e8, on_gpu, false)), 1.0);
  // The model alone (no signature) still says the GPU.
  EXPECT_EQ(chooser.choose(w, in), 1u);
  EXPECT_NE(chooser.explain("sum", w, in, sig).find("learnt"), std::string::npos);
}

TEST(Chooser, ExplainNamesEveryDeviceAndTheChoice) {
  Chooser chooser({host_costs(), gpu_costs()});
  const std::string line = chooser.explain("sum", light_sum(1e6), two_inputs(1e6, on_host_device, true));
  EXPECT_EQ(line.rfind("sum n=1000000: host ", 0), 0u) << line;
  EXPECT_NE(line.find(" | cuda:0 "), std::string::npos) << line;
  EXPECT_NE(line.find(" ms copy"), std::string::npos) << line;
  EXPECT_NE(line.find("-> host"), std::string::npos) << line;
}

TEST(Chooser, RefusesAnEmptyOrOversizedTable) {
  EXPECT_THROW(Chooser({}), InvalidArgument);
  EXPECT_THROW(Chooser(std::vector<DeviceCosts>(64, host_costs())), InvalidArgument);
}

}  // namespace
}  // namespace weft
