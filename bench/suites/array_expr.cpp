// array-expr: d = a*b + c written with arrays (no hand-written kernel), float32, 2^24 elements
// on CPUs and 2^26 on GPUs: assigned into an existing array and evaluated into a new one,
// beside the device's buffer copy (the bandwidth ceiling); the host time of one small array
// operation from C++; with --compare, NumPy's form with temporaries and CuPy's array form, in
// the same run. weft's times are wall-clock over a batch of 10 (host overhead included).
#include <random>

#include "bench/harness.hpp"

namespace weft::bench {
namespace {

void run_array_expr(Context& ctx) {
  for (const Device& dev : ctx.devices()) {
    const std::size_t n = ctx.n_or(default_array_n(dev));
    const auto len = static_cast<std::int64_t>(n);
    ctx.progress("array-expr on " + dev.selector() + ", n = " + std::to_string(n));
    std::vector<float> host[3];
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (auto& v : host) {
      v.resize(n);
      for (auto& x : v) x = dist(rng);
    }
    const Array a = Array::from_host<float>(host[0], Shape{len}, dev);
    const Array b = Array::from_host<float>(host[1], Shape{len}, dev);
    const Array c = Array::from_host<float>(host[2], Shape{len}, dev);
    Array d = Array::empty(Shape{len}, DType::float32, dev);
    const Stats assign = time_array_calls(ctx, dev, [&] { d.assign(a * b + c); }, 10);
    Array e;
    const Stats fresh = time_array_calls(ctx, dev, [&] { e = eval(a * b + c); }, 10);
    const Stats copy = time_array_calls(ctx, dev, [&] { d.assign(a); }, 10);
    d.assign(a * b + c);
    const auto got = d.to_host<float>();
    const auto got_e = e.to_host<float>();
    for (std::size_t i = 0; i < n; i += n / 101 + 1) {
      const float ref = host[0][i] * host[1][i] + host[2][i];
      if (std::fabs(got[i] - ref) > 1e-6f || std::fabs(got_e[i] - ref) > 1e-6f) {
        throw Error("array-expr: wrong result at " + std::to_string(i));
      }
    }
    const double bytes = 16.0 * static_cast<double>(n);
    ctx.add({"array-expr", "weft d.assign(a*b + c)", dev.selector(), n, "float32", assign.median, assign.min, bytes, ""});
    ctx.add({"array-expr", "weft eval(a*b + c), new array", dev.selector(), n, "float32", fresh.median, fresh.min, bytes, ""});
    ctx.add({"array-expr", "weft d.assign(a) (copy ceiling)", dev.selector(), n, "float32", copy.median, copy.min,
             8.0 * static_cast<double>(n), ""});
    // The host's share of a small operation: 16 elements, one kernel launch each.
    const Array s = Array::ones(Shape{16}, DType::float32, dev);
    Array t = Array::empty(Shape{16}, DType::float32, dev);
    const Stats small = time_array_calls(ctx, dev, [&] { t.assign(s * 2.0 + s); }, 100);
    ctx.add({"array-expr", "weft t.assign(s*2 + s), 16 elements (time per op)", dev.selector(), 16, "float32",
             small.median, small.min, 0, ""});
  }
  if (!ctx.options().compare) return;
  std::size_t cpu_n = 0, gpu_n = 0;
  for (const Device& d : ctx.devices()) (d.type() == DeviceType::gpu ? gpu_n : cpu_n) = ctx.n_or(default_array_n(d));
  const std::string repeat = std::to_string(ctx.options().repeat);
  std::string why;
  if (cpu_n && !run_peer(ctx, "array-expr", "numpy_peer.py", {"array-expr", std::to_string(cpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
  if (gpu_n && !run_peer(ctx, "array-expr", "cupy_peer.py", {"array-expr", std::to_string(gpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
}

const SuiteRegistration array_expr_registration{{"array-expr", "arrays: d = a*b + c as one fused kernel, float32", run_array_expr}};

}  // namespace
}  // namespace weft::bench
