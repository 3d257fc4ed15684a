// bounds: the cost of WEFT_BOUNDS_CHECK on a dialect kernel, the same kernel built unchecked
// and checked on each device (weft::set_bounds_check). vadd at n elements: the kernel's own
// time (events), and a launch's wall time, launch to completion (a checked launch waits for
// its kernel and reads its error record, so this is where the mode costs most); the gather
// adds a checked index read per element. Bytes: what the unchecked kernel moves.
#include <algorithm>
#include <numeric>
#include <random>

#include "bench/harness.hpp"
#include "embedded/weft_bench_kernels.hpp"

namespace weft::bench {
namespace {

constexpr const char* gather_source = R"(
__kernel void gather(__global const int* idx, __global const float* src, __global float* dst) {
  int i = get_global_id(0);
  dst[i] = src[idx[i]] * 2.0f;
}
)";

void run_bounds(Context& ctx) {
  const std::size_t n = ctx.n_or(std::size_t{1} << 22);
  const bool before = bounds_check();
  const double bytes = 12.0 * static_cast<double>(n);
  std::vector<float> a(n, 1.0f), b(n, 2.0f);
  std::vector<int> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  std::shuffle(idx.begin(), idx.end(), std::mt19937(7));
  for (const Device& dev : ctx.devices()) {
    ctx.progress("bounds on " + dev.selector() + " (" + dev.name() + ")");
    Queue q(dev, QueueOptions{.profiling = true});
    Buffer da(dev, n * 4), db(dev, n * 4), dc(dev, n * 4), di(dev, n * 4);
    q.write(da, a.data(), n * 4);
    q.write(db, b.data(), n * 4);
    q.write(di, idx.data(), n * 4);
    for (const bool checked : {false, true}) {
      set_bounds_check(checked);
      const std::string mode = checked ? "checked" : "unchecked";
      Kernel vadd = Program::build(dev, weft::embedded::vadd_cl).kernel("vadd");
      Kernel gather = Program::build(dev, gather_source).kernel("gather");
      set_bounds_check(before);
      vadd.set_args(da, db, dc);
      gather.set_args(di, da, dc);
      const int w = ctx.options().warmup, r = ctx.options().repeat;
      const Stats sv = time_events(w, r, [&] { return q.launch(vadd, n); });
      ctx.add({"bounds", "vadd " + mode + " (kernel)", dev.selector(), n, "float32", sv.median, sv.min, bytes, ""});
      const Stats wv = time_wall(w, r, [&] { q.launch(vadd, n).wait(); });
      ctx.add({"bounds", "vadd " + mode + " (launch+wait)", dev.selector(), n, "float32", wv.median, wv.min, bytes,
               ""});
      const Stats sg = time_events(w, r, [&] { return q.launch(gather, n); });
      ctx.add({"bounds", "gather " + mode + " (kernel)", dev.selector(), n, "float32", sg.median, sg.min, bytes,
               ""});
      const Stats tiny = time_wall(w, r * 10, [&] { q.launch(vadd, 256).wait(); });
      ctx.add({"bounds", "vadd " + mode + " n=256 (launch+wait)", dev.selector(), 256, "float32", tiny.median,
               tiny.min, 0, ""});
    }
  }
}

const SuiteRegistration bounds_registration{
    {"bounds", "WEFT_BOUNDS_CHECK's cost: vadd and a gather built unchecked and checked", run_bounds}};

}  // namespace
}  // namespace weft::bench
