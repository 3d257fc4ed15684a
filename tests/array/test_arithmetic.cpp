// Array arithmetic on every device, checked against a host reference written out here:
// NumPy's type promotion (NEP 50 for plain numbers), broadcasting, floor division and
// remainder with NumPy's signs, math, logical and bitwise functions, integer wrap-around, and
// random expressions against NumPy's rules.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

#include "arrays_fixture.hpp"
#include "support.hpp"

namespace weft {
namespace {

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

TEST_P(Arrays, AstypeConvertsAsNumPy) {
  Array f = make(std::vector<double>{-1.7, 2.9, 0.0, 300.2}, Shape{4});
  EXPECT_EQ(f.astype(DType::int32).to_host<std::int32_t>(), (std::vector<std::int32_t>{-1, 2, 0, 300}));
  EXPECT_EQ(f.astype(DType::bool_).astype(DType::uint8).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{1, 1, 0, 1}));
  EXPECT_EQ(f.astype(DType::float32).dtype(), DType::float32);
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

}  // namespace
}  // namespace weft
