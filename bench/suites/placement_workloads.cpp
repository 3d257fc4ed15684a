// The workloads of `weft bench placement` (placement_workloads.hpp).
#include "bench/suites/placement_workloads.hpp"

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>

namespace weft::bench {
namespace {

// An array result: read to the host when its inputs came from there, else waited for where it is.
void finish(const Array& r, bool to_host) {
  if (to_host) {
    volatile float sink = r.to_host<float>().back();
    (void)sink;
  } else {
    synchronize(r.device());
  }
}

// A square-ish image of about n pixels.
std::pair<std::size_t, std::size_t> image_of(std::size_t n) {
  const auto h = static_cast<std::size_t>(std::llround(std::sqrt(static_cast<double>(n))));
  return {h, (n + h - 1) / h};
}

// polygon_mask of about n pixels with the given vertex count, on device (nullptr: auto); the
// vertices, the output and a queue per device made once (untimed after the first run).
void polygon(std::size_t vertices, const Device* device, std::size_t n) {
  const auto [h, w] = image_of(n);
  static std::map<std::pair<std::size_t, std::size_t>, std::vector<Point>> polygons;
  auto& poly = polygons[{vertices, n}];
  if (poly.empty()) poly = random_polygon(vertices, 27, w, h);
  static std::map<std::size_t, std::vector<std::uint8_t>> outs;
  auto& out = outs[n];
  out.resize(h * w);
  if (!device) return polygon_mask_auto_into(poly, h, w, out);
  static std::map<std::string, std::unique_ptr<Queue>> queues;
  auto& q = queues[device->selector()];
  if (!q) q = std::make_unique<Queue>(*device);
  polygon_mask_into(*q, poly, h, w, out);
}

}  // namespace

std::vector<PlacementWorkload> placement_workloads() {
  std::vector<PlacementWorkload> w;
  w.push_back({"light a*b+c", 3, [](const std::vector<Array>& in, bool to_host) {
                 finish(eval(in[0] * in[1] + in[2]), to_host);
               }, {}});
  w.push_back({"heavy sin/exp/cos", 3, [](const std::vector<Array>& in, bool to_host) {
                 finish(eval(sin(in[0]) * exp(in[1]) + cos(in[2]) * sin(in[1]) + exp(sin(in[0] * in[2]))), to_host);
               }, {}});
  w.push_back({"sum(sqrt(a*b+c)*2)", 3, [](const std::vector<Array>& in, bool) {
                 volatile double s = sum(sqrt(in[0] * in[1] + in[2]) * 2).get();
                 (void)s;
               }, {}});
  w.push_back({"cumsum(a)", 1, [](const std::vector<Array>& in, bool to_host) { finish(cumsum(in[0]), to_host); }, {}});
  w.push_back({"sort(a)", 1, [](const std::vector<Array>& in, bool to_host) { finish(sort(in[0]), to_host); }, {}});
  // A chain on the same data: two evaluations, a scan and a reduction, each reading earlier results.
  w.push_back({"chain t=a*b+c; u=sin(t)*a; sum(cumsum(u)*t)", 3, [](const std::vector<Array>& in, bool) {
                 const Array t = eval(in[0] * in[1] + in[2]);
                 const Array u = eval(sin(t) * in[0]);
                 volatile double s = sum(cumsum(u) * t).get();
                 (void)s;
               }, {}});
  for (const std::size_t v : {std::size_t{4}, std::size_t{256}}) {
    w.push_back({"polygon_mask " + std::to_string(v) + " vertices", 0, {},
                 [v](const Device* d, std::size_t n) { polygon(v, d, n); }});
  }
  return w;
}

}  // namespace weft::bench
