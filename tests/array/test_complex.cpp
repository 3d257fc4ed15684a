// complex64 and complex128 arrays on every device (issue 24): the dtypes and NumPy 2's
// promotion, copies, creation, the elementwise operations against std::complex references
// written with NumPy's formulas, special values (inf, nan, -0.0), and what is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "arrays_fixture.hpp"
#include "support.hpp"
#include "weft/error.hpp"

namespace weft {
namespace {

using cf = std::complex<float>;
using cd = std::complex<double>;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(ComplexDType, SizesNamesAndPromotion) {
  EXPECT_EQ(size_of(DType::complex64), 8u);
  EXPECT_EQ(size_of(DType::complex128), 16u);
  EXPECT_EQ(name(DType::complex64), "complex64");
  EXPECT_EQ(c_name(DType::complex128), "cdouble");
  EXPECT_EQ(parse_dtype("c8"), DType::complex64);
  EXPECT_EQ(parse_dtype("cfloat"), DType::complex64);
  EXPECT_EQ((dtype_of<std::complex<double>>), DType::complex128);
  EXPECT_TRUE(is_complex(DType::complex64));
  EXPECT_FALSE(is_floating(DType::complex64));
  EXPECT_EQ(real_of(DType::complex128), DType::float64);
  // NumPy 2's result_type.
  EXPECT_EQ(result_type(DType::complex64, DType::float64), DType::complex128);
  EXPECT_EQ(result_type(DType::float32, DType::complex64), DType::complex64);
  EXPECT_EQ(result_type(DType::int8, DType::complex64), DType::complex64);
  EXPECT_EQ(result_type(DType::int16, DType::complex64), DType::complex64);
  EXPECT_EQ(result_type(DType::int32, DType::complex64), DType::complex128);
  EXPECT_EQ(result_type(DType::uint64, DType::complex64), DType::complex128);
  EXPECT_EQ(result_type(DType::bool_, DType::complex64), DType::complex64);
  EXPECT_EQ(result_type(DType::complex128, DType::complex64), DType::complex128);
}

// A bool expression's values as bytes.
std::vector<std::uint8_t> bools(const Expr& e) { return eval(astype(e, DType::uint8)).to_host<std::uint8_t>(); }

template <class C>
void expect_near(const std::vector<C>& got, const std::vector<C>& want, double tol, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    for (int part = 0; part < 2; ++part) {
      const double g = part ? got[i].imag() : got[i].real();
      const double w = part ? want[i].imag() : want[i].real();
      if (std::isnan(w)) {
        EXPECT_TRUE(std::isnan(g)) << what << " [" << i << "] part " << part << ": " << g;
      } else if (std::isinf(w)) {
        EXPECT_EQ(g, w) << what << " [" << i << "] part " << part;
      } else {
        EXPECT_NEAR(g, w, tol * (1 + std::abs(w))) << what << " [" << i << "] part " << part;
      }
    }
  }
}

TEST_P(Arrays, ComplexCopiesAndCreation) {
  const std::vector<cf> v = {{1, 2}, {-3.5f, 0}, {0, -0.0f}, {1e30f, -1e-30f}};
  const Array a = make(v, {2, 2});
  EXPECT_EQ(a.dtype(), DType::complex64);
  EXPECT_EQ(a.to_host<cf>(), v);
  // Views: a transpose and a slice read the right elements.
  EXPECT_EQ(eval(Expr(a.transpose())).to_host<cf>(), (std::vector<cf>{v[0], v[2], v[1], v[3]}));
  const Array z = Array::zeros({3}, DType::complex128, dev);
  EXPECT_EQ(z.to_host<cd>(), std::vector<cd>(3, cd(0, 0)));
  const Array o = Array::ones({2}, DType::complex64, dev);
  EXPECT_EQ(o.to_host<cf>(), std::vector<cf>(2, cf(1, 0)));
  const Array f = Array::full({2}, Expr(cd(1.5, -2)), DType::complex64, dev);
  EXPECT_EQ(f.to_host<cf>(), std::vector<cf>(2, cf(1.5f, -2)));
  // Casts: a real array to complex (imaginary 0), complex to real (the real part, as NumPy),
  // complex to bool (nonzero), between the complex types.
  const Array r = make(std::vector<float>{1.5f, -2}, {2});
  EXPECT_EQ(eval(astype(r, DType::complex128)).to_host<cd>(), (std::vector<cd>{{1.5, 0}, {-2, 0}}));
  EXPECT_EQ(eval(astype(a, DType::float32)).to_host<float>(), (std::vector<float>{1, -3.5f, 0, 1e30f}));
  EXPECT_EQ(bools(astype(a, DType::bool_)), (std::vector<std::uint8_t>{1, 1, 0, 1}));
  const auto wide = eval(astype(a, DType::complex128)).to_host<cd>();
  EXPECT_EQ(wide[0], cd(1, 2));
  EXPECT_EQ(wide[3].real(), static_cast<double>(1e30f));
}

TEST_P(Arrays, ComplexArithmeticAndPromotion) {
  const std::vector<cf> va = {{1, 2}, {-3, 0.5f}, {0, 0}, {2, -1}};
  const std::vector<cf> vb = {{0.5f, -1}, {2, 2}, {1, 0}, {-4, 3}};
  const Array a = make(va, {4});
  const Array b = make(vb, {4});
  std::vector<cf> sum, diff, prod, quot;
  for (std::size_t i = 0; i < va.size(); ++i) {
    sum.push_back(va[i] + vb[i]);
    diff.push_back(va[i] - vb[i]);
    prod.push_back(va[i] * vb[i]);
    quot.push_back(va[i] / vb[i]);
  }
  expect_near(eval(a + b).to_host<cf>(), sum, 1e-6, "+");
  expect_near(eval(a - b).to_host<cf>(), diff, 1e-6, "-");
  expect_near(eval(a * b).to_host<cf>(), prod, 1e-6, "*");
  expect_near(eval(a / b).to_host<cf>(), quot, 1e-6, "/");
  expect_near(eval(-a).to_host<cf>(), std::vector<cf>{-va[0], -va[1], -va[2], -va[3]}, 0, "neg");
  // A Python float keeps complex64; a float64 array promotes to complex128; a weak complex
  // number with a float32 array gives complex64.
  EXPECT_EQ((a * 2.0).dtype(), DType::complex64);
  const Array d = make(std::vector<double>{1, 2, 3, 4}, {4});
  EXPECT_EQ((a + d).dtype(), DType::complex128);
  const Array r = make(std::vector<float>{1, 2, 3, 4}, {4});
  const Expr rc = r * Expr(cd(0, 1));
  EXPECT_EQ(rc.dtype(), DType::complex64);
  expect_near(eval(rc).to_host<cf>(), std::vector<cf>{{0, 1}, {0, 2}, {0, 3}, {0, 4}}, 0, "float32 * 1j");
  const Array i32 = make(std::vector<std::int32_t>{1, 2, 3, 4}, {4});
  EXPECT_EQ((a + i32).dtype(), DType::complex128);
  expect_near(eval(a + i32).to_host<cd>(), std::vector<cd>{{2, 2}, {-1, 0.5}, {3, 0}, {6, -1}}, 1e-12, "+ int32");
  // Integer powers by multiplication, as NumPy's; a complex exponent through exp(b log a).
  expect_near(eval(power(a, 2)).to_host<cf>(), std::vector<cf>{va[0] * va[0], va[1] * va[1], {0, 0}, va[3] * va[3]},
              1e-6, "power 2");
  const auto p = eval(power(astype(a, DType::complex128), Expr(cd(0.5, 0.25)))).to_host<cd>();
  for (std::size_t i : {0u, 1u, 3u}) {
    const cd want = std::pow(cd(va[i]), cd(0.5, 0.25));
    EXPECT_NEAR(p[i].real(), want.real(), 1e-12);
    EXPECT_NEAR(p[i].imag(), want.imag(), 1e-12);
  }
  // Comparisons: == and != compare both parts; ordering is refused.
  EXPECT_EQ(bools(a == make(std::vector<cf>{{1, 2}, {-3, 0}, {0, 0}, {2, -1}}, {4})),
            (std::vector<std::uint8_t>{1, 0, 1, 1}));
  EXPECT_EQ(bools(a != 0), (std::vector<std::uint8_t>{1, 1, 0, 1}));
  EXPECT_THROW(a < b, DTypeError);
  EXPECT_THROW(maximum(a, b), DTypeError);
  EXPECT_THROW(floor(a), DTypeError);
  EXPECT_THROW(cbrt(a), DTypeError);
  EXPECT_THROW(a & b, DTypeError);
}

TEST_P(Arrays, ComplexFunctions) {
  const std::vector<cd> v = {{3, 4}, {-1, 0.5}, {0.25, -2}, {-0.0, 0}, {1e300, 1e300}, {0.6, 0.8}};
  const Array a = make(v, {static_cast<std::int64_t>(v.size())});
  std::vector<double> abs_want, arg_want;
  std::vector<cd> exp_want, log_want, sqrt_want;
  for (const cd& z : v) {
    abs_want.push_back(std::hypot(z.real(), z.imag()));
    arg_want.push_back(std::atan2(z.imag(), z.real()));
    exp_want.push_back(std::exp(z));
    log_want.push_back(std::log(z));
    sqrt_want.push_back(std::sqrt(z));
  }
  exp_want[4] = cd(kNaN, kNaN);  // (overflow: inf * cos, not checked part by part below)
  const Expr m = abs(a);
  EXPECT_EQ(m.dtype(), DType::float64);
  const auto got_abs = eval(m).to_host<double>();
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(got_abs[i], abs_want[i], 1e-15 * abs_want[i]) << i;
  const auto got_arg = eval(angle(a)).to_host<double>();
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(got_arg[i], arg_want[i], 1e-15) << i;
  EXPECT_EQ(eval(real(a)).to_host<double>()[0], 3);
  EXPECT_EQ(eval(imag(a)).to_host<double>()[2], -2);
  EXPECT_EQ(eval(conj(a)).to_host<cd>()[1], cd(-1, -0.5));
  const auto got_exp = eval(exp(a)).to_host<cd>();
  for (std::size_t i = 0; i < 4; ++i) expect_near<cd>({got_exp[i]}, {exp_want[i]}, 1e-14, "exp");
  const auto got_log = eval(log(a)).to_host<cd>();
  expect_near<cd>({got_log[0], got_log[1], got_log[2], got_log[4], got_log[5]},
                  {log_want[0], log_want[1], log_want[2], log_want[4], log_want[5]}, 1e-14, "log");
  EXPECT_EQ(got_log[3].real(), -kInf);  // log(-0 + 0j) = -inf + pi j
  EXPECT_NEAR(got_log[3].imag(), M_PI, 1e-15);
  expect_near(eval(sqrt(a)).to_host<cd>(), sqrt_want, 1e-14, "sqrt");
  const auto sg = eval(sign(a)).to_host<cd>();
  EXPECT_NEAR(sg[0].real(), 0.6, 1e-15);
  EXPECT_NEAR(sg[0].imag(), 0.8, 1e-15);
  EXPECT_EQ(sg[3], cd(0, 0));
  const auto rc = eval(reciprocal(a)).to_host<cd>();
  EXPECT_NEAR(rc[0].real(), 0.12, 1e-15);
  EXPECT_NEAR(rc[0].imag(), -0.16, 1e-15);
  EXPECT_EQ(eval(square(a)).to_host<cd>()[0], cd(-7, 24));
}

TEST_P(Arrays, ComplexSpecialValues) {
  const std::vector<cd> v = {{kInf, 0}, {kNaN, 1}, {1, kInf}, {-kInf, kNaN}, {0, -0.0}, {1, 1}};
  const Array a = make(v, {static_cast<std::int64_t>(v.size())});
  EXPECT_EQ(bools(isnan(a)), (std::vector<std::uint8_t>{0, 1, 0, 1, 0, 0}));
  EXPECT_EQ(bools(isinf(a)), (std::vector<std::uint8_t>{1, 0, 1, 1, 0, 0}));
  EXPECT_EQ(bools(isfinite(a)), (std::vector<std::uint8_t>{0, 0, 0, 0, 1, 1}));
  // Division by a complex zero: NumPy's kInf and kNaN parts.
  const auto q = eval(a / Expr::typed(cd(0, 0), DType::complex128)).to_host<cd>();
  EXPECT_EQ(q[5].real(), kInf);
  EXPECT_EQ(q[5].imag(), kInf);
  EXPECT_TRUE(std::isnan(q[4].real()) && std::isnan(q[4].imag()));
  // C99's csqrt and cexp special values.
  const auto s = eval(sqrt(a)).to_host<cd>();
  EXPECT_EQ(s[0], cd(kInf, 0));
  EXPECT_EQ(s[2], cd(kInf, kInf));
  EXPECT_EQ(s[4].real(), 0);
  EXPECT_TRUE(std::signbit(s[4].imag()));  // sqrt(0 - 0j) = 0 - 0j
  const auto e = eval(exp(a)).to_host<cd>();
  EXPECT_EQ(e[0], cd(kInf, 0));
  EXPECT_EQ(e[4].real(), 1);
  EXPECT_TRUE(std::signbit(e[4].imag()));
  // abs is hypot: kInf beats kNaN.
  EXPECT_EQ(eval(abs(a)).to_host<double>()[3], kInf);
}

}  // namespace
}  // namespace weft
