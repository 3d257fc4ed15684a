// matmul: weft::matmul of two float32 n x n matrices (n = 4096 by default, --n to change),
// a new array per call as `a @ b` gives, on each device's BLAS library (OpenBLAS on the host,
// CLBlast on OpenCL, cuBLAS on CUDA; weft's fused kernel where the library is absent, which
// the method's name says). With --compare, NumPy's a @ b (its own OpenBLAS) on the host and
// CuPy's a @ b (cuBLAS) on CUDA, in the same run. Times are wall-clock per call.
#include <cmath>
#include <random>

#include "bench/harness.hpp"
#include "weft/linalg.hpp"

namespace weft::bench {
namespace {

constexpr std::size_t default_side = 4096;

std::string gflops(std::size_t n, const Stats& s) {
  const double flop = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  return std::to_string(static_cast<long long>(flop / s.median * 1e-9)) + " GFLOP/s";
}

// The library the device's product runs on, for the method's name.
std::string library(const Device& dev) {
  const std::string lib = matmul_library(dev);
  return lib.empty() ? "fused kernel, no BLAS library" : lib;
}

void check_product(const std::vector<float>& a, const std::vector<float>& b, const Array& c, std::size_t n) {
  const auto got = c.to_host<float>();
  for (std::size_t t = 0; t < 16; ++t) {
    const std::size_t i = (t * 977) % n, j = (t * 613 + 5) % n;
    double ref = 0, mag = 0;
    for (std::size_t k = 0; k < n; ++k) {
      ref += double(a[i * n + k]) * double(b[k * n + j]);
      mag += std::fabs(double(a[i * n + k]) * double(b[k * n + j]));
    }
    if (std::fabs(got[i * n + j] - ref) > 1e-5 * mag + 1e-6) {
      throw Error("matmul bench: wrong element (" + std::to_string(i) + ", " + std::to_string(j) + ")");
    }
  }
}

void run_matmul(Context& ctx) {
  std::size_t cpu_n = 0, gpu_n = 0;
  for (const Device& dev : ctx.devices()) {
    const std::size_t n = ctx.n_or(default_side);
    (dev.type() == DeviceType::gpu ? gpu_n : cpu_n) = n;
    const auto len = static_cast<std::int64_t>(n);
    ctx.progress("matmul on " + dev.selector() + ", " + std::to_string(n) + " x " + std::to_string(n));
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> real(-1.0f, 1.0f);
    std::vector<float> ha(n * n), hb(n * n);
    for (auto& x : ha) x = real(rng);
    for (auto& x : hb) x = real(rng);
    const Array a = Array::from_host<float>(ha, Shape{len, len}, dev);
    const Array b = Array::from_host<float>(hb, Shape{len, len}, dev);
    Array c;
    const Stats s = time_array_calls(ctx, dev, [&] { c = matmul(a, b); });
    check_product(ha, hb, c, n);
    ctx.add({"matmul", "weft matmul(a, b) (" + library(dev) + ")", dev.selector(), n, "float32", s.median, s.min,
             12.0 * static_cast<double>(n) * static_cast<double>(n), gflops(n, s)});
  }
  if (!ctx.options().compare) return;
  const std::string repeat = std::to_string(ctx.options().repeat);
  std::string why;
  if (cpu_n && !run_peer(ctx, "matmul", "numpy_peer.py", {"matmul", std::to_string(cpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
  if (gpu_n && !run_peer(ctx, "matmul", "cupy_peer.py", {"matmul", std::to_string(gpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
}

const SuiteRegistration matmul_registration{
    {"matmul", "matrix product: float32 n x n @ n x n (n = 4096), BLAS per backend", run_matmul}};

}  // namespace
}  // namespace weft::bench
