// vadd: c = a + b on float32 with the slides' hand-written kernel, on each device, beside
// NumPy's np.add(a, b, out=c) when --compare is given. Bytes: two reads and one write.
#include <random>

#include "bench/harness.hpp"
#include "embedded/weft_bench_kernels.hpp"

namespace weft::bench {
namespace {

void run_vadd(Context& ctx) {
  const std::size_t n = ctx.n_or(std::size_t{1} << 24);
  const double bytes = 3.0 * 4.0 * static_cast<double>(n);
  std::vector<float> a(n), b(n), c(n);
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = dist(rng);
    b[i] = dist(rng);
  }
  for (const Device& dev : ctx.devices()) {
    ctx.progress("vadd on " + dev.selector() + " (" + dev.name() + ")");
    Queue q(dev, QueueOptions{.profiling = true});  // timed by its events
    Buffer da(dev, n * 4), db(dev, n * 4), dc(dev, n * 4);
    q.write(da, a.data(), n * 4);
    q.write(db, b.data(), n * 4);
    Kernel k = Program::build(dev, weft::embedded::vadd_cl).kernel("vadd");
    k.set_args(da, db, dc);
    const Stats s = time_events(ctx.options().warmup, ctx.options().repeat, [&] { return q.launch(k, n); });
    q.read(dc, c.data(), n * 4);
    for (std::size_t i = 0; i < n; i += n / 97 + 1) {
      if (c[i] != a[i] + b[i]) throw Error("vadd on " + dev.selector() + " gave a wrong result at " + std::to_string(i));
    }
    ctx.add({"vadd", "weft kernel", dev.selector(), n, "float32", s.median, s.min, bytes, ""});
  }
  if (ctx.options().compare) {
    ctx.progress("vadd: NumPy np.add(a, b, out=c)");
    std::string why;
    if (!run_peer(ctx, "vadd", "numpy_peer.py",
                  {"vadd", std::to_string(n), std::to_string(ctx.options().repeat)}, &why)) {
      ctx.progress("NumPy peer did not run: " + why);
    }
  }
}

const SuiteRegistration vadd_registration{{"vadd", "c = a + b, float32, the slides' kernel", run_vadd}};

}  // namespace
}  // namespace weft::bench
