// Chains (docs/PLACEMENT.md, "Chains"): an operation decided over the operations that followed
// it last time (Chooser::chain_s, choose with following), on the H200's and the 2-core VM's
// tables as calibrated in session 16; and device auto recording what follows each operation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "array/auto_device.hpp"
#include "placement/chain_trace.hpp"
#include "placement/device_tables.hpp"
#include "weft/weft.hpp"

namespace weft {
namespace {

using namespace test::table;

// The terms a chain of 10^2-10^3 elements meets, as `weft devices --costs` prints them.
struct ChainTerms {
  double launch, queued, scan, scan_q, reduce, sync, lat_to, lat_from, small_to, small_from;
};
void set_terms(DeviceCosts& c, const ChainTerms& t) {
  c.launch_s = t.launch;
  c.queued_launch_s = t.queued;
  c.scan_launch_s = t.scan;
  c.scan_queued_s = t.scan_q;
  c.reduce_s = t.reduce;
  c.sync_s = t.sync;
  c.to_device_latency_s = t.lat_to;
  c.to_host_latency_s = t.lat_from;
  c.to_device_small_Bps = t.small_to;
  c.to_host_small_Bps = t.small_from;
}

// The lent H200 after `weft calibrate`, format 12 (bench/results/2026-11-29-h200-placement-session16.txt).
std::vector<DeviceCosts> h200_format12_table() {
  std::vector<DeviceCosts> t = test::h200_format5_table();
  set_terms(t[host], {0.9e-6, 0.4e-6, 5.4e-6, 5.4e-6, 0, 0.4e-6, 1.3e-6, 0.6e-6, 0, 8.2e9});
  set_terms(t[opencl], {14.2e-6, 9.8e-6, 18.4e-6, 12.9e-6, 0, 1.4e-6, 12.9e-6, 12.7e-6, 3.6e9, 2.5e9});
  set_terms(t[cuda], {10.0e-6, 5.0e-6, 13.9e-6, 7.7e-6, 0, 1.7e-6, 8.9e-6, 10.0e-6, 3.5e9, 2.5e9});
  t[host].narrow_math_per_s = 0.12e9;
  t[host].wide_launch_s = 20.4e-6;
  return t;
}

// The same in format 13 (bench/results/2026-11-30-h200-placement-session17.txt, its third
// lease): a reduction's value timed whole, reads of arrays made afresh.
std::vector<DeviceCosts> h200_format13_table() {
  std::vector<DeviceCosts> t = test::h200_format5_table();
  set_terms(t[host], {0.6e-6, 0.2e-6, 3.5e-6, 3.3e-6, 2.5e-6, 0.3e-6, 1.1e-6, 0.5e-6, 0, 18e9});
  set_terms(t[opencl], {14.7e-6, 9.9e-6, 20.7e-6, 15.4e-6, 32.1e-6, 1.3e-6, 12.2e-6, 11.0e-6, 2.9e9, 2.2e9});
  set_terms(t[cuda], {9.8e-6, 4.6e-6, 14.2e-6, 7.4e-6, 19.4e-6, 1.6e-6, 9.0e-6, 9.6e-6, 3.6e9, 2.3e9});
  t[host].narrow_math_per_s = 0.14e9;
  t[host].wide_launch_s = 15.3e-6;
  return t;
}

// The chain of `weft bench placement`, `t = a*b+c; u = sin(t)*a; sum(cumsum(u)*t)` of n float32
// elements, as device auto estimates its operations (auto_placement.cpp's analysis).
WorkEstimate first_step(double n) {
  return {.elements = static_cast<std::int64_t>(n), .bytes_read = 12 * n, .bytes_written = 4 * n, .ops = 2 * n,
          .result_bytes = 4 * n};
}
std::vector<ChainStep> chain_after_first(double n) {
  const auto step = [](std::uint64_t signature, const WorkEstimate& w, bool value,
                       std::initializer_list<ChainInput> inputs) {
    ChainStep s;
    s.signature = signature;
    s.work = w;
    s.value = value;
    for (const ChainInput& in : inputs) s.inputs[s.input_count++] = in;
    return s;
  };
  const auto result = [](std::uint8_t k) { return ChainInput{ChainInput::From::result, k, {}}; };
  const auto first_input = [](std::uint8_t k) { return ChainInput{ChainInput::From::first_input, k, {}}; };
  const auto e = static_cast<std::int64_t>(n);
  const WorkEstimate u{.elements = e, .bytes_read = 8 * n, .bytes_written = 4 * n, .ops = 17 * n, .math_calls = n,
                       .result_bytes = 4 * n};
  const WorkEstimate scan = scan_work(e, 4 * n, 1, 4, Arithmetic::float64);
  const WorkEstimate sum{.elements = e, .bytes_read = 8 * n, .ops = 2 * n, .result_to_host = true, .result_bytes = 8,
                         .reduction = true};
  return {step(11, u, false, {result(0), first_input(0)}), step(12, scan, false, {result(1)}),
          step(13, sum, true, {result(2), result(0)})};
}

TEST(PlacementChains, AChainResidentOnNvidiaOpenclMovesToTheHostWhereItsFirstStepAloneStays) {
  // On the H200 the chain resident on NVIDIA OpenCL at 10^2 elements stayed there step by step
  // (63-75 us) where reading its three inputs into host memory first and running the rest on
  // the host took 42-51 us. Its first step alone is cheaper on OpenCL (about 16 us against 40).
  Chooser chooser(h200_format12_table());
  const WorkEstimate w = first_step(100);
  const std::vector<InputResidence> in(3, InputResidence{400, on_opencl, false});
  const std::vector<ChainStep> following = chain_after_first(100);
  EXPECT_EQ(chooser.choose(w, in, 0, opencl), opencl) << chooser.explain("eval", w, in, 0, opencl);
  EXPECT_EQ(chooser.choose(w, in, 0, opencl, following), host) << chooser.explain("eval", w, in, 0, opencl, following);
  const double there = chooser.chain_s(opencl, w, in, following, 0, opencl);
  const double moved = chooser.chain_s(host, w, in, following, 0, opencl);
  // Staying: a launch, two queued ones and a queued scan, the wait and the value's read.
  EXPECT_GT(there, 55e-6);
  EXPECT_LT(there, 65e-6);
  // Moving: three reads of 400 bytes (about 13 us each), then the host's launches.
  EXPECT_GT(moved, 40e-6);
  EXPECT_LT(moved, 50e-6);
  const std::string why = chooser.explain("eval", w, in, 0, opencl, following);
  EXPECT_NE(why.find("with the 3 operations that followed"), std::string::npos) << why;
  EXPECT_NE(why.find("-> host"), std::string::npos) << why;
  // Without following, chain_s is the operation's own estimate.
  EXPECT_DOUBLE_EQ(chooser.chain_s(opencl, w, in, {}, 0, opencl), chooser.estimate(opencl, w, in, opencl).total());
}

TEST(PlacementChains, WithTheReductionTimedWholeTheChainOfAThousandMovesToo) {
  // Format 12 charged the chain's closing sum on NVIDIA OpenCL a launch, a sync and a read
  // (19.6 us where it took 31.7): at 10^3 elements the chain stayed there at 1.27-1.30 times
  // the host path's time. With the reduction timed whole (format 13) it moves at 10^2 and 10^3.
  Chooser chooser(h200_format13_table());
  for (const double n : {1e2, 1e3}) {
    const WorkEstimate w = first_step(n);
    const std::vector<InputResidence> in(3, InputResidence{4 * n, on_opencl, false});
    const std::vector<ChainStep> following = chain_after_first(n);
    EXPECT_EQ(chooser.choose(w, in, 0, opencl), opencl) << n << ": " << chooser.explain("eval", w, in, 0, opencl);
    EXPECT_EQ(chooser.choose(w, in, 0, opencl, following), host)
        << n << ": " << chooser.explain("eval", w, in, 0, opencl, following);
  }
}

TEST(PlacementChains, OnTheVmAChainResidentOnPoclStaysThere) {
  // The same chain resident on PoCL on the 2-core VM: staying is best there (a PoCL read into
  // host memory costs 43 us), and the chain's estimate says so too.
  std::vector<DeviceCosts> t = test::vm2core_queued_table();
  constexpr std::size_t vm_host = 0, vm_pocl = 1;
  t[vm_pocl].scan_queued_s = 15e-6;
  Chooser chooser(t);
  for (const double n : {1e2, 1e3}) {
    const WorkEstimate w = first_step(n);
    const std::vector<InputResidence> in(3, InputResidence{4 * n, 0b10, false});
    const std::vector<ChainStep> following = chain_after_first(n);
    EXPECT_EQ(chooser.choose(w, in, 0, Chooser::no_device, following), vm_pocl)
        << chooser.explain("eval", w, in, 0, Chooser::no_device, following);
    EXPECT_LT(chooser.chain_s(vm_pocl, w, in, following), chooser.chain_s(vm_host, w, in, following));
  }
}

TEST(PlacementChains, AResultTheNextStepReadsPaysNoCopyBackAndNoWaitBetweenThem) {
  std::vector<DeviceCosts> t{test::host_costs(), test::gpu_costs()};
  t[1].queued_launch_s = 2e-6;
  Chooser chooser(t);
  const double n = 1e5;
  // The first operation from host memory: alone, its result is likely read on the host.
  WorkEstimate w = first_step(n);
  w.result_to_host = true;
  const std::vector<InputResidence> in(3, InputResidence{4 * n, test::on_host_device, true});
  // One step reading its result, on the GPU where it is pending.
  ChainStep next;
  next.signature = 5;
  next.work = {.elements = static_cast<std::int64_t>(n), .bytes_read = 4 * n, .bytes_written = 4 * n, .ops = n,
               .result_bytes = 4 * n};
  next.inputs[next.input_count++] = {ChainInput::From::result, 0, {}};
  const std::vector<ChainStep> following{next};
  WorkEstimate stays = w;
  stays.result_to_host = false;
  const PlacementEstimate first = chooser.estimate(1, stays, in);
  const std::vector<InputResidence> pending{{4 * n, test::on_gpu, false, test::on_gpu}};
  const PlacementEstimate second = chooser.estimate(1, next.work, pending, 1);
  ASSERT_EQ(chooser.choose(next.work, pending, 0, 1), 1u) << chooser.explain("next", next.work, pending, 0, 1);
  // The first's copy back is not paid (the step reads it where it is), nor its wait (the step
  // is queued behind it).
  EXPECT_NEAR(chooser.chain_s(1, w, in, following), first.total() - t[1].sync_s + second.total(), 1e-12);
  EXPECT_GT(chooser.estimate(1, w, in).copy_out, 0);
}

TEST(PlacementChains, AChainsDecisionIsRememberedApartFromTheOperationsAlone) {
  Chooser chooser(h200_format12_table());
  const WorkEstimate w = first_step(100);
  const std::vector<InputResidence> in(3, InputResidence{400, on_opencl, false});
  const std::vector<ChainStep> following = chain_after_first(100);
  bool remembered = true;
  EXPECT_EQ(chooser.choose_cached(9, w, in, &remembered, opencl), opencl);
  EXPECT_FALSE(remembered);
  EXPECT_EQ(chooser.choose_cached(9, w, in, &remembered, opencl, following), host);
  EXPECT_FALSE(remembered);
  EXPECT_EQ(chooser.choose_cached(9, w, in, &remembered, opencl), opencl);
  EXPECT_TRUE(remembered);
  EXPECT_EQ(chooser.choose_cached(9, w, in, &remembered, opencl, following), host);
  EXPECT_TRUE(remembered);
  // Another chain (its last step gone) is decided afresh.
  const std::vector<ChainStep> shorter(following.begin(), following.end() - 1);
  chooser.choose_cached(9, w, in, &remembered, opencl, shorter);
  EXPECT_FALSE(remembered);
}

Expr in_expr(const std::vector<Array>& in) { return in[0] * in[1] + in[2]; }

// Device auto on the host: what followed an operation is remembered once the next chain begins,
// each input classed by where it came from.
TEST(PlacementChains, DeviceAutoRemembersWhatFollowedAnOperation) {
  if (!config().placement_chains) GTEST_SKIP() << "WEFT_PLACEMENT_CHAINS=0";
  detail::forget_chains();
  const Device host = device("host");
  const std::vector<float> v(100, 0.75f);
  const auto inputs = [&] {
    std::vector<Array> in;
    for (int i = 0; i < 3; ++i) in.push_back(Array::from_host<float>(v, Shape{100}, host).to_auto());
    return in;
  };
  const auto chain = [](const std::vector<Array>& in) {
    const Array t = eval(in[0] * in[1] + in[2]);
    const Array u = eval(sin(t) * in[0]);
    return sum(cumsum(u) * t).get();
  };
  const std::vector<Array> fresh = inputs();
  EXPECT_EQ(detail::chain_after(in_expr(fresh), false), nullptr);
  const double expected = chain(inputs());
  EXPECT_EQ(detail::chain_after(in_expr(fresh), false), nullptr);  // (the chain is not over yet)
  // The next chain's first operation ends it; the same results either way.
  EXPECT_DOUBLE_EQ(chain(inputs()), expected);
  const auto steps = detail::chain_after(in_expr(fresh), false);
  ASSERT_NE(steps, nullptr);
  ASSERT_EQ(steps->size(), 3u);
  using From = ChainInput::From;
  using Places = std::vector<std::pair<From, int>>;
  // Each input of a step: where it came from, which of them.
  const auto inputs_of = [](const ChainStep& s) {
    Places out;
    for (const ChainInput& in : s.view()) out.emplace_back(in.from, in.index);
    return out;
  };
  const ChainStep& u = (*steps)[0];
  EXPECT_EQ(inputs_of(u), (Places{{From::result, 0}, {From::first_input, 0}}));
  EXPECT_FALSE(u.value);
  EXPECT_EQ(u.work.math_calls, 100);
  const ChainStep& scan = (*steps)[1];
  EXPECT_EQ(inputs_of(scan), (Places{{From::result, 1}}));
  EXPECT_TRUE(scan.work.scan);
  const ChainStep& total = (*steps)[2];
  EXPECT_EQ(inputs_of(total), (Places{{From::result, 2}, {From::result, 0}}));
  EXPECT_TRUE(total.value);
  EXPECT_TRUE(total.work.reduction);
  // explain counts it; a step of the current chain is no chain's beginning.
  const PlacementExplanation why = explain(in_expr(fresh));
  EXPECT_EQ(why.following, 3u);
  EXPECT_EQ(why.chain_s.size(), why.devices.size());
  EXPECT_NE(why.text.find("with the 3 operations that followed"), std::string::npos) << why.text;
  const std::vector<Array> in = inputs();
  const Array t = eval(in[0] * in[1] + in[2]);
  EXPECT_EQ(detail::chain_after(Expr(t) * 2, false), nullptr);
  EXPECT_EQ(explain(Expr(t) * 2).following, 0u);
  detail::forget_chains();
}

TEST(PlacementChains, AnotherThreadsResultsAndPinnedOperationsAreNoSteps) {
  if (!config().placement_chains) GTEST_SKIP() << "WEFT_PLACEMENT_CHAINS=0";
  detail::forget_chains();
  const Device host = device("host");
  const std::vector<float> v(64, 2.0f);
  const Array a = Array::from_host<float>(v, Shape{64}, host).to_auto();
  Array t;
  std::thread([&] { t = eval(Expr(a) * 3); }).join();
  // Here t begins a chain: a*3 made on another thread is not this thread's chain's result.
  const Array u = eval(Expr(t) + 1);
  const Array w = eval(Expr(u) * 2);  // a step of u's chain
  Array pinned;
  {
    PlacementPin pin(host);
    pinned = eval(Expr(w) - 1);  // pinned: no step, its result untagged
  }
  EXPECT_EQ(pinned.to_host<float>(), std::vector<float>(64, 13.0f));
  const Array x = eval(Expr(pinned) * 1);  // begins a new chain: u's is over (one step)
  (void)x;
  const auto steps = detail::chain_after(Expr(t) + 1, false);
  ASSERT_NE(steps, nullptr);
  ASSERT_EQ(steps->size(), 1u);
  EXPECT_EQ((*steps)[0].inputs[0].from, ChainInput::From::result);
  detail::forget_chains();
}

}  // namespace
}  // namespace weft
