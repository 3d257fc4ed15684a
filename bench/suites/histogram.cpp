// histogram: 2^24 float32 values (2^26 on GPUs, issue 25's size) into 256 equal bins over a
// given range (and with the range found from the data: two reductions more), and bincount of
// as many int32 values into 2^16 bins (2^20 on GPUs); each checked against a count on the
// host. With --compare, NumPy's np.histogram and np.bincount on the CPU size and CuPy's
// cupy.histogram and cupy.bincount on the GPU size, in the same run. weft's times are wall-clock per call,
// results left on the device (host overhead included).
#include <cmath>
#include <random>

#include "bench/harness.hpp"
#include "weft/histogram.hpp"

namespace weft::bench {
namespace {

void check(const std::vector<std::int64_t>& got, const std::vector<std::int64_t>& expected, const char* what) {
  if (got != expected) throw Error(std::string("histogram: wrong counts from ") + what);
}

void run_histogram(Context& ctx) {
  constexpr std::int64_t bins = 256;
  for (const Device& dev : ctx.devices()) {
    const std::int64_t labels = dev.type() == DeviceType::gpu ? 1 << 20 : 1 << 16;
    const std::size_t n = ctx.n_or(default_array_n(dev));
    const auto len = static_cast<std::int64_t>(n);
    ctx.progress("histogram on " + dev.selector() + ", n = " + std::to_string(n));
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    std::uniform_int_distribution<std::int32_t> label(0, static_cast<std::int32_t>(labels - 1));
    std::vector<float> values(n);
    std::vector<std::int32_t> ints(n);
    for (auto& v : values) v = uniform(rng);
    for (auto& v : ints) v = label(rng);
    const Array a = Array::from_host<float>(values, Shape{len}, dev);
    const Array x = Array::from_host<std::int32_t>(ints, Shape{len}, dev);

    Histogram h;
    const Stats ranged = time_array_calls(ctx, dev, [&] { h = histogram(a, bins, {.range = {{0.0, 1.0}}}); });
    std::vector<std::int64_t> expected(bins, 0);
    for (float v : values) ++expected[std::min<std::int64_t>(static_cast<std::int64_t>(v * 256.0f), bins - 1)];
    check(h.counts.to_host<std::int64_t>(), expected, "histogram(a, 256, range)");
    const Stats found = time_array_calls(ctx, dev, [&] { h = histogram(a, bins); });
    Array c;
    const Stats counted = time_array_calls(ctx, dev, [&] { c = bincount(x); });
    std::vector<std::int64_t> expected_labels(labels, 0);
    for (std::int32_t v : ints) ++expected_labels[static_cast<std::size_t>(v)];
    check(c.to_host<std::int64_t>(), expected_labels, "bincount");

    const double bytes = 4.0 * static_cast<double>(n);
    ctx.add({"histogram", "weft histogram(a, 256, range=(0, 1))", dev.selector(), n, "float32", ranged.median,
             ranged.min, bytes, ""});
    ctx.add({"histogram", "weft histogram(a, 256) (range from the data)", dev.selector(), n, "float32", found.median,
             found.min, bytes, ""});
    const std::string label_bins = labels == 1 << 20 ? "2^20" : "2^16";
    ctx.add({"histogram", "weft bincount(x), " + label_bins + " bins", dev.selector(), n, "int32", counted.median,
             counted.min, bytes, ""});
  }
  if (!ctx.options().compare) return;
  std::size_t cpu_n = 0, gpu_n = 0;
  for (const Device& d : ctx.devices()) (d.type() == DeviceType::gpu ? gpu_n : cpu_n) = ctx.n_or(default_array_n(d));
  std::string why;
  const std::string repeat = std::to_string(ctx.options().repeat);
  if (cpu_n && !run_peer(ctx, "histogram", "numpy_peer.py", {"histogram", std::to_string(cpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
  if (gpu_n && !run_peer(ctx, "histogram", "cupy_peer.py", {"histogram", std::to_string(gpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
}

const SuiteRegistration histogram_registration{
    {"histogram", "histogram of float32 into 256 bins, bincount into 2^16 (GPU: 2^20) bins", run_histogram}};

}  // namespace
}  // namespace weft::bench
