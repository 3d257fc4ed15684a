// Polygon masks: which pixels of an image lie inside a polygon, by the even-odd rule of the
// polygon exercise's insidePolygon (docs/POLYGON.md gives the rule, its edge cases and the
// scanline algorithm that computes it).
//
//   std::vector<weft::Point> poly{{10, 10}, {90, 20}, {50, 80}};   // (x, y), closed implicitly
//   weft::Mask m = weft::polygon_mask(poly, 100, 120);            // 100 rows of 120 pixels
//   if (m.at(40, 50)) { ... }                                     // row y = 40, column x = 50
//
// mask[y][x] tests the point (x, y); a pixel equal to a vertex takes border_value (default
// 1). Vertices are doubles and may be non-integer, repeated or outside the image; any count
// from 1 works (0 gives an empty polygon). The result is the same on every device: for
// integer vertices it equals the reference rule pixel for pixel.
//
// To keep the mask on the device, or to chain work after it, enqueue into a buffer:
//
//   weft::Buffer out(dev, 100 * 120);
//   weft::Event e = weft::enqueue_polygon_mask(queue, poly, 100, 120, out);
//   e.wait();  double s = e.profile().seconds();                   // the kernel's device time
#pragma once

#include "weft/export.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "weft/buffer.hpp"
#include "weft/device.hpp"
#include "weft/event.hpp"
#include "weft/queue.hpp"

namespace weft {

/// A vertex: x is the column, y the row, in pixel units (pixel (x, y) is at integer x, y).
struct WEFT_API Point {
  double x = 0;
  double y = 0;
  friend bool operator==(const Point&, const Point&) = default;
};

/// A uint8 image on the host, row-major (C order, as a NumPy (height, width) array).
struct WEFT_API Mask {
  std::size_t height = 0;
  std::size_t width = 0;
  std::vector<std::uint8_t> data;  // height * width values, data[y * width + x]

  std::uint8_t at(std::size_t y, std::size_t x) const { return data[y * width + x]; }
};

/// The exercise's random polygon: n integer vertices drawn uniformly from [0, width] x
/// [0, height] (both ends included, as Python's random.randint). The same seed gives the
/// same vertices on every machine and standard library.
WEFT_API std::vector<Point> random_polygon(std::size_t n, std::uint64_t seed, std::size_t width,
                                  std::size_t height);

/// The mask of the polygon on device, copied to the host.
/// Throws InvalidArgument for a non-finite vertex or an image too large for int indices,
/// Unsupported on a device without double precision.
WEFT_API Mask polygon_mask(std::span<const Point> vertices, std::size_t height, std::size_t width,
                  const Device& device = default_device(), std::uint8_t border_value = 1);

/// The same on queue's device: the queue is reused, which saves starting one per call.
/// On devices other than the host backend, the device and pinned host memory a call needs
/// are kept for later calls on the same device (a few sets of at most 256 MiB each; see
/// docs/POLYGON.md).
WEFT_API Mask polygon_mask(Queue& queue, std::span<const Point> vertices, std::size_t height,
                  std::size_t width, std::uint8_t border_value = 1);

/// The same into out (height * width bytes of host memory): no vector to allocate and fault
/// in. Out from weft::result_memory (reused, pinned on CUDA) makes a large mask's copy back
/// run at the copy engine's speed. InvalidArgument when out has another size.
WEFT_API void polygon_mask_into(Queue& queue, std::span<const Point> vertices, std::size_t height,
                                std::size_t width, std::span<std::uint8_t> out, std::uint8_t border_value = 1);

/// The mask on the device where device auto expects it first (docs/PLACEMENT.md): the chooser
/// weighs each device's work (rows x vertices crossings and the pixels, weft::polygon_work) and
/// the mask's copy to the host; a pinned device (weft::PlacementPin) decides instead. The
/// decision is remembered per (vertex count class, size class). Runs on the array layer's
/// queue of that device.
///
///   weft::Mask m = weft::polygon_mask_auto(poly, 1000, 1000);
WEFT_API Mask polygon_mask_auto(std::span<const Point> vertices, std::size_t height, std::size_t width,
                                std::uint8_t border_value = 1);
/// The same into out (height * width bytes of host memory).
WEFT_API void polygon_mask_auto_into(std::span<const Point> vertices, std::size_t height, std::size_t width,
                                     std::span<std::uint8_t> out, std::uint8_t border_value = 1);

/// Enqueues the mask into out (at least height * width bytes on queue's device) after the
/// events in wait, and returns at once with the event of the kernel that writes it. The
/// vertices are copied before it returns.
WEFT_API Event enqueue_polygon_mask(Queue& queue, std::span<const Point> vertices,
                           std::size_t height, std::size_t width, const Buffer& out,
                           std::uint8_t border_value = 1, std::span<const Event> wait = {});

}  // namespace weft
