// flatnonzero, nonzero, argwhere and extract on every device, against the positions a plain
// loop finds (NaN counts as nonzero, C order), including empty and 0-d inputs and
// expressions.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "support.hpp"
#include "weft/selection.hpp"

namespace weft {
namespace {

class Selection : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();
};

TEST_P(Selection, NonzeroPositionsMatchALoopInCOrder) {
  const std::int64_t rows = 37, cols = 129;  // not powers of two: the scan's partial tiles
  std::mt19937 rng(3);
  std::vector<float> x(static_cast<std::size_t>(rows * cols));
  for (auto& v : x) v = rng() % 3 == 0 ? 0.0f : static_cast<float>(rng() % 7) - 3.0f;
  x[5] = std::numeric_limits<float>::quiet_NaN();
  x[6] = -0.0f;
  const Array a = Array::from_host<float>(x, Shape{rows, cols}, dev);
  std::vector<std::int64_t> flat, r, c;
  for (std::int64_t i = 0; i < rows * cols; ++i) {
    if (x[static_cast<std::size_t>(i)] != 0.0f) {  // NaN != 0 is true: nonzero, as NumPy
      flat.push_back(i);
      r.push_back(i / cols);
      c.push_back(i % cols);
    }
  }
  EXPECT_EQ(flatnonzero(a).to_host<std::int64_t>(), flat);
  const std::vector<Array> rc = nonzero(a);
  ASSERT_EQ(rc.size(), 2u);
  EXPECT_EQ(rc[0].to_host<std::int64_t>(), r);
  EXPECT_EQ(rc[1].to_host<std::int64_t>(), c);
  const Array w = argwhere(a);
  ASSERT_EQ(w.shape(), (Shape{static_cast<std::int64_t>(flat.size()), 2}));
  const auto wv = w.to_host<std::int64_t>();
  for (std::size_t k = 0; k < flat.size(); ++k) {
    ASSERT_EQ(wv[2 * k], r[k]);
    ASSERT_EQ(wv[2 * k + 1], c[k]);
  }
  // An expression: the positions of a > 1 and the elements there.
  std::vector<float> want;
  std::vector<std::int64_t> where;
  for (std::int64_t i = 0; i < rows * cols; ++i) {
    if (x[static_cast<std::size_t>(i)] > 1.0f) {
      want.push_back(x[static_cast<std::size_t>(i)]);
      where.push_back(i);
    }
  }
  EXPECT_EQ(flatnonzero(a > 1.0).to_host<std::int64_t>(), where);
  EXPECT_EQ(extract(a > 1.0, a).to_host<float>(), want);
}

TEST_P(Selection, EmptyAndZeroDimensionalInputs) {
  const Array none = Array::full({4, 0, 3}, 1.0, DType::int32, dev);
  EXPECT_EQ(flatnonzero(none).size(), 0);
  EXPECT_EQ(argwhere(none).shape(), (Shape{0, 3}));
  EXPECT_EQ(nonzero(none).size(), 3u);
  const Array zeros = Array::full({5}, 0.0, DType::uint8, dev);
  EXPECT_EQ(flatnonzero(zeros).size(), 0);
  const Array scalar = Array::full({}, 2.0, DType::float64, dev);
  EXPECT_EQ(argwhere(scalar).shape(), (Shape{1, 0}));  // as numpy.argwhere of a true 0-d
  EXPECT_EQ(argwhere(Array::full({}, 0.0, DType::float64, dev)).shape(), (Shape{0, 0}));
  EXPECT_THROW(nonzero(scalar), InvalidArgument);
  EXPECT_THROW(extract(zeros, Array::full({4}, 1.0, DType::float32, dev)), InvalidArgument);
  EXPECT_THROW(flatnonzero(Expr(1.0) + 2.0), InvalidArgument);  // no array: no device
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Selection, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
