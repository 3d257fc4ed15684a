// sort: weft::sort of 2^24 float32, uint32, int64 and uint64 keys on CPUs (2^28 on GPUs, issue
// 25's size), argsort of the float32 keys, sort_by_key of uint32 keys with uint32 values and the
// float32 keys as rows of 16 sorted along the last axis, each a new array as np.sort gives; with --compare, NumPy's np.sort (its default kind and 'stable')
// and np.argsort, PyOpenCL's RadixSort on the OpenCL devices, and CuPy's cupy.sort and
// cupy.argsort (CUB) on CUDA, in the same run. Times are wall-clock per call (every launch
// and the host's share included); CUDA devices sort with CUB when libweft_cub is there.
#include <algorithm>
#include <random>

#include "bench/harness.hpp"

namespace weft::bench {
namespace {

std::string rate(std::size_t n, const Stats& s) {
  return std::to_string(static_cast<long long>(static_cast<double>(n) / s.median * 1e-6)) + " Mkeys/s";
}

template <class T>
void check_sorted(const Array& a, const char* what) {
  const auto v = a.to_host<T>();
  if (!std::is_sorted(v.begin(), v.end())) throw Error(std::string("sort bench: ") + what + " is not sorted");
}

void run_sort(Context& ctx) {
  for (const Device& dev : ctx.devices()) {
    const std::size_t n = ctx.n_or(default_array_n(dev, std::size_t{1} << 28));
    const auto len = static_cast<std::int64_t>(n);
    ctx.progress("sort on " + dev.selector() + ", n = " + std::to_string(n));
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> real(-1.0f, 1.0f);
    std::vector<float> f(n);
    std::vector<std::uint32_t> u(n);
    for (auto& x : f) x = real(rng);
    for (auto& x : u) x = static_cast<std::uint32_t>(rng());
    const Array keys_f = Array::from_host<float>(f, Shape{len}, dev);
    const Array keys_u = Array::from_host<std::uint32_t>(u, Shape{len}, dev);
    std::vector<std::uint64_t> w(n);
    std::mt19937_64 rng64(43);
    for (auto& x : w) x = rng64();
    const Array keys_w = Array::from_host<std::uint64_t>(w, Shape{len}, dev);
    w = {};
    Array out;
    const Stats sf = time_array_calls(ctx, dev, [&] { out = sort(keys_f); });
    check_sorted<float>(out, "float32");
    const Stats su = time_array_calls(ctx, dev, [&] { out = sort(keys_u); });
    check_sorted<std::uint32_t>(out, "uint32");
    const Stats sw = time_array_calls(ctx, dev, [&] { out = sort(keys_w); });
    check_sorted<std::uint64_t>(out, "uint64");
    // Signed 64-bit keys, and many short rows (16 keys each) sorted along the last axis.
    std::vector<std::int64_t> v(n);
    for (auto& x : v) x = static_cast<std::int64_t>(rng64() >> 1);
    const Array keys_i = Array::from_host<std::int64_t>(v, Shape{len}, dev);
    v = {};
    const Stats si = time_array_calls(ctx, dev, [&] { out = sort(keys_i); });
    check_sorted<std::int64_t>(out, "int64");
    const Array rows = keys_f.reshape({len / 16, 16});
    const Stats sr = n % 16 == 0 ? time_array_calls(ctx, dev, [&] { out = sort(rows, -1); }) : Stats{};
    const Stats af = time_array_calls(ctx, dev, [&] { out = argsort(keys_f); });
    const Stats kv = time_array_calls(ctx, dev, [&] { out = sort_by_key(keys_u, keys_u).second; });
    check_sorted<std::uint32_t>(out, "uint32 values");
    const double b4 = 4.0 * static_cast<double>(n);
    ctx.add({"sort", "weft sort(a)", dev.selector(), n, "float32", sf.median, sf.min, 2 * b4, rate(n, sf)});
    ctx.add({"sort", "weft sort(a)", dev.selector(), n, "uint32", su.median, su.min, 2 * b4, rate(n, su)});
    ctx.add({"sort", "weft sort(a)", dev.selector(), n, "uint64", sw.median, sw.min, 4 * b4, rate(n, sw)});
    ctx.add({"sort", "weft sort(a)", dev.selector(), n, "int64", si.median, si.min, 4 * b4, rate(n, si)});
    if (n % 16 == 0) {
      ctx.add({"sort", "weft sort(a, axis=-1), rows of 16", dev.selector(), n, "float32", sr.median, sr.min, 2 * b4,
               rate(n, sr)});
    }
    ctx.add({"sort", "weft argsort(a)", dev.selector(), n, "float32", af.median, af.min, 3 * b4, rate(n, af)});
    ctx.add({"sort", "weft sort_by_key(k, v), uint32 values", dev.selector(), n, "uint32", kv.median, kv.min, 4 * b4,
             rate(n, kv)});
  }
  if (!ctx.options().compare) return;
  std::size_t cpu_n = 0, gpu_n = 0;
  for (const Device& d : ctx.devices()) (d.type() == DeviceType::gpu ? gpu_n : cpu_n) = ctx.n_or(default_array_n(d, std::size_t{1} << 28));
  const std::string repeat = std::to_string(ctx.options().repeat);
  std::string why;
  if (cpu_n && !run_peer(ctx, "sort", "numpy_peer.py", {"sort", std::to_string(cpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
  // PyOpenCL's RadixSort on every OpenCL device it finds (the CPU size: PoCL is the peer here).
  if (cpu_n && !run_peer(ctx, "sort", "pyopencl_peer.py", {"sort", std::to_string(cpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
  // CuPy (CUB through Thrust) on the GPU, at the GPU size.
  if (gpu_n && !run_peer(ctx, "sort", "cupy_peer.py", {"sort", std::to_string(gpu_n), repeat}, &why)) {
    ctx.progress(why);
  }
}

const SuiteRegistration sort_registration{
    {"sort", "radix sort, argsort, sort_by_key: 2^24 (GPU 2^28) float32/uint32/int64/uint64", run_sort}};

}  // namespace
}  // namespace weft::bench
