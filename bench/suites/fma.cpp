// fma: d = a*b + c on float32 with a dialect kernel, beside the device's own buffer copy
// measured in the same run (the bandwidth ceiling: a copy reads and writes each byte once).
// Bytes: three reads and one write for the kernel, one read and one write for the copy.
// Peers with --compare: NumPy `np.multiply(a, b, out=d); d += c` and CuPy's ElementwiseKernel.
#include <random>

#include "bench/harness.hpp"
#include "embedded/weft_bench_kernels.hpp"

namespace weft::bench {
namespace {

void run_fma(Context& ctx) {
  for (const Device& dev : ctx.devices()) {
    const std::size_t n = ctx.n_or(default_array_n(dev));
    ctx.progress("fma on " + dev.selector() + ", n = " + std::to_string(n));
    std::vector<float> a(n), b(n), c(n), d(n);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = dist(rng);
      b[i] = dist(rng);
      c[i] = dist(rng);
    }
    Queue q(dev, QueueOptions{.profiling = true});  // timed by its events
    Buffer da(dev, n * 4), db(dev, n * 4), dc(dev, n * 4), dd(dev, n * 4), copy_dst(dev, n * 4);
    q.write(da, a.data(), n * 4);
    q.write(db, b.data(), n * 4);
    q.write(dc, c.data(), n * 4);
    const int n4 = static_cast<int>(n / 4);
    Kernel k = Program::build(dev, weft::embedded::fma_cl).kernel("fma4");
    k.set_args(da, db, dc, dd, n4, da, db, dc, dd, static_cast<int>(n));
    const std::size_t items = std::max<std::size_t>(static_cast<std::size_t>(n4), n % 4);
    const Stats s = time_events(ctx.options().warmup, ctx.options().repeat, [&] { return q.launch(k, items); });
    const Stats cs = time_events(ctx.options().warmup, ctx.options().repeat, [&] { return q.copy(da, copy_dst, n * 4); });
    q.read(dd, d.data(), n * 4);
    for (std::size_t i = 0; i < n; i += n / 101 + 1) {
      const float ref = a[i] * b[i] + c[i];
      if (std::fabs(d[i] - ref) > 1e-6f * (1.0f + std::fabs(ref))) {
        throw Error("fma on " + dev.selector() + " gave a wrong result at " + std::to_string(i));
      }
    }
    ctx.add({"fma", "weft kernel a*b+c (float4)", dev.selector(), n, "float32", s.median, s.min, 16.0 * static_cast<double>(n), ""});
    ctx.add({"fma", "weft buffer copy (ceiling)", dev.selector(), n, "float32", cs.median, cs.min, 8.0 * static_cast<double>(n), ""});
  }
  if (ctx.options().compare) {
    std::size_t cpu_n = 0, gpu_n = 0;
    for (const Device& d : ctx.devices()) (d.type() == DeviceType::gpu ? gpu_n : cpu_n) = ctx.n_or(default_array_n(d));
    std::string why;
    if (cpu_n && !run_peer(ctx, "fma", "numpy_peer.py", {"fma", std::to_string(cpu_n), std::to_string(ctx.options().repeat)}, &why)) {
      ctx.progress("NumPy peer did not run: " + why);
    }
    if (gpu_n && !run_peer(ctx, "fma", "cupy_peer.py", {"fma", std::to_string(gpu_n), std::to_string(ctx.options().repeat)}, &why)) {
      ctx.progress("CuPy peer did not run: " + why);
    }
  }
}

const SuiteRegistration fma_registration{{"fma", "d = a*b + c, float32, beside the device's copy bandwidth", run_fma}};

}  // namespace
}  // namespace weft::bench
