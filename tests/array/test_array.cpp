// Arrays on every device, checked against a host reference written out here: NumPy's type
// promotion (NEP 50 for plain numbers), broadcasting, views (reshape, transpose, slices with
// steps, broadcast_to), floor division and remainder with NumPy's signs, reductions, the
// errors a user can make.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

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

TEST_P(Arrays, MathLogicalAndBitwiseFunctions) {
  Array f = make(std::vector<double>{-2.5, -0.5, 0.5, 1.5, 2.5, NAN, INFINITY}, Shape{7});
  const auto rnd = eval(round(f)).to_host<double>();  // half to even, as NumPy
  EXPECT_EQ(rnd[0], -2.0);
  EXPECT_EQ(rnd[1], -0.0);
  EXPECT_EQ(rnd[2], 0.0);
  EXPECT_EQ(rnd[3], 2.0);
  EXPECT_EQ(rnd[4], 2.0);
  EXPECT_EQ(eval(floor(f)).to_host<double>()[0], -3.0);
  EXPECT_EQ(eval(ceil(f)).to_host<double>()[0], -2.0);
  EXPECT_EQ(eval(trunc(f)).to_host<double>()[0], -2.0);
  EXPECT_EQ(eval(isnan(f)).astype(DType::uint8).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{0, 0, 0, 0, 0, 1, 0}));
  EXPECT_EQ(eval(isinf(f)).astype(DType::uint8).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{0, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(eval(isfinite(f)).astype(DType::uint8).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{1, 1, 1, 1, 1, 0, 0}));
  // fmin ignores NaN, minimum propagates it.
  EXPECT_EQ(eval(fmin(f, 0.0)).to_host<double>()[5], 0.0);
  EXPECT_TRUE(std::isnan(eval(minimum(f, 0.0)).to_host<double>()[5]));

  Array i = make(std::vector<std::int32_t>{-3, 0, 5, 12}, Shape{4});
  EXPECT_EQ(eval(floor(i)).dtype(), DType::int32);  // NumPy 2 keeps integers
  EXPECT_EQ(eval(round(i)).to_host<std::int32_t>(), (std::vector<std::int32_t>{-3, 0, 5, 12}));
  EXPECT_EQ(eval(sqrt(i)).dtype(), DType::float64);
  EXPECT_EQ(eval(clip(i, 0, 6)).to_host<std::int32_t>(), (std::vector<std::int32_t>{0, 0, 5, 6}));
  EXPECT_EQ(eval(i & 6).to_host<std::int32_t>(), (std::vector<std::int32_t>{4, 0, 4, 4}));
  EXPECT_EQ(eval(i | 1).to_host<std::int32_t>(), (std::vector<std::int32_t>{-3, 1, 5, 13}));
  EXPECT_EQ(eval(i ^ 5).to_host<std::int32_t>(), (std::vector<std::int32_t>{-8, 5, 0, 9}));
  EXPECT_EQ(eval(~i).to_host<std::int32_t>(), (std::vector<std::int32_t>{2, -1, -6, -13}));
  EXPECT_THROW(f & 1, InvalidArgument);
  EXPECT_THROW(~f, InvalidArgument);
  const auto as_bytes = [](const Expr& e) { return eval(e).astype(DType::uint8).to_host<std::uint8_t>(); };
  EXPECT_EQ(as_bytes(logical_and(i, i > 0)), (std::vector<std::uint8_t>{0, 0, 1, 1}));
  EXPECT_EQ(as_bytes(logical_or(i, i > 0)), (std::vector<std::uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(as_bytes(logical_xor(i, i > 4)), (std::vector<std::uint8_t>{1, 0, 0, 0}));
  EXPECT_EQ(as_bytes(logical_not(i)), (std::vector<std::uint8_t>{0, 1, 0, 0}));
  EXPECT_EQ(as_bytes(~(i > 0)), (std::vector<std::uint8_t>{1, 1, 0, 0}));  // ~ on bool is not
  const auto at = eval(atan2(make(std::vector<float>{1, -1}, Shape{2}), 1)).to_host<float>();
  EXPECT_NEAR(at[0], 0.7853982f, 1e-6f);
  EXPECT_NEAR(at[1], -0.7853982f, 1e-6f);
  EXPECT_EQ(eval(hypot(make(std::vector<double>{3}, Shape{1}), 4)).to_host<double>()[0], 5.0);
  // Edge cases of integer division NumPy defines: by zero gives 0, INT_MIN // -1 wraps.
  Array m = make(std::vector<std::int32_t>{INT32_MIN, 7}, Shape{2});
  EXPECT_EQ(eval(floor_divide(m, -1)).to_host<std::int32_t>(), (std::vector<std::int32_t>{INT32_MIN, -7}));
  EXPECT_EQ(eval(remainder(m, -1)).to_host<std::int32_t>(), (std::vector<std::int32_t>{0, 0}));
  // Float floor division stays right where the quotient is an exact integer.
  Array g = make(std::vector<float>{6, 0.3f, -6, 1}, Shape{4});
  Array h = make(std::vector<float>{3, 0.1f, 3, 0}, Shape{4});
  const auto fd = eval(floor_divide(g, h)).to_host<float>();
  EXPECT_EQ(fd[0], 2.0f);
  EXPECT_EQ(fd[1], 3.0f);  // as numpy.floor_divide(float32(0.3), float32(0.1))
  EXPECT_EQ(fd[2], -2.0f);
  EXPECT_TRUE(std::isinf(fd[3]));
}

TEST_P(Arrays, LinspaceAndRavel) {
  EXPECT_EQ(Array::linspace(0, 1, 5, DType::float32, dev).to_host<float>(), (std::vector<float>{0, 0.25f, 0.5f, 0.75f, 1}));
  EXPECT_EQ(Array::linspace(0, 1, 4, DType::float64, dev, false).to_host<double>(), (std::vector<double>{0, 0.25, 0.5, 0.75}));
  EXPECT_EQ(Array::linspace(2, 3, 1, DType::float64, dev).to_host<double>(), (std::vector<double>{2}));
  EXPECT_EQ(Array::linspace(0, 1, 0, DType::float64, dev).size(), 0);
  const auto last = Array::linspace(0.1, 0.7, 7, DType::float64, dev).to_host<double>();
  EXPECT_EQ(last.back(), 0.7);  // exactly stop
  Array a = make(iota_f(6), Shape{2, 3});
  EXPECT_EQ(a.ravel().shape(), (Shape{6}));
  EXPECT_EQ(a.transpose().ravel().to_host<float>(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST_P(Arrays, AnExpressionIsOneKernel) {
  Array a = make(iota_f(1000), Shape{10, 100});
  Array b = make(iota_f(100, 1), Shape{100});
  Array c = Array::empty({10, 100}, DType::float32, dev);
  c.assign(a * b + sin(a));  // warm: the kernel is built once
  const auto before = elementwise_launches(dev);
  c.assign(a * b + sin(a));
  Array d = eval(where(a > 500, sqrt(a) * b - 1, exp(-a / 100)) + maximum(a, b) / 3);
  synchronize(dev);
  EXPECT_EQ(elementwise_launches(dev) - before, 2u);
  EXPECT_EQ(d.shape(), (Shape{10, 100}));
}

TEST_P(Arrays, OneKernelCountedFromTheQueuesEvents) {
  Array a = make(iota_f(1000), Shape{10, 100});
  Array b = make(iota_f(100, 1), Shape{100});
  Array c = Array::empty({10, 100}, DType::float32, dev);
  c.assign(a * b + sin(a));  // warm: the build is not a launch, but keep the count clean
  synchronize(dev);
  LaunchLog log(array_queue(dev));
  c.assign(a * b + sin(a));
  synchronize(dev);
  const auto entries = log.entries();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].kernel, "weft_expr");
  const EventProfile p = entries[0].event.profile();
  EXPECT_GT(p.end, 0u);
  EXPECT_GE(p.end, p.start);
}

TEST_P(Arrays, TheSameViewIsOneParameterAndLargeTreesAreCut) {
  // Twelve uses of one strided 3-d view: one kernel parameter set, one kernel.
  std::vector<double> ones(24, 1.0);
  Array v = make(ones, Shape{4, 2, 3}).transpose();
  Expr x = v;
  for (int k = 0; k < 11; ++k) x = x + v;
  auto before = elementwise_launches(dev);
  EXPECT_EQ(eval(x).to_host<double>(), std::vector<double>(24, 12.0));
  EXPECT_EQ(elementwise_launches(dev) - before, 1u);

  // Twenty distinct strided views (more parameters than the host backend's 64) and a chain
  // 100 deep (deeper than compilers nest brackets): cut into several kernels, still exact.
  std::vector<double> base(24 * 3 * 5);
  std::iota(base.begin(), base.end(), 0.0);
  Array w = make(base, Shape{24, 3, 5});
  Expr total = w.slice(0, 0, 4).transpose();
  for (int k = 1; k < 20; ++k) total = total + w.slice(0, k, k + 4).transpose() * static_cast<double>(k + 1);
  before = elementwise_launches(dev);
  const auto got = eval(total).to_host<double>();
  EXPECT_GT(elementwise_launches(dev) - before, 1u);
  ASSERT_EQ(got.size(), 5u * 3 * 4);
  for (std::int64_t i = 0; i < 5; ++i) {
    for (std::int64_t j = 0; j < 3; ++j) {
      for (std::int64_t m = 0; m < 4; ++m) {
        double want = 0;
        for (int k = 0; k < 20; ++k) want += base[static_cast<std::size_t>(((m + k) * 3 + j) * 5 + i)] * (k + 1);
        EXPECT_EQ(got[static_cast<std::size_t>((i * 3 + j) * 4 + m)], want) << i << "," << j << "," << m;
      }
    }
  }
  Array one = make(std::vector<std::int32_t>{1, 2, 3}, Shape{3});
  Expr chain = one;
  for (int k = 0; k < 100; ++k) chain = (chain + 1) * 1;
  EXPECT_EQ(eval(chain).to_host<std::int32_t>(), (std::vector<std::int32_t>{101, 102, 103}));
  EXPECT_EQ(sum(chain, {}, false).to_host<std::int64_t>(), (std::vector<std::int64_t>{306}));
}

TEST_P(Arrays, IntegersWrapAndNumbersKeepNumPysRules) {
  const auto bools = [](const Expr& e) { return eval(astype(e, DType::uint8)).to_host<std::uint8_t>(); };
  // Signed overflow wraps (computed in the unsigned type: nothing undefined in the kernel).
  Array i32 = make(std::vector<std::int32_t>{INT32_MIN, -3, 2147483647}, Shape{3});
  EXPECT_EQ(eval(i32 + i32).to_host<std::int32_t>(), (std::vector<std::int32_t>{0, -6, -2}));
  EXPECT_EQ(eval(abs(i32)).to_host<std::int32_t>(), (std::vector<std::int32_t>{INT32_MIN, 3, 2147483647}));
  EXPECT_EQ(eval(floor_divide(Expr(5) + i32 * 0, abs(i32))).to_host<std::int32_t>(),
            (std::vector<std::int32_t>{-1, 1, 0}));
  EXPECT_EQ(sum(i32 + i32, {}, false).to_host<std::int64_t>(), (std::vector<std::int64_t>{-8}));
  // Integer powers: a negative exponent, number or array value, is refused as in NumPy.
  Array small = make(std::vector<std::int32_t>{2, 3, 0}, Shape{3});
  EXPECT_EQ(eval(power(small, small)).to_host<std::int32_t>(), (std::vector<std::int32_t>{4, 27, 1}));
  EXPECT_THROW((void)power(small, -1), InvalidArgument);
  EXPECT_THROW((void)power(small, small - 1), InvalidArgument);
  // -x of a narrow type is of that type before a wider operation uses it.
  Array u8 = make(std::vector<std::uint8_t>{1, 0}, Shape{2});
  Array i16 = make(std::vector<std::int16_t>{-3, 4}, Shape{2});
  EXPECT_EQ(eval(-u8 * i16).to_host<std::int16_t>(), (std::vector<std::int16_t>{-765, 0}));
  // A Python-style number out of the array's range is refused for arithmetic, compared by value.
  Array i8 = make(std::vector<std::int8_t>{-128, 127}, Shape{2});
  EXPECT_THROW(eval(i8 + 300), ValueOutOfRange);
  EXPECT_EQ(bools(i8 < 300), (std::vector<std::uint8_t>{1, 1}));
  EXPECT_EQ(bools(u8 == -1), (std::vector<std::uint8_t>{0, 0}));
  EXPECT_EQ(eval(i8 / 40000).dtype(), DType::float64);  // true division works in floats
  // int64 against uint64 compares exactly; a number above 2**63-1 is a uint64.
  Array s64 = make(std::vector<std::int64_t>{-1, INT64_MAX}, Shape{2});
  Array u64 = make(std::vector<std::uint64_t>{18446744073709551615ULL, 9223372036854775808ULL}, Shape{2});
  EXPECT_EQ(bools(s64 < u64), (std::vector<std::uint8_t>{1, 1}));
  EXPECT_EQ(bools(s64 == u64), (std::vector<std::uint8_t>{0, 0}));
  EXPECT_EQ(eval(u64 - 18446744073709551615ULL).to_host<std::uint64_t>(),
            (std::vector<std::uint64_t>{0, 9223372036854775809ULL}));
  EXPECT_THROW(eval(s64 + 18446744073709551615ULL), ValueOutOfRange);
  // Typed numbers do not adapt; bools add as logical or and refuse subtraction.
  EXPECT_EQ((i8 + Expr::typed(3LL, DType::int64)).dtype(), DType::int64);
  EXPECT_EQ((i8 + true).dtype(), DType::int8);
  Array b = make(std::vector<std::uint8_t>{1, 1}, Shape{2});
  Array bb = eval(astype(b, DType::bool_));
  EXPECT_EQ(bools(bb + bb), (std::vector<std::uint8_t>{1, 1}));
  EXPECT_EQ((bb + true).dtype(), DType::bool_);
  EXPECT_THROW(bb - bb, DTypeError);
  EXPECT_THROW(-bb, DTypeError);
  EXPECT_EQ(floor_divide(bb, bb).dtype(), DType::int8);
  // where(c, 3, 4) is an int64 array, not a number; clip works in the common type.
  EXPECT_EQ((where(bb, 3, 4) + i8).dtype(), DType::int64);
  EXPECT_EQ(eval(clip(i8, -300, 5)).to_host<std::int8_t>(), (std::vector<std::int8_t>{-128, 5}));
  EXPECT_THROW(clip(i8, 200, 300), ValueOutOfRange);
  EXPECT_EQ(eval(clip(i8, Expr(-9223372036854775807LL - 1), 0.0)).to_host<double>(), (std::vector<double>{-128, 0}));
  // A float condition, and NumPy's dtypes of fabs, rint, square and reciprocal.
  Array f = make(std::vector<double>{0.0, 1.5}, Shape{2});
  EXPECT_EQ(eval(where(f, i8, 0)).to_host<std::int8_t>(), (std::vector<std::int8_t>{0, 127}));
  EXPECT_EQ(fabs(i32).dtype(), DType::float64);
  EXPECT_EQ(rint(i32).dtype(), DType::float64);
  EXPECT_EQ(square(bb).dtype(), DType::int8);
  EXPECT_EQ(eval(reciprocal(i16)).to_host<std::int16_t>(), (std::vector<std::int16_t>{0, 0}));
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

// A random reference test: random dtypes, shapes, broadcasting, strided views and operations,
// each checked against a NumPy-rules evaluation on the host (integers wrap to their width).
namespace ref {

struct Value {
  DType dtype;
  Shape shape;
  std::vector<double> v;  // row-major; integers kept exact by small inputs
};

double wrap(double x, DType t) {
  if (is_floating(t)) return t == DType::float32 ? double(float(x)) : x;
  if (t == DType::bool_) return x != 0;
  const int bits = static_cast<int>(size_of(t)) * 8;
  const auto u = static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
  const std::uint64_t mask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
  std::uint64_t w = u & mask;
  if (is_signed_integer(t) && bits < 64 && (w >> (bits - 1))) w |= ~mask;
  return is_signed_integer(t) ? double(static_cast<std::int64_t>(w)) : double(w);
}

double apply(const std::string& op, double a, double b, DType t) {
  const bool fl = is_floating(t);
  if (t == DType::float32) {
    const float x = float(a), y = float(b);
    if (op == "+") return x + y;
    if (op == "-") return x - y;
    if (op == "*") return x * y;
  }
  if (op == "+") return wrap(a + b, t);
  if (op == "-") return wrap(a - b, t);
  if (op == "*") return wrap(a * b, t);
  if (op == "min") return std::min(a, b);
  if (op == "max") return std::max(a, b);
  if (op == "floordiv") {
    if (b == 0) return fl ? a / b : 0;
    return wrap(std::floor(a / b), t);
  }
  if (op == "remainder") {
    if (b == 0) return fl ? NAN : 0;
    double r = std::fmod(a, b);
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return wrap(r, t);
  }
  if (op == "<") return a < b;
  return a == b;
}

std::vector<std::int64_t> index_of(std::int64_t flat, const Shape& s) {
  std::vector<std::int64_t> idx(s.ndim());
  for (std::size_t d = s.ndim(); d-- > 0;) {
    idx[d] = flat % s[d];
    flat /= s[d];
  }
  return idx;
}

double at(const Value& x, const std::vector<std::int64_t>& out_idx) {
  // Broadcast: align trailing dimensions; extent-1 dimensions repeat.
  const std::size_t lead = out_idx.size() - x.shape.ndim();
  std::int64_t flat = 0;
  for (std::size_t d = 0; d < x.shape.ndim(); ++d) flat = flat * x.shape[d] + (x.shape[d] == 1 ? 0 : out_idx[lead + d]);
  return x.v[static_cast<std::size_t>(flat)];
}

}  // namespace ref

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

TEST_P(Arrays, RandomExpressionsMatchNumPyRules) {
  std::mt19937 rng(20261121);
  const DType types[] = {DType::int8,   DType::int16,  DType::int32,   DType::int64,  DType::uint8,
                         DType::uint16, DType::uint32, DType::float32, DType::float64};
  const char* ops[] = {"+", "-", "*", "min", "max", "floordiv", "remainder", "<", "=="};
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  int checked = 0;
  for (int trial = 0; trial < 40; ++trial) {
    // The output shape, and each operand's shape broadcast into it.
    const std::size_t nd = 1 + pick(3);
    std::vector<std::int64_t> out_dims(nd);
    for (auto& e : out_dims) e = 1 + static_cast<std::int64_t>(pick(5));
    auto operand_shape = [&] {
      const std::size_t drop = pick(nd);
      std::vector<std::int64_t> d(out_dims.begin() + static_cast<std::ptrdiff_t>(drop), out_dims.end());
      for (auto& e : d) {
        if (pick(4) == 0) e = 1;
      }
      return Shape(d);
    };
    // An operand: random values in its dtype, held in a strided view (every other element
    // of a larger array along its last axis, or a transpose) a third of the time each.
    auto operand = [&](DType t, ref::Value& r) {
      r.dtype = t;
      r.shape = operand_shape();
      const auto n = static_cast<std::size_t>(r.shape.size());
      r.v.resize(n);
      for (auto& x : r.v) {
        const double lo = is_signed_integer(t) || is_floating(t) ? -20 : 0;
        x = lo + double(rng() % 41);
        if (is_floating(t)) x += double(rng() % 8) / 8;  // exact in float32
      }
      Array base;
      const int form = static_cast<int>(pick(3));
      std::vector<double> host;
      if (form == 1 && r.shape.ndim() >= 1) {
        std::vector<std::int64_t> wide = r.shape.dims();
        wide.back() *= 2;
        host.assign(static_cast<std::size_t>(Shape(wide).size()), -99);
        for (std::size_t k = 0; k < n; ++k) host[2 * k] = r.v[k];  // last axis interleaved
        base = Array::from_host<double>(host, Shape(wide), dev).astype(t).slice(r.shape.ndim() - 1, 0, Array::none, 2);
      } else if (form == 2 && r.shape.ndim() == 2) {
        // Stored transposed, then viewed back.
        host.resize(n);
        for (std::int64_t i = 0; i < r.shape[0]; ++i) {
          for (std::int64_t j = 0; j < r.shape[1]; ++j) {
            host[static_cast<std::size_t>(j * r.shape[0] + i)] = r.v[static_cast<std::size_t>(i * r.shape[1] + j)];
          }
        }
        base = Array::from_host<double>(host, Shape{r.shape[1], r.shape[0]}, dev).astype(t).transpose();
      } else {
        base = Array::from_host<double>(r.v, r.shape, dev).astype(t);
      }
      return base;
    };
    ref::Value ra, rb;
    const Array a = operand(types[pick(std::size(types))], ra);
    const Array b = operand(types[pick(std::size(types))], rb);
    const std::string op = ops[pick(std::size(ops))];
    Expr e = op == "+" ? a + b : op == "-" ? a - b : op == "*" ? a * b : op == "min" ? minimum(a, b)
           : op == "max" ? maximum(a, b) : op == "floordiv" ? floor_divide(a, b)
           : op == "remainder" ? remainder(a, b) : op == "<" ? Expr(a < b) : Expr(a == b);
    const DType promoted = result_type(ra.dtype, rb.dtype);
    const bool predicate = op == "<" || op == "==";
    ASSERT_EQ(e.dtype(), predicate ? DType::bool_ : promoted) << op << " " << name(ra.dtype) << " " << name(rb.dtype);
    const Shape out_shape(out_dims);
    const Array got = eval(astype(e, DType::float64)).broadcast_to(out_shape).copy();
    const auto g = got.to_host<double>();
    ASSERT_EQ(g.size(), static_cast<std::size_t>(out_shape.size()));
    for (std::int64_t k = 0; k < out_shape.size(); ++k) {
      const auto idx = ref::index_of(k, out_shape);
      const double x = ref::wrap(ref::at(ra, idx), promoted), y = ref::wrap(ref::at(rb, idx), promoted);
      const double want = ref::apply(op, x, y, promoted);
      const double have = g[static_cast<std::size_t>(k)];
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(have)) << op;
        continue;
      }
      const double tol = promoted == DType::float32 && !predicate ? 1e-6 * (1 + std::fabs(want)) : 0;
      EXPECT_NEAR(have, want, tol) << "trial " << trial << ": " << name(ra.dtype) << " " << to_string(ra.shape) << " "
                                   << op << " " << name(rb.dtype) << " " << to_string(rb.shape) << " at " << k;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Arrays, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
