// The Array API's elementwise functions added for issue 24 on every device, against references
// written out here with NumPy's rules: shifts for every count (past the width and negative
// too), sign and signbit of zeros and NaNs, copysign, nextafter, the inverse hyperbolic
// functions, logaddexp, and their result types.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <limits>
#include <vector>

#include "arrays_fixture.hpp"
#include "support.hpp"

namespace weft {
namespace {

// NumPy's npy_lshift/npy_rshift: a count that is not below the width as an unsigned number
// shifts every bit out.
template <class T>
T numpy_lshift(T a, T b) {
  using U = std::make_unsigned_t<T>;
  if (static_cast<std::uint64_t>(static_cast<std::int64_t>(b)) >= 8 * sizeof(T)) return 0;
  return static_cast<T>(static_cast<std::uint64_t>(static_cast<U>(a)) << b);
}
template <class T>
T numpy_rshift(T a, T b) {
  if (static_cast<std::uint64_t>(static_cast<std::int64_t>(b)) >= 8 * sizeof(T)) return a < 0 ? T(-1) : T(0);
  return static_cast<T>(a >> b);
}

template <class T>
void check_shifts(Arrays& t) {
  const T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  std::vector<T> values = {0, 1, 3, hi, lo, static_cast<T>(hi / 3), static_cast<T>(lo + 5)};
  if constexpr (std::is_signed_v<T>) values.insert(values.end(), {T(-1), T(-7)});
  const int width = 8 * sizeof(T);
  std::vector<T> counts = {0, 1, 2, static_cast<T>(width - 1), static_cast<T>(width)};
  counts.push_back(static_cast<T>(width == 8 ? 100 : width + 1));
  if constexpr (std::is_signed_v<T>) counts.insert(counts.end(), {T(-1), lo});
  else counts.push_back(hi);
  // Each pair shifted left (flag 1) and right (flag 0), in one kernel per dtype.
  std::vector<T> a, b, want;
  std::vector<std::uint8_t> left;
  for (const std::uint8_t l : {std::uint8_t{0}, std::uint8_t{1}}) {
    for (T x : values) {
      for (T c : counts) {
        a.push_back(x);
        b.push_back(c);
        left.push_back(l);
        want.push_back(l ? numpy_lshift(x, c) : numpy_rshift(x, c));
      }
    }
  }
  const Shape shape{static_cast<std::int64_t>(a.size())};
  const Array A = t.make(a, shape), B = t.make(b, shape), L = t.make(left, shape);
  const Array got = eval(where(L != 0, A << B, bitwise_right_shift(A, B)));
  EXPECT_EQ(got.dtype(), dtype_of<T>);
  EXPECT_EQ(got.to_host<T>(), want) << name(dtype_of<T>);
}

TEST_P(Arrays, ShiftsGiveNumPysResultsForEveryCount) {
  check_shifts<std::int8_t>(*this);
  check_shifts<std::uint8_t>(*this);
  check_shifts<std::int16_t>(*this);
  check_shifts<std::uint16_t>(*this);
  check_shifts<std::int32_t>(*this);
  check_shifts<std::uint32_t>(*this);
  check_shifts<std::int64_t>(*this);
  check_shifts<std::uint64_t>(*this);
}

TEST_P(Arrays, ShiftsPromoteAndRefuseAsNumPy) {
  const Array i8 = make(std::vector<std::int8_t>{-128, 64, 1}, Shape{3});
  const Array i64 = make(std::vector<std::int64_t>{1, 2, 40}, Shape{3});
  const Array u64 = make(std::vector<std::uint64_t>{1, 2, 3}, Shape{3});
  const Array m = make(std::vector<std::uint8_t>{1, 1, 0}, Shape{3}).astype(DType::bool_);
  // int8 << int64 is int64: no bits lost to the narrow type.
  const Array wide = eval(i8 << i64);
  EXPECT_EQ(wide.dtype(), DType::int64);
  EXPECT_EQ(wide.to_host<std::int64_t>(), (std::vector<std::int64_t>{-256, 256, std::int64_t{1} << 40}));
  // A plain number adopts the array's type (and wraps there, as NumPy's int8 << 1).
  EXPECT_EQ(eval(i8 << 1).to_host<std::int8_t>(), (std::vector<std::int8_t>{0, -128, 2}));
  EXPECT_EQ(eval(i8 >> 7).to_host<std::int8_t>(), (std::vector<std::int8_t>{-1, 0, 0}));
  EXPECT_EQ(eval(Expr(1) << i64).to_host<std::int64_t>(), (std::vector<std::int64_t>{2, 4, std::int64_t{1} << 40}));
  // bool << bool is int8, as NumPy's.
  const Array bb = eval(m << m);
  EXPECT_EQ(bb.dtype(), DType::int8);
  EXPECT_EQ(bb.to_host<std::int8_t>(), (std::vector<std::int8_t>{2, 2, 0}));
  EXPECT_THROW(make(std::vector<float>{1}, Shape{1}) << 1, DTypeError);
  EXPECT_THROW(i64 >> u64, DTypeError);  // the promoted type is float64
  EXPECT_THROW(i8 << 200, ValueOutOfRange);
}

bool bit_equal(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool bit_equal(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

template <class T>
void check_sign_functions(Arrays& t) {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const T tiny = std::numeric_limits<T>::denorm_min(), big = std::numeric_limits<T>::max();
  const std::vector<T> x = {T(0), T(-0.0), T(1.5), T(-2), inf, -inf, nan, -nan, tiny, -big};
  const std::vector<T> y = {T(-1), T(3), T(-0.0), T(0), T(-7), nan, T(-1), T(1), T(0), inf};
  const Shape shape{static_cast<std::int64_t>(x.size())};
  const Array X = t.make(x, shape), Y = t.make(y, shape);
  const auto sg = eval(sign(X)).template to_host<T>();
  const auto sb = eval(signbit(X)).astype(DType::uint8).template to_host<std::uint8_t>();
  const auto cs = eval(copysign(X, Y)).template to_host<T>();
  const auto na = eval(nextafter(X, Y)).template to_host<T>();
  for (std::size_t k = 0; k < x.size(); ++k) {
    const T ref_sign = x[k] > 0 ? T(1) : x[k] < 0 ? T(-1) : x[k] == 0 ? T(0) : x[k];
    EXPECT_TRUE(bit_equal(sg[k], ref_sign) || (std::isnan(ref_sign) && std::isnan(sg[k]))) << k << ": " << sg[k];
    EXPECT_EQ(sb[k] != 0, std::signbit(x[k])) << k;
    EXPECT_TRUE(bit_equal(cs[k], std::copysign(x[k], y[k])) || (std::isnan(x[k]) && std::isnan(cs[k]) &&
                                                                 std::signbit(cs[k]) == std::signbit(y[k])))
        << k << ": " << cs[k];
    const T ref_next = std::nextafter(x[k], y[k]);
    EXPECT_TRUE(bit_equal(na[k], ref_next) || (std::isnan(ref_next) && std::isnan(na[k]))) << k << ": " << na[k];
  }
}

TEST_P(Arrays, SignSignbitCopysignAndNextafterAreExact) {
  check_sign_functions<float>(*this);
  if (dev.info().fp64) check_sign_functions<double>(*this);
  const Array i = make(std::vector<std::int16_t>{-300, 0, 7}, Shape{3});
  const Array u = make(std::vector<std::uint8_t>{0, 200, 1}, Shape{3});
  EXPECT_EQ(eval(sign(i)).to_host<std::int16_t>(), (std::vector<std::int16_t>{-1, 0, 1}));
  EXPECT_EQ(eval(sign(u)).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{0, 1, 1}));
  EXPECT_EQ(eval(signbit(i)).astype(DType::uint8).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{1, 0, 0}));
  EXPECT_EQ(eval(signbit(u)).astype(DType::uint8).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{0, 0, 0}));
  EXPECT_EQ(eval(positive(i)).to_host<std::int16_t>(), (std::vector<std::int16_t>{-300, 0, 7}));
  const Array m = make(std::vector<std::uint8_t>{1}, Shape{1}).astype(DType::bool_);
  EXPECT_THROW(sign(m), DTypeError);
  EXPECT_THROW(positive(m), DTypeError);
  // Result types: copysign and nextafter of integers are floats, as NumPy's (float32 where
  // NumPy would give float16).
  EXPECT_EQ(copysign(i, -1).dtype(), DType::float32);
  EXPECT_EQ(nextafter(make(std::vector<std::int32_t>{1}, Shape{1}), 2).dtype(), DType::float64);
  EXPECT_EQ(signbit(i).dtype(), DType::bool_);
}

// Distance in units in the last place (0 for equal values, NaNs and infinities alike).
template <class T>
double ulps(T got, T want) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got) ? 0 : 1e30;
  if (got == want) return 0;
  if (std::isinf(want) || std::isinf(got)) return 1e30;
  const T unit = std::nextafter(std::fabs(want), std::numeric_limits<T>::infinity()) - std::fabs(want);
  return std::fabs(static_cast<double>(got) - static_cast<double>(want)) / static_cast<double>(unit);
}

template <class T>
T reference_logaddexp(T a, T b) {
  if (a == b) return a + std::log(T(2));
  const T d = a - b;
  if (d > 0) return a + std::log1p(std::exp(-d));
  if (d <= 0) return b + std::log1p(std::exp(d));
  return d;
}

template <class T>
void check_transcendental(Arrays& t, double bound) {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const std::vector<T> x = {T(0),  T(-0.0), T(0.5), T(-0.75), T(1),    T(1.25), T(3),
                            T(-40), T(1e-5), T(2e5), inf,      -inf,    nan};
  const std::vector<T> y = {T(0),  T(-3),    T(0.5), T(0.25), T(-1), T(1e3), T(3),
                            T(-39), T(-1e-5), T(2e5), inf,     -inf,  T(1)};
  const Shape shape{static_cast<std::int64_t>(x.size())};
  const Array X = t.make(x, shape), Y = t.make(y, shape);
  const auto as = eval(asinh(X)).template to_host<T>();
  const auto ac = eval(acosh(X)).template to_host<T>();
  const auto at = eval(atanh(X)).template to_host<T>();
  const auto la = eval(logaddexp(X, Y)).template to_host<T>();
  for (std::size_t k = 0; k < x.size(); ++k) {
    EXPECT_LE(ulps(as[k], std::asinh(x[k])), bound) << "asinh(" << x[k] << ") = " << as[k];
    EXPECT_LE(ulps(ac[k], std::acosh(x[k])), bound) << "acosh(" << x[k] << ") = " << ac[k];
    EXPECT_LE(ulps(at[k], std::atanh(x[k])), bound) << "atanh(" << x[k] << ") = " << at[k];
    EXPECT_LE(ulps(la[k], reference_logaddexp(x[k], y[k])), bound)
        << "logaddexp(" << x[k] << ", " << y[k] << ") = " << la[k];
  }
}

TEST_P(Arrays, InverseHyperbolicsAndLogaddexpMatchTheMathLibrary) {
  // OpenCL C allows 4 ulp for these in float; the host and PoCL are within 2.
  check_transcendental<float>(*this, 4);
  if (dev.info().fp64) check_transcendental<double>(*this, 2);
  EXPECT_EQ(acosh(make(std::vector<std::int32_t>{1}, Shape{1})).dtype(), DType::float64);
  EXPECT_EQ(logaddexp(make(std::vector<std::int16_t>{1}, Shape{1}), 2).dtype(), DType::float32);
  EXPECT_EQ(asinh(make(std::vector<float>{1}, Shape{1})).dtype(), DType::float32);
}

}  // namespace
}  // namespace weft
