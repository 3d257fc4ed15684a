// weft::linalg on complex64 and complex128 matrices (LAPACK's c/z routines) on every device,
// against results worked out by hand for small matrices and the decompositions' defining
// identities: the imaginary parts are kept (a cast to real would drop them: det of
// [[1+i, 2], [3, 4-2i]] is 2i, not -2), singular values and eigenvalues are real arrays of the
// real type, cholesky gives A = L L^H (upper: A = U^H U), slogdet's sign is a unit complex number.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <span>
#include <vector>

#include "support.hpp"
#include "weft/linalg.hpp"

namespace weft {
namespace {

class LinalgComplex : public ::testing::TestWithParam<Device> {};

using cd = std::complex<double>;
constexpr cd I(0, 1);

// Tolerance per type: complex64 computes in float32.
template <class C>
double tol() {
  return sizeof(C) == 8 ? 2e-5 : 1e-12;
}

template <class C>
Array make(const std::vector<cd>& v, const std::vector<std::int64_t>& dims, const Device& dev) {
  std::vector<C> c(v.begin(), v.end());
  return Array::from_host(std::span<const C>(c), Shape(dims), dev);
}

template <class C>
std::vector<cd> values(const Array& a) {
  EXPECT_EQ(a.dtype(), dtype_of<C>);
  const auto h = a.to_host<C>();
  return {h.begin(), h.end()};
}

// A real result (singular values, eigenvalues, log |det|): of C's real type, as doubles.
template <class C>
std::vector<double> reals(const Array& a) {
  using R = typename C::value_type;
  EXPECT_EQ(a.dtype(), dtype_of<R>);
  const auto h = a.to_host<R>();
  return {h.begin(), h.end()};
}

void expect_near(const std::vector<cd>& got, const std::vector<cd>& want, double t) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_LE(std::abs(got[i] - want[i]), t) << "element " << i << ": " << got[i] << " vs " << want[i];
}

// Row-major (m x k) (k x n) on the host; conj_a / conj_b take the conjugate transpose of the
// operand stored as (k x m) / (n x k).
std::vector<cd> product(const std::vector<cd>& a, const std::vector<cd>& b, std::int64_t m, std::int64_t k,
                        std::int64_t n, bool conj_a = false, bool conj_b = false) {
  std::vector<cd> c(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      cd s = 0;
      for (std::int64_t p = 0; p < k; ++p) {
        const cd x = conj_a ? std::conj(a[static_cast<std::size_t>(p * m + i)]) : a[static_cast<std::size_t>(i * k + p)];
        const cd y = conj_b ? std::conj(b[static_cast<std::size_t>(j * k + p)]) : b[static_cast<std::size_t>(p * n + j)];
        s += x * y;
      }
      c[static_cast<std::size_t>(i * n + j)] = s;
    }
  return c;
}

const std::vector<cd> kA{1.0 + I, 2, 3, 4.0 - 2.0 * I};  // det 2i

template <class C>
void check_lu_routines(const Device& dev) {
  const double t = tol<C>();
  const Array a = make<C>(kA, {2, 2}, dev);
  expect_near(values<C>(linalg::det(a)), {2.0 * I}, t);
  const auto sl = linalg::slogdet(a);
  expect_near(values<C>(sl.sign), {I}, t);
  EXPECT_EQ(sl.logabsdet.dtype(), real_of(dtype_of<C>));
  EXPECT_NEAR(double(reals<C>(sl.logabsdet)[0]), std::log(2.0), t);
  expect_near(values<C>(linalg::inv(a)), {-1.0 - 2.0 * I, I, 1.5 * I, 0.5 - 0.5 * I}, t);
  // a [1, i] = [1+3i, 5+4i]: as a vector and as a (2, 1) matrix, and a stack of two.
  expect_near(values<C>(linalg::solve(a, make<C>({1.0 + 3.0 * I, 5.0 + 4.0 * I}, {2}, dev))), {1, I}, t);
  const Array stack = make<C>({kA[0], kA[1], kA[2], kA[3], 2, 0, 0, 2.0 * I}, {2, 2, 2}, dev);
  const Array b = make<C>({1.0 + 3.0 * I, 5.0 + 4.0 * I, 2, 2.0 * I}, {2, 2, 1}, dev);
  expect_near(values<C>(linalg::solve(stack, b)), {1, I, 1, 1}, t);
  expect_near(values<C>(linalg::det(stack)), {2.0 * I, 4.0 * I}, t);
  // A real right-hand side with a complex matrix: the complex type.
  const std::vector<double> rb{1, 0};
  const Array real_b = Array::from_host(std::span<const double>(rb), Shape({2}), dev);
  EXPECT_EQ(linalg::solve(a, real_b).dtype(), DType::complex128);
  // Singular: det 0, sign 0, log |det| -inf, inv refuses.
  const Array sing = make<C>({1.0 + I, 2.0 + 2.0 * I, 1, 2}, {2, 2}, dev);
  expect_near(values<C>(linalg::det(sing)), {0}, t);
  const auto ss = linalg::slogdet(sing);
  expect_near(values<C>(ss.sign), {0}, 0);
  EXPECT_TRUE(std::isinf(double(reals<C>(ss.logabsdet)[0])));
  EXPECT_THROW(linalg::inv(sing), LinAlgError);
}

TEST_P(LinalgComplex, SolveInvDetSlogdetMatchHandWorkedResults) {
  check_lu_routines<std::complex<float>>(GetParam());
  check_lu_routines<std::complex<double>>(GetParam());
}

template <class C>
void check_cholesky_eigh(const Device& dev) {
  const double t = tol<C>();
  // Hermitian positive definite [[4, 2i], [-2i, 5]] = L L^H with L = [[2, 0], [-i, 2]].
  const Array h = make<C>({4, 2.0 * I, -2.0 * I, 5}, {2, 2}, dev);
  expect_near(values<C>(linalg::cholesky(h)), {2, 0, -I, 2}, t);
  expect_near(values<C>(linalg::cholesky(h, true)), {2, I, 0, 2}, t);  // U = L^H
  // Only the named triangle is read: junk in the other one changes nothing.
  const Array junk_upper = make<C>({4, 9.0 + 9.0 * I, -2.0 * I, 5}, {2, 2}, dev);
  expect_near(values<C>(linalg::cholesky(junk_upper)), {2, 0, -I, 2}, t);
  const Array junk_lower = make<C>({4, 2.0 * I, 9.0 - 7.0 * I, 5}, {2, 2}, dev);
  expect_near(values<C>(linalg::cholesky(junk_lower, true)), {2, I, 0, 2}, t);
  EXPECT_THROW(linalg::cholesky(make<C>({-1, 0, 0, 1}, {2, 2}, dev)), LinAlgError);
  // [[2, i], [-i, 2]]: eigenvalues 1 and 3 (real, of the real type), eigenvectors with h v = w v.
  const std::vector<cd> hv{2, I, -I, 2};
  for (const bool upper : {false, true}) {
    const auto e = linalg::eigh(make<C>(hv, {2, 2}, dev), upper);
    EXPECT_EQ(e.eigenvalues.dtype(), real_of(dtype_of<C>));
    const auto w = reals<C>(e.eigenvalues);
    EXPECT_NEAR(w[0], 1.0, t);
    EXPECT_NEAR(w[1], 3.0, t);
    const std::vector<cd> v = values<C>(e.eigenvectors);
    const std::vector<cd> vw{v[0] * w[0], v[1] * w[1], v[2] * w[0], v[3] * w[1]};
    expect_near(product(hv, v, 2, 2, 2), vw, 10 * t);
    expect_near(product(v, v, 2, 2, 2, true), {1, 0, 0, 1}, 10 * t);  // unitary
    const auto ev = reals<C>(linalg::eigvalsh(make<C>(hv, {2, 2}, dev), upper));
    EXPECT_NEAR(ev[1], 3.0, t);
  }
}

TEST_P(LinalgComplex, CholeskyAndEighOfHermitianMatrices) {
  check_cholesky_eigh<std::complex<float>>(GetParam());
  check_cholesky_eigh<std::complex<double>>(GetParam());
}

template <class C>
void check_qr_svd(const Device& dev) {
  const double t = tol<C>();
  // diag(3i, -4): singular values 4 and 3, real.
  const Array d = make<C>({3.0 * I, 0, 0, -4}, {2, 2}, dev);
  const Array s = linalg::svdvals(d);
  EXPECT_EQ(s.dtype(), real_of(dtype_of<C>));
  const auto sv = reals<C>(s);
  EXPECT_NEAR((sv[0]), 4.0, t);
  EXPECT_NEAR((sv[1]), 3.0, t);
  // A 3 x 2 complex matrix: U diag(S) Vh = A with U, Vh of its type; Q R = A with Q^H Q = I.
  const std::vector<cd> av{1.0 + I, 2, -I, 0.5 - 1.5 * I, 3, 1.0 + 2.0 * I};
  const Array a = make<C>(av, {3, 2}, dev);
  for (const bool full : {false, true}) {
    const auto r = linalg::svd(a, full);
    const std::int64_t uc = full ? 3 : 2;
    EXPECT_EQ(r.U.shape(), Shape({3, uc}));
    EXPECT_EQ(r.Vh.shape(), Shape({2, 2}));
    const std::vector<cd> u = values<C>(r.U), vh = values<C>(r.Vh);
    const auto sr = reals<C>(r.S);
    std::vector<cd> us(static_cast<std::size_t>(3 * 2));
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 2; ++j) us[i * 2 + j] = u[i * static_cast<std::size_t>(uc) + j] * sr[j];
    expect_near(product(us, vh, 3, 2, 2), av, 10 * t);
  }
  const auto [q, r] = linalg::qr(a);
  EXPECT_EQ(q.shape(), Shape({3, 2}));
  const std::vector<cd> qv = values<C>(q), rv = values<C>(r);
  EXPECT_EQ(rv[2], cd(0));  // upper triangular
  expect_near(product(qv, rv, 3, 2, 2), av, 10 * t);
  expect_near(product(qv, qv, 2, 3, 2, true), {1, 0, 0, 1}, 10 * t);
  const auto complete = linalg::qr(a, "complete");
  EXPECT_EQ(complete.Q.shape(), Shape({3, 3}));
  const std::vector<cd> qc = values<C>(complete.Q);
  expect_near(product(qc, qc, 3, 3, 3, true), {1, 0, 0, 0, 1, 0, 0, 0, 1}, 10 * t);
}

TEST_P(LinalgComplex, QrAndSvdKeepTheImaginaryParts) {
  check_qr_svd<std::complex<float>>(GetParam());
  check_qr_svd<std::complex<double>>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(AllDevices, LinalgComplex, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
