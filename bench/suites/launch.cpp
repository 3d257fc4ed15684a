// launch: host time per tiny kernel launch from C++, back to back (N launches, then one
// wait, divided by N) and enqueue alone, on each device; beside the driver's own loop of bare
// launches (driver_floor.hpp) and, with --compare, PyOpenCL's
// `prg.tiny(queue, (1,), None, buf)` on the same OpenCL devices and CuPy's RawKernel.
#include <algorithm>
#include <chrono>

#include "bench/driver_floor.hpp"
#include "bench/harness.hpp"
#include "embedded/weft_bench_kernels.hpp"

namespace weft::bench {
namespace {

void run_launch(Context& ctx) {
  const std::size_t launches = ctx.n_or(20000);
  for (const Device& dev : ctx.devices()) {
    ctx.progress("launch on " + dev.selector());
    Buffer x(dev, 64);
    Kernel k = Program::build(dev, weft::embedded::tiny_cl).kernel("tiny");
    k.set_args(x);
    auto add = [&](const char* method, std::vector<double> t) {
      std::sort(t.begin(), t.end());
      ctx.add({"launch", method, dev.selector(), launches, "float32", t[t.size() / 2], t.front(), 0, ""});
    };
    const int rounds = ctx.options().warmup + ctx.options().repeat;
    // Each tiny launch adds 1 to x[0]: after `per_round` launches in each round it must hold
    // per_round * rounds, or a launch was lost.
    auto check_counter = [&](Queue& q, std::size_t per_round, const char* what) {
      float check = 0;
      q.read(x, &check, 4);
      const double expected = static_cast<double>(per_round) * static_cast<double>(rounds);
      if (check != static_cast<float>(expected)) {
        throw Error(std::string("launch suite (") + what + ") on " + dev.selector() + ": counter is " +
                    std::to_string(check) + ", expected " + std::to_string(expected));
      }
    };
    for (const bool profiling : {true, false}) {
      Queue q(dev, QueueOptions{.out_of_order = false, .profiling = profiling});
      const float zero = 0;
      q.fill(x, &zero, 4, 0, 64);
      std::vector<double> per_launch, per_enqueue;
      for (int r = 0; r < rounds; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < launches; ++i) q.launch(k, 1);
        const auto t1 = std::chrono::steady_clock::now();
        q.finish();
        const auto t2 = std::chrono::steady_clock::now();
        if (r < ctx.options().warmup) continue;
        per_enqueue.push_back(std::chrono::duration<double>(t1 - t0).count() / static_cast<double>(launches));
        per_launch.push_back(std::chrono::duration<double>(t2 - t0).count() / static_cast<double>(launches));
      }
      check_counter(q, launches, "launches");
      add(profiling ? "weft C++: launch, back to back" : "weft C++: launch, queue without profiling", per_launch);
      if (profiling) add("weft C++: enqueue only", per_enqueue);
    }
    {
      // The same launches batched: a Graph of 100 recorded once, replayed launches / 100
      // times (a CUDA graph on CUDA devices), then one wait; per launch.
      constexpr std::size_t graph_size = 100;
      const std::size_t replays = std::max<std::size_t>(1, launches / graph_size);
      Queue q(dev, QueueOptions{.out_of_order = false, .profiling = false});
      const float zero = 0;
      q.fill(x, &zero, 4, 0, 64);
      Graph g(dev);
      for (std::size_t i = 0; i < graph_size; ++i) g.add(k, 1);
      std::vector<double> t;
      for (int r = 0; r < rounds; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < replays; ++i) g.launch(q);
        q.finish();
        if (r >= ctx.options().warmup) {
          t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                      static_cast<double>(replays * graph_size));
        }
      }
      check_counter(q, replays * graph_size, "graph");
      add("weft C++: graph of 100 launches, replayed (per launch)", t);
    }
    // The driver's own floor on the same device, driven without weft: what weft adds is the
    // difference.
    try {
      if (auto floor = driver_launch_floor(dev.selector(), launches, ctx.options().warmup, ctx.options().repeat,
                                           weft::embedded::tiny_cl)) {
        add(floor->method.c_str(), floor->seconds);
      }
    } catch (const Error& e) {
      ctx.progress(std::string("the driver's floor did not run: ") + e.what());
    }
  }
  std::string why;
  const std::vector<std::string> args{"launch", std::to_string(launches), std::to_string(ctx.options().repeat)};
  // weft's own Python binding (pip install .): the same tiny launch from Python.
  if (!run_peer(ctx, "launch", "weft_python.py", args, &why)) ctx.progress("weft Python did not run: " + why);
  if (ctx.options().compare) {
    if (!run_peer(ctx, "launch", "pyopencl_peer.py", args, &why)) ctx.progress("PyOpenCL peer did not run: " + why);
    if (!run_peer(ctx, "launch", "cupy_peer.py", args, &why)) ctx.progress("CuPy peer did not run: " + why);
  }
}

const SuiteRegistration launch_registration{
    {"launch", "host time per tiny kernel launch", run_launch}};

}  // namespace
}  // namespace weft::bench
