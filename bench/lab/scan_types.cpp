// A lab, not part of the build: weft's inclusive scan for 4- and 8-byte types on a GPU, per
// call (batches of 10 between markers, as `weft bench scan`), beside a copy of the same bytes.
// Run it under different WEFT_SCAN_* settings to compare them (each process reads them once).
// g++ -std=c++20 -O2 -Iinclude -Ibuild/include bench/lab/scan_types.cpp -Lbuild -lweft
#include <weft/weft.hpp>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

namespace {
template <class T>
void run(const weft::Device& dev, weft::DType dtype, const char* name) {
  using namespace weft;
  const std::size_t n = std::size_t(1) << 26;
  std::vector<T> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<T>((i * 2654435761u) % 7);
  Queue q(dev);
  Buffer dx = Buffer::of<T>(dev, n), dy = Buffer::of<T>(dev, n);
  q.write(dx, x.data(), n * sizeof(T));
  InclusiveScanKernel scan(dtype, "a + b", "0");
  auto per_call = [&](auto call) {
    std::vector<double> t;
    for (int r = 0; r < 23; ++r) {
      const Event before = q.marker();
      Event last;
      for (int b = 0; b < 10; ++b) last = call();
      last.wait();
      if (r >= 3) t.push_back(static_cast<double>(last.profile().end - before.profile().end) * 1e-3 / 10);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };
  const double s = per_call([&] { return scan(q, n, dx, dy); });
  const double c = per_call([&] { return q.copy(dx, dy, n * sizeof(T)); });
  std::vector<T> y(n);
  q.read(dy, y.data(), n * sizeof(T));
  scan(q, n, dx, dy);
  q.read(dy, y.data(), n * sizeof(T));
  // Integers exactly; floating point against a float64 prefix, to 1e-5 relative.
  double run = 0;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    run += static_cast<double>(x[i]);
    bad += std::is_integral_v<T> ? y[i] != static_cast<T>(run) : std::abs(y[i] - run) > 1e-5 * run + 1e-3;
  }
  std::printf("%-8s %-8s scan %8.2f us  copy %8.2f us  %5.1f%% of copy  %s\n", dev.selector().c_str(), name, s, c,
              100 * c / s, bad ? "WRONG" : "checked");
}
}  // namespace

int main() {
  const char* lw = std::getenv("WEFT_SCAN_LOOKBACK_WARP");
  auto knob = [](const char* name) { return std::getenv(name) ? std::getenv(name) : "(default)"; };
  std::printf("WEFT_SCAN_LOOKBACK_WARP=%s ITEMS=%s WINDOW=%s REGISTERS=%s SLEEP=%s\n", lw ? lw : "(default)",
              knob("WEFT_SCAN_ITEMS"), knob("WEFT_SCAN_WINDOW"), knob("WEFT_SCAN_REGISTERS"), knob("WEFT_SCAN_SLEEP"));
  // GPUs only: CUDA, and OpenCL GPUs (NVIDIA's runs the same kernels through inline PTX).
  for (const weft::Device& dev : weft::devices()) {
    if (dev.type() != weft::DeviceType::gpu) continue;
    // WEFT_LAB_TYPES=8: the 8-byte types only.
    const bool wide_only = std::getenv("WEFT_LAB_TYPES") && std::string(std::getenv("WEFT_LAB_TYPES")) == "8";
    if (!wide_only) run<float>(dev, weft::DType::float32, "float32");
    run<double>(dev, weft::DType::float64, "float64");
    if (!wide_only) run<std::int32_t>(dev, weft::DType::int32, "int32");
    run<std::int64_t>(dev, weft::DType::int64, "int64");
  }
}
