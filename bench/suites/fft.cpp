// fft: weft::fft on raw buffers of rows x cols (1024 x 1024 on CPUs, 4096 x 4096 on GPUs,
// --n sets the total): complex64 transforms along the last axis (a batch of rows), over both
// axes (2-D), and float32 real-to-complex along the last axis; out of place, on the device's
// array queue. With --compare, NumPy's numpy.fft (pocketfft, the same library as weft's host
// backend, single-threaded) on the CPU size and CuPy's cupy.fft (cuFFT) on the GPU size, the
// same transforms in the same run. Times are wall-clock per call (the device's work included);
// GFLOP/s counts 5 N log2(N) per complex transform of N points (2.5 N log2 N for real ones).
#include <cmath>
#include <random>

#include "bench/harness.hpp"
#include "weft/fft.hpp"

namespace weft::bench {
namespace {

std::size_t side_for(const Context& ctx, const Device& d) {
  const std::size_t n = ctx.n_or(d.type() == DeviceType::gpu ? (std::size_t{1} << 24) : (std::size_t{1} << 20));
  return static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(n))));
}

std::string gflops(double flops, const Stats& s) {
  return std::to_string(static_cast<long long>(flops / s.median * 1e-9)) + " GFLOP/s";
}

void run_fft(Context& ctx) {
  for (const Device& dev : ctx.devices()) {
    const std::size_t side = side_for(ctx, dev), n = side * side;
    const auto s = static_cast<std::int64_t>(side);
    std::string lib;
    try {
      lib = fft::library(dev);
    } catch (const Unsupported& e) {
      ctx.progress("fft on " + dev.selector() + ": " + e.what());
      continue;
    }
    ctx.progress("fft on " + dev.selector() + " (" + lib + "), " + std::to_string(side) + " x " + std::to_string(side));
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> real(-1.0f, 1.0f);
    std::vector<float> host(2 * n);
    for (auto& x : host) x = real(rng);
    Queue& q = array_queue(dev);
    Buffer in(dev, 2 * n * sizeof(float)), out(dev, 2 * n * sizeof(float));
    q.write(in, host.data(), host.size() * sizeof(float));
    fft::Transform rows;
    rows.shape = Shape{s, s};
    rows.axes = {1};
    fft::Transform both = rows;
    both.axes = {0, 1};
    fft::Transform r2c = rows;
    r2c.kind = fft::Kind::r2c;
    const Stats a = time_array_calls(ctx, dev, [&] { fft::execute(q, rows, in, out); });
    const Stats b = time_array_calls(ctx, dev, [&] { fft::execute(q, both, in, out); });
    const Stats c = time_array_calls(ctx, dev, [&] { fft::execute(q, r2c, in, out); });
    const double lg = std::log2(static_cast<double>(side)), nn = static_cast<double>(n);
    const double c2c_bytes = 16.0 * nn, r2c_bytes = 4.0 * nn + 8.0 * nn / 2;
    const std::string where = dev.selector() + " (" + lib + ")";
    ctx.add({"fft", "weft fft.fft rows (c2c, last axis)", where, n, "complex64", a.median, a.min, c2c_bytes,
             gflops(5 * nn * lg, a)});
    ctx.add({"fft", "weft fft.fftn (c2c, 2-D)", where, n, "complex64", b.median, b.min, c2c_bytes,
             gflops(10 * nn * lg, b)});
    ctx.add({"fft", "weft fft.rfft rows (r2c, last axis)", where, n, "float32", c.median, c.min, r2c_bytes,
             gflops(2.5 * nn * lg, c)});
  }
  if (!ctx.options().compare) return;
  std::size_t cpu_n = 0, gpu_n = 0;
  for (const Device& d : ctx.devices()) {
    const std::size_t side = side_for(ctx, d);
    (d.type() == DeviceType::gpu ? gpu_n : cpu_n) = side * side;
  }
  const std::string repeat = std::to_string(ctx.options().repeat);
  std::string why;
  if (cpu_n && !run_peer(ctx, "fft", "numpy_peer.py", {"fft", std::to_string(cpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
  if (gpu_n && !run_peer(ctx, "fft", "cupy_peer.py", {"fft", std::to_string(gpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
}

const SuiteRegistration fft_registration{
    {"fft", "fft: c64 rows, 2-D, f32 rfft, 1024^2 (GPUs 4096^2) vs numpy.fft, cupy.fft", run_fft}};

}  // namespace
}  // namespace weft::bench
