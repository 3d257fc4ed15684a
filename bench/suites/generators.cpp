// elementwise and reduce: the generators on float32, 2^24 elements on CPUs and 2^26 on GPUs,
// beside the device's buffer copy (the bandwidth ceiling) and, with --compare, NumPy, PyOpenCL
// on OpenCL devices and CuPy on the GPU, all in the same run.
#include <random>

#include "bench/harness.hpp"

namespace weft::bench {
namespace {

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (auto& x : v) x = d(rng);
  return v;
}

void run_peers(Context& ctx, const std::string& suite) {
  if (!ctx.options().compare) return;
  std::size_t cpu_n = 0, gpu_n = 0;
  for (const Device& d : ctx.devices()) (d.type() == DeviceType::gpu ? gpu_n : cpu_n) = ctx.n_or(default_array_n(d));
  const std::string repeat = std::to_string(ctx.options().repeat);
  std::string why;
  if (cpu_n) {
    if (!run_peer(ctx, suite, "numpy_peer.py", {suite, std::to_string(cpu_n), repeat}, &why)) ctx.progress(why);
    if (!run_peer(ctx, suite, "pyopencl_peer.py", {suite, std::to_string(cpu_n), repeat}, &why)) ctx.progress(why);
  }
  if (gpu_n && !run_peer(ctx, suite, "cupy_peer.py", {suite, std::to_string(gpu_n), repeat}, &why)) ctx.progress(why);
}

void run_elementwise(Context& ctx) {
  ElementwiseKernel fma("const float *a, const float *b, const float *c, float *d", "d[i] = a[i] * b[i] + c[i]",
                        "bench_fma");
  for (const Device& dev : ctx.devices()) {
    const std::size_t n = ctx.n_or(default_array_n(dev));
    ctx.progress("elementwise on " + dev.selector() + ", n = " + std::to_string(n));
    const auto a = random_floats(n, 1), b = random_floats(n, 2), c = random_floats(n, 3);
    Queue q(dev, QueueOptions{.profiling = true});  // timed by its events
    Buffer da = Buffer::of<float>(dev, n), db = Buffer::of<float>(dev, n), dc = Buffer::of<float>(dev, n),
           dd = Buffer::of<float>(dev, n), copy = Buffer::of<float>(dev, n);
    q.write(da, a.data(), n * 4);
    q.write(db, b.data(), n * 4);
    q.write(dc, c.data(), n * 4);
    const Stats s = time_events(ctx.options().warmup, ctx.options().repeat, [&] { return fma(q, n, da, db, dc, dd); });
    const Stats cs = time_events(ctx.options().warmup, ctx.options().repeat, [&] { return q.copy(da, copy, n * 4); });
    std::vector<float> d(n);
    q.read(dd, d.data(), n * 4);
    for (std::size_t i = 0; i < n; i += n / 101 + 1) {
      if (std::fabs(d[i] - (a[i] * b[i] + c[i])) > 1e-6f) throw Error("elementwise: wrong result at " + std::to_string(i));
    }
    ctx.add({"elementwise", "weft ElementwiseKernel a*b+c", dev.selector(), n, "float32", s.median, s.min, 16.0 * static_cast<double>(n), ""});
    ctx.add({"elementwise", "weft buffer copy (ceiling)", dev.selector(), n, "float32", cs.median, cs.min, 8.0 * static_cast<double>(n), ""});
  }
  run_peers(ctx, "elementwise");
}

void run_reduce(Context& ctx) {
  ReductionKernel sum(DType::float32, "0", "a + b", "x[i]", "const float *x", {}, "bench_sum");
  for (const Device& dev : ctx.devices()) {
    const std::size_t n = ctx.n_or(default_array_n(dev));
    ctx.progress("reduce on " + dev.selector() + ", n = " + std::to_string(n));
    const auto x = random_floats(n, 4);
    Queue q(dev, QueueOptions{.profiling = true});  // timed by its events
    Buffer dx = Buffer::of<float>(dev, n), copy = Buffer::of<float>(dev, n);
    q.write(dx, x.data(), n * 4);
    // Device time per reduction: batches of back-to-back reductions between a marker and the
    // last finish, so each call's launch overhead overlaps the previous call's work.
    constexpr int batch = 10;
    std::vector<double> t;
    float value = 0;
    for (int r = 0; r < ctx.options().warmup + ctx.options().repeat; ++r) {
      const Event before = q.marker();
      std::vector<Future<float>> fs;
      for (int b = 0; b < batch; ++b) fs.push_back(sum.reduce<float>(q, n, dx));
      fs.back().event().wait();
      if (r >= ctx.options().warmup) {
        t.push_back(static_cast<double>(fs.back().event().profile().end - before.profile().end) * 1e-9 / batch);
      }
      value = fs.front().get();
    }
    std::sort(t.begin(), t.end());
    double ref = 0;
    for (float v : x) ref += v;
    if (std::fabs(value - ref) > 1e-3 * std::sqrt(static_cast<double>(n))) {
      throw Error("reduce on " + dev.selector() + ": sum " + std::to_string(value) + ", expected " + std::to_string(ref));
    }
    const Stats cs = time_events(ctx.options().warmup, ctx.options().repeat, [&] { return q.copy(dx, copy, n * 4); });
    ctx.add({"reduce", "weft ReductionKernel sum", dev.selector(), n, "float32", t[t.size() / 2], t.front(), 4.0 * static_cast<double>(n), ""});
    ctx.add({"reduce", "weft buffer copy (ceiling)", dev.selector(), n, "float32", cs.median, cs.min, 8.0 * static_cast<double>(n), ""});
  }
  run_peers(ctx, "reduce");
}

void run_scan(Context& ctx) {
  InclusiveScanKernel cumsum(DType::float32, "a + b", "0");
  for (const Device& dev : ctx.devices()) {
    const std::size_t n = ctx.n_or(default_array_n(dev));
    ctx.progress("scan on " + dev.selector() + ", n = " + std::to_string(n));
    const auto x = random_floats(n, 5);
    Queue q(dev, QueueOptions{.profiling = true});  // timed by its events
    Buffer dx = Buffer::of<float>(dev, n), dy = Buffer::of<float>(dev, n), copy = Buffer::of<float>(dev, n);
    q.write(dx, x.data(), n * 4);
    constexpr int batch = 10;  // as in run_reduce
    std::vector<double> t;
    for (int r = 0; r < ctx.options().warmup + ctx.options().repeat; ++r) {
      const Event before = q.marker();
      Event done;
      for (int b = 0; b < batch; ++b) done = cumsum(q, n, dx, dy);
      if (r >= ctx.options().warmup) {
        t.push_back(static_cast<double>(done.profile().end - before.profile().end) * 1e-9 / batch);
      }
    }
    std::sort(t.begin(), t.end());
    std::vector<float> y(n);
    q.read(dy, y.data(), n * 4);
    double run = 0;
    for (std::size_t i = 0; i < n; ++i) {
      run += x[i];
      if (i % (n / 97 + 1) == 0 && std::fabs(y[i] - run) > 1e-3 * std::sqrt(static_cast<double>(i + 1))) {
        throw Error("scan on " + dev.selector() + ": wrong prefix at " + std::to_string(i));
      }
    }
    const Stats cs = time_events(ctx.options().warmup, ctx.options().repeat, [&] { return q.copy(dx, copy, n * 4); });
    ctx.add({"scan", "weft InclusiveScanKernel", dev.selector(), n, "float32", t[t.size() / 2], t.front(),
             8.0 * static_cast<double>(n), ""});
    ctx.add({"scan", "weft buffer copy (ceiling)", dev.selector(), n, "float32", cs.median, cs.min,
             8.0 * static_cast<double>(n), ""});
  }
  run_peers(ctx, "scan");
}

const SuiteRegistration elementwise_registration{
    {"elementwise", "ElementwiseKernel d = a*b + c, float32", run_elementwise}};
const SuiteRegistration reduce_registration{{"reduce", "ReductionKernel sum, float32", run_reduce}};
const SuiteRegistration scan_registration{{"scan", "InclusiveScanKernel, float32", run_scan}};

}  // namespace
}  // namespace weft::bench
