// A lab, not part of the build: where does weft's ReductionKernel sum lose time against its
// kernel alone? Times batches of back-to-back reductions as `weft bench reduce` does and
// prints each call's device duration (its event's start to end) beside the spacing between
// consecutive calls' ends. Build against build/libweft.so; run on a lent GPU.
#include <weft/weft.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
  using namespace weft;
  ReductionKernel sum(DType::float32, "0", "a + b", "x[i]", "const float *x", {}, "lab_sum");
  for (const Device& dev : devices()) {
    if (dev.backend() == "host") continue;
    const std::size_t n = std::size_t(1) << 26;
    std::vector<float> x(n, 0.5f);
    Queue q(dev);
    Buffer dx = Buffer::of<float>(dev, n);
    q.write(dx, x.data(), n * 4);
    std::vector<double> dur, gap, per;
    for (int r = 0; r < 23; ++r) {
      const Event before = q.marker();
      std::vector<Future<float>> fs;
      for (int b = 0; b < 10; ++b) fs.push_back(sum.reduce<float>(q, n, dx));
      fs.back().event().wait();
      if (r < 3) continue;
      per.push_back((fs.back().event().profile().end - before.profile().end) * 1e-3 / 10);
      for (int b = 0; b < 10; ++b) {
        const auto p = fs[b].event().profile();
        dur.push_back((p.end - p.start) * 1e-3);
        if (b > 0) gap.push_back((p.end - fs[b - 1].event().profile().end) * 1e-3);
      }
    }
    auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
    std::printf("%s: per call %.2f us (bench's measure); each call start-to-end %.2f us; end-to-end spacing %.2f us\n",
                dev.selector().c_str(), med(per), med(dur), med(gap));
    // The same for the inclusive scan (weft bench scan's measure).
    InclusiveScanKernel cumsum(DType::float32, "a + b", "0");
    Buffer dy = Buffer::of<float>(dev, n);
    std::vector<double> sdur, sgap, sper;
    for (int r = 0; r < 23; ++r) {
      const Event before = q.marker();
      std::vector<Event> es;
      for (int b = 0; b < 10; ++b) es.push_back(cumsum(q, n, dx, dy));
      es.back().wait();
      if (r < 3) continue;
      sper.push_back((es.back().profile().end - before.profile().end) * 1e-3 / 10);
      for (int b = 0; b < 10; ++b) {
        const auto p = es[b].profile();
        sdur.push_back((p.end - p.start) * 1e-3);
        if (b > 0) sgap.push_back((p.end - es[b - 1].profile().end) * 1e-3);
      }
    }
    std::printf("%s scan: per call %.2f us (bench's measure); each call start-to-end %.2f us; end-to-end spacing %.2f us\n",
                dev.selector().c_str(), med(sper), med(sdur), med(sgap));
  }
}
