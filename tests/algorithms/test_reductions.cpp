// Reductions of arrays on every device (sum, prod, min, max, mean, any, all, argmin/argmax,
// var/std, cumsum/cumprod, dot), whole and along axes, fused with the expression they
// reduce, checked against a host reference written out here.
#include <gtest/gtest.h>

#include <cmath>

#include "array/arrays_fixture.hpp"
#include "support.hpp"

namespace weft {
namespace {

TEST_P(Arrays, ReductionsFuseTheExpression) {
  const std::size_t n = 100'003;
  const auto x = test::random_vector<float>(n, 5, -1.0f, 1.0f);
  Array a = make(x, Shape{static_cast<std::int64_t>(n)});
  double ref = 0, ref2 = 0;
  float mn = x[0], mx = x[0];
  for (float e : x) {
    ref += e;
    ref2 += double(e * 2.0f + 1.0f);
    mn = std::min(mn, e);
    mx = std::max(mx, e);
  }
  EXPECT_NEAR(sum(a).get(), ref, 1e-6 * n);
  EXPECT_NEAR(sum(a * 2 + 1).get(), ref2, 1e-6 * n);
  EXPECT_EQ(min(a).get(), double(mn));
  EXPECT_EQ(max(a).get(), double(mx));
  // Over a non-contiguous view: the trace-like sum of a transposed matrix's first column.
  Array m = make(iota_f(12), Shape{3, 4});
  EXPECT_EQ(sum(m.transpose().slice(0, 0, 1)).get(), 0.0 + 4 + 8);
  EXPECT_EQ(sum(Array::empty({0}, DType::float32, dev)).get(), 0.0);
  EXPECT_THROW(min(Array::empty({0}, DType::float32, dev)), InvalidArgument);
}

TEST_P(Arrays, ReductionsAlongAxes) {
  // A (2, 3, 4) array 0..23, reduced along each axis and pairs of axes, against loops here.
  const auto v = iota_f(24);
  Array a = make(v, Shape{2, 3, 4});
  Array s1 = sum(a, {1});
  EXPECT_EQ(s1.shape(), (Shape{2, 4}));
  EXPECT_EQ(s1.dtype(), DType::float32);
  std::vector<float> want(8, 0);
  for (int i = 0; i < 2; ++i) for (int j = 0; j < 3; ++j) for (int k = 0; k < 4; ++k) want[i * 4 + k] += v[i * 12 + j * 4 + k];
  EXPECT_EQ(s1.to_host<float>(), want);
  Array s02 = sum(a, {0, -1}, true);
  EXPECT_EQ(s02.shape(), (Shape{1, 3, 1}));
  std::vector<float> want02(3, 0);
  for (int i = 0; i < 2; ++i) for (int j = 0; j < 3; ++j) for (int k = 0; k < 4; ++k) want02[j] += v[i * 12 + j * 4 + k];
  EXPECT_EQ(s02.to_host<float>(), want02);
  EXPECT_EQ(sum(a, {}).to_host<float>(), std::vector<float>{276});  // every axis
  EXPECT_EQ(max(a, {2}).to_host<float>(), (std::vector<float>{3, 7, 11, 15, 19, 23}));
  // a.T has shape (4, 3, 2); min over axis 0 leaves (3, 2): element [j][i] = a[i][j][0].
  const auto mt = min(a.transpose(), {0}).to_host<float>();
  ASSERT_EQ(mt.size(), 6u);
  for (int j = 0; j < 3; ++j) for (int i = 0; i < 2; ++i) EXPECT_EQ(mt[j * 2 + i], v[i * 12 + j * 4]);
  Array m = mean(a * 2, {0, 1, 2});
  EXPECT_EQ(m.dtype(), DType::float32);
  EXPECT_EQ(m.to_host<float>()[0], 23.0f);
  // Integer sums widen to int64 (no int8 overflow), means of integers are float64.
  Array i8 = make(std::vector<std::int8_t>{100, 100, 100, -1, -2, -3}, Shape{2, 3});
  Array si = sum(i8, {1});
  EXPECT_EQ(si.dtype(), DType::int64);
  EXPECT_EQ(si.to_host<std::int64_t>(), (std::vector<std::int64_t>{300, -6}));
  EXPECT_EQ(mean(i8, {0}).to_host<double>(), (std::vector<double>{49.5, 49, 48.5}));
  EXPECT_EQ(prod(i8, {1}).to_host<std::int64_t>(), (std::vector<std::int64_t>{1000000, -6}));
  Array f = make(std::vector<float>{0, 0.5f, 0, 0, 0, 0}, Shape{2, 3});
  EXPECT_EQ(any(f, {1}).astype(DType::uint8).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{1, 0}));
  EXPECT_EQ(all(f + 1, {1}).astype(DType::uint8).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{1, 1}));
  EXPECT_EQ(all(f, {0}).astype(DType::uint8).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{0, 0, 0}));
  // NaN propagates through min and max, as NumPy's.
  Array n = make(std::vector<double>{1, NAN, 3, 4}, Shape{2, 2});
  const auto mx = max(n, {1}).to_host<double>();
  EXPECT_TRUE(std::isnan(mx[0]));
  EXPECT_EQ(mx[1], 4.0);
  EXPECT_THROW(sum(a, {3}), InvalidArgument);
  EXPECT_THROW(sum(a, {1, -2}), InvalidArgument);  // the same axis twice
  EXPECT_THROW(max(Array::empty({0, 3}, DType::float32, dev), {0}), InvalidArgument);
  EXPECT_EQ(sum(Array::empty({0, 3}, DType::float32, dev), {0}).to_host<float>(), std::vector<float>(3, 0));
}

TEST_P(Arrays, ArgExtremesVarianceScansAndDot) {
  const std::vector<float> v = {3, 9, 1, 9, -4, 0, 7, 7, 2, 5, -4, 8};
  Array a = make(v, Shape{3, 4});
  // Every element: the flat index of the first extreme.
  EXPECT_EQ(argmax(a).to_host<std::int64_t>(), std::vector<std::int64_t>{1});
  EXPECT_EQ(argmin(a).to_host<std::int64_t>(), std::vector<std::int64_t>{4});
  EXPECT_EQ(argmax(a * -1.0f).to_host<std::int64_t>(), std::vector<std::int64_t>{4});
  EXPECT_EQ(argmax(a, 1).to_host<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(argmin(a, 0).to_host<std::int64_t>(), (std::vector<std::int64_t>{1, 1, 2, 1}));
  EXPECT_EQ(argmin(a, -1, true).shape(), (Shape{3, 1}));
  // A NaN is the extreme of both, its first occurrence.
  const float nan = std::nanf("");
  Array withnan = make(std::vector<float>{1, nan, 5, nan}, Shape{4});
  EXPECT_EQ(argmax(withnan).to_host<std::int64_t>()[0], 1);
  EXPECT_EQ(argmin(withnan, 0).to_host<std::int64_t>()[0], 1);
  EXPECT_THROW(argmax(Array::empty({0}, DType::float32, dev)), InvalidArgument);
  // Integer extremes beyond 2^53 stay exact.
  const std::int64_t big = (std::int64_t{1} << 60) + 1;
  Array ints = make(std::vector<std::int64_t>{big - 1, big, big - 2}, Shape{3});
  EXPECT_EQ(argmax(ints).to_host<std::int64_t>()[0], 1);
  EXPECT_EQ(max(ints, {}).to_host<std::int64_t>()[0], big);
  EXPECT_EQ(sum(ints, {}).to_host<std::int64_t>()[0], 3 * big - 3);

  // var and std: NumPy's two-pass values, ddof, dtypes.
  Array vr = var(a, {1});
  EXPECT_EQ(vr.dtype(), DType::float32);
  for (int r = 0; r < 3; ++r) {
    double m = 0, q = 0;
    for (int c = 0; c < 4; ++c) m += v[r * 4 + c] / 4.0;
    for (int c = 0; c < 4; ++c) q += (v[r * 4 + c] - m) * (v[r * 4 + c] - m);
    EXPECT_NEAR(vr.to_host<float>()[r], q / 4, 1e-4);
    EXPECT_NEAR(std(a, {1}, false, 1).to_host<float>()[r], std::sqrt(q / 3), 1e-4);
  }
  Array iv = var(make(std::vector<std::int32_t>{1, 2, 3, 4}, Shape{4}));
  EXPECT_EQ(iv.dtype(), DType::float64);
  EXPECT_DOUBLE_EQ(iv.to_host<double>()[0], 1.25);

  // cumsum and cumprod: flattened, along each axis, of an expression, of a transposed view.
  std::vector<float> flat(12);
  std::partial_sum(v.begin(), v.end(), flat.begin());
  EXPECT_EQ(cumsum(a).to_host<float>(), flat);
  EXPECT_EQ(cumsum(a).shape(), (Shape{12}));
  const auto c0 = cumsum(a, 0).to_host<float>();
  const auto c1 = cumsum(a * 2.0f, 1).to_host<float>();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 4; ++c) {
      float down = 0, across = 0;
      for (int k = 0; k <= r; ++k) down += v[k * 4 + c];
      for (int k = 0; k <= c; ++k) across += 2 * v[r * 4 + k];
      EXPECT_EQ(c0[r * 4 + c], down);
      EXPECT_EQ(c1[r * 4 + c], across);
    }
  }
  const auto ct = cumsum(a.transpose(), 1).to_host<float>();  // (4, 3): along a's rows
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 3; ++r) EXPECT_EQ(ct[c * 3 + r], c0[r * 4 + c]);
  }
  Array small = make(std::vector<std::int8_t>{100, 100, 100, -2}, Shape{4});
  Array cs = cumsum(small);
  EXPECT_EQ(cs.dtype(), DType::int64);  // no int8 overflow, as NumPy's
  EXPECT_EQ(cs.to_host<std::int64_t>(), (std::vector<std::int64_t>{100, 200, 300, 298}));
  EXPECT_EQ(cumprod(make(std::vector<std::int32_t>{1, 2, 3, 4, 5}, Shape{5})).to_host<std::int64_t>(),
            (std::vector<std::int64_t>{1, 2, 6, 24, 120}));
  EXPECT_EQ(cumsum(Array::empty({0, 3}, DType::float32, dev), 1).shape(), (Shape{0, 3}));

  // dot: inner product, matrix-vector, matrix-matrix, a transposed operand, a mismatch.
  Array x = make(std::vector<float>{1, 2, 3, 4}, Shape{4});
  EXPECT_EQ(dot(x, x).to_host<float>(), std::vector<float>{30});
  EXPECT_EQ(dot(x, x).ndim(), 0u);
  EXPECT_EQ(dot(a, x).to_host<float>(), (std::vector<float>{3 + 18 + 3 + 36, -4 + 0 + 21 + 28, 2 + 10 - 12 + 32}));
  Array m = dot(a, a.transpose());
  ASSERT_EQ(m.shape(), (Shape{3, 3}));
  const auto mv = m.to_host<float>();
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      float want = 0;
      for (int k = 0; k < 4; ++k) want += v[r * 4 + k] * v[c * 4 + k];
      EXPECT_EQ(mv[r * 3 + c], want);
    }
  }
  Array ai = make(std::vector<std::int32_t>{1, 2, 3, 4, 5, 6}, Shape{2, 3});
  Array bi = make(std::vector<std::int32_t>{1, 0, 0, 1, 1, 1}, Shape{3, 2});
  Array mi = dot(ai, bi);
  EXPECT_EQ(mi.dtype(), DType::int32);
  EXPECT_EQ(mi.to_host<std::int32_t>(), (std::vector<std::int32_t>{4, 5, 10, 11}));
  try {
    dot(a, a);
    FAIL() << "dot of (3, 4) and (3, 4) ran";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("not aligned"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace weft
