// weft::matmul and weft::linalg on every device, against naive reference products and the
// decompositions' defining identities (A x = b, Q R = A, U S Vh = A, A v = w v, L L^T = A):
// float32 and float64, stacks that broadcast, transposed and strided views, 1-D operands,
// integer products (the exact fused path), and NumPy's errors (LinAlgError). Complex
// matrices: test_linalg_complex.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "support.hpp"
#include "weft/linalg.hpp"

namespace weft {
namespace {

class Linalg : public ::testing::TestWithParam<Device> {};

template <class T>
Array random_array(const std::vector<std::int64_t>& dims, unsigned seed, const Device& dev) {
  std::int64_t n = 1;
  for (auto d : dims) n *= d;
  const auto v = test::random_vector<T>(static_cast<std::size_t>(n), seed, T(-1), T(1));
  return Array::from_host(std::span<const T>(v), Shape(dims), dev);
}

// Row-major (batch, m, k) x (batch, k, n) with a and b given as host values of their
// (already broadcast) shapes.
template <class T>
std::vector<double> reference(const std::vector<T>& a, const std::vector<T>& b, std::int64_t batch, std::int64_t m,
                              std::int64_t k, std::int64_t n) {
  std::vector<double> c(static_cast<std::size_t>(batch * m * n), 0.0);
  for (std::int64_t z = 0; z < batch; ++z)
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (std::int64_t p = 0; p < k; ++p)
          s += double(a[static_cast<std::size_t>(z * m * k + i * k + p)]) * double(b[static_cast<std::size_t>(z * k * n + p * n + j)]);
        c[static_cast<std::size_t>(z * m * n + i * n + j)] = s;
      }
  return c;
}

template <class T>
void expect_near_all(const Array& got, const std::vector<double>& want, double tol) {
  const auto g = got.to_host<T>();
  ASSERT_EQ(g.size(), want.size());
  for (std::size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(double(g[i]), want[i], tol) << "element " << i;
}

TEST_P(Linalg, MatmulMatchesReferenceForLayoutsAndDtypes) {
  const Device dev = GetParam();
  // Sizes above library_min_work (matmul.cpp): the library's path where the device has one.
  const Array a = random_array<float>({25, 37}, 1, dev), b = random_array<float>({37, 19}, 2, dev);
  expect_near_all<float>(matmul(a, b), reference(a.to_host<float>(), b.to_host<float>(), 1, 25, 37, 19), 1e-4);
  // Transposed views: read in place with BLAS's transpose flags.
  const Array at = random_array<float>({37, 25}, 3, dev).transpose(), bt = random_array<float>({19, 37}, 4, dev).transpose();
  expect_near_all<float>(matmul(at, bt), reference(at.copy().to_host<float>(), bt.copy().to_host<float>(), 1, 25, 37, 19), 1e-4);
  // A strided view (every other column) is copied first.
  const Array wide = random_array<double>({25, 74}, 5, dev);
  const Array strided = wide.slice(1, 0, Array::none, 2);
  const Array bd = random_array<double>({37, 24}, 6, dev);
  expect_near_all<double>(matmul(strided, bd), reference(strided.copy().to_host<double>(), bd.to_host<double>(), 1, 25, 37, 24), 1e-12);
  // Below the threshold: the fused kernel, the same values.
  const Array s1 = random_array<float>({5, 7}, 7, dev), s2 = random_array<float>({7, 3}, 8, dev);
  expect_near_all<float>(matmul(s1, s2), reference(s1.to_host<float>(), s2.to_host<float>(), 1, 5, 7, 3), 1e-5);
}

TEST_P(Linalg, MatmulStacksBroadcastAndVectors) {
  const Device dev = GetParam();
  const Array a = random_array<double>({2, 1, 24, 16}, 7, dev), b = random_array<double>({3, 16, 20}, 8, dev);
  const Array c = matmul(a, b);
  EXPECT_EQ(c.shape(), Shape({2, 3, 24, 20}));
  const Shape as({2, 3, 24, 16}), bs({2, 3, 16, 20});
  expect_near_all<double>(c, reference(a.broadcast_to(as).copy().to_host<double>(), b.broadcast_to(bs).copy().to_host<double>(), 6, 24, 16, 20), 1e-12);
  const Array v = random_array<double>({16}, 9, dev);
  const Array mv = matmul(random_array<double>({300, 16}, 10, dev), v);
  EXPECT_EQ(mv.shape(), Shape({300}));
  const Array vm = matmul(v, b);
  EXPECT_EQ(vm.shape(), Shape({3, 20}));
  // v (16) @ b (3, 16, 20): the row v by each matrix of b's stack.
  const auto vh = v.to_host<double>(), bh = b.to_host<double>();
  std::vector<double> want(60, 0.0);
  for (std::size_t z = 0; z < 3; ++z)
    for (std::size_t j = 0; j < 20; ++j)
      for (std::size_t p = 0; p < 16; ++p) want[z * 20 + j] += vh[p] * bh[z * 320 + p * 20 + j];
  expect_near_all<double>(vm, want, 1e-12);
  EXPECT_EQ(matmul(v, v).ndim(), 0u);
  EXPECT_NEAR(matmul(v, v).to_host<double>()[0], sum(Expr(v) * Expr(v)).get(), 1e-12);
}

TEST_P(Linalg, MatmulPromotesAndKeepsIntegersExact) {
  const Device dev = GetParam();
  const std::vector<std::int32_t> ai{1, 2, 3, 4, 5, 6}, bi{7, 8, 9, 10, 11, 12};
  const Array a = Array::from_host(std::span<const std::int32_t>(ai), Shape({2, 3}), dev);
  const Array b = Array::from_host(std::span<const std::int32_t>(bi), Shape({3, 2}), dev);
  const Array c = matmul(a, b);
  EXPECT_EQ(c.dtype(), DType::int32);
  EXPECT_EQ(c.to_host<std::int32_t>(), (std::vector<std::int32_t>{58, 64, 139, 154}));
  const Array f = matmul(a, b.astype(DType::float32));
  EXPECT_EQ(f.dtype(), DType::float64);  // int32 with float32: float64, as NumPy
  EXPECT_EQ(f.to_host<double>(), (std::vector<double>{58, 64, 139, 154}));
  EXPECT_THROW(matmul(a, a), InvalidArgument);
  EXPECT_EQ(matmul(Array::zeros({2, 0}, DType::float32, dev), Array::zeros({0, 3}, DType::float32, dev)).to_host<float>(),
            std::vector<float>(6, 0.0f));
}

TEST_P(Linalg, SolveInvDet) {
  const Device dev = GetParam();
  const std::vector<double> av{4, 1, 0, 1, 3, 1, 0, 1, 2};
  const Array a = Array::from_host(std::span<const double>(av), Shape({3, 3}), dev);
  const std::vector<double> bv{1, 2, 3};
  const Array b = Array::from_host(std::span<const double>(bv), Shape({3}), dev);
  const Array x = linalg::solve(a, b);
  EXPECT_EQ(x.shape(), Shape({3}));
  expect_near_all<double>(matmul(a, x), bv, 1e-12);
  expect_near_all<double>(matmul(a, linalg::inv(a)), {1, 0, 0, 0, 1, 0, 0, 0, 1}, 1e-12);
  EXPECT_NEAR(linalg::det(a).to_host<double>()[0], 4 * 5 - 1 * 2, 1e-12);  // 4*(6-1) - 1*(2-0) = 18
  const auto sl = linalg::slogdet(a);
  EXPECT_EQ(sl.sign.to_host<double>()[0], 1.0);
  EXPECT_NEAR(sl.logabsdet.to_host<double>()[0], std::log(18.0), 1e-12);
  const Array sing = Array::zeros({2, 2}, DType::float32, dev);
  EXPECT_THROW(linalg::inv(sing), LinAlgError);
  EXPECT_EQ(linalg::det(sing).to_host<float>()[0], 0.0f);
  EXPECT_THROW(linalg::det(Array::zeros({2, 3}, DType::float32, dev)), LinAlgError);
}

TEST_P(Linalg, Decompositions) {
  const Device dev = GetParam();
  const Array a = random_array<double>({2, 4, 3}, 11, dev);
  const auto [q, r] = linalg::qr(a);
  EXPECT_EQ(q.shape(), Shape({2, 4, 3}));
  EXPECT_EQ(r.shape(), Shape({2, 3, 3}));
  const auto av = a.to_host<double>();
  expect_near_all<double>(matmul(q, r), av, 1e-12);
  const auto s = linalg::svd(a, false);
  EXPECT_EQ(s.U.shape(), Shape({2, 4, 3}));
  EXPECT_EQ(s.Vh.shape(), Shape({2, 3, 3}));
  const Array us = eval(Expr(s.U) * Expr(s.S.reshape({2, 1, 3})));
  expect_near_all<double>(matmul(us, s.Vh), av, 1e-12);
  // A symmetric positive-definite matrix: m m^T + 3 I.
  const Array m = random_array<double>({3, 3}, 12, dev);
  const Array spd = eval(Expr(matmul(m, m.transpose())) + Expr(Array::from_host(std::span<const double>(std::vector<double>{3, 0, 0, 0, 3, 0, 0, 0, 3}), Shape({3, 3}), dev)));
  const auto spdv = spd.to_host<double>();
  const Array l = linalg::cholesky(spd);
  expect_near_all<double>(matmul(l, l.transpose()), spdv, 1e-12);
  EXPECT_EQ(l.to_host<double>()[1], 0.0);  // lower triangular
  const Array u = linalg::cholesky(spd, true);
  expect_near_all<double>(matmul(u.transpose(), u), spdv, 1e-12);
  const auto e = linalg::eigh(spd);
  const auto w = e.eigenvalues.to_host<double>();
  EXPECT_LE(w[0], w[1]);
  const Array av2 = matmul(spd, e.eigenvectors);
  const Array vw = eval(Expr(e.eigenvectors) * Expr(e.eigenvalues.reshape({1, 3})));
  expect_near_all<double>(av2, vw.to_host<double>(), 1e-10);
  expect_near_all<double>(linalg::eigvalsh(spd), w, 1e-10);
  const Array neg = eval(Expr(spd) * -1.0);
  EXPECT_THROW(linalg::cholesky(neg), LinAlgError);
  const auto f32 = linalg::svdvals(random_array<float>({3, 2}, 13, dev));
  EXPECT_EQ(f32.dtype(), DType::float32);
  EXPECT_EQ(f32.shape(), Shape({2}));
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Linalg, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
