// polygon: the exercise's mask, 1024x1024 with a random 24-vertex polygon (integer vertices
// in [0, L], as the slides draw them), on each device, beside the straightforward per-pixel
// rule in C++ on one thread and, with --compare, matplotlib's Path.contains_points, the
// exercise's per-pixel OpenCL kernel through PyOpenCL on PoCL, and the rule vectorized with
// NumPy, all on the same polygon in the same run. --n is the pixel count, as in the records
// (the image is the largest square within it), so one --n suits every suite.
//
// polygon-large: issue 8's large case, 8192x8192 with 256 vertices (`weft bench polygon-large`,
// `weft bench polygon polygon-large` for both; --n sets its size the same way). Not a default
// suite: the per-pixel rule would take about half a minute per run there, so it checks every
// 61st row and the last against the rule instead, and has neither the one-thread baseline nor
// the peers (the per-pixel peers would take as long).
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "bench/harness.hpp"
#include "tools/support/files.hpp"
#include "tools/support/npy.hpp"
#include "weft/polygon.hpp"
#include "weft/polygon_reference.hpp"

namespace weft::bench {
namespace {

constexpr std::uint64_t seed = 42;
const std::string kernel_method = "weft polygon_mask kernel (event)";

struct Config {
  const char* suite;
  std::size_t default_pixels;
  std::size_t vertices;
  bool full_check;  // the per-pixel rule on every pixel (timed: the baseline), else on sampled rows
};

struct Run {
  std::size_t side = 0;
  std::vector<Point> vertices;
  std::vector<std::uint8_t> expected;  // the per-pixel rule's mask (full_check only)
};

// The per-pixel rule, as polygon_mask_reference computes it, on every 61st row and the last.
void check_sampled_rows(const std::vector<Point>& v, std::size_t side, const std::vector<std::uint8_t>& got,
                        const std::string& where) {
  std::vector<std::size_t> rows;
  for (std::size_t y = 0; y < side; y += 61) rows.push_back(y);
  if (side > 0 && rows.back() != side - 1) rows.push_back(side - 1);
  for (const std::size_t y : rows) {
    for (std::size_t x = 0; x < side; ++x) {
      const double px = static_cast<double>(x), py = static_cast<double>(y);
      const bool vertex = std::any_of(v.begin(), v.end(), [&](const Point& p) { return p.x == px && p.y == py; });
      const auto want = static_cast<std::uint8_t>(vertex || inside_polygon(v, px, py, true));
      if (got[y * side + x] != want) {
        throw Error("polygon_mask on " + where + " differs from the rule at x=" + std::to_string(x) +
                    " y=" + std::to_string(y));
      }
    }
  }
}

Run run_config(Context& ctx, const Config& cfg) {
  Run run;
  run.side = static_cast<std::size_t>(std::sqrt(static_cast<double>(ctx.n_or(cfg.default_pixels))));
  const std::size_t side = run.side, pixels = side * side;
  const double bytes = static_cast<double>(pixels);  // the mask written, once
  const std::vector<Point>& v = run.vertices = random_polygon(cfg.vertices, seed, side, side);
  const std::string suite = cfg.suite;

  if (cfg.full_check) {
    ctx.progress(suite + ": the per-pixel rule in C++, 1 thread (the baseline and the check)");
    const Stats base = time_wall(0, 3, [&] { run.expected = polygon_mask_reference(v, side, side); });
    ctx.add({suite, "C++ per-pixel rule, 1 thread (wall)", "host", pixels, "uint8", base.median, base.min,
             bytes, ""});
  }
  for (const Device& dev : ctx.devices()) {
    ctx.progress(suite + " on " + dev.selector() + " (" + dev.name() + ")");
    try {
      Queue q(dev, QueueOptions{.profiling = true});  // timed by its events
      Buffer out(dev, pixels);
      const Stats s = time_events(ctx.options().warmup, ctx.options().repeat,
                                  [&] { return enqueue_polygon_mask(q, v, side, side, out); });
      std::vector<std::uint8_t> got(pixels);
      q.read(out, got.data(), pixels);
      if (!cfg.full_check) {
        check_sampled_rows(v, side, got, dev.selector());
      } else if (got != run.expected) {
        throw Error("polygon_mask on " + dev.selector() + " differs from the rule");
      }
      ctx.add({suite, kernel_method, dev.selector(), pixels, "uint8", s.median, s.min, bytes, ""});
      const Stats w = time_wall(ctx.options().warmup, ctx.options().repeat,
                                [&] { polygon_mask(q, v, side, side); });
      ctx.add({suite, "weft polygon_mask() to host (wall)", dev.selector(), pixels, "uint8", w.median,
               w.min, bytes, ""});
    } catch (const Unsupported& e) {
      ctx.progress(suite + " skipped on " + dev.selector() + ": " + e.what());
    }
  }
  return run;
}

void run_polygon(Context& ctx) {
  const Run run = run_config(ctx, {"polygon", 1024 * 1024, 24, true});
  if (!ctx.options().compare) return;
  ctx.progress("polygon: peers (matplotlib, PyOpenCL on PoCL, NumPy) on the same polygon");
  tool::TempDir dir("weft-polygon-");
  const std::string vfile = dir.path() + "/vertices.txt", mfile = dir.path() + "/weft.npy";
  std::ostringstream vertices;
  for (const Point& p : run.vertices) vertices << p.x << " " << p.y << "\n";
  tool::write_output_file(vfile, vertices.str());
  const Shape shape{static_cast<std::int64_t>(run.side), static_cast<std::int64_t>(run.side)};
  tool::write_output_file(mfile, tool::npy_bytes(DType::uint8, shape, run.expected.data()));
  std::string why;
  if (!run_peer(ctx, "polygon", "polygon_peer.py",
                {std::to_string(run.side), std::to_string(ctx.options().repeat), vfile, mfile}, &why)) {
    ctx.progress("polygon peers did not run: " + why);
  }
  // The ratios the issue asks for: each weft device's kernel against each peer.
  for (const Record& mine : ctx.records()) {
    if (mine.suite != "polygon" || mine.method != kernel_method) continue;
    for (const Record& peer : ctx.records()) {
      if (peer.suite != "polygon" || peer.method.rfind("weft", 0) == 0 || peer.seconds_median <= 0) continue;
      std::ostringstream os;
      os << std::fixed << std::setprecision(1) << "weft on " << mine.device << " is "
         << peer.seconds_median / mine.seconds_median << "x faster than " << peer.method;
      ctx.progress(os.str());
    }
  }
}

void run_polygon_large(Context& ctx) { run_config(ctx, {"polygon-large", 8192 * 8192, 256, false}); }

const SuiteRegistration polygon_registration{
    {"polygon", "the exercise's 24-vertex polygon mask, 1024x1024", run_polygon}};
const SuiteRegistration large_registration{
    {"polygon-large", "issue 8's large polygon mask: 256 vertices, 8192x8192", run_polygon_large}};

}  // namespace
}  // namespace weft::bench
