// async: what an event-driven program pays per callback. N markers on one queue of each
// device, a then() callback on each, the time from the first then() to the last callback
// run on weft's completion thread, per callback; and from Python (weft_python.py) N events
// awaited in one weft.gather and N Python callbacks. Issue 30 asks 100 000 callbacks in
// under a second and 10 000 awaited events with at most two more threads on a 2-core host.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "bench/harness.hpp"

namespace weft::bench {
namespace {

void run_async(Context& ctx) {
  const std::size_t n = ctx.n_or(100000);
  const int rounds = ctx.options().warmup + ctx.options().repeat;
  for (const Device& dev : ctx.devices()) {
    ctx.progress("async on " + dev.selector());
    Queue q(dev);
    std::vector<double> t;
    std::vector<Event> events(n);
    for (int r = 0; r < rounds; ++r) {
      for (auto& e : events) e = q.marker();
      std::mutex m;
      std::condition_variable cv;
      std::size_t left = n;
      const auto t0 = std::chrono::steady_clock::now();
      for (const Event& e : events) {
        e.then([&](const Event&) {
          std::lock_guard lock(m);
          if (--left == 0) cv.notify_one();
        });
      }
      std::unique_lock lock(m);
      cv.wait(lock, [&] { return left == 0; });
      if (r >= ctx.options().warmup) {
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                    static_cast<double>(n));
      }
    }
    std::sort(t.begin(), t.end());
    ctx.add({"async", "weft C++: then() callback delivered (per callback)", dev.selector(), n, "-", t[t.size() / 2],
             t.front(), 0, ""});
  }
  std::string why;
  const std::vector<std::string> args{"async", std::to_string(std::min<std::size_t>(n, 100000)),
                                      std::to_string(ctx.options().repeat)};
  if (!run_peer(ctx, "async", "weft_python.py", args, &why)) ctx.progress("weft Python did not run: " + why);
}

const SuiteRegistration async_registration{
    {"async", "event callbacks and awaited events, per event", run_async}};

}  // namespace
}  // namespace weft::bench
