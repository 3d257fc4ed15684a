// unique: weft::unique of 2^24 int32 values on CPUs (2^26 on GPUs, issue 25's size) drawn from
// 2^20 distinct values, alone and with return_counts; checked against the distinct values on
// the host. With --compare, NumPy's np.unique on the CPU size and CuPy's cupy.unique (a CUB
// sort, then a compaction) on the GPU size, in the same run. weft's times are wall-clock per
// call, results left on the device.
#include <algorithm>
#include <random>

#include "bench/harness.hpp"
#include "weft/unique.hpp"

namespace weft::bench {
namespace {

constexpr std::int32_t distinct = 1 << 20;

std::size_t default_n(const Device& d) {
  return d.type() == DeviceType::gpu ? (std::size_t{1} << 26) : (std::size_t{1} << 24);
}

void run_unique(Context& ctx) {
  for (const Device& dev : ctx.devices()) {
    const std::size_t n = ctx.n_or(default_n(dev));
    ctx.progress("unique on " + dev.selector() + ", n = " + std::to_string(n));
    std::mt19937 rng(5);
    std::uniform_int_distribution<std::int32_t> value(0, distinct - 1);
    std::vector<std::int32_t> v(n);
    for (auto& x : v) x = value(rng);
    const Array a = Array::from_host<std::int32_t>(v, Shape{static_cast<std::int64_t>(n)}, dev);
    Unique u;
    const Stats plain = time_array_calls(ctx, dev, [&] { u = unique(a); });
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    if (u.values.to_host<std::int32_t>() != v) throw Error("unique bench: wrong distinct values");
    const Stats counted = time_array_calls(ctx, dev, [&] { u = unique(a, false, false, true); });
    const double bytes = 4.0 * static_cast<double>(n);
    ctx.add({"unique", "weft unique(a), 2^20 distinct", dev.selector(), n, "int32", plain.median, plain.min, bytes,
             ""});
    ctx.add({"unique", "weft unique(a, return_counts), 2^20 distinct", dev.selector(), n, "int32", counted.median,
             counted.min, bytes, ""});
  }
  if (!ctx.options().compare) return;
  std::size_t cpu_n = 0, gpu_n = 0;
  for (const Device& d : ctx.devices()) (d.type() == DeviceType::gpu ? gpu_n : cpu_n) = ctx.n_or(default_n(d));
  std::string why;
  const std::string repeat = std::to_string(ctx.options().repeat);
  if (cpu_n && !run_peer(ctx, "unique", "numpy_peer.py", {"unique", std::to_string(cpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
  if (gpu_n && !run_peer(ctx, "unique", "cupy_peer.py", {"unique", std::to_string(gpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
}

const SuiteRegistration registration{
    {"unique", "unique of 2^24 (GPU: 2^26) int32 with 2^20 distinct values", run_unique}};

}  // namespace
}  // namespace weft::bench
