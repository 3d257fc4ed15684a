// first-result: what an interactive user waits for the first result of an array expression
// the process has never evaluated and the program cache has never seen (a generated kernel
// compiled from scratch), over a fixed set of elementwise expressions and reductions of the
// kinds the array tests draw (float32, float64, int32; operators, math functions, where,
// sum/min/max). Each run is a fresh process (`weft bench-child first-result SELECTOR DIR`)
// whose program cache DIR keeps what a user's cache keeps between expressions (the
// compiler's version, the host prelude's precompiled header) but none of the expressions'
// programs: the parent empties the backends' entry folders before each run. Reported: the
// median, p90 and max over every expression of every run, and the first expression of a
// process (which also stages the prelude) apart; then the same with an empty program cache
// (WEFT_CACHE_DIR a new directory: no toolchain notes, no precompiled prelude either).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <sstream>

#include <unistd.h>

#include "bench/harness.hpp"
#include "tools/support/process.hpp"

namespace weft::bench {
namespace {

namespace fs = std::filesystem;

struct Expression {
  const char* text;
  std::function<double(const Array& a, const Array& b, const Array& c, const Array& i, const Array& j,
                       const Array& x, const Array& y)>
      run;  // returns one element of the result, so it is really there
};

// One element of the result, read in its own type (a cast would compile a kernel of its own).
double first(const Array& r) {
  switch (r.dtype()) {
    case DType::float32: return r.to_host<float>()[0];
    case DType::float64: return r.to_host<double>()[0];
    case DType::int32: return r.to_host<std::int32_t>()[0];
    case DType::int64: return static_cast<double>(r.to_host<std::int64_t>()[0]);
    default: throw Error("first-result: an unexpected result type");
  }
}

const std::vector<Expression>& expressions() {
  static const std::vector<Expression> list = {
      {"a*b + c", [](auto& a, auto& b, auto& c, auto&, auto&, auto&, auto&) { return first(eval(a * b + c)); }},
      {"sin(a) + cos(b)", [](auto& a, auto& b, auto&, auto&, auto&, auto&, auto&) { return first(eval(sin(a) + cos(b))); }},
      {"sqrt(abs(a)) * 2", [](auto& a, auto&, auto&, auto&, auto&, auto&, auto&) { return first(eval(sqrt(abs(a)) * 2.0)); }},
      {"where(a > b, a, c)", [](auto& a, auto& b, auto& c, auto&, auto&, auto&, auto&) { return first(eval(where(a > b, a, c))); }},
      {"exp(a) - b / c", [](auto& a, auto& b, auto& c, auto&, auto&, auto&, auto&) { return first(eval(exp(a) - b / c)); }},
      {"maximum(a, b) * c", [](auto& a, auto& b, auto& c, auto&, auto&, auto&, auto&) { return first(eval(maximum(a, b) * c)); }},
      {"floor(a * 10) % 3", [](auto& a, auto&, auto&, auto&, auto&, auto&, auto&) { return first(eval(remainder(floor(a * 10.0), 3.0))); }},
      {"clip(a, -0.5, 0.5)", [](auto& a, auto&, auto&, auto&, auto&, auto&, auto&) { return first(eval(clip(a, -0.5, 0.5))); }},
      {"i*j + 3", [](auto&, auto&, auto&, auto& i, auto& j, auto&, auto&) { return first(eval(i * j + 3)); }},
      {"(i & j) | 5", [](auto&, auto&, auto&, auto& i, auto& j, auto&, auto&) { return first(eval((i & j) | 5)); }},
      {"i // 7 - j % 5", [](auto&, auto&, auto&, auto& i, auto& j, auto&, auto&) { return first(eval(floor_divide(i, 7) - remainder(j, 5))); }},
      {"x*y + x", [](auto&, auto&, auto&, auto&, auto&, auto& x, auto& y) { return first(eval(x * y + x)); }},
      {"hypot(x, y) - atan2(y, x)", [](auto&, auto&, auto&, auto&, auto&, auto& x, auto& y) { return first(eval(hypot(x, y) - atan2(y, x))); }},
      {"x + i", [](auto&, auto&, auto&, auto& i, auto&, auto& x, auto&) { return first(eval(x + i)); }},
      {"sum(a)", [](auto& a, auto&, auto&, auto&, auto&, auto&, auto&) { return sum(a).get(); }},
      {"sum(a * b)", [](auto& a, auto& b, auto&, auto&, auto&, auto&, auto&) { return sum(a * b).get(); }},
      {"max(a - c)", [](auto& a, auto&, auto& c, auto&, auto&, auto&, auto&) { return max(a - c).get(); }},
      {"min(i)", [](auto&, auto&, auto&, auto& i, auto&, auto&, auto&) { return min(i).get(); }},
      {"sum(x)", [](auto&, auto&, auto&, auto&, auto&, auto& x, auto&) { return sum(x).get(); }},
      {"sum(j)", [](auto&, auto&, auto&, auto&, auto& j, auto&, auto&) { return sum(j).get(); }},
  };
  return list;
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const auto at = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(at, v.size() - 1)];
}

// Empties <dir>/<backend>/ of entries, keeping the folders that are not programs.
void forget_programs(const std::string& dir) {
  std::error_code ec;
  for (const char* backend : {"host", "opencl", "cuda"}) {
    for (const auto& e : fs::directory_iterator(dir + "/" + backend, ec)) fs::remove(e.path(), ec);
  }
}

// Runs the child `runs` times (plus one to fill the cache's toolchain notes and headers when
// the cache is kept warm) and collects its times: every expression, the first of each process.
void measure(const std::string& self, const Device& dev, int runs, bool empty_cache, std::vector<double>& all,
             std::vector<double>& first_of_process) {
  std::error_code ec;
  const std::string dir = (fs::temp_directory_path() / ("weft-first-result-" + std::to_string(::getpid()))).string();
  for (int r = 0; r < runs + (empty_cache ? 0 : 1); ++r) {
    if (empty_cache) fs::remove_all(dir, ec);
    else forget_programs(dir);
    const auto p = tool::run_process({"env", "WEFT_CACHE_DIR=" + dir, self, "bench-child", "first-result", dev.selector()});
    if (p.exit_code != 0) throw Error("bench child failed: " + p.output);
    if (!empty_cache && r == 0) continue;  // the first run fills the cache's toolchain notes and headers
    std::istringstream in(p.output);
    std::string line;
    bool head = true;
    while (std::getline(in, line)) {
      if (line.rfind("ms ", 0) != 0) continue;  // a warning the library logged
      const double ms = std::stod(line.substr(3));
      all.push_back(ms * 1e-3);
      if (head) first_of_process.push_back(ms * 1e-3);
      head = false;
    }
  }
  fs::remove_all(dir, ec);
}

void run_first_result(Context& ctx) {
  std::error_code ec;
  const std::string self = fs::read_symlink("/proc/self/exe", ec).string();
  for (const Device& dev : ctx.devices()) {
    const int runs = std::max(3, ctx.options().repeat);
    // Two states of the program cache: the toolchain's notes and the host prelude's
    // precompiled header kept (a user's cache after the first session), and empty (the first
    // session, or WEFT_CACHE_DIR pointed at a new directory). Neither holds the programs.
    for (const bool empty_cache : {false, true}) {
      const std::string state = empty_cache ? "empty cache" : "toolchain cached";
      ctx.progress("first result of new expressions on " + dev.selector() + " (" + state + ")");
      std::vector<double> all, first_of_process;
      measure(self, dev, runs, empty_cache, all, first_of_process);
      if (all.empty()) continue;
      char note[200];
      std::snprintf(note, sizeof note, "%s; %zu expressions x %d runs: p90 %.1f ms, max %.1f ms", state.c_str(),
                    expressions().size(), runs, percentile(all, 0.9) * 1e3, percentile(all, 1.0) * 1e3);
      ctx.progress(std::string("  first result of a new expression: median ") + std::to_string(percentile(all, 0.5) * 1e3) +
                   " ms, " + note);
      ctx.add({"first-result", "new expression: first result (median; min), " + state, dev.selector(), 1000, "mixed",
               percentile(all, 0.5), percentile(all, 0.0), 0, note});
      ctx.add({"first-result", "first expression of a process, " + state, dev.selector(), 1000, "mixed",
               percentile(first_of_process, 0.5), percentile(first_of_process, 0.0), 0, state});
    }
  }
}

const SuiteRegistration first_result_registration{
    {"first-result", "first result of array expressions never compiled before (fresh process)",
     run_first_result}};

}  // namespace

int first_result_child(const std::string& selector) {
  Device dev = device(selector);
  const Shape shape{1000};
  std::vector<float> f(1000);
  std::vector<double> d(1000);
  std::vector<std::int32_t> n(1000);
  for (std::size_t k = 0; k < f.size(); ++k) {
    f[k] = static_cast<float>(k % 17) * 0.1f - 0.8f;
    d[k] = static_cast<double>(k % 13) * 0.25 + 0.5;
    n[k] = static_cast<std::int32_t>(k % 23) - 11;
  }
  std::vector<float> g(f.rbegin(), f.rend()), h(f.size(), 2.0f);
  std::vector<std::int32_t> m(n.rbegin(), n.rend());
  // Inputs straight from host memory: nothing is compiled before the first timed expression.
  const Array a = Array::from_host<float>(f, shape, dev), b = Array::from_host<float>(g, shape, dev),
              c = Array::from_host<float>(h, shape, dev);
  const Array i = Array::from_host<std::int32_t>(n, shape, dev), j = Array::from_host<std::int32_t>(m, shape, dev);
  const Array x = Array::from_host<double>(d, shape, dev), y = Array::from_host<double>(d, shape, dev);
  for (const auto& e : expressions()) {
    const auto t0 = std::chrono::steady_clock::now();
    const double v = e.run(a, b, c, i, j, x, y);
    const auto t1 = std::chrono::steady_clock::now();
    if (v != v) throw Error(std::string("first-result: NaN from ") + e.text);
    std::printf("ms %.3f\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return 0;
}

}  // namespace weft::bench
