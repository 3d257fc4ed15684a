// cumsum, sort, argsort, unique, reductions along axes and polygon_mask on device auto give what the fixed devices give: on
// the chooser's own choice and pinned (PlacementPin) to each device of the table; their
// results are automatic arrays.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "support.hpp"
#include "weft/weft.hpp"

namespace weft {
namespace {

std::vector<float> values(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * 7919) % 1000) * 0.25f - 50.0f;
  return v;
}

// The fixed devices of the table (host, PoCL where it loads), and no pin: the chooser's choice.
std::vector<Device> pins() {
  std::vector<Device> p{Device()};
  for (const Device& d : test::test_devices()) p.push_back(d);
  return p;
}

TEST(AutoOperations, CumsumEqualsTheFixedDevices) {
  const std::vector<float> v = values(3000);
  const Array fixed = cumsum(Array::from_host<float>(v, Shape{3000}, device("host")));
  const std::vector<float> want = fixed.to_host<float>();
  for (const Device& pin : pins()) {
    std::optional<PlacementPin> pinned;
    if (pin) pinned.emplace(pin);
    std::vector<float> copy = v;
    const Array a = Array::borrow_host(std::span<float>(copy), Shape{3000});
    const Array r = cumsum(Expr(a) * 2);
    EXPECT_TRUE(r.is_auto());
    if (pin) {
      EXPECT_EQ(r.device(), pin);
    }
    const std::vector<float> got = r.to_host<float>();
    for (std::size_t i = 0; i < got.size(); i += 97) EXPECT_FLOAT_EQ(got[i], 2 * want[i]) << i;
    // Along an axis of a 2-D automatic array.
    const Array m = Array::from_host<float>(v, Shape{30, 100}, device("host")).to_auto();
    EXPECT_EQ(cumsum(m, 1).to_host<float>(),
              cumsum(Array::from_host<float>(v, Shape{30, 100}, device("host")), 1).to_host<float>());
  }
  for (const Device& d : test::test_devices()) {
    // A fixed device's own cumsum agrees with the host's.
    const std::vector<float> got = cumsum(Array::from_host<float>(v, Shape{3000}, d)).to_host<float>();
    for (std::size_t i = 0; i < got.size(); i += 97) EXPECT_FLOAT_EQ(got[i], want[i]) << d.selector() << " " << i;
  }
}

TEST(AutoOperations, AnArrayReadTwiceAndTwoViewsOfItAreMovedRight) {
  // The tree moved to the chosen device moves an array read twice once (one new leaf shared),
  // and keeps views of one allocation apart (other offsets, steps or shapes are other leaves).
  const std::vector<float> v = values(200);
  const Array h = Array::from_host<float>(v, Shape{200}, device("host"));
  const auto want = [&](const Array& a) { return a.to_host<float>(); };
  const std::vector<float> same = want(eval(sin(h) * h + h * 2));
  const std::vector<float> views =
      want(eval(h.slice(0, 0, 100) * 3 + h.slice(0, 100, 200) - h.slice(0, 0, 200, 2) + h.slice(0, 0, 100)));
  for (const Device& d : test::test_devices()) {
    for (const Device& pin : pins()) {
      std::optional<PlacementPin> pinned;
      if (pin) pinned.emplace(pin);
      const Array a = Array::from_host<float>(v, Shape{200}, d).to_auto();
      const std::vector<float> got = want(eval(sin(a) * a + a * 2));
      for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], same[i], 1e-4f * (1 + std::fabs(same[i]))) << i;
      EXPECT_EQ(want(eval(a.slice(0, 0, 100) * 3 + a.slice(0, 100, 200) - a.slice(0, 0, 200, 2) + a.slice(0, 0, 100))),
                views)
          << d.selector();
    }
  }
}

TEST(AutoOperations, SortAndArgsortEqualTheFixedDevices) {
  const std::vector<float> v = values(5000);
  std::vector<float> want = v;
  std::sort(want.begin(), want.end());
  for (const Device& d : test::test_devices()) {
    EXPECT_EQ(sort(Array::from_host<float>(v, Shape{5000}, d)).to_host<float>(), want) << d.selector();
  }
  for (const Device& pin : pins()) {
    std::optional<PlacementPin> pinned;
    if (pin) pinned.emplace(pin);
    std::vector<float> copy = v;
    const Array a = Array::borrow_host(std::span<float>(copy), Shape{5000});
    const Array s = sort(a);
    EXPECT_TRUE(s.is_auto());
    if (pin) {
      EXPECT_EQ(s.device(), pin);
    }
    EXPECT_EQ(s.to_host<float>(), want) << (pin ? pin.selector() : "auto");
    const std::vector<std::int64_t> idx = argsort(a).to_host<std::int64_t>();
    for (std::size_t i = 0; i < idx.size(); i += 101) EXPECT_EQ(v[static_cast<std::size_t>(idx[i])], want[i]);
    // Rows of a 2-D automatic array, resident on the pinned device (or the host).
    const Array m = Array::from_host<float>(v, Shape{50, 100}, pin ? pin : device("host")).to_auto();
    EXPECT_EQ(sort(m, 1).to_host<float>(), sort(Array::from_host<float>(v, Shape{50, 100}, device("host")), 1).to_host<float>());
  }
}

TEST(AutoOperations, UniqueEqualsTheFixedDevices) {
  const std::vector<float> v = values(4000);  // 1000 distinct values, each four times
  const Unique want = unique(Array::from_host<float>(v, Shape{4000}, device("host")), true, true, true);
  for (const Device& pin : pins()) {
    std::optional<PlacementPin> pinned;
    if (pin) pinned.emplace(pin);
    const std::string on = pin ? pin.selector() : "auto";
    const Array a = Array::from_host<float>(v, Shape{4000}, pin ? pin : device("host")).to_auto();
    const Unique u = unique(a, true, true, true);
    EXPECT_TRUE(u.values.is_auto() && u.counts.is_auto()) << on;
    if (pin) {
      EXPECT_EQ(u.values.device(), pin);
    }
    EXPECT_EQ(u.values.to_host<float>(), want.values.to_host<float>()) << on;
    EXPECT_EQ(u.index.to_host<std::int64_t>(), want.index.to_host<std::int64_t>()) << on;
    EXPECT_EQ(u.inverse.to_host<std::int64_t>(), want.inverse.to_host<std::int64_t>()) << on;
    EXPECT_EQ(u.counts.to_host<std::int64_t>(), want.counts.to_host<std::int64_t>()) << on;
  }
}

TEST(AutoOperations, AxisReductionsEqualTheFixedDevices) {
  // sum, mean, max and argmax along an axis of an automatic 2-D array (and of an expression
  // of it): the chooser's device or the pinned one, the result automatic, the values those of
  // the host's fixed reduction.
  const std::vector<float> v = values(6000);
  const Array fixed = Array::from_host<float>(v, Shape{60, 100}, device("host"));
  const std::vector<float> rows = sum(fixed, {1}).to_host<float>();
  const std::vector<float> cols = mean(Expr(fixed) * 2, {0}).to_host<float>();
  const std::vector<float> most = max(fixed, {1}).to_host<float>();
  const std::vector<std::int64_t> where = argmax(fixed, 0).to_host<std::int64_t>();
  for (const Device& pin : pins()) {
    std::optional<PlacementPin> pinned;
    if (pin) pinned.emplace(pin);
    const std::string on = pin ? pin.selector() : "auto";
    const Array m = Array::from_host<float>(v, Shape{60, 100}, pin ? pin : device("host")).to_auto();
    const Array s = sum(m, {1});
    EXPECT_TRUE(s.is_auto()) << on;
    if (pin) {
      EXPECT_EQ(s.device(), pin);
    }
    const std::vector<float> got = s.to_host<float>();
    ASSERT_EQ(got.size(), rows.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], rows[i], 1e-3 * (1 + std::abs(rows[i]))) << on << " " << i;
    const std::vector<float> c = mean(Expr(m) * 2, {0}).to_host<float>();
    ASSERT_EQ(c.size(), cols.size());
    for (std::size_t i = 0; i < c.size(); ++i) EXPECT_NEAR(c[i], cols[i], 1e-3 * (1 + std::abs(cols[i]))) << on << " " << i;
    EXPECT_EQ(max(m, {1}).to_host<float>(), most) << on;
    EXPECT_EQ(argmax(m, 0).to_host<std::int64_t>(), where) << on;
    // keepdims keeps the reduced axis as 1.
    EXPECT_EQ(sum(m, {0}, true).shape(), (Shape{1, 100})) << on;
  }
}

TEST(AutoOperations, PolygonMaskEqualsTheFixedDevices) {
  for (const std::size_t n : {4u, 256u}) {
    const std::vector<Point> poly = random_polygon(n, 11, 120, 90);
    const Mask want = polygon_mask(poly, 90, 120, device("host"));
    for (const Device& d : test::test_devices()) EXPECT_EQ(polygon_mask(poly, 90, 120, d).data, want.data) << d.selector();
    for (const Device& pin : pins()) {
      std::optional<PlacementPin> pinned;
      if (pin) pinned.emplace(pin);
      const Mask got = polygon_mask_auto(poly, 90, 120);
      EXPECT_EQ(got.height, 90u);
      EXPECT_EQ(got.width, 120u);
      EXPECT_EQ(got.data, want.data) << (pin ? pin.selector() : "auto") << " " << n;
    }
  }
  std::vector<std::uint8_t> wrong(10);
  EXPECT_THROW(polygon_mask_auto_into(random_polygon(4, 1, 10, 10), 10, 10, wrong), InvalidArgument);
}

}  // namespace
}  // namespace weft
