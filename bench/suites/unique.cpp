// unique: weft::unique of 2^24 int32 values (2^26 on GPUs, issue 25's size) with 2^20 distinct
// ones (the values alone, and with their counts), and of float32 values with 2^16 distinct ones,
// each checked against a count on the host. With --compare, NumPy's np.unique on the CPU size
// and CuPy's cupy.unique (a CUB sort, then a compaction) on the GPU size, in the same run.
// Times are wall-clock per call (the sort, the run scan and the read of the run count).
#include <algorithm>
#include <random>

#include "bench/harness.hpp"
#include "weft/unique.hpp"

namespace weft::bench {
namespace {

template <class T>
void check(const Array& values, std::vector<T> data, const char* what) {
  std::sort(data.begin(), data.end());
  data.erase(std::unique(data.begin(), data.end()), data.end());
  if (values.to_host<T>() != data) throw Error(std::string("unique bench: wrong values from ") + what);
}

void run_unique(Context& ctx) {
  constexpr std::int32_t distinct_ints = 1 << 20, distinct_floats = 1 << 16;
  for (const Device& dev : ctx.devices()) {
    const std::size_t n = ctx.n_or(default_array_n(dev));
    const auto len = static_cast<std::int64_t>(n);
    ctx.progress("unique on " + dev.selector() + ", n = " + std::to_string(n));
    std::mt19937 rng(5);
    std::uniform_int_distribution<std::int32_t> pick(0, distinct_ints - 1);
    std::vector<std::int32_t> ints(n);
    std::vector<float> floats(n);
    for (auto& v : ints) v = pick(rng);
    for (auto& v : floats) v = static_cast<float>(pick(rng) % distinct_floats) * 0.25f;
    const Array x = Array::from_host<std::int32_t>(ints, Shape{len}, dev);
    const Array f = Array::from_host<float>(floats, Shape{len}, dev);
    Unique u;
    const Stats plain = time_array_calls(ctx, dev, [&] { u = unique(x); });
    check(u.values, ints, "unique(x)");
    const Stats counted = time_array_calls(ctx, dev, [&] { u = unique(x, false, false, true); });
    const Stats real = time_array_calls(ctx, dev, [&] { u = unique(f); });
    check(u.values, floats, "unique(f)");
    const double bytes = 4.0 * static_cast<double>(n);
    ctx.add({"unique", "weft unique(x), 2^20 distinct", dev.selector(), n, "int32", plain.median, plain.min, bytes, ""});
    ctx.add({"unique", "weft unique(x, return_counts), 2^20 distinct", dev.selector(), n, "int32", counted.median,
             counted.min, bytes, ""});
    ctx.add({"unique", "weft unique(f), 2^16 distinct", dev.selector(), n, "float32", real.median, real.min, bytes, ""});
  }
  if (!ctx.options().compare) return;
  std::size_t cpu_n = 0, gpu_n = 0;
  for (const Device& d : ctx.devices()) (d.type() == DeviceType::gpu ? gpu_n : cpu_n) = ctx.n_or(default_array_n(d));
  std::string why;
  const std::string repeat = std::to_string(ctx.options().repeat);
  if (cpu_n && !run_peer(ctx, "unique", "numpy_peer.py", {"unique", std::to_string(cpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
  if (gpu_n && !run_peer(ctx, "unique", "cupy_peer.py", {"unique", std::to_string(gpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
}

const SuiteRegistration unique_registration{
    {"unique", "unique: 2^24 (GPU 2^26) int32 (2^20 distinct, counts), float32 (2^16 distinct)",
     run_unique}};

}  // namespace
}  // namespace weft::bench
