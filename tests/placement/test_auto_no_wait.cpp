// Device auto adds no wait for a device: an operation on automatic arrays that stay where they
// live returns once its work is queued, as on arrays of that fixed device. The device's array
// queue is held behind a user event while the operation is called: a call that waited for the
// device would not return until the event completes (guarded here by a generous deadline, not
// a timing: the assertion is that the call came back while the gate was still closed).
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <future>
#include <string>
#include <vector>

#include "support.hpp"
#include "weft/placement.hpp"
#include "weft/weft.hpp"

namespace weft {
namespace {

using test::opencl_device;

// Runs op on three arrays of n floats resident on d (automatic when `automatic`) while d's
// array queue waits for a gate; returns whether op came back before the gate opened, and the
// result's device and first value after it did.
struct Gated {
  bool returned_while_gated = false;
  std::string device;
  double first = 0;
};
Gated gated(const Device& d, bool automatic, const std::function<Array(const std::vector<Array>&)>& op) {
  const std::size_t n = 100000;  // resident data of this size stays on PoCL in the VM's model
  std::vector<Array> in;
  for (const float v : {2.0f, 3.0f, 1.0f}) {
    Array a = Array::full(Shape{static_cast<std::int64_t>(n)}, v, DType::float32, d);
    in.push_back(automatic ? a.to_auto() : a);
  }
  synchronize(d);
  UserEvent gate;
  const Event after[] = {gate};
  array_queue(d).barrier(after);
  auto call = std::async(std::launch::async, [&] { return op(in); });
  Gated g;
  g.returned_while_gated = call.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  gate.complete();
  const Array r = call.get();
  g.device = r.device().selector();
  g.first = r.to_host<float>().front();
  return g;
}

TEST(PlacementNoWait, AnAutomaticEvaluationOnResidentDataReturnsOnceQueued) {
  const Device cl = opencl_device();
  if (!cl) GTEST_SKIP() << "no OpenCL device";
  const auto op = [](const std::vector<Array>& in) { return eval(in[0] * in[1] + in[2]); };
  {
    // (Work the chooser moves reads the inputs out of the gated queue first: that must wait.)
    const Shape shape{100000};
    const Array a = Array::full(shape, 2.0, DType::float32, cl).to_auto();
    const Array b = Array::full(shape, 3.0, DType::float32, cl).to_auto();
    const Array c = Array::full(shape, 1.0, DType::float32, cl).to_auto();
    const PlacementExplanation e = explain(a * b + c);
    if (e.chosen != cl.selector()) GTEST_SKIP() << "this machine's model moves a*b+c to " << e.chosen;
  }
  const Gated fixed = gated(cl, false, op);
  EXPECT_TRUE(fixed.returned_while_gated) << "fixed " << cl.selector();
  EXPECT_EQ(fixed.first, 7.0);
  const Gated automatic = gated(cl, true, op);
  EXPECT_EQ(automatic.device, cl.selector());
  EXPECT_TRUE(automatic.returned_while_gated) << "auto waited for " << cl.selector();
  EXPECT_EQ(automatic.first, 7.0);
}

TEST(PlacementNoWait, AnAutomaticReductionReturnsItsFutureOnceQueued) {
  const Device cl = opencl_device();
  if (!cl) GTEST_SKIP() << "no OpenCL device";
  const Shape shape{100000};
  const Array a = Array::full(shape, 2.0, DType::float32, cl).to_auto();
  const Array b = Array::full(shape, 3.0, DType::float32, cl).to_auto();
  synchronize(cl);
  // (A reduction the chooser moves to the host reads the inputs first: that one must wait.)
  const PlacementExplanation e = explain(a * b, true);
  if (e.chosen != cl.selector()) GTEST_SKIP() << "this machine's model moves sum(a*b) to " << e.chosen;
  UserEvent gate;
  const Event after[] = {gate};
  array_queue(cl).barrier(after);
  auto call = std::async(std::launch::async, [&] { return sum(a * b); });
  const bool returned = call.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  gate.complete();
  Future<double> total = call.get();
  EXPECT_TRUE(returned) << "auto's sum waited for " << cl.selector() << " before returning its future";
  EXPECT_EQ(total.get(), 6.0 * 100000);
}

}  // namespace
}  // namespace weft
