// weft::fft's Array functions on every device, against a naive DFT in double: result dtypes
// and shapes, n cropping and padding, axes, norms, hfft/ihfft, views as input, and the path
// batched libraries (cuFFT) take (a contiguous copy with the transformed axes last, more than
// three axes split), checked here on the host through the tests' switch.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "algorithms/fft_checks.hpp"
#include "support.hpp"
#include "weft/error.hpp"
#include "weft/fft.hpp"

namespace weft {
namespace {

using cd = std::complex<double>;

// The 1-D DFT of v (length n after cropping/padding) with exponent sign, times scale.
std::vector<cd> dft(std::vector<cd> v, std::size_t n, int sign, double scale) {
  v.resize(n);
  std::vector<cd> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t j = 0; j < n; ++j) {
      const double a = sign * 2 * std::numbers::pi * static_cast<double>(j * k % n) / static_cast<double>(n);
      out[k] += v[j] * cd(std::cos(a), std::sin(a));
    }
    out[k] *= scale;
  }
  return out;
}

template <class C>
void expect_near(const std::vector<C>& got, const std::vector<cd>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(got[i].real(), want[i].real(), tol) << i;
    EXPECT_NEAR(got[i].imag(), want[i].imag(), tol) << i;
  }
}

class FftArrays : public ::testing::TestWithParam<Device> {
 protected:
  void TearDown() override { detail::fft_batched_layout_for_tests(false); }
};

TEST_P(FftArrays, OneAxisWithNAndNorms) {
  const Device dev = GetParam();
  const auto re = test::random_vector<float>(2 * 6, 1, -1.0f, 1.0f);
  std::vector<std::complex<float>> h(6);
  for (std::size_t i = 0; i < 6; ++i) h[i] = {re[2 * i], re[2 * i + 1]};
  const Array x = Array::from_host<std::complex<float>>(h, Shape{6}, dev);
  const std::vector<cd> v(h.begin(), h.end());
  for (bool batched : {false, true}) {
    detail::fft_batched_layout_for_tests(batched);
    Array X = fft::fft(x);
    EXPECT_EQ(X.dtype(), DType::complex64);
    expect_near(X.to_host<std::complex<float>>(), dft(v, 6, -1, 1.0), 1e-5);
    expect_near(fft::fft(x, 4).to_host<std::complex<float>>(), dft(v, 4, -1, 1.0), 1e-5);
    expect_near(fft::ifft(x, 9, -1, fft::Norm::ortho).to_host<std::complex<float>>(), dft(v, 9, 1, 1 / 3.0), 1e-5);
    expect_near(fft::fft(x, {}, 0, fft::Norm::forward).to_host<std::complex<float>>(), dft(v, 6, -1, 1 / 6.0), 1e-5);
  }
}

TEST_P(FftArrays, RealTransformsAndTheirTypes) {
  const Device dev = GetParam();
  if (!dev.info().fp64) GTEST_SKIP() << "no float64";
  const auto r = test::random_vector<double>(3 * 8, 2, -1.0, 1.0);
  const Array x = Array::from_host<double>(r, Shape{3, 8}, dev);
  for (bool batched : {false, true}) {
    detail::fft_batched_layout_for_tests(batched);
    const Array X = fft::rfft(x);
    EXPECT_EQ(X.dtype(), DType::complex128);
    EXPECT_EQ(X.shape(), (Shape{3, 5}));
    const auto got = X.to_host<cd>();
    for (std::size_t row = 0; row < 3; ++row) {
      std::vector<cd> line(r.begin() + static_cast<std::ptrdiff_t>(8 * row), r.begin() + static_cast<std::ptrdiff_t>(8 * row + 8));
      const auto want = dft(line, 8, -1, 1.0);
      for (std::size_t k = 0; k < 5; ++k) {
        EXPECT_NEAR(std::abs(got[row * 5 + k] - want[k]), 0.0, 1e-12);
      }
    }
    const Array y = fft::irfft(X);
    EXPECT_EQ(y.dtype(), DType::float64);
    const auto back = y.to_host<double>();
    for (std::size_t i = 0; i < r.size(); ++i) EXPECT_NEAR(back[i], r[i], 1e-12);
    // hfft(ihfft(r)) is r again, with the conjugated transforms on both sides.
    const auto again = fft::hfft(fft::ihfft(x), 8).to_host<double>();
    for (std::size_t i = 0; i < r.size(); ++i) EXPECT_NEAR(again[i], r[i], 1e-12);
    EXPECT_THROW(fft::rfft(X), DTypeError);
  }
}

TEST_P(FftArrays, SeveralAxesAndViews) {
  const Device dev = GetParam();
  // A 2 x 3 x 2 x 2 x 3 complex array transformed over four axes: the batched path splits it.
  const std::int64_t dims[] = {2, 3, 2, 2, 3};
  std::size_t n = 1;
  for (auto d : dims) n *= static_cast<std::size_t>(d);
  const auto re = test::random_vector<float>(2 * n, 3, -1.0f, 1.0f);
  std::vector<std::complex<float>> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = {re[2 * i], re[2 * i + 1]};
  const Array x = Array::from_host<std::complex<float>>(h, Shape{2, 3, 2, 2, 3}, dev);
  detail::fft_batched_layout_for_tests(false);
  const auto direct = fft::fftn(x, {}, {0, 1, 3, 4}).to_host<std::complex<float>>();
  detail::fft_batched_layout_for_tests(true);
  const auto batched = fft::fftn(x, {}, {0, 1, 3, 4}).to_host<std::complex<float>>();
  ASSERT_EQ(direct.size(), batched.size());
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(std::abs(direct[i] - batched[i]), 0.0, 1e-4) << i;
  // ifftn undoes fftn over every axis, through a reversed view too.
  const Array rev = x.slice(4, Array::none, Array::none, -1);
  const auto round = fft::ifftn(fft::fftn(rev)).to_host<std::complex<float>>();
  const auto want = rev.copy().to_host<std::complex<float>>();
  for (std::size_t i = 0; i < n; ++i) EXPECT_NEAR(std::abs(round[i] - want[i]), 0.0, 1e-5) << i;
}

TEST_P(FftArrays, Refusals) {
  const Device dev = GetParam();
  const Array i = Array::arange_integers(0, 4, 1, DType::int32, dev);
  EXPECT_THROW(fft::fft(i), DTypeError);
  const Array f = Array::arange(0, 4, 1, DType::float32, dev);
  EXPECT_THROW(fft::fft(f, 0), InvalidArgument);
  EXPECT_THROW(fft::fft(f, {}, 1), InvalidArgument);
  EXPECT_THROW(fft::fftn(f, {}, {0, 0}), InvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(AllDevices, FftArrays, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
