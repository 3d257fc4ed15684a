// polygon: the exercise's mask, 1024x1024 with a random 24-vertex polygon (integer vertices
// in [0, L], as the slides draw them), on each device, beside the straightforward per-pixel
// rule in C++ on one thread and, with --compare, matplotlib's Path.contains_points, the
// exercise's per-pixel OpenCL kernel through PyOpenCL on PoCL, and the rule vectorized with
// NumPy, all on the same polygon in the same run. --n is the pixel count, as in the records
// (the image is the largest square within it), so one --n suits every suite.
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "algorithms/polygon_reference.hpp"
#include "bench/harness.hpp"
#include "core/files.hpp"
#include "core/npy.hpp"
#include "weft/polygon.hpp"

namespace weft::bench {
namespace {

constexpr std::size_t vertices_count = 24;
constexpr std::uint64_t seed = 42;

void run_polygon(Context& ctx) {
  const auto side = static_cast<std::size_t>(std::sqrt(static_cast<double>(ctx.n_or(1024 * 1024))));
  const std::size_t pixels = side * side;
  const double bytes = static_cast<double>(pixels);  // the mask written, once
  const std::vector<Point> v = random_polygon(vertices_count, seed, side, side);

  ctx.progress("polygon: the per-pixel rule in C++, 1 thread (the baseline and the check)");
  std::vector<std::uint8_t> expected;
  const Stats base = time_wall(0, 3, [&] { expected = detail::polygon_mask_reference(v, side, side); });
  ctx.add({"polygon", "C++ per-pixel rule, 1 thread (wall)", "host", pixels, "uint8", base.median, base.min,
           bytes, ""});

  const std::string method = "weft polygon_mask kernel (event)";
  for (const Device& dev : ctx.devices()) {
    ctx.progress("polygon on " + dev.selector() + " (" + dev.name() + ")");
    try {
      Queue q(dev);
      Buffer out(dev, pixels);
      const Stats s = time_events(ctx.options().warmup, ctx.options().repeat,
                                  [&] { return enqueue_polygon_mask(q, v, side, side, out); });
      std::vector<std::uint8_t> got(pixels);
      q.read(out, got.data(), pixels);
      if (got != expected) throw Error("polygon_mask on " + dev.selector() + " differs from the rule");
      ctx.add({"polygon", method, dev.selector(), pixels, "uint8", s.median, s.min, bytes, ""});
      const Stats w = time_wall(ctx.options().warmup, ctx.options().repeat,
                                [&] { polygon_mask(q, v, side, side); });
      ctx.add({"polygon", "weft polygon_mask() to host (wall)", dev.selector(), pixels, "uint8", w.median,
               w.min, bytes, ""});
    } catch (const Unsupported& e) {
      ctx.progress("polygon skipped on " + dev.selector() + ": " + e.what());
    }
  }

  if (!ctx.options().compare) return;
  ctx.progress("polygon: peers (matplotlib, PyOpenCL on PoCL, NumPy) on the same polygon");
  detail::TempDir dir("weft-polygon-");
  const std::string vfile = dir.path() + "/vertices.txt", mfile = dir.path() + "/weft.npy";
  {
    std::ofstream f(vfile);
    for (const Point& p : v) f << p.x << " " << p.y << "\n";
  }
  const Shape shape{static_cast<std::int64_t>(side), static_cast<std::int64_t>(side)};
  detail::write_file_atomic(mfile, detail::npy_bytes(DType::uint8, shape, expected.data()));
  std::string why;
  if (!run_peer(ctx, "polygon", "polygon_peer.py",
                {std::to_string(side), std::to_string(ctx.options().repeat), vfile, mfile}, &why)) {
    ctx.progress("polygon peers did not run: " + why);
  }
  // The ratios the issue asks for: each weft device's kernel against each peer.
  for (const Record& mine : ctx.records()) {
    if (mine.suite != "polygon" || mine.method != method) continue;
    for (const Record& peer : ctx.records()) {
      if (peer.suite != "polygon" || peer.method.rfind("weft", 0) == 0 || peer.seconds_median <= 0) continue;
      std::ostringstream os;
      os << std::fixed << std::setprecision(1) << "weft on " << mine.device << " is "
         << peer.seconds_median / mine.seconds_median << "x faster than " << peer.method;
      ctx.progress(os.str());
    }
  }
}

const SuiteRegistration registration{
    {"polygon", "the exercise's 24-vertex polygon mask, 1024x1024", run_polygon}};

}  // namespace
}  // namespace weft::bench
