// program-cache: what a second process pays for a program another process already built:
// Program::build served from the disk cache plus the first launch of its kernel, measured
// inside fresh processes (`weft bench-child first-launch`), and the same in-process when
// the in-memory table answers.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "bench/harness.hpp"
#include "core/process.hpp"
#include "embedded/weft_bench_kernels.hpp"

namespace weft::bench {
namespace {

void run_program_cache(Context& ctx) {
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  for (const Device& dev : ctx.devices()) {
    ctx.progress("program cache on " + dev.selector());
    Program::build(dev, weft::embedded::vadd_cl);  // make sure the entry exists on disk
    std::vector<double> times;
    const int runs = std::max(3, ctx.options().repeat);
    for (int i = 0; i < runs; ++i) {
      const auto r = detail::run_process({self, "bench-child", "first-launch", dev.selector()});
      double ms = 0;
      std::istringstream in(r.output);
      std::string word;
      if (r.exit_code != 0 || !(in >> word >> ms) || word != "first-launch-ms") {
        throw Error("bench child failed: " + r.output);
      }
      times.push_back(ms * 1e-3);
    }
    std::sort(times.begin(), times.end());
    ctx.add({"program-cache", "new process: build from disk + first launch", dev.selector(), 1, "float32",
             times[times.size() / 2], times.front(), 0, ""});
    Queue q(dev);
    Buffer a(dev, 4), b(dev, 4), c(dev, 4);
    const Stats s = time_wall(2, ctx.options().repeat, [&] {
      Kernel k = Program::build(dev, weft::embedded::vadd_cl).kernel("vadd");
      k.set_args(a, b, c);
      q.launch(k, 1).wait();
    });
    ctx.add({"program-cache", "same process: build (memory) + launch", dev.selector(), 1, "float32", s.median,
             s.min, 0, ""});
  }
}

const SuiteRegistration registration{
    {"program-cache", "a cached program's build and first launch, in a new process", run_program_cache}};

}  // namespace

int first_launch_child(const std::string& selector) {
  // Timed from before the device lookup: what a fresh process pays to have vadd ready
  // and run once.
  const auto t0 = std::chrono::steady_clock::now();
  Device dev = device(selector);
  Queue q(dev);
  Buffer a(dev, 4), b(dev, 4), c(dev, 4);
  Kernel k = Program::build(dev, weft::embedded::vadd_cl).kernel("vadd");
  k.set_args(a, b, c);
  q.launch(k, 1).wait();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("first-launch-ms %.4f\n", ms);
  return 0;
}

}  // namespace weft::bench
