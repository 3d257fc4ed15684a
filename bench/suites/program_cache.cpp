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
#include "embedded/weft_bench_kernels.hpp"
#include "tools/support/process.hpp"

namespace weft::bench {
namespace {

void run_program_cache(Context& ctx) {
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  for (const Device& dev : ctx.devices()) {
    ctx.progress("program cache on " + dev.selector());
    Program::build(dev, weft::embedded::vadd_cl);  // make sure the entry exists on disk
    std::vector<double> startup, ready;
    const int runs = std::max(3, ctx.options().repeat);
    for (int i = 0; i < runs; ++i) {
      const auto r = tool::run_process({self, "bench-child", "first-launch", dev.selector()});
      double init_ms = 0, ready_ms = 0;
      std::istringstream in(r.output);
      std::string w1, w2;
      if (r.exit_code != 0 || !(in >> w1 >> init_ms >> w2 >> ready_ms) || w1 != "startup-ms" || w2 != "first-launch-ms") {
        throw Error("bench child failed: " + r.output);
      }
      startup.push_back(init_ms * 1e-3);
      ready.push_back(ready_ms * 1e-3);
    }
    std::sort(startup.begin(), startup.end());
    std::sort(ready.begin(), ready.end());
    ctx.add({"program-cache", "new process: build from disk + first launch", dev.selector(), 1, "float32",
             ready[ready.size() / 2], ready.front(), 0, ""});
    ctx.add({"program-cache", "new process: device start-up (before the build)", dev.selector(), 1, "float32",
             startup[startup.size() / 2], startup.front(), 0, ""});
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

const SuiteRegistration program_cache_registration{
    {"program-cache", "a cached program's build and first launch, in a new process", run_program_cache}};

}  // namespace

int first_launch_child(const std::string& selector) {
  // Two spans: the device's start-up (finding it, its context, a queue and buffers), then
  // what the program cache decides: Program::build served from disk plus the first launch.
  const auto t0 = std::chrono::steady_clock::now();
  Device dev = device(selector);
  Queue q(dev);
  Buffer a(dev, 4), b(dev, 4), c(dev, 4);
  q.finish();
  const auto t1 = std::chrono::steady_clock::now();
  Kernel k = Program::build(dev, weft::embedded::vadd_cl).kernel("vadd");
  k.set_args(a, b, c);
  q.launch(k, 1).wait();
  const auto t2 = std::chrono::steady_clock::now();
  std::printf("startup-ms %.4f first-launch-ms %.4f\n", std::chrono::duration<double, std::milli>(t1 - t0).count(),
              std::chrono::duration<double, std::milli>(t2 - t1).count());
  return 0;
}

}  // namespace weft::bench
