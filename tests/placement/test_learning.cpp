// Online learning of device auto (docs/PLACEMENT.md): the learnt factors' file (checksum,
// identity, strict parsing), the chooser's export and import of them, and, end to end on the
// host and an OpenCL device, a deliberately wrong calibration corrected after a few calls and
// the correction stored with the calibration. The end-to-end tests need a program cache of
// their own (they store a wrong calibration): ctest runs them as PlacementLearnFreshCache; run
// with the shared test cache they skip.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "placement/costs_file.hpp"
#include "support.hpp"
#include "weft/config.hpp"
#include "weft/placement.hpp"
#include "weft/weft.hpp"

namespace weft {
namespace {

TEST(LearntFile, RoundTripsAndRefusesCorruptOrForeignText) {
  const std::vector<LearntFactor> factors = {{0x9e3779b97f4a7c15ULL, 10, 1.75}, {42, 20, 0.5}};
  const std::string text = detail::encode_learnt("host|cpu", factors);
  std::vector<LearntFactor> out;
  std::string problem;
  ASSERT_TRUE(detail::decode_learnt(text, "host|cpu", &out, &problem)) << problem;
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].signature, 0x9e3779b97f4a7c15ULL);
  EXPECT_EQ(out[0].size_class, 10u);
  EXPECT_DOUBLE_EQ(out[0].factor, 1.75);
  EXPECT_DOUBLE_EQ(out[1].factor, 0.5);
  EXPECT_FALSE(detail::decode_learnt(text, "opencl|other", &out, &problem));  // another device's
  EXPECT_NE(problem.find("opencl|other"), std::string::npos) << problem;
  std::string tampered = text;
  tampered[tampered.find("1.75")] = '9';
  EXPECT_FALSE(detail::decode_learnt(tampered, "host|cpu", &out, &problem));
  EXPECT_NE(problem.find("checksum"), std::string::npos) << problem;
  EXPECT_FALSE(detail::decode_learnt(text.substr(0, text.size() / 2), "host|cpu", &out, &problem));
  // A negative factor is refused even with a right checksum.
  const std::string negative = detail::encode_learnt("host|cpu", std::vector<LearntFactor>{{1, 2, -1.0}});
  EXPECT_FALSE(detail::decode_learnt(negative, "host|cpu", &out, &problem));
}

DeviceCosts costs(const char* selector, bool host) {
  DeviceCosts c;
  c.selector = selector;
  c.identity = selector;
  c.memory_is_host = host;
  c.launch_s = host ? 2e-6 : 1e-5;
  c.sync_s = 1e-6;
  c.bandwidth_Bps = host ? 2e10 : 1e12;
  c.ops_per_s[0] = c.ops_per_s[1] = c.ops_per_s[2] = host ? 1e11 : 1e13;
  c.to_device_latency_s = c.to_host_latency_s = host ? 0 : 1e-5;
  c.to_device_Bps = c.to_host_Bps = host ? 0 : 1e10;
  return c;
}

TEST(Chooser, LearntFactorsAreExportedAndTaught) {
  Chooser a({costs("host", true), costs("gpu", false)});
  WorkEstimate w{.elements = 1 << 20, .bytes_read = 8.0 * (1 << 20), .ops = 2.0 * (1 << 20)};
  const std::vector<InputResidence> in = {{.bytes = 8.0 * (1 << 20), .valid_on = 0b10}};
  const double predicted = a.estimate(1, w, in).total();
  EXPECT_FALSE(a.observe(5, w, in, 1, 10 * predicted));  // the first run: not counted
  EXPECT_TRUE(a.learnt(1).empty());
  // The factor is the median of the ratios from the third counted run on.
  EXPECT_FALSE(a.observe(5, w, in, 1, 10 * predicted));
  EXPECT_FALSE(a.observe(5, w, in, 1, 10 * predicted));
  EXPECT_TRUE(a.learnt(1).empty());
  EXPECT_TRUE(a.observe(5, w, in, 1, 10 * predicted));
  const std::vector<LearntFactor> f = a.learnt(1);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].signature, 5u);
  EXPECT_EQ(f[0].size_class, 21u);  // the bit width of 2^20
  EXPECT_NEAR(f[0].factor, 10.0, 1e-9);
  EXPECT_TRUE(a.learnt(0).empty());
  // Another chooser (the next run) taught them decides as the first does.
  Chooser b({costs("host", true), costs("gpu", false)});
  EXPECT_EQ(b.choose_cached(5, w, in), 1u);
  b.teach(1, f);
  EXPECT_NEAR(b.correction(5, w.elements, 1), 10.0, 1e-9);
  EXPECT_EQ(b.choose_cached(5, w, in), a.choose(w, in, 5));  // the remembered decision was forgotten
  EXPECT_THROW(b.teach(2, f), InvalidArgument);
}

TEST(Chooser, OneDisturbedTimingDoesNotMoveWhatIsLearnt) {
  // A run preempted (238 times its estimate, as one was on the 2-core VM) among runs at the
  // estimate: the factor stays 1 and the decision stays on the host.
  Chooser a({costs("host", true), costs("gpu", false)});
  WorkEstimate w{.elements = 1000, .bytes_read = 12000, .ops = 2000, .result_to_host = true, .result_bytes = 4000};
  const std::vector<InputResidence> in = {{.bytes = 12000, .valid_on = 0b01, .on_host = true}};
  ASSERT_EQ(a.choose(w, in), 0u);
  const double predicted = a.estimate(0, w, in).total();
  EXPECT_FALSE(a.observe(3, w, in, 0, predicted));  // the first run: not counted
  EXPECT_FALSE(a.observe(3, w, in, 0, predicted));
  EXPECT_FALSE(a.observe(3, w, in, 0, 238 * predicted));
  EXPECT_TRUE(a.observe(3, w, in, 0, predicted));  // the third counted: the median, 1
  EXPECT_DOUBLE_EQ(a.correction(3, w.elements, 0), 1.0);
  EXPECT_FALSE(a.observe(3, w, in, 0, 300 * predicted));  // (two of four: still the lower median, 1)
  EXPECT_DOUBLE_EQ(a.correction(3, w.elements, 0), 1.0);
  EXPECT_EQ(a.choose_cached(3, w, in), 0u);
  // Slower for good: two more runs at 4 times the estimate, and the median of the last five
  // ({4, 238, 1, 300, 4}: two outliers above it) is 4.
  a.observe(3, w, in, 0, 4 * predicted);
  a.observe(3, w, in, 0, 4 * predicted);
  EXPECT_DOUBLE_EQ(a.correction(3, w.elements, 0), 4.0);
  // A taught factor weighs as one ratio: after this process's first run (not counted: it
  // builds or loads the kernel, here 50 times the estimate), two runs at the estimate bring it
  // back (median of 3).
  Chooser b({costs("host", true), costs("gpu", false)});
  const std::vector<LearntFactor> stored = {{3, 10, 238.0}};
  b.teach(0, stored);
  EXPECT_DOUBLE_EQ(b.correction(3, w.elements, 0), 238.0);
  EXPECT_FALSE(b.observe(3, w, in, 0, 50 * predicted));
  b.observe(3, w, in, 0, predicted);
  EXPECT_DOUBLE_EQ(b.correction(3, w.elements, 0), 238.0);
  EXPECT_TRUE(b.observe(3, w, in, 0, predicted));
  EXPECT_DOUBLE_EQ(b.correction(3, w.elements, 0), 1.0);
}

TEST(Chooser, WhatIsLearntOnDataInPlaceDoesNotCorrectTheCopiesOfDataHeldElsewhere) {
  // The host timed a sum of data in its own memory at a tenth of its estimate (an H200's host
  // ran sums of 10^4 floats at about half). The same sum of data held on the GPU pays its copy
  // to the host in full: learnt as one factor, that copy shrank with the sum, and auto moved
  // data off the GPU (61 us where staying took 25; learnt format 3).
  Chooser a({costs("host", true), costs("gpu", false)});
  WorkEstimate w{.elements = 100000, .bytes_read = 4e5, .ops = 2e5, .result_to_host = true, .result_bytes = 4};
  const std::vector<InputResidence> in_host = {{.bytes = 4e5, .valid_on = 0b01, .on_host = true}};
  const std::vector<InputResidence> held_on_gpu = {{.bytes = 4e5, .valid_on = 0b10}};
  // (One factor for both would move it.)
  ASSERT_LT(0.1 * a.estimate(0, w, held_on_gpu).total(), a.estimate(1, w, held_on_gpu).total());
  ASSERT_EQ(a.choose(w, held_on_gpu), 1u);
  const double predicted = a.estimate(0, w, in_host).total();
  for (int k = 0; k < 4; ++k) a.observe(11, w, in_host, 0, 0.1 * predicted);
  EXPECT_NEAR(a.correction(11, w.elements, 0, in_host), 0.1, 1e-9);
  EXPECT_DOUBLE_EQ(a.correction(11, w.elements, 0, held_on_gpu), 1.0);
  EXPECT_EQ(a.choose_cached(11, w, held_on_gpu), 1u);
  // Timed with the copy, it is learnt apart, and corrects that estimate.
  const double with_copy = a.estimate(0, w, held_on_gpu).total();
  for (int k = 0; k < 4; ++k) a.observe(11, w, held_on_gpu, 0, 2 * with_copy);
  EXPECT_NEAR(a.correction(11, w.elements, 0, held_on_gpu), 2.0, 1e-9);
  EXPECT_NEAR(a.correction(11, w.elements, 0, in_host), 0.1, 1e-9);
  const std::vector<LearntFactor> f = a.learnt(0);
  EXPECT_EQ(f.size(), 2u);  // both stored, apart
}

TEST(Chooser, ANearTieIsTriedOnTheOtherDeviceAndSettledByWhatBothTook) {
  // 100 floats held on the GPU: staying is estimated a little cheaper than reading them to the
  // host. Learning tries the host a few times; it takes half its estimate there, and the host is
  // chosen from then on. Work estimated far off is never tried.
  Chooser a({costs("host", true), costs("gpu", false)});
  const WorkEstimate w{.elements = 100, .bytes_read = 400, .ops = 200};
  const std::vector<InputResidence> held = {{.bytes = 400, .valid_on = 0b10}};
  constexpr std::uint64_t sig = 21;
  ASSERT_EQ(a.choose(w, held, sig), 1u);
  const double host = a.estimate(0, w, held).total(), gpu = a.estimate(1, w, held).total();
  ASSERT_LT(host, Chooser::explore_margin * gpu);
  int tried = 0;
  while (tried < 10 && a.explore(1, w, held, sig) == 0u) {
    a.observe(sig, w, held, 0, 0.5 * host);
    ++tried;
  }
  EXPECT_EQ(tried, static_cast<int>(Chooser::explore_runs));
  EXPECT_EQ(a.timed_runs(sig, w.elements, 0, held), Chooser::explore_runs);
  EXPECT_EQ(a.choose(w, held, sig), 0u);  // what the host took decides now
  ASSERT_GT(gpu, Chooser::explore_margin * 0.5 * host);
  EXPECT_EQ(a.explore(0, w, held, sig), 0u);  // (the GPU, now over the margin, is not tried)
  EXPECT_EQ(a.explore(1, w, held, 0), 1u);  // (without a signature nothing is learnt: never)
  // Ten million floats on the GPU: the host's copy alone is far over the margin.
  const WorkEstimate big{.elements = 10000000, .bytes_read = 4e7, .ops = 2e7};
  const std::vector<InputResidence> big_held = {{.bytes = 4e7, .valid_on = 0b10}};
  ASSERT_EQ(a.choose(big, big_held, sig), 1u);
  EXPECT_EQ(a.explore(1, big, big_held, sig), 1u);
}

TEST(Chooser, AFactorSettlesAfterEightCountedRunsAndTheOperationIsNoLongerTimed) {
  // Timings that keep varying by half (a shared machine): the factor moves with them until
  // eight ratios are counted, then it stays, and the remembered decision is no longer dropped.
  Chooser a({costs("host", true), costs("gpu", false)});
  WorkEstimate w{.elements = 1000, .bytes_read = 12000, .ops = 2000, .result_to_host = true, .result_bytes = 4000};
  const std::vector<InputResidence> in = {{.bytes = 12000, .valid_on = 0b01, .on_host = true}};
  const double predicted = a.estimate(0, w, in).total();
  EXPECT_FALSE(a.observe(7, w, in, 0, predicted));  // the first run: not counted
  int moves = 0;
  for (int k = 0; k < 8; ++k) moves += a.observe(7, w, in, 0, (k % 4 < 2 ? 1.0 : 1.6) * predicted) ? 1 : 0;
  EXPECT_GE(moves, 2);  // it did move while counting
  const double settled = a.correction(7, w.elements, 0);
  bool remembered = true;
  a.choose_cached(7, w, in, &remembered);
  EXPECT_FALSE(remembered);  // (nothing was remembered yet)
  a.choose_cached(7, w, in, &remembered);
  EXPECT_TRUE(remembered);
  // Settled: a much slower run moves nothing and drops nothing.
  EXPECT_FALSE(a.observe(7, w, in, 0, 100 * predicted));
  EXPECT_FALSE(a.observe(7, w, in, 0, 100 * predicted));
  EXPECT_FALSE(a.observe(7, w, in, 0, 100 * predicted));
  EXPECT_DOUBLE_EQ(a.correction(7, w.elements, 0), settled);
  a.choose_cached(7, w, in, &remembered);
  EXPECT_TRUE(remembered);
  // Another operation (signature) still learns.
  EXPECT_FALSE(a.observe(8, w, in, 0, predicted));
  for (int k = 0; k < 3; ++k) a.observe(8, w, in, 0, 4 * predicted);
  EXPECT_DOUBLE_EQ(a.correction(8, w.elements, 0), 4.0);
}

// ---- end to end, in a program cache of its own ----------------------------------------------

bool own_cache() { return config().cache_dir.find("test-cache-learn") != std::string::npos; }

using test::opencl_device;

// The expression timed: light work on 4096 floats in host memory.
struct Case {
  std::vector<float> x = std::vector<float>(4096, 0.5f), y = std::vector<float>(4096, 2.0f);
  Array a = Array::borrow_host(std::span<float>(x), Shape{4096});
  Array b = Array::borrow_host(std::span<float>(y), Shape{4096});
  Expr e() const { return Expr(a) * b; }
};

TEST(PlacementLearning, AWrongCalibrationIsCorrectedAfterAFewCallsAndStored) {
  if (!own_cache()) GTEST_SKIP() << "stores a wrong calibration: runs in a cache of its own (ctest PlacementLearnFreshCache)";
  if (!config().placement_learn) GTEST_SKIP() << "WEFT_PLACEMENT_LEARN=0";
  const Device cl = opencl_device();
  if (!cl) GTEST_SKIP() << "no OpenCL device";
  // Before device auto's chooser exists: the OpenCL device claimed 1000 times faster than
  // measured, copies included, so the first decisions send the host's data there.
  DeviceCosts wrong = costs_of(cl);
  wrong.launch_s /= 1000;
  wrong.sync_s /= 1000;
  wrong.bandwidth_Bps *= 1000;
  for (double& r : wrong.ops_per_s) r *= 1000;
  wrong.to_device_latency_s /= 1000;
  wrong.to_host_latency_s /= 1000;
  wrong.to_device_Bps *= 1000;
  wrong.to_host_Bps *= 1000;
  wrong.wide_launch_s /= 1000;
  wrong.to_device_small_Bps *= 1000;
  wrong.to_host_small_Bps *= 1000;
  wrong.math_per_s *= 1000;
  wrong.reduce_s /= 1000;
  ASSERT_TRUE(store_costs(wrong));
  Case c;
  ASSERT_EQ(explain(c.e(), true).chosen, cl.selector()) << explain(c.e(), true).text;
  int calls = 0;
  while (explain(c.e(), true).chosen == cl.selector() && calls < 12) {
    EXPECT_DOUBLE_EQ(sum(c.e()).get(), 4096.0);
    ++calls;
  }
  const PlacementExplanation now = explain(c.e(), true);
  EXPECT_NE(now.chosen, cl.selector()) << now.text;
  // Four calls where every run is timed (the first is not counted, the median needs three);
  // on OpenCL a run is timed only when get() waited for the value, which a loaded machine can
  // deny a run or two.
  EXPECT_LE(calls, 7) << now.text;
  EXPECT_NE(now.text.find("learnt"), std::string::npos) << now.text;
  EXPECT_DOUBLE_EQ(sum(c.e()).get(), 4096.0);
  // Stored with the calibration, under its rules.
  const std::vector<LearntFactor> stored = detail::load_learnt(wrong.identity);
  ASSERT_FALSE(stored.empty());
  EXPECT_GT(stored.front().factor, 10.0);
}

TEST(PlacementLearning, TheNextRunStartsFromWhatWasLearnt) {
  if (!own_cache()) GTEST_SKIP() << "reads what the test before stored (ctest PlacementLearnFreshCache)";
  if (!config().placement_learn) GTEST_SKIP() << "WEFT_PLACEMENT_LEARN=0";
  const Device cl = opencl_device();
  if (!cl) GTEST_SKIP() << "no OpenCL device";
  if (detail::load_learnt(device_identity(cl)).empty()) GTEST_SKIP() << "run after AWrongCalibration... in one cache";
  // The stored calibration is still the wrong one; the stored factor corrects it at once.
  Case c;
  const PlacementExplanation first = explain(c.e(), true);
  EXPECT_NE(first.chosen, cl.selector()) << first.text;
  EXPECT_NE(first.text.find("learnt"), std::string::npos) << first.text;
}

}  // namespace
}  // namespace weft
