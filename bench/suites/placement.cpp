// placement: device auto against every fixed device (docs/PLACEMENT.md, issue 27).
//   - the chooser's decision time, remembered (choose_cached) and computed (choose), on this
//     machine's calibrated table;
//   - float(sum(sqrt(a*b + c) * 2)) at 10^2 .. N elements (default 10^6), with inputs starting
//     in host memory (std::vectors, as NumPy arrays: a fixed device other than the host copies
//     them there in each run; the host backend and auto use them in place, as
//     weft.from_dlpack and weft.asarray(x, device="auto") do) and resident on each device:
//     wall time per result for each fixed device and for auto, and auto / best
//     (the oracle: the fastest fixed device of the same case) in the note, with the geometric
//     mean and worst of auto / best over the cases in a closing record.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <vector>

#include "bench/harness.hpp"

namespace weft::bench {
namespace {

double per_call(std::size_t calls, const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < calls; ++i) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / static_cast<double>(calls);
}

void decision_time(Context& ctx) {
  const Chooser& chooser = auto_chooser();
  const double n = 1e6;
  WorkEstimate w{.elements = 1'000'000, .bytes_read = 12 * n, .bytes_written = 0, .ops = 22 * n,
                 .arithmetic = Arithmetic::float32, .result_to_host = true, .result_bytes = 8};
  const InputResidence in[] = {{4 * n, 0b1, true}, {4 * n, 0b1, true}, {4 * n, 0b1, true}};
  volatile std::size_t sink = 0;
  for (const bool cached : {true, false}) {
    std::vector<double> t;
    for (int r = 0; r < ctx.options().warmup + ctx.options().repeat; ++r) {
      const double s = per_call(100000, [&] {
        sink = sink + (cached ? chooser.choose_cached(0x5eed, w, in) : chooser.choose(w, in));
      });
      if (r >= ctx.options().warmup) t.push_back(s);
    }
    std::sort(t.begin(), t.end());
    ctx.add({"placement", cached ? "decision, remembered (choose_cached)" : "decision, computed (choose)", "-",
             chooser.devices().size(), "-", t[t.size() / 2], t.front(), 0,
             std::to_string(chooser.devices().size()) + " devices"});
  }
}

double workload(const Expr& a, const Expr& b, const Expr& c) { return sum(sqrt(a * b + c) * 2).get(); }

// Wall time of work(setup()) (setup untimed): warmup runs, then repeat timed ones.
Stats timed(const Context& ctx, const std::function<std::vector<Array>()>& setup,
            const std::function<void(const std::vector<Array>&)>& work) {
  std::vector<double> t;
  for (int r = 0; r < ctx.options().warmup + ctx.options().repeat; ++r) {
    const std::vector<Array> in = setup();
    for (const Array& x : in) synchronize(x.device());
    const auto t0 = std::chrono::steady_clock::now();
    work(in);
    if (r >= ctx.options().warmup) t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front()};
}

}  // namespace

namespace {
void run_placement(Context& ctx) {
  ctx.progress("placement: decision time");
  decision_time(ctx);
  const Device host = device("host");
  const std::size_t top = ctx.n_or(1'000'000);
  std::vector<double> ratios;
  for (std::size_t n = 100; n <= top; n *= 10) {
    std::vector<float> va(n, 0.5f), vb(n, 0.25f), vc(n, 1.0f);
    const Shape shape{static_cast<std::int64_t>(n)};
    auto make = [&](const Device& d) {
      return std::vector<Array>{Array::from_host<float>(va, shape, d), Array::from_host<float>(vb, shape, d),
                                Array::from_host<float>(vc, shape, d)};
    };
    // Host memory used in place: by the host backend (a fixed device, as weft.from_dlpack of a
    // NumPy array) or borrowed by auto (as weft.asarray(x, device="auto")).
    auto in_place = [&](std::vector<float>& v) {
      return Array::wrap(Buffer::wrap(host, reinterpret_cast<std::uintptr_t>(v.data()), n * sizeof(float), {}),
                         DType::float32, shape);
    };
    auto borrowed = [&](std::vector<float>& v) { return Array::borrow_host(std::span<float>(v), shape); };
    // Inputs start in host memory (std::vectors, as NumPy arrays: a device other than the host
    // copies them in each run), or resident on one device (made there before the timed part,
    // so valid only there).
    std::vector<std::string> starts{"host memory"};
    for (const Device& d : ctx.devices()) starts.push_back(d.selector());
    for (const std::string& start : starts) {
      ctx.progress("placement n=" + std::to_string(n) + " from " + start);
      const bool from_host = start == "host memory";
      const auto none = [] { return std::vector<Array>{}; };
      const auto resident = [&] { return make(device(start)); };
      std::vector<std::pair<std::string, double>> fixed;
      for (const Device& d : ctx.devices()) {
        const Stats s = from_host ? timed(ctx, none, [&](const std::vector<Array>&) {
                                      if (d == host) return void(workload(in_place(va), in_place(vb), in_place(vc)));
                                      const auto in = make(d);
                                      workload(in[0], in[1], in[2]);
                                    })
                                  : timed(ctx, resident, [&](const std::vector<Array>& in) {
                                      workload(in[0].to(d), in[1].to(d), in[2].to(d));
                                    });
        fixed.emplace_back(d.selector(), s.median);
        ctx.add({"placement", "fixed " + d.selector() + ", from " + start, d.selector(), n, "float32", s.median,
                 s.min, 0, ""});
      }
      if (from_host) {
        // For comparison (not in the oracle): the host backend given a copy (weft.asarray(x, device="host")).
        const Stats c = timed(ctx, none, [&](const std::vector<Array>&) {
          const auto in = make(host);
          workload(in[0], in[1], in[2]);
        });
        ctx.add({"placement", "host, copied, from host memory", "host", n, "float32", c.median, c.min, 0,
                 "not in the oracle"});
      }
      const Stats s = from_host ? timed(ctx, none, [&](const std::vector<Array>&) {
                                    workload(borrowed(va), borrowed(vb), borrowed(vc));
                                  })
                                : timed(ctx, resident, [&](const std::vector<Array>& in) {
                                    workload(in[0].to_auto(), in[1].to_auto(), in[2].to_auto());
                                  });
      const auto best = std::min_element(fixed.begin(), fixed.end(),
                                         [](const auto& x, const auto& y) { return x.second < y.second; });
      const double ratio = s.median / best->second;
      ratios.push_back(ratio);
      std::ostringstream note;
      note.precision(3);
      note << "auto/best " << ratio << " (best " << best->first << ")";
      ctx.add({"placement", "auto, from " + start, "auto", n, "float32", s.median, s.min, 0, note.str()});
    }
  }
  double log_sum = 0;
  for (const double r : ratios) log_sum += std::log(r);
  std::ostringstream note;
  note.precision(3);
  note << "geomean auto/best " << std::exp(log_sum / static_cast<double>(ratios.size())) << ", worst "
       << *std::max_element(ratios.begin(), ratios.end()) << " over " << ratios.size() << " cases";
  ctx.add({"placement", "summary", "auto", top, "float32", 0, 0, 0, note.str()});
}

const SuiteRegistration reg{{"placement",
                             "auto vs each fixed device, sum(sqrt(a*b+c)*2); decision time",
                             run_placement}};
}  // namespace

}  // namespace weft::bench
