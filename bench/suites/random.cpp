// random: weft::random::Generator writing float32 numbers, 2^24 on CPUs and 2^26 on GPUs:
// random (uniform [0, 1)) and standard_normal, beside a fill of the same array (the write
// bandwidth the generator can at best reach); with --compare, NumPy's Generator (PCG64, and
// Philox, the same family as weft's) filling an existing array, and CuPy's generator on a GPU,
// in the same run. GB/s counts the bytes written. weft's times are wall-clock over a batch of
// 10 calls ending in a synchronize (each call makes its array from the memory pool).
#include <cmath>

#include "bench/harness.hpp"

namespace weft::bench {
namespace {

// A few elements against what the stream's layout gives, so a wrong kernel is not timed.
void check(const Array& u, const Array& z) {
  const auto a = u.to_host<float>();
  const auto b = z.to_host<float>();
  for (std::size_t i = 0; i < a.size(); i += a.size() / 97 + 1) {
    if (!(a[i] >= 0.0f && a[i] < 1.0f) || !std::isfinite(b[i])) {
      throw Error("random: element " + std::to_string(i) + " is out of its range");
    }
  }
}

void run_random(Context& ctx) {
  for (const Device& dev : ctx.devices()) {
    const std::size_t n = ctx.n_or(default_array_n(dev));
    const Shape shape{static_cast<std::int64_t>(n)};
    const double bytes = 4.0 * static_cast<double>(n);
    ctx.progress("random on " + dev.selector() + ", n = " + std::to_string(n));
    random::Generator g(42);
    Array u, z;
    const Stats uni = time_array_calls(ctx, dev, [&] { u = g.random(shape, DType::float32, dev); }, 10);
    const Stats nor = time_array_calls(ctx, dev, [&] { z = g.standard_normal(shape, DType::float32, dev); }, 10);
    check(u, z);
    Array d = Array::empty(shape, DType::float32, dev);
    const Stats fill = time_array_calls(ctx, dev, [&] { d.assign(0.5); }, 10);
    ctx.add({"random", "weft Generator.random float32", dev.selector(), n, "float32", uni.median, uni.min, bytes, ""});
    ctx.add({"random", "weft Generator.standard_normal float32", dev.selector(), n, "float32", nor.median, nor.min,
             bytes, ""});
    ctx.add({"random", "weft d.assign(0.5) (write ceiling)", dev.selector(), n, "float32", fill.median, fill.min,
             bytes, ""});
  }
  if (!ctx.options().compare) return;
  std::size_t cpu_n = 0, gpu_n = 0;
  for (const Device& d : ctx.devices()) (d.type() == DeviceType::gpu ? gpu_n : cpu_n) = ctx.n_or(default_array_n(d));
  const std::string repeat = std::to_string(ctx.options().repeat);
  std::string why;
  if (cpu_n && !run_peer(ctx, "random", "numpy_peer.py", {"random", std::to_string(cpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
  if (gpu_n && !run_peer(ctx, "random", "cupy_peer.py", {"random", std::to_string(gpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
}

const SuiteRegistration random_registration{
    {"random", "Philox random numbers: float32 random and standard_normal, GB/s written", run_random}};

}  // namespace
}  // namespace weft::bench
