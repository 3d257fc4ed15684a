// array-complex: d = a*b + c on complex64 arrays (cfloat_mul, cfloat_add in one fused kernel),
// 2^23 elements on CPUs and 2^25 on GPUs (the bytes of array-expr's float32 run), beside the
// same expression on float32 arrays of as many bytes and the device's complex64 copy: issue
// 24 asks complex elementwise work to reach the same fraction of copy bandwidth as float.
// weft's times are wall-clock over a batch of 10 (host overhead included).
#include <complex>
#include <random>

#include "bench/harness.hpp"

namespace weft::bench {
namespace {

std::size_t default_complex_n(const Device& d) {
  return d.type() == DeviceType::gpu ? (std::size_t{1} << 25) : (std::size_t{1} << 23);
}

void run_array_complex(Context& ctx) {
  using cf = std::complex<float>;
  for (const Device& dev : ctx.devices()) {
    const std::size_t n = ctx.n_or(default_complex_n(dev));
    const auto len = static_cast<std::int64_t>(n);
    ctx.progress("array-complex on " + dev.selector() + ", n = " + std::to_string(n));
    std::vector<cf> host[3];
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (auto& v : host) {
      v.resize(n);
      for (auto& x : v) x = cf(dist(rng), dist(rng));
    }
    const Array a = Array::from_host<cf>(host[0], Shape{len}, dev);
    const Array b = Array::from_host<cf>(host[1], Shape{len}, dev);
    const Array c = Array::from_host<cf>(host[2], Shape{len}, dev);
    Array d = Array::empty(Shape{len}, DType::complex64, dev);
    const Stats fused = time_array_calls(ctx, dev, [&] { d.assign(a * b + c); }, 10);
    const Stats copy = time_array_calls(ctx, dev, [&] { d.assign(a); }, 10);
    d.assign(a * b + c);
    const auto got = d.to_host<cf>();
    for (std::size_t i = 0; i < n; i += n / 101 + 1) {
      const cf ref = host[0][i] * host[1][i] + host[2][i];
      if (std::abs(got[i] - ref) > 1e-5f) throw Error("array-complex: wrong result at " + std::to_string(i));
    }
    // float32 arrays of the same bytes (2n elements), the same expression.
    const Array fa = Array::full(Shape{2 * len}, 0.5, DType::float32, dev);
    const Array fb = Array::full(Shape{2 * len}, 1.5, DType::float32, dev);
    const Array fc = Array::full(Shape{2 * len}, -1.0, DType::float32, dev);
    Array fd = Array::empty(Shape{2 * len}, DType::float32, dev);
    const Stats real = time_array_calls(ctx, dev, [&] { fd.assign(fa * fb + fc); }, 10);
    const Stats real_copy = time_array_calls(ctx, dev, [&] { fd.assign(fa); }, 10);
    const double bytes = 32.0 * static_cast<double>(n);
    ctx.add({"array-complex", "weft d.assign(a*b + c), complex64", dev.selector(), n, "complex64", fused.median,
             fused.min, bytes, ""});
    ctx.add({"array-complex", "weft d.assign(a) (copy ceiling), complex64", dev.selector(), n, "complex64",
             copy.median, copy.min, 16.0 * static_cast<double>(n), ""});
    ctx.add({"array-complex", "weft d.assign(a*b + c), float32, same bytes", dev.selector(), 2 * n, "float32",
             real.median, real.min, bytes, ""});
    ctx.add({"array-complex", "weft d.assign(a) (copy ceiling), float32, same bytes", dev.selector(), 2 * n, "float32",
             real_copy.median, real_copy.min, 16.0 * static_cast<double>(n), ""});
  }
}

const SuiteRegistration array_complex_registration{
    {"array-complex", "arrays: d = a*b + c on complex64 beside float32 of the same bytes", run_array_complex}};

}  // namespace
}  // namespace weft::bench
