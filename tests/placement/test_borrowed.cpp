// Array::borrow_host: automatic arrays over host memory someone else owns (a NumPy array, a
// std::vector), used in place: no copy on the host backend, the owner's writes seen by every
// later operation wherever it runs, and the cost model counting the copy another device needs.
// PlacementPin: device auto pinned to one device in a scope.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <numeric>
#include <thread>
#include <vector>

#include "support.hpp"
#include "weft/weft.hpp"

namespace weft {
namespace {

TEST(BorrowedHostMemory, IsUsedInPlaceAndAutomatic) {
  std::vector<float> v(1000);
  std::iota(v.begin(), v.end(), 0.0f);
  const Array a = Array::borrow_host(std::span<float>(v), Shape{1000});
  EXPECT_TRUE(a.is_auto());
  EXPECT_EQ(a.device().selector(), "host");
  EXPECT_EQ(a.buffer().host_ptr(), static_cast<void*>(v.data()));  // no copy
  EXPECT_DOUBLE_EQ(sum(a).get(), 499500.0);
  v[999] = 0;  // the owner writes (nothing pending): the next operation sees it
  EXPECT_DOUBLE_EQ(sum(a).get(), 498501.0);
  // A weft write goes to the owner's memory, which the owner reads once the work is done.
  Array w = a;
  w.assign(Expr(a) * 2);
  synchronize(a.device());
  EXPECT_EQ(v[10], 20.0f);
}

TEST(BorrowedHostMemory, ACopyOnAnotherDeviceIsRefreshedFromTheOwnersMemory) {
  std::vector<float> v(100, 1.0f);
  const Array a = Array::borrow_host(std::span<float>(v), Shape{100});
  for (const Device& d : test::test_devices()) {
    if (d.selector() == "host") continue;
    // An array of d fixes where the sum runs: a is copied to d when read there.
    const Array zero = Array::zeros(Shape{100}, DType::float32, d);
    EXPECT_DOUBLE_EQ(sum(Expr(a) + zero).get(), 100.0) << d.selector();
    v[0] = 101.0f;  // the owner writes after the copy was made
    EXPECT_DOUBLE_EQ(sum(Expr(a) + zero).get(), 200.0) << d.selector();
    v[0] = 1.0f;
    // Written on d by weft: that copy holds the data now, and is not overwritten from the
    // (stale) borrowed memory.
    Array on_d = a.to(d);
    on_d.assign(Expr(on_d) * 3);
    EXPECT_DOUBLE_EQ(sum(Expr(a) + zero).get(), 300.0) << d.selector();
    EXPECT_EQ(a.to_host<float>()[5], 3.0f) << d.selector();  // read back through the host
    EXPECT_EQ(v[5], 3.0f) << d.selector();                   // into the owner's memory
    std::fill(v.begin(), v.end(), 1.0f);
  }
}

// The ways a program learns that work finished, after which the owner may write borrowed
// memory (Array::borrow_host's contract): each must make the next operation copy it again.
struct ProgramWait {
  const char* name;
  std::function<void(const Array& pending)> wait;
};

std::vector<ProgramWait> program_waits() {
  return {
      {"synchronize", [](const Array& r) { synchronize(r.device()); }},
      {"a result's get()", [](const Array& r) { sum(r).get(); }},
      {"to_host", [](const Array& r) { r.to_host<float>(); }},
      {"Event::wait", [](const Array& r) {
         std::vector<float> out(static_cast<std::size_t>(r.size()));
         r.to_host_bytes_async(out.data(), DType::float32).wait();
       }},
      {"array_queue().finish()", [](const Array& r) { array_queue(r.device()).finish(); }},
      {"a marker seen done", [](const Array& r) {
         const Event e = array_queue(r.device()).marker();
         while (!e.done()) std::this_thread::yield();
       }},
      {"a marker's Event::then callback", [](const Array& r) {
         std::atomic<bool> called{false};
         array_queue(r.device()).marker().then([&](const Event&) { called.store(true); });
         while (!called.load()) std::this_thread::yield();
       }},
  };
}

TEST(BorrowedHostMemory, ACopyOnAnotherDeviceLastsUntilTheProgramWaits) {
  for (const Device& d : test::test_devices()) {
    if (d.selector() == "host") continue;
    for (const ProgramWait& w : program_waits()) {
      std::vector<float> v(100, 1.0f);
      const Array a = Array::borrow_host(std::span<float>(v), Shape{100});
      const Array zero = Array::zeros(Shape{100}, DType::float32, d);
      EXPECT_DOUBLE_EQ(sum(Expr(a) + zero).get(), 100.0) << d.selector();
      eval(Expr(a) + zero);  // (the kernels built before the operations counted)
      eval(Expr(a) * 2.0f + zero);
      explain(Expr(a) * a, true);  // (and device auto's costs, measured where none are stored)
      synchronize(d);
      // Operations queued one after another with no wait between them: a is copied to d once.
      const std::uint64_t before = transfer_stats().between_devices;
      const Array first = eval(Expr(a) + zero);
      const Array second = eval(Expr(a) * 2.0f + zero);
      EXPECT_EQ(transfer_stats().between_devices - before, 1u) << d.selector() << ", " << w.name;
      // Device auto counts that copy as there.
      const PlacementExplanation fresh = explain(Expr(a) * a, true);
      // The program waits, then the owner writes: the next operation on d sees the write.
      w.wait(second);
      const PlacementExplanation after_wait = explain(Expr(a) * a, true);
      v[0] = 101.0f;
      EXPECT_DOUBLE_EQ(sum(Expr(a) + zero).get(), 200.0) << d.selector() << ", after " << w.name;
      EXPECT_DOUBLE_EQ(sum(first).get(), 100.0) << d.selector();
      EXPECT_DOUBLE_EQ(sum(second).get(), 200.0) << d.selector();
      ASSERT_EQ(fresh.estimates.size(), after_wait.estimates.size());
      for (std::size_t i = 0; i < fresh.devices.size(); ++i) {
        if (fresh.devices[i] != d.selector()) continue;
        EXPECT_EQ(fresh.estimates[i].copy_in, 0.0) << d.selector();
        EXPECT_GT(after_wait.estimates[i].copy_in, 0.0) << d.selector() << ", after " << w.name;
      }
    }
  }
}

TEST(BorrowedHostMemory, TheModelCountsTheCopyToOtherDevicesAfterEachWait) {
  std::vector<float> v(4096, 1.0f);
  const Array a = Array::borrow_host(std::span<float>(v), Shape{4096});
  const PlacementExplanation before = explain(Expr(a) * a, true);
  ASSERT_TRUE(before.automatic);
  for (const Device& d : test::test_devices()) {
    EXPECT_DOUBLE_EQ(sum(Expr(a) + Array::zeros(Shape{4096}, DType::float32, d)).get(), 4096.0) << d.selector();
  }
  // Copies were made on every device, but they are not counted as valid: the program waited
  // (get()), the owner may have written since, and the next operation there copies again.
  const PlacementExplanation after = explain(Expr(a) * a, true);
  ASSERT_EQ(after.estimates.size(), before.estimates.size());
  for (std::size_t i = 0; i < after.estimates.size(); ++i) {
    EXPECT_DOUBLE_EQ(after.estimates[i].copy_in, before.estimates[i].copy_in) << after.devices[i];
    if (after.devices[i] == "host") {
      EXPECT_EQ(after.estimates[i].copy_in, 0.0);
    }
  }
}

TEST(BorrowedHostMemory, RefusesANullPointer) {
  EXPECT_THROW((void)Array::borrow_host(nullptr, DType::float32, Shape{4}), InvalidArgument);
}

TEST(PlacementPin, RunsAutomaticWorkOnThePinnedDeviceAndNests) {
  const Array a = Array::arange(0, 100, 1, DType::float32, device("host")).to_auto();
  for (const Device& d : test::test_devices()) {
    {
      PlacementPin pin(d);
      EXPECT_TRUE(placement_pin() == d);
      const Array r = eval(Expr(a) * 2);
      EXPECT_TRUE(r.is_auto());
      EXPECT_TRUE(r.device() == d) << d.selector();
      EXPECT_DOUBLE_EQ(sum(r).get(), 9900.0);
      const PlacementExplanation e = explain(Expr(a) * 2);
      EXPECT_TRUE(e.pinned);
      EXPECT_EQ(e.chosen, d.selector());
      {
        PlacementPin inner(device("host"));
        EXPECT_TRUE(eval(Expr(a) + 1).device() == device("host"));
      }
      EXPECT_TRUE(placement_pin() == d);
    }
    EXPECT_FALSE(placement_pin());
    EXPECT_FALSE(explain(Expr(a) * 2).pinned);
  }
}

// ---- memory regions: borrows of the same or overlapping host memory ---------------------------

TEST(HostMemoryRegions, AViewOfBorrowedMemoryIsOneRecord) {
  std::vector<float> v(100, 1.0f);
  const Array whole = Array::borrow_host(std::span<float>(v), Shape{100});
  const Array part = Array::borrow_host(std::span<float>(v).subspan(10, 50), Shape{50});
  const Array again = Array::borrow_host(std::span<float>(v), Shape{100});
  EXPECT_TRUE(part.shares_allocation(whole));
  EXPECT_TRUE(again.shares_allocation(whole));
  EXPECT_EQ(part.offset(), 10);
  EXPECT_EQ(part.buffer().host_ptr(), whole.buffer().host_ptr());
  EXPECT_DOUBLE_EQ(sum(part).get(), 50.0);
  // Another dtype over the same bytes is not a view (it is linked: below).
  const Array bytes = Array::borrow_host(v.data(), DType::int32, Shape{100});
  EXPECT_FALSE(bytes.shares_allocation(whole));
}

TEST(HostMemoryRegions, AWriteThroughOneReachesTheOthersCopies) {
  for (const Device& d : test::test_devices()) {
    if (d.selector() == "host") continue;
    std::vector<float> v(100, 1.0f);
    const Array whole = Array::borrow_host(std::span<float>(v), Shape{100});
    const Array part = Array::borrow_host(std::span<float>(v).subspan(10, 50), Shape{50});
    const Array zero = Array::zeros(Shape{50}, DType::float32, d);
    EXPECT_DOUBLE_EQ(sum(Expr(part) + zero).get(), 50.0) << d.selector();  // part copied to d
    // Written on d through the whole: the part's copy there is the same record's, current.
    Array whole_d = whole.to(d);
    whole_d.assign(Expr(whole_d) * 3);
    EXPECT_DOUBLE_EQ(sum(Expr(part) + zero).get(), 150.0) << d.selector();
    EXPECT_EQ(part.to_host<float>()[0], 3.0f) << d.selector();  // and read back on the host
    // Written on the host through the part: the whole's copy on d is stale.
    Array p = part;
    p.assign(Expr(part) + 1);
    const Array zero100 = Array::zeros(Shape{100}, DType::float32, d);
    EXPECT_DOUBLE_EQ(sum(Expr(whole) + zero100).get(), 50 * 4.0 + 50 * 3.0) << d.selector();
    synchronize(whole.device());
    EXPECT_EQ(v[10], 4.0f) << d.selector();
    EXPECT_EQ(v[0], 3.0f) << d.selector();
  }
}

TEST(HostMemoryRegions, PartlyOverlappingBorrowsAreLinked) {
  for (const Device& d : test::test_devices()) {
    if (d.selector() == "host") continue;
    std::vector<float> v(100, 1.0f);
    const Array left = Array::borrow_host(std::span<float>(v).subspan(0, 60), Shape{60});
    const Array right = Array::borrow_host(std::span<float>(v).subspan(40, 60), Shape{60});
    EXPECT_FALSE(left.shares_allocation(right));
    const Array zero = Array::zeros(Shape{60}, DType::float32, d);
    EXPECT_DOUBLE_EQ(sum(Expr(right) + zero).get(), 60.0) << d.selector();  // right copied to d
    // Written on d through the left: the shared 20 elements reach the host memory at once,
    // and the right's copy on d is refreshed from it.
    Array left_d = left.to(d);
    left_d.assign(Expr(left_d) * 2);
    EXPECT_EQ(v[50], 2.0f) << d.selector();
    EXPECT_EQ(v[70], 1.0f) << d.selector();
    Array right_d = right.to(d);  // (an array of d, not refreshed by an automatic placement)
    EXPECT_DOUBLE_EQ(sum(right_d).get(), 20 * 2.0 + 40 * 1.0) << d.selector();
    // Written on the host through the right: the left's copy on d goes stale.
    Array r = right;
    r.assign(Expr(right) * 5);
    EXPECT_DOUBLE_EQ(sum(left_d).get(), 40 * 2.0 + 20 * 10.0) << d.selector();
  }
}

TEST(HostMemoryRegions, SlicesThatDoNotOverlapStayIndependent) {
  for (const Device& d : test::test_devices()) {
    if (d.selector() == "host") continue;
    std::vector<float> v(100, 1.0f);
    const Array first = Array::borrow_host(std::span<float>(v).subspan(0, 50), Shape{50});
    const Array second = Array::borrow_host(std::span<float>(v).subspan(50, 50), Shape{50});
    EXPECT_FALSE(first.shares_allocation(second));
    Array second_d = second.to(d);
    EXPECT_DOUBLE_EQ(sum(second_d).get(), 50.0) << d.selector();
    Array first_d = first.to(d);
    first_d.assign(Expr(first_d) * 7);  // on d only: the host memory waits for a read
    EXPECT_EQ(v[0], 1.0f) << d.selector();
    EXPECT_DOUBLE_EQ(sum(second_d).get(), 50.0) << d.selector();
    EXPECT_EQ(first.to_host<float>()[0], 7.0f) << d.selector();
  }
}

}  // namespace
}  // namespace weft
