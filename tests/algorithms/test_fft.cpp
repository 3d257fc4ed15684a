// weft::fft on raw buffers, on every device, against a naive DFT computed in double: complex,
// real-to-complex and complex-to-real transforms (even and odd lengths), over one axis and
// several, batched over the others, strided layouts, in place, the conjugated real
// transforms (hfft, ihfft), scaling, the refused layouts; and the frequency and shift helpers.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

#include "algorithms/fft_checks.hpp"
#include "backends/cuda/cufft_api.hpp"
#include "support.hpp"
#include "weft/error.hpp"
#include "weft/fft.hpp"

namespace weft {
namespace {

using cd = std::complex<double>;

// A contiguous n-dimensional complex array in double.
struct Nd {
  std::vector<std::size_t> shape;
  std::vector<cd> v;
  std::size_t stride(std::size_t axis) const {
    std::size_t s = 1;
    for (std::size_t d = axis + 1; d < shape.size(); ++d) s *= shape[d];
    return s;
  }
};

// The DFT along axis with exponent sign (-1 forward), over every line; out length n (the
// input cropped or, for the Hermitian extension below, given already).
Nd dft_axis(const Nd& a, std::size_t axis, int sign) {
  Nd out = a;
  const std::size_t n = a.shape[axis], st = a.stride(axis);
  for (std::size_t base = 0; base < a.v.size(); ++base) {
    if ((base / st) % n != 0) continue;  // the first element of a line
    for (std::size_t k = 0; k < n; ++k) {
      cd s = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const double ang = sign * 2.0 * std::numbers::pi * static_cast<double>(j * k % n) / static_cast<double>(n);
        s += a.v[base + j * st] * cd(std::cos(ang), std::sin(ang));
      }
      out.v[base + k * st] = s;
    }
  }
  return out;
}

std::size_t prod(const std::vector<std::size_t>& s) {
  std::size_t p = 1;
  for (auto e : s) p *= e;
  return p;
}

// What a transform should give, as contiguous interleaved (complex out) or plain (real out).
std::vector<double> reference(const fft::Transform& t, const Nd& in) {
  std::vector<std::size_t> shape(t.shape.dims().begin(), t.shape.dims().end());
  const std::size_t last = static_cast<std::size_t>(t.axes.back());
  std::vector<double> out;
  if (t.kind == fft::Kind::c2c || t.kind == fft::Kind::r2c) {
    Nd a = in;
    for (int ax : t.axes) a = dft_axis(a, static_cast<std::size_t>(ax), t.forward ? -1 : 1);
    std::vector<std::size_t> oshape = shape;
    if (t.kind == fft::Kind::r2c) oshape[last] = shape[last] / 2 + 1;
    // Crop the last axis (r2c) by walking the output's indices.
    Nd o{oshape, std::vector<cd>(prod(oshape))};
    for (std::size_t i = 0; i < o.v.size(); ++i) {
      std::size_t rem = i, src = 0;
      for (std::size_t d = oshape.size(); d-- > 0;) {
        src += (rem % oshape[d]) * a.stride(d);
        rem /= oshape[d];
      }
      o.v[i] = a.v[src] * t.scale;
    }
    for (const cd& c : o.v) {
      out.push_back(c.real());
      out.push_back(c.imag());
    }
    return out;
  }
  // c2r: the complex transforms first, then the Hermitian extension along the last axis.
  Nd a = in;
  for (std::size_t i = 0; i + 1 < t.axes.size(); ++i) a = dft_axis(a, static_cast<std::size_t>(t.axes[i]), t.forward ? -1 : 1);
  const std::size_t n = shape[last], m = a.shape[last];
  Nd full{shape, std::vector<cd>(prod(shape))};
  for (std::size_t i = 0; i < full.v.size(); ++i) {
    std::size_t rem = i, src = 0, k = 0;
    for (std::size_t d = shape.size(); d-- > 0;) {
      std::size_t idx = rem % shape[d];
      rem /= shape[d];
      if (d == last) {
        k = idx;
        continue;
      }
      src += idx * a.stride(d);
    }
    // The other axes are already transformed: X[k] for k >= m is conj of X at -k on every
    // axis, but only the last axis matters for the real part taken below.
    full.v[i] = k < m ? a.v[src + k * a.stride(last)] : std::conj(a.v[src + (n - k) * a.stride(last)]);
  }
  // Column-wise Hermitian data: the mirrored index on the other axes is not needed because
  // the real part of the 1-D inverse of each line is what pocketfft's c2r of that line gives
  // after the complex passes.
  const Nd r = dft_axis(full, last, t.forward ? -1 : 1);
  for (const cd& c : r.v) out.push_back(c.real() * t.scale);
  return out;
}

class Fft : public ::testing::TestWithParam<Device> {
 public:
  // Runs t on in (interleaved for complex input, laid out as t's strides say) and returns
  // the output buffer's first out_count reals.
  std::vector<double> run(const fft::Transform& t, const std::vector<double>& in, std::size_t out_count,
                          std::size_t out_reals_alloc) {
    Queue q(GetParam());
    const bool dbl = t.precision == DType::float64;
    Buffer bin, bout;
    if (dbl) {
      bin = test::upload(q, in);
      bout = test::poisoned<double>(q, out_reals_alloc);
    } else {
      bin = test::upload(q, std::vector<float>(in.begin(), in.end()));
      bout = test::poisoned<float>(q, out_reals_alloc);
    }
    fft::execute(q, t, bin, bout).wait();
    if (dbl) return test::download<double>(q, bout, out_count);
    const auto f = test::download<float>(q, bout, out_count);
    return {f.begin(), f.end()};
  }
};

void expect_close(const std::vector<double>& got, const std::vector<double>& want, double tol, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double scale = 1e-30;
  for (double w : want) scale = std::max(scale, std::abs(w));
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], tol * scale) << what << " at " << i;
  }
}

// Contiguous random data: interleaved complex (c2c, c2r) or reals (r2c), and its Nd form.
struct Input {
  std::vector<double> flat;
  Nd nd;
};
Input make_input(const fft::Transform& t, unsigned seed) {
  std::vector<std::size_t> shape(t.shape.dims().begin(), t.shape.dims().end());
  if (t.kind == fft::Kind::c2r) shape[static_cast<std::size_t>(t.axes.back())] = shape[static_cast<std::size_t>(t.axes.back())] / 2 + 1;
  const std::size_t n = prod(shape);
  const bool real = t.kind == fft::Kind::r2c;
  Input in{test::random_vector<double>(real ? n : 2 * n, seed, -1.0, 1.0), Nd{shape, std::vector<cd>(n)}};
  for (std::size_t i = 0; i < n; ++i) in.nd.v[i] = real ? cd(in.flat[i], 0) : cd(in.flat[2 * i], in.flat[2 * i + 1]);
  return in;
}

// Whether the device's library takes t's buffers as they are: pocketfft (host, and OpenCL
// through a host copy) takes any layout; cuFFT's raw path contiguous buffers whose transformed
// axes are the last ones, in order, at most three.
bool takes_layout(const Device& device, const fft::Transform& t) {
  if (device.backend() != "cuda") return true;
  if (!t.in_strides.empty() || !t.out_strides.empty() || t.axes.size() > 3) return false;
  const int nd = static_cast<int>(t.shape.ndim());
  for (std::size_t i = 0; i < t.axes.size(); ++i) {
    if (t.axes[i] != nd - static_cast<int>(t.axes.size()) + static_cast<int>(i)) return false;
  }
  return true;
}

void check_case(Fft& f, fft::Kind kind, DType precision, std::vector<std::int64_t> shape, std::vector<int> axes,
                bool forward, double scale) {
  fft::Transform t;
  t.kind = kind;
  t.precision = precision;
  t.shape = Shape(shape);
  t.axes = axes;
  t.forward = forward;
  t.scale = scale;
  const Input in = make_input(t, 7);
  const std::vector<double> want = reference(t, in.nd);
  if (!takes_layout(f.GetParam(), t)) {
    // cuFFT's raw path takes contiguous buffers with the transformed axes last (the Array
    // functions reorder other layouts first): anything else is refused, not computed wrong.
    EXPECT_THROW(f.run(t, in.flat, want.size(), want.size()), InvalidArgument);
    return;
  }
  const std::vector<double> got = f.run(t, in.flat, want.size(), want.size());
  expect_close(got, want, precision == DType::float64 ? 1e-12 : 2e-5,
               "kind " + std::to_string(static_cast<int>(kind)) + " " + std::string(name(precision)));
}

TEST_P(Fft, ComplexOneAxisBatched) {
  for (DType p : {DType::float32, DType::float64}) {
    check_case(*this, fft::Kind::c2c, p, {3, 12}, {1}, true, 1.0);
    check_case(*this, fft::Kind::c2c, p, {3, 12}, {1}, false, 1.0 / 12);
    check_case(*this, fft::Kind::c2c, p, {7, 5}, {0}, true, 1.0);  // the first axis, odd, prime
    check_case(*this, fft::Kind::c2c, p, {17}, {0}, true, 1.0 / std::sqrt(17.0));
  }
}

TEST_P(Fft, ComplexSeveralAxes) {
  for (DType p : {DType::float32, DType::float64}) {
    check_case(*this, fft::Kind::c2c, p, {4, 3, 5}, {0, 2}, true, 1.0);
    check_case(*this, fft::Kind::c2c, p, {4, 3, 5}, {0, 1, 2}, false, 1.0 / 60);
  }
}

TEST_P(Fft, RealToComplex) {
  for (DType p : {DType::float32, DType::float64}) {
    check_case(*this, fft::Kind::r2c, p, {5, 16}, {1}, true, 1.0);
    check_case(*this, fft::Kind::r2c, p, {5, 15}, {1}, true, 1.0);
    check_case(*this, fft::Kind::r2c, p, {6, 9}, {0, 1}, true, 0.5);
    check_case(*this, fft::Kind::r2c, p, {9, 4}, {0}, true, 1.0);  // the halved axis first
    check_case(*this, fft::Kind::r2c, p, {5, 15}, {1}, false, 1.0 / 15);  // ihfft: conjugated
  }
}

TEST_P(Fft, ComplexToReal) {
  for (DType p : {DType::float32, DType::float64}) {
    check_case(*this, fft::Kind::c2r, p, {4, 16}, {1}, false, 1.0 / 16);
    check_case(*this, fft::Kind::c2r, p, {4, 15}, {1}, false, 1.0 / 15);
    check_case(*this, fft::Kind::c2r, p, {4, 15}, {1}, true, 1.0);  // hfft: conjugated
  }
}

// What execute does for cuFFT (contiguous batches, its own scaling and conjugation kernel),
// with the tests' switch making the host's pocketfft look like it.
TEST_P(Fft, AsABatchedLibrary) {
  detail::fft_batched_layout_for_tests(true);
  for (DType p : {DType::float32, DType::float64}) {
    check_case(*this, fft::Kind::c2c, p, {3, 12}, {1}, true, 0.5);
    check_case(*this, fft::Kind::c2c, p, {3, 4, 5}, {1, 2}, false, 1.0 / 20);
    check_case(*this, fft::Kind::r2c, p, {5, 15}, {1}, false, 1.0 / 15);  // ihfft: conjugated after
    check_case(*this, fft::Kind::c2r, p, {4, 15}, {1}, true, 1.0);        // hfft: conjugated before
    check_case(*this, fft::Kind::c2r, p, {4, 16}, {1}, false, 1.0 / 16);
  }
  if (fft::library(GetParam()).find("host copy") == std::string::npos) {
    Queue q(GetParam());
    Buffer a(q.device(), 64 * sizeof(float)), b(q.device(), 64 * sizeof(float));
    fft::Transform t;
    t.shape = Shape{4, 8};
    t.axes = {0};  // not the last axis: a batched library refuses it
    EXPECT_THROW(fft::execute(q, t, a, b), InvalidArgument);
  }
  detail::fft_batched_layout_for_tests(false);
}

TEST_P(Fft, StridedInputAndOutput) {
  // A column-major 4 x 6 complex input (element strides 1, 4), transformed along axis 0, into
  // an output with a gap of one complex number after each row (strides 7, 1).
  Queue q(GetParam());
  fft::Transform t;
  t.precision = DType::float64;
  t.shape = Shape{4, 6};
  t.axes = {0};
  t.in_strides = Strides{1, 4};
  t.out_strides = Strides{7, 1};
  const auto flat = test::random_vector<double>(48, 3, -1.0, 1.0);
  Nd nd{{4, 6}, std::vector<cd>(24)};
  for (std::size_t r = 0; r < 4; ++r) {
    for (std::size_t c = 0; c < 6; ++c) nd.v[r * 6 + c] = cd(flat[2 * (r + 4 * c)], flat[2 * (r + 4 * c) + 1]);
  }
  const std::vector<double> want = reference(t, nd);
  Buffer bin = test::upload(q, flat), bout = test::poisoned<double>(q, 56);
  if (!takes_layout(GetParam(), t)) {
    EXPECT_THROW(fft::execute(q, t, bin, bout), InvalidArgument);
    return;
  }
  fft::execute(q, t, bin, bout).wait();
  const auto got = test::download<double>(q, bout, 56);
  std::vector<double> packed;
  for (std::size_t r = 0; r < 4; ++r) {
    for (std::size_t c = 0; c < 12; ++c) packed.push_back(got[r * 14 + c]);
  }
  expect_close(packed, want, 1e-12, "strided");
}

TEST_P(Fft, InPlaceComplex) {
  Queue q(GetParam());
  fft::Transform t;
  t.shape = Shape{2, 8};
  t.axes = {1};
  const Input in = make_input(t, 11);
  const auto want = reference(t, in.nd);
  Buffer b = test::upload(q, std::vector<float>(in.flat.begin(), in.flat.end()));
  fft::execute(q, t, b, b).wait();
  const auto got = test::download<float>(q, b, want.size());
  expect_close({got.begin(), got.end()}, want, 2e-5, "in place");
}

TEST_P(Fft, RefusesWhatItCannotDo) {
  Queue q(GetParam());
  Buffer small(q.device(), 16 * sizeof(float)), other(q.device(), 64 * sizeof(float));
  fft::Transform t;
  t.shape = Shape{16};
  t.axes = {0};
  EXPECT_THROW(fft::execute(q, t, small, other), InvalidArgument);  // 16 complex need 128 bytes
  t.shape = Shape{8};
  t.precision = DType::int32;
  EXPECT_THROW(fft::execute(q, t, small, other), DTypeError);
  t.precision = DType::float32;
  t.axes = {1};
  EXPECT_THROW(fft::execute(q, t, small, other), InvalidArgument);
  t.axes = {0, 0};
  EXPECT_THROW(fft::execute(q, t, small, other), InvalidArgument);
  t.axes = {0};
  t.kind = fft::Kind::r2c;
  EXPECT_THROW(fft::execute(q, t, other, other), InvalidArgument);  // r2c in place
}

TEST_P(Fft, FrequenciesAndShifts) {
  const Device dev = GetParam();
  const auto f = fft::fftfreq(5, 0.5, DType::float64, dev).to_host<double>();
  EXPECT_EQ(f, (std::vector<double>{0.0, 0.4, 0.8, -0.8, -0.4}));
  const auto g = fft::fftfreq(4, 1.0, DType::float32, dev).to_host<float>();
  EXPECT_EQ(g, (std::vector<float>{0.0f, 0.25f, -0.5f, -0.25f}));
  const auto r = fft::rfftfreq(5, 1.0, DType::float64, dev).to_host<double>();
  EXPECT_EQ(r, (std::vector<double>{0.0, 0.2, 0.4}));
  EXPECT_THROW(fft::fftfreq(0, 1.0, DType::float64, dev), InvalidArgument);
  Array x = Array::arange_integers(0, 5, 1, DType::int32, dev);
  EXPECT_EQ(fft::fftshift(x).to_host<std::int32_t>(), (std::vector<std::int32_t>{3, 4, 0, 1, 2}));
  EXPECT_EQ(fft::ifftshift(fft::fftshift(x)).to_host<std::int32_t>(), (std::vector<std::int32_t>{0, 1, 2, 3, 4}));
  Array m = Array::arange_integers(0, 6, 1, DType::int32, dev).reshape({2, 3});
  EXPECT_EQ(fft::fftshift(m, {1}).to_host<std::int32_t>(), (std::vector<std::int32_t>{2, 0, 1, 5, 3, 4}));
  EXPECT_EQ(fft::fftshift(m).to_host<std::int32_t>(), (std::vector<std::int32_t>{5, 3, 4, 2, 0, 1}));
}

TEST_P(Fft, NamesItsLibrary) {
  std::string lib;
  try {
    lib = fft::library(GetParam());
  } catch (const Unsupported& e) {
    GTEST_SKIP() << e.what();
  }
  EXPECT_FALSE(lib.empty());
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Fft, ::testing::ValuesIn(test::test_devices()), test::device_name);

TEST(FftNorm, Scales) {
  EXPECT_EQ(fft::norm_scale(fft::Norm::backward, true, 8), 1.0);
  EXPECT_EQ(fft::norm_scale(fft::Norm::backward, false, 8), 0.125);
  EXPECT_EQ(fft::norm_scale(fft::Norm::forward, true, 8), 0.125);
  EXPECT_EQ(fft::norm_scale(fft::Norm::forward, false, 8), 1.0);
  EXPECT_DOUBLE_EQ(fft::norm_scale(fft::Norm::ortho, false, 8), 1.0 / std::sqrt(8.0));
  EXPECT_EQ(fft::parse_norm("ortho"), fft::Norm::ortho);
  EXPECT_THROW(fft::parse_norm("unitary"), InvalidArgument);
}

// The layouts a batched library (cuFFT) takes: checked here, where no GPU is needed.
TEST(FftLibraryLayout, ContiguousTrailingAxesOnly) {
  detail::FftDesc d;
  d.shape = {4, 3, 8};
  d.axes = {1, 2};
  d.in_strides = d.out_strides = {3 * 8 * 8, 8 * 8, 8};
  EXPECT_NO_THROW(detail::check_library_layout(d, "cuFFT"));
  d.axes = {0, 2};
  EXPECT_THROW(detail::check_library_layout(d, "cuFFT"), InvalidArgument);
  d.axes = {1, 2};
  d.in_strides = {8, 4 * 8 * 8, 4 * 8};
  EXPECT_THROW(detail::check_library_layout(d, "cuFFT"), InvalidArgument);
  d.kind = fft::Kind::r2c;  // real input 4 x 3 x 8, complex output 4 x 3 x 5
  d.in_strides = {3 * 8 * 4, 8 * 4, 4};
  d.out_strides = {3 * 5 * 8, 5 * 8, 8};
  EXPECT_NO_THROW(detail::check_library_layout(d, "cuFFT"));
}

// cuFFT loads where the toolkit is installed (no GPU needed): every entry point is found and
// the version is read; elsewhere the reason names the library.
TEST(Cufft, LoadsWhereInstalled) {
  try {
    const auto& lib = detail::cufft::library();
    EXPECT_NE(lib.cufftMakePlanMany64, nullptr);
    EXPECT_NE(lib.cufftExecZ2D, nullptr);
    EXPECT_FALSE(lib.version.empty());
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("libcufft"), std::string::npos) << e.what();
  }
  EXPECT_EQ(detail::cufft::result_name(2), "CUFFT_ALLOC_FAILED");
  EXPECT_THROW(detail::cufft::check(2, "cufftExecC2C"), OutOfMemory);
}

}  // namespace
}  // namespace weft
