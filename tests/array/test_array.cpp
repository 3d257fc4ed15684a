// Arrays on every device, checked against a host reference written out here: NumPy's type
// promotion (NEP 50 for plain numbers), broadcasting, views (reshape, transpose, slices with
// steps, broadcast_to), floor division and remainder with NumPy's signs, reductions, the
// errors a user can make.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "support.hpp"

namespace weft {
namespace {

class Arrays : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();

  template <class T>
  Array make(const std::vector<T>& v, const Shape& shape) {
    return Array::from_host<T>(std::span<const T>(v), shape, dev);
  }
};

std::vector<float> iota_f(std::size_t n, float start = 0) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

TEST_P(Arrays, CreationAndRoundTrip) {
  const auto v = iota_f(12);
  Array a = make(v, Shape{3, 4});
  EXPECT_EQ(a.shape(), (Shape{3, 4}));
  EXPECT_EQ(a.dtype(), DType::float32);
  EXPECT_TRUE(a.is_contiguous());
  EXPECT_EQ(a.to_host<float>(), v);

  EXPECT_EQ(Array::full({5}, 2.5, DType::float64, dev).to_host<double>(), std::vector<double>(5, 2.5));
  EXPECT_EQ(Array::zeros({2, 2}, DType::int32, dev).to_host<std::int32_t>(), std::vector<std::int32_t>(4, 0));
  EXPECT_EQ(Array::ones({3}, DType::uint8, dev).to_host<std::uint8_t>(), std::vector<std::uint8_t>(3, 1));
  EXPECT_EQ(Array::arange(2, 11, 3, DType::int64, dev).to_host<std::int64_t>(), (std::vector<std::int64_t>{2, 5, 8}));
  EXPECT_EQ(Array::arange(1, 0, -0.25, DType::float32, dev).to_host<float>(),
            (std::vector<float>{1.0f, 0.75f, 0.5f, 0.25f}));
  EXPECT_EQ(Array::arange(5, 5, 1, DType::float32, dev).size(), 0);
  EXPECT_EQ(a.describe(), "float32 array of shape (3, 4) on " + dev.selector());
}

TEST_P(Arrays, BroadcastingArithmeticIsOneExpression) {
  const auto av = iota_f(12);
  const std::vector<float> bv = {1, 2, 3, 4};
  Array a = make(av, Shape{3, 4});
  Array b = make(bv, Shape{4});
  Array c = eval(a * b + sin(a) - 1.5);
  ASSERT_EQ(c.shape(), (Shape{3, 4}));
  EXPECT_EQ(c.dtype(), DType::float32);  // a plain number does not widen float32 (NEP 50)
  const auto got = c.to_host<float>();
  for (std::size_t r = 0; r < 3; ++r) {
    for (std::size_t k = 0; k < 4; ++k) {
      const float x = av[r * 4 + k];
      const float ref = x * bv[k] + std::sin(x) - 1.5f;
      EXPECT_NEAR(got[r * 4 + k], ref, 1e-4f * (1 + std::fabs(ref))) << r << "," << k;
    }
  }
  // A column against a row: (3, 1) with (4,) gives (3, 4).
  Array col = make(std::vector<float>{10, 20, 30}, Shape{3, 1});
  const auto outer = eval(col + b).to_host<float>();
  for (std::size_t r = 0; r < 3; ++r) {
    for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(outer[r * 4 + k], 10.0f * float(r + 1) + bv[k]);
  }
}

TEST_P(Arrays, TypePromotionFollowsNumPy) {
  EXPECT_EQ(result_type(DType::int32, DType::float32), DType::float64);
  EXPECT_EQ(result_type(DType::int16, DType::float32), DType::float32);
  EXPECT_EQ(result_type(DType::uint8, DType::int8), DType::int16);
  EXPECT_EQ(result_type(DType::uint32, DType::int32), DType::int64);
  EXPECT_EQ(result_type(DType::uint64, DType::int64), DType::float64);
  EXPECT_EQ(result_type(DType::bool_, DType::uint16), DType::uint16);
  EXPECT_EQ(result_type(DType::float32, DType::float64), DType::float64);

  Array i8 = make(std::vector<std::int8_t>{100, -100, 7}, Shape{3});
  Array u8 = make(std::vector<std::uint8_t>{200, 1, 255}, Shape{3});
  Array f32 = make(std::vector<float>{0.5f, 1.5f, 2.5f}, Shape{3});
  Array i32 = make(std::vector<std::int32_t>{1, 2, 3}, Shape{3});

  // int8 + uint8 -> int16: no wrap-around.
  Array s = eval(i8 + u8);
  EXPECT_EQ(s.dtype(), DType::int16);
  EXPECT_EQ(s.to_host<std::int16_t>(), (std::vector<std::int16_t>{300, -99, 262}));
  // int8 + a plain int stays int8 and wraps, as NumPy 2.
  Array w = eval(i8 + 100);
  EXPECT_EQ(w.dtype(), DType::int8);
  EXPECT_EQ(w.to_host<std::int8_t>(), (std::vector<std::int8_t>{-56, 0, 107}));
  // int32 with float32 -> float64; an int array times a plain float -> float64.
  EXPECT_EQ(eval(i32 + f32).dtype(), DType::float64);
  Array h = eval(i32 * 0.5);
  EXPECT_EQ(h.dtype(), DType::float64);
  EXPECT_EQ(h.to_host<double>(), (std::vector<double>{0.5, 1.0, 1.5}));
  // True division of integers gives floats.
  Array q = eval(i32 / 2);
  EXPECT_EQ(q.dtype(), DType::float64);
  EXPECT_EQ(q.to_host<double>(), (std::vector<double>{0.5, 1.0, 1.5}));
  // Comparisons give bool; bool + bool... is arithmetic on the promoted type.
  Array m = eval(f32 > 1.0);
  EXPECT_EQ(m.dtype(), DType::bool_);
  EXPECT_EQ(m.astype(DType::uint8).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{0, 1, 1}));
  EXPECT_EQ(eval(m + 1).dtype(), DType::int64);
  EXPECT_EQ(eval(m + 1).to_host<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 2}));
}

TEST_P(Arrays, FloorDivideAndRemainderTakeTheDivisorsSign) {
  const std::vector<std::int32_t> a = {7, -7, 7, -7, 0, 5};
  const std::vector<std::int32_t> b = {2, 2, -2, -2, 3, 0};
  Array A = make(a, Shape{6});
  Array B = make(b, Shape{6});
  EXPECT_EQ(eval(floor_divide(A, B)).to_host<std::int32_t>(), (std::vector<std::int32_t>{3, -4, -4, 3, 0, 0}));
  EXPECT_EQ(eval(remainder(A, B)).to_host<std::int32_t>(), (std::vector<std::int32_t>{1, 1, -1, -1, 0, 0}));
  Array F = make(std::vector<double>{7.5, -7.5, 7.5, -7.5}, Shape{4});
  Array G = make(std::vector<double>{2, 2, -2, -2}, Shape{4});
  EXPECT_EQ(eval(floor_divide(F, G)).to_host<double>(), (std::vector<double>{3, -4, -4, 3}));
  EXPECT_EQ(eval(remainder(F, G)).to_host<double>(), (std::vector<double>{1.5, 0.5, -0.5, -1.5}));
  EXPECT_EQ(eval(power(A, 2)).to_host<std::int32_t>(), (std::vector<std::int32_t>{49, 49, 49, 49, 0, 25}));
  EXPECT_EQ(eval(minimum(A, B)).to_host<std::int32_t>(), (std::vector<std::int32_t>{2, -7, -2, -7, 0, 0}));
  EXPECT_EQ(eval(maximum(A, B)).to_host<std::int32_t>(), (std::vector<std::int32_t>{7, 2, 7, -2, 3, 5}));
  EXPECT_EQ(eval(abs(A)).to_host<std::int32_t>(), (std::vector<std::int32_t>{7, 7, 7, 7, 0, 5}));
  EXPECT_EQ(eval(where(A > 0, A, -A * 10)).to_host<std::int32_t>(), (std::vector<std::int32_t>{7, 70, 7, 70, 0, 5}));
  // NaN propagates through minimum and maximum, as NumPy's (not fmin/fmax).
  Array N = make(std::vector<double>{NAN, 1.0}, Shape{2});
  const auto mn = eval(minimum(N, 0.0)).to_host<double>();
  EXPECT_TRUE(std::isnan(mn[0]));
  EXPECT_EQ(mn[1], 0.0);
}

TEST_P(Arrays, ViewsShareMemoryAndIndexCorrectly) {
  const auto v = iota_f(24);
  Array a = make(v, Shape{4, 6});
  Array t = a.transpose();
  EXPECT_EQ(t.shape(), (Shape{6, 4}));
  EXPECT_FALSE(t.is_contiguous());
  const auto th = t.to_host<float>();
  for (std::size_t r = 0; r < 6; ++r) {
    for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(th[r * 4 + k], v[k * 6 + r]);
  }
  // Every other column, backwards: a[:, ::-2] -> columns 5, 3, 1.
  Array s = a.slice(1, Array::none, Array::none, -2);
  EXPECT_EQ(a.slice(1, 5, -1, -2).shape(), (Shape{4, 0}));  // as NumPy's a[:, 5:-1:-2]
  EXPECT_EQ(s.shape(), (Shape{4, 3}));
  const auto sh = s.to_host<float>();
  for (std::size_t r = 0; r < 4; ++r) {
    for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(sh[r * 3 + k], v[r * 6 + 5 - 2 * k]);
  }
  // Rows 1..3 then reshape of a contiguous copy.
  Array rows = a.slice(0, 1, 3);
  EXPECT_EQ(rows.to_host<float>(), std::vector<float>(v.begin() + 6, v.begin() + 18));
  EXPECT_EQ(rows.copy().reshape({-1}).shape(), (Shape{12}));
  EXPECT_EQ(a.reshape({2, -1, 3}).shape(), (Shape{2, 4, 3}));
  EXPECT_EQ(t.reshape({24}).to_host<float>(), th);  // not contiguous: reshape copies
  EXPECT_EQ(a.reshape({24}).buffer().impl(), a.buffer().impl());  // contiguous: a view
  // Arithmetic on a transposed view and a sliced view together.
  Array sum = eval(t + t);
  const auto sumh = sum.to_host<float>();
  for (std::size_t i = 0; i < 24; ++i) EXPECT_EQ(sumh[i], 2 * th[i]);
  // broadcast_to repeats with stride 0.
  Array row = make(std::vector<float>{1, 2, 3}, Shape{3});
  Array bc = row.broadcast_to({2, 3});
  EXPECT_EQ(bc.strides(), (Strides{0, 1}));
  EXPECT_EQ(bc.to_host<float>(), (std::vector<float>{1, 2, 3, 1, 2, 3}));
  // Writing through a view changes the base array.
  a.slice(1, 0, 6, 5).assign(Expr(-1.0));
  const auto after = a.to_host<float>();
  for (std::size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(after[r * 6 + 0], -1.0f);
    EXPECT_EQ(after[r * 6 + 5], -1.0f);
    EXPECT_EQ(after[r * 6 + 2], v[r * 6 + 2]);
  }
}

TEST_P(Arrays, AssignmentFromAnOverlappingViewReadsTheOldValues) {
  const auto v = iota_f(9);
  Array a = make(v, Shape{3, 3});
  a.assign(a.transpose() + 0.0);  // in place: a = a.T
  const auto h = a.to_host<float>();
  for (std::size_t r = 0; r < 3; ++r) {
    for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(h[r * 3 + k], v[k * 3 + r]);
  }
  Array b = make(iota_f(6), Shape{6});
  b.slice(0, 1, 6).assign(b.slice(0, 0, 5));  // shift right by one, as NumPy's b[1:] = b[:-1]
  EXPECT_EQ(b.to_host<float>(), (std::vector<float>{0, 0, 1, 2, 3, 4}));
}

TEST_P(Arrays, AstypeConvertsAsNumPy) {
  Array f = make(std::vector<double>{-1.7, 2.9, 0.0, 300.2}, Shape{4});
  EXPECT_EQ(f.astype(DType::int32).to_host<std::int32_t>(), (std::vector<std::int32_t>{-1, 2, 0, 300}));
  EXPECT_EQ(f.astype(DType::bool_).astype(DType::uint8).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{1, 1, 0, 1}));
  EXPECT_EQ(f.astype(DType::float32).dtype(), DType::float32);
}

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

TEST_P(Arrays, ErrorsNameWhatWasWrong) {
  Array a = Array::zeros({3, 4}, DType::float32, dev);
  Array b = Array::zeros({3}, DType::float32, dev);
  try {
    eval(a + b);
    FAIL() << "shapes (3, 4) and (3,) do not broadcast";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("(3, 4)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot be broadcast"), std::string::npos) << e.what();
  }
  EXPECT_THROW(a.to_host<double>(), InvalidArgument);
  EXPECT_THROW(a.reshape({5, -1}), InvalidArgument);
  EXPECT_THROW(a.assign(Array::zeros({2, 4}, DType::float32, dev)), InvalidArgument);
  EXPECT_THROW(a.slice(2, 0, 1), InvalidArgument);
  const std::vector<float> five(5);
  EXPECT_THROW(Array::from_host<float>(std::span<const float>(five), Shape{2, 3}, dev), InvalidArgument);
  EXPECT_THROW(Array::empty({2}, DType::float16, dev), Unsupported);
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Arrays, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
