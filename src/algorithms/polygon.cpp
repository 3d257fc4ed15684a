// polygon_mask: checks the request, uploads the vertices and the pixels they sit on, and runs
// the one-work-item-per-row kernel of src/kernels/cl/polygon.cl; docs/POLYGON.md explains it.
#include "weft/polygon.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <utility>

#include "embedded/weft_embedded.hpp"
#include "weft/error.hpp"
#include "weft/program.hpp"

namespace weft {

namespace {

// Pixel indices and counts are ints in the kernel.
constexpr std::size_t max_extent = std::size_t{1} << 30;
constexpr std::size_t max_vertices = std::size_t{1} << 28;

// The program is built once per device and kept: Program::build would hash the source on
// every call, which a mask of a few microseconds should not pay.
Program polygon_program(const Device& device) {
  static std::mutex mutex;
  static std::vector<std::pair<Device, Program>> built;
  std::lock_guard lock(mutex);
  for (const auto& [dev, prg] : built) {
    if (dev == device) return prg;
  }
  Program prg = Program::build(device, embedded::polygon_cl);
  built.emplace_back(device, prg);
  return prg;
}

// Rows per work-group. The host backend and OpenCL CPU runtimes hand whole work-groups to
// their threads, and one row (every edge, then a row of the mask) is far more work than a
// typical work-item, so a CPU gets a few groups per thread however few rows there are; a
// GPU gets groups of a common size.
std::size_t rows_per_group(const DeviceInfo& info, std::size_t height) {
  std::size_t rows = 64;
  if (info.type == DeviceType::cpu) {
    const std::size_t groups = 4 * std::max(1u, info.compute_units);
    rows = (height + groups - 1) / groups;
  }
  const std::size_t cap = info.max_work_group_size ? info.max_work_group_size : 1;
  return std::clamp<std::size_t>(rows, 1, cap);
}

void check_request(std::span<const Point> vertices, std::size_t height, std::size_t width) {
  if (height > max_extent || width > max_extent) {
    throw InvalidArgument("polygon_mask: an image of " + std::to_string(width) + "x" +
                          std::to_string(height) + " pixels is too large; each side may be at most " +
                          std::to_string(max_extent));
  }
  if (vertices.size() > max_vertices) {
    throw InvalidArgument("polygon_mask: " + std::to_string(vertices.size()) +
                          " vertices are too many; at most " + std::to_string(max_vertices));
  }
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    if (!std::isfinite(vertices[i].x) || !std::isfinite(vertices[i].y)) {
      throw InvalidArgument("polygon_mask: vertex " + std::to_string(i) + " is (" +
                            std::to_string(vertices[i].x) + ", " + std::to_string(vertices[i].y) +
                            "); vertices must be finite");
    }
  }
}

}  // namespace

std::vector<Point> random_polygon(std::size_t n, std::uint64_t seed, std::size_t width,
                                  std::size_t height) {
  // mt19937_64's sequence is fixed by the standard; the bounded draw is ours, because the
  // standard distributions differ between libraries.
  std::mt19937_64 rng(seed);
  const auto draw = [&](std::uint64_t bound) {  // uniform in [0, bound], no modulo bias
    const std::uint64_t range = bound + 1;
    if (range == 0) return static_cast<double>(rng());  // bound is the whole 64-bit range
    const std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t limit = top - top % range;
    std::uint64_t r = rng();
    while (r >= limit) r = rng();
    return static_cast<double>(r % range);
  };
  std::vector<Point> v(n);
  for (auto& p : v) {
    p.x = draw(width);
    p.y = draw(height);
  }
  return v;
}

Event enqueue_polygon_mask(Queue& queue, std::span<const Point> vertices, std::size_t height,
                           std::size_t width, const Buffer& out, std::uint8_t border_value,
                           std::span<const Event> wait) {
  check_request(vertices, height, width);
  const Device dev = queue.device();
  const std::size_t pixels = height * width;
  if (!out) throw InvalidArgument("polygon_mask: the output buffer is empty");
  if (!(out.device() == dev)) {
    throw InvalidArgument("polygon_mask: the output buffer lives on " + out.device().selector() +
                          ", the queue on " + dev.selector());
  }
  if (out.size() < pixels) {
    throw InvalidArgument("polygon_mask: the output buffer holds " + std::to_string(out.size()) +
                          " bytes; a " + std::to_string(width) + "x" + std::to_string(height) +
                          " mask needs " + std::to_string(pixels));
  }
  if (!dev.info().fp64) {
    throw Unsupported("polygon_mask needs double precision (the rule's crossing points are "
                      "computed in double, as the reference does) and " + dev.selector() + " (" +
                      dev.name() + ") has none; use the host device or another with fp64");
  }
  if (pixels == 0) return queue.marker(wait);
  if (vertices.empty()) {
    // No edge and no vertex: the rule answers "outside" everywhere.
    const std::uint8_t zero = 0;
    return queue.fill(out, &zero, 1, 0, pixels, wait);
  }

  // The vertices that are pixels of the image, as sorted (y, x) pairs: each row finds its
  // own by binary search. Only these can equal a pixel, which the rule tests exactly.
  auto staging = std::make_shared<std::vector<double>>(2 * vertices.size());
  auto hits = std::make_shared<std::vector<std::pair<int, int>>>();
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const Point& v = vertices[i];
    (*staging)[2 * i] = v.x;
    (*staging)[2 * i + 1] = v.y;
    if (v.x >= 0 && v.y >= 0 && v.x < static_cast<double>(width) &&
        v.y < static_cast<double>(height) && v.x == std::floor(v.x) && v.y == std::floor(v.y)) {
      hits->emplace_back(static_cast<int>(v.y), static_cast<int>(v.x));
    }
  }
  std::sort(hits->begin(), hits->end());
  hits->erase(std::unique(hits->begin(), hits->end()), hits->end());
  const int nhits = static_cast<int>(hits->size());
  if (hits->empty()) hits->emplace_back(0, 0);  // a buffer needs a byte; nhits says none

  Buffer dvertices(dev, staging->size() * sizeof(double));
  Buffer dhits(dev, hits->size() * sizeof(std::pair<int, int>));
  static_assert(sizeof(std::pair<int, int>) == 2 * sizeof(int));
  const Event uploads[] = {
      queue.write(dvertices, staging->data(), staging->size() * sizeof(double), 0, Blocking::no, wait),
      queue.write(dhits, hits->data(), hits->size() * sizeof(std::pair<int, int>), 0, Blocking::no, wait)};

  // Scratch for the kernel: a bit per pixel, a word-aligned row of them per image row.
  const std::size_t words = (width + 63) / 64;
  Buffer toggles(dev, height * words * sizeof(std::uint64_t));

  Kernel k = polygon_program(dev).kernel("polygon_mask");
  k.set_args(dvertices, static_cast<int>(vertices.size()), dhits, nhits, static_cast<int>(height),
             static_cast<int>(width), border_value, toggles, out);
  const std::size_t group = rows_per_group(dev.info(), height);
  const std::size_t global = (height + group - 1) / group * group;
  const Event done = queue.launch(k, NDRange(global), NDRange(group), {}, uploads);
  // The staging copies live until the kernel (hence both uploads, in any queue order) has
  // run, so the call returns at once.
  done.then([staging, hits](const Event&) {});
  return done;
}

Mask polygon_mask(Queue& queue, std::span<const Point> vertices, std::size_t height,
                  std::size_t width, std::uint8_t border_value) {
  check_request(vertices, height, width);
  Mask m;
  m.height = height;
  m.width = width;
  m.data.resize(height * width);
  if (m.data.empty()) return m;
  Buffer out(queue.device(), m.data.size());
  const Event done[] = {enqueue_polygon_mask(queue, vertices, height, width, out, border_value)};
  queue.read(out, m.data.data(), m.data.size(), 0, Blocking::yes, done);
  return m;
}

Mask polygon_mask(std::span<const Point> vertices, std::size_t height, std::size_t width,
                  const Device& device, std::uint8_t border_value) {
  if (!device) throw InvalidArgument("polygon_mask: no device given");
  Queue queue(device);
  return polygon_mask(queue, vertices, height, width, border_value);
}

}  // namespace weft
