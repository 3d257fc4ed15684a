// Operations queued behind a pending producer (InputResidence::pending_on): on the 2-core VM's
// table, a chain's next step on PoCL costs a queued launch and no wait, so it stays where its
// input is being made; on the real devices, device auto sees a result whose producer is still
// queued as pending and says so.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "placement/device_tables.hpp"
#include "support.hpp"
#include "weft/weft.hpp"

namespace weft {
namespace {

constexpr std::size_t vm_host = 0, vm_pocl = 1;
constexpr std::uint64_t vm_on_pocl = 0b10;

// The VM's table with the figures a format 9 calibration adds (device_tables.hpp).
std::vector<DeviceCosts> vm_table() { return test::vm2core_queued_table(); }

// eval(a*b) of two float32 arrays of n elements resident on one device (its result stays there).
WorkEstimate light_eval(double n) {
  return {.elements = static_cast<std::int64_t>(n), .bytes_read = 8 * n, .bytes_written = 4 * n, .ops = 2 * n,
          .result_bytes = 4 * n};
}

TEST(QueuedPlacement, AnInputPendingOnTheDeviceMakesItsLaunchAQueuedOneWithoutAWait) {
  Chooser chooser(vm_table());
  const DeviceCosts& pocl = chooser.devices()[vm_pocl];
  const WorkEstimate w = light_eval(1e3);
  std::vector<InputResidence> in{{4e3, vm_on_pocl, false}, {4e3, vm_on_pocl, false}};
  const PlacementEstimate idle = chooser.estimate(vm_pocl, w, in);
  EXPECT_DOUBLE_EQ(idle.launch, pocl.launch_s + pocl.sync_s);
  in[0].pending_on = vm_on_pocl;
  const PlacementEstimate queued = chooser.estimate(vm_pocl, w, in);
  EXPECT_DOUBLE_EQ(queued.launch, pocl.queued_launch_s);
  EXPECT_DOUBLE_EQ(queued.compute, idle.compute);
  // Its result read on the host: the wait is this operation's.
  WorkEstimate read = w;
  read.result_to_host = true;
  EXPECT_DOUBLE_EQ(chooser.estimate(vm_pocl, read, in).launch, pocl.queued_launch_s + pocl.sync_s);
  // Pending elsewhere changes nothing here; a pending bit without a valid copy is ignored.
  EXPECT_DOUBLE_EQ(chooser.estimate(vm_host, w, in).launch,
                   chooser.estimate(vm_host, w, std::vector<InputResidence>{{4e3, vm_on_pocl, false},
                                                                            {4e3, vm_on_pocl, false}})
                       .launch);
  std::vector<InputResidence> stale{{4e3, 0b01, true, vm_on_pocl}};
  EXPECT_DOUBLE_EQ(chooser.estimate(vm_pocl, w, stale).launch, pocl.launch_s + pocl.sync_s);
}

TEST(QueuedPlacement, AWideOperationQueuedBehindAWideProducerFindsThePoolAwake) {
  // A host whose wide launch waited for alone costs 45.6 us (its pool woken; an H200 calibration
  // of session 20) and one queued behind another 4 us: a wide operation queued behind its
  // input's pending producer pays the queued figure; alone, or where it was not measured, the
  // wake-up.
  std::vector<DeviceCosts> t = test::h200_format5_table();
  t[test::table::host].launch_s = 0.5e-6;
  t[test::table::host].queued_launch_s = 0.3e-6;
  t[test::table::host].wide_launch_s = 45.6e-6;
  t[test::table::host].wide_queued_s = 4e-6;
  const DeviceCosts& h = t[test::table::host];
  const WorkEstimate w = light_eval(1e5);
  std::vector<InputResidence> in{{4e5, test::table::on_host, true}, {4e5, test::table::on_host, true}};
  {
    Chooser chooser(t);
    EXPECT_DOUBLE_EQ(chooser.estimate(test::table::host, w, in).launch, h.wide_launch_s + h.sync_s);
    in[0].pending_on = test::table::on_host;
    EXPECT_DOUBLE_EQ(chooser.estimate(test::table::host, w, in).launch, h.wide_queued_s);
    // Narrow, queued: no wake-up either way.
    EXPECT_DOUBLE_EQ(chooser.estimate(test::table::host, light_eval(1e3), in).launch, h.queued_launch_s);
  }
  t[test::table::host].wide_queued_s = 0;  // not measured (a format 14 table): the wake-up
  Chooser chooser(t);
  EXPECT_DOUBLE_EQ(chooser.estimate(test::table::host, w, in).launch,
                   h.wide_launch_s - h.launch_s + h.queued_launch_s);
}

TEST(QueuedPlacement, AChainsScanStaysBehindItsProducerOnPocl) {
  // The chain of `weft bench placement` on data resident on PoCL: cumsum(u) where u was just
  // made there. Waited for alone, PoCL's three-pass scan (60 us) loses to reading u into host
  // memory (43 us) and scanning there; queued behind u's kernel its first pass costs a queued
  // launch, and it stays.
  Chooser chooser(vm_table());
  const WorkEstimate scan = scan_work(1000, 4e3, 1, 4, Arithmetic::float32);
  std::vector<InputResidence> u{{4e3, vm_on_pocl, false}};
  EXPECT_EQ(chooser.choose(scan, u), vm_host) << chooser.explain("cumsum", scan, u);
  u[0].pending_on = vm_on_pocl;
  EXPECT_EQ(chooser.choose(scan, u), vm_pocl) << chooser.explain("cumsum", scan, u);
  EXPECT_NE(chooser.explain("cumsum", scan, u).find("queued"), std::string::npos);
  // Remembered apart: the cached decisions follow.
  std::vector<InputResidence> idle{{4e3, vm_on_pocl, false}};
  EXPECT_EQ(chooser.choose_cached(7, scan, u), vm_pocl);
  EXPECT_EQ(chooser.choose_cached(7, scan, idle), vm_host);
  EXPECT_EQ(chooser.choose_cached(7, scan, u), vm_pocl);
}

// Device auto on the real devices: a result whose producer is held back by a gate on another
// queue of its device is pending there (explain says "queued"); once the queue is done it is not.
TEST(QueuedPlacement, AResultWhoseProducerIsStillQueuedIsPending) {
  const std::vector<Device> table = [] {
    std::vector<Device> d;
    for (const DeviceCosts& c : auto_chooser().devices()) d.push_back(device(c.selector));
    return d;
  }();
  for (std::size_t i = 0; i < table.size(); ++i) {
    const Device& d = table[i];
    SCOPED_TRACE(d.selector());
    const std::vector<float> v(1000, 1.5f);
    const Array a = Array::from_host<float>(v, Shape{1000}, d).to_auto();
    {
      // The kernel built and loaded before the gate shuts: on the H200, with an empty program
      // cache, the eval below (its kernel compiled by NVRTC and loaded then) never returned while
      // the gate's stream was blocked in its host function (with the kernel cached it did): the
      // driver waited for that stream. (A first-use calibration's kernels waited so too.)
      PlacementPin pin(d);
      (void)eval(Expr(a) * 2);
      synchronize(d);
    }
    Queue gate_queue(d);
    UserEvent gate;
    // Opened however the test ends (a failed assertion returns early): a gate left shut would
    // hold d's array queue, and every later test on d, for ever.
    struct Opener {
      const UserEvent& gate;
      bool opened = false;
      void open() {
        if (!opened) gate.complete();
        opened = true;
      }
      ~Opener() { open(); }
    } opener{gate};
    const Event held[] = {gate};
    gate_queue.marker(held);
    Array t;
    {
      PlacementPin pin(d);
      t = eval(Expr(a) * 2);  // queued on d's array queue behind the gate
    }
    ASSERT_EQ(t.device(), d);
    const PlacementExplanation queued = explain(Expr(t) + 1);
    ASSERT_TRUE(queued.automatic);
    // (CUDA records a queue's last event only when it is wanted: whether it is pending is not
    // known there without a driver call, and is not asked.)
    if (d.selector().rfind("cuda", 0) == 0) {
      opener.open();
      continue;
    }
    EXPECT_NE(queued.text.find("queued"), std::string::npos) << queued.text;
    const DeviceCosts& costs = auto_chooser().devices()[i];
    EXPECT_LE(queued.estimates[i].launch,
              (costs.queued_launch_s > 0 ? costs.queued_launch_s : costs.launch_s) + costs.wide_launch_s + 1e-12)
        << queued.text;
    opener.open();
    EXPECT_EQ(t.to_host<float>(), std::vector<float>(1000, 3.0f));
    const PlacementExplanation idle = explain(Expr(t) + 1);
    EXPECT_EQ(idle.text.find("queued"), std::string::npos) << idle.text;
  }
}

}  // namespace
}  // namespace weft
