// A lab, not part of the build: what do a profiling queue's per-command timing events cost?
// Times batches of back-to-back commands by the host clock (finish, then the batch, then wait
// for its last event) on a queue with profiling and on one without, interleaved, for a large
// scan, a large sum, a large copy and a small elementwise kernel; and, on the profiling queue,
// the batch by its events as `weft bench` does. Build against build/libweft.so; run on a lent
// GPU: g++ -std=c++20 -O2 -Iinclude bench/lab/queue_cost.cpp -Lbuild -lweft -o queue_cost
#include <weft/weft.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Per-call microseconds: host clock around a batch; and, on a profiling queue, the events'.
struct Times {
  double wall = 0, events = 0;
};

Times time_batch(weft::Queue& q, int batch, const std::function<weft::Event()>& call) {
  std::vector<double> wall, ev;
  for (int r = 0; r < 25; ++r) {
    q.finish();
    const weft::Event before = q.marker();
    const auto t0 = std::chrono::steady_clock::now();
    weft::Event last;
    for (int b = 0; b < batch; ++b) last = call();
    last.wait();
    const auto t1 = std::chrono::steady_clock::now();
    if (r < 5) continue;
    wall.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / batch);
    const auto p = last.profile();
    if (p.end) ev.push_back(static_cast<double>(p.end - before.profile().end) * 1e-3 / batch);
  }
  return {median(wall), ev.empty() ? 0.0 : median(ev)};
}
}  // namespace

int main() {
  using namespace weft;
  InclusiveScanKernel cumsum(DType::float32, "a + b", "0");
  ReductionKernel sum(DType::float32, "0", "a + b", "x[i]", "const float *x", {}, "lab_sum");
  ElementwiseKernel fma("const float *a, const float *b, float *y", "y[i] = a[i] * b[i] + y[i]", "lab_fma");
  for (const Device& dev : devices()) {
    if (dev.backend() == "host") continue;
    const std::size_t n = std::size_t(1) << 26, small = 4096;
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>((i * 2654435761u) % 1000) * 1e-3f;
    Buffer dx = Buffer::of<float>(dev, n), dy = Buffer::of<float>(dev, n);
    Buffer sa = Buffer::of<float>(dev, small), sb = Buffer::of<float>(dev, small), sy = Buffer::of<float>(dev, small);
    for (const bool profiling : {true, false, true, false}) {
      Queue q(dev, QueueOptions{.out_of_order = false, .profiling = profiling});
      q.write(dx, x.data(), n * 4);
      q.write(sa, x.data(), small * 4);
      q.write(sb, x.data(), small * 4);
      q.write(sy, x.data(), small * 4);
      const Times scan = time_batch(q, 10, [&] { return cumsum(q, n, dx, dy); });
      const Times red = time_batch(q, 10, [&] { return sum.reduce<float>(q, n, dx).event(); });
      const Times copy = time_batch(q, 10, [&] { return q.copy(dx, dy, n * 4); });
      const Times tiny = time_batch(q, 200, [&] { return fma(q, small, sa, sb, sy); });
      std::printf("%-10s profiling=%d  scan %7.2f us (events %7.2f)  sum %6.2f (%6.2f)  copy %7.2f (%7.2f)  "
                  "fma 4096 %5.2f (%5.2f)  [host clock per call, batches of 10 / 200]\n",
                  dev.selector().c_str(), profiling ? 1 : 0, scan.wall, scan.events, red.wall, red.events, copy.wall,
                  copy.events, tiny.wall, tiny.events);
    }
  }
}
