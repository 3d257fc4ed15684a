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
#include <limits>
#include <numeric>
#include <random>
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

// One way to run a case: its inputs made untimed (resident ones), then the timed work.
struct Variant {
  std::string method, device;
  std::function<std::vector<Array>()> setup;
  std::function<void(const std::vector<Array>&)> work;
};

// Wall time of each variant's work(setup()) (setup untimed): warmup runs, then repeat timed
// ones, the variants taking turns in each round, so that a load that comes and goes on a
// shared machine weighs on all of them alike rather than on whichever ran then; each round
// in a new (seeded) random order, so that none always follows the same one (PoCL's threads
// still busy after its kernel slow whatever runs next on the same cores).
std::vector<Stats> timed(const Context& ctx, const std::vector<Variant>& variants) {
  std::vector<std::vector<double>> t(variants.size());
  std::vector<std::size_t> order(variants.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937 shuffle(27);
  for (int r = 0; r < ctx.options().warmup + ctx.options().repeat; ++r) {
    std::shuffle(order.begin(), order.end(), shuffle);
    for (const std::size_t v : order) {
      const std::vector<Array> in = variants[v].setup();
      for (const Array& x : in) synchronize(x.device());
      const auto t0 = std::chrono::steady_clock::now();
      variants[v].work(in);
      if (r >= ctx.options().warmup) t[v].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  std::vector<Stats> out;
  for (auto& x : t) {
    std::sort(x.begin(), x.end());
    out.push_back({x[x.size() / 2], x.front()});
  }
  return out;
}

std::string summary(const std::vector<double>& ratios) {
  double log_sum = 0;
  for (const double r : ratios) log_sum += std::log(r);
  std::ostringstream note;
  note.precision(3);
  note << "geomean auto/best " << std::exp(log_sum / static_cast<double>(ratios.size())) << ", worst "
       << *std::max_element(ratios.begin(), ratios.end()) << " over " << ratios.size() << " cases";
  return note.str();
}

}  // namespace

namespace {
void run_placement(Context& ctx) {
  ctx.progress("placement: decision time");
  decision_time(ctx);
  const Device host = device("host");
  const std::size_t top = ctx.n_or(1'000'000);
  std::vector<double> ratios, ratios_before;
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
      const std::function<std::vector<Array>()> none = [] { return std::vector<Array>{}; };
      const std::function<std::vector<Array>()> resident = [&] { return make(device(start)); };
      std::vector<Variant> variants;
      for (const Device& d : ctx.devices()) {
        variants.push_back({"fixed " + d.selector() + ", from " + start, d.selector(), from_host ? none : resident,
                            [&, d](const std::vector<Array>& in) {
                              if (!from_host) return void(workload(in[0].to(d), in[1].to(d), in[2].to(d)));
                              if (d == host) return void(workload(in_place(va), in_place(vb), in_place(vc)));
                              const auto copies = make(d);
                              workload(copies[0], copies[1], copies[2]);
                            }});
      }
      const std::size_t n_fixed = variants.size();
      if (from_host) {
        // As before Array::borrow_host (not in the oracle; the second summary): the host
        // backend given a copy (weft.asarray(x, device="host")), and auto given one.
        variants.push_back({"host, copied, from host memory", "host", none, [&](const std::vector<Array>&) {
                              const auto in = make(host);
                              workload(in[0], in[1], in[2]);
                            }});
        variants.push_back({"auto, copied, from host memory", "auto", none, [&](const std::vector<Array>&) {
                              const auto in = make(host);
                              workload(in[0].to_auto(), in[1].to_auto(), in[2].to_auto());
                            }});
      }
      variants.push_back({"auto, from " + start, "auto", from_host ? none : resident, [&](const std::vector<Array>& in) {
                            if (from_host) return void(workload(borrowed(va), borrowed(vb), borrowed(vc)));
                            workload(in[0].to_auto(), in[1].to_auto(), in[2].to_auto());
                          }});
      const std::vector<Stats> stats = timed(ctx, variants);
      // The oracle: the fastest fixed device; before borrow_host, the host's time was a copy's.
      auto best_of = [&](bool copied) {
        std::pair<std::string, double> best{"", std::numeric_limits<double>::infinity()};
        for (std::size_t v = 0; v < n_fixed; ++v) {
          const bool replaced = copied && from_host && variants[v].device == "host";
          const double t = stats[replaced ? n_fixed : v].median;
          if (t < best.second) best = {variants[v].device, t};
        }
        return best;
      };
      const auto [best, best_t] = best_of(false);
      const double ratio = stats.back().median / best_t;
      ratios.push_back(ratio);
      const auto [best_before, best_before_t] = best_of(true);
      const double before = (from_host ? stats[n_fixed + 1].median : stats.back().median) / best_before_t;
      ratios_before.push_back(before);
      for (std::size_t v = 0; v < variants.size(); ++v) {
        std::ostringstream note;
        note.precision(3);
        if (v + 1 == variants.size()) note << "auto/best " << ratio << " (best " << best << ")";
        else if (from_host && v == n_fixed + 1) note << "auto/best " << before << " (best " << best_before << ", copies)";
        else if (v >= n_fixed) note << "not in the oracle";
        ctx.add({"placement", variants[v].method, variants[v].device, n, "float32", stats[v].median, stats[v].min, 0,
                 note.str()});
      }
    }
  }
  ctx.add({"placement", "summary", "auto", top, "float32", 0, 0, 0, summary(ratios)});
  ctx.add({"placement", "summary, copies as before borrow_host", "auto", top, "float32", 0, 0, 0,
           summary(ratios_before)});
}

const SuiteRegistration reg{{"placement",
                             "auto vs each fixed device, sum(sqrt(a*b+c)*2); decision time",
                             run_placement}};
}  // namespace

}  // namespace weft::bench
