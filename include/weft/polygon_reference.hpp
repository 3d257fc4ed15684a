// The polygon exercise's insidePolygon transcribed line for line, one pixel at a time: the
// rule polygon_mask computes (for integer vertices, pixel for pixel), kept simple so it can
// be read against the slides. Use it to check a mask on small images or as the
// straightforward baseline; it tests every edge for every pixel, so it is slow on large ones.
// Python's true division is IEEE double division here, as it is for the slides' integer
// vertices (exact below 2^53).
//
//   std::vector<std::uint8_t> want = weft::polygon_mask_reference(poly, 100, 120);
//   assert(want == weft::polygon_mask(poly, 100, 120).data);
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "weft/polygon.hpp"

namespace weft {

/// insidePolygon(vertices, (px, py)): the even-odd rule, border_value on a vertex.
inline bool inside_polygon(const std::vector<Point>& vertices, double px, double py, bool border_value) {
  int counter = 0;
  const std::size_t n = vertices.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Point& p1 = vertices[i];
    if (p1.x == px && p1.y == py) return border_value;
    const Point& p2 = vertices[(i + 1) % n];
    if (py > std::min(p1.y, p2.y)) {
      if (py <= std::max(p1.y, p2.y)) {
        if (px <= std::max(p1.x, p2.x)) {
          if (p1.y != p2.y) {
            const double xinters = (py - p1.y) * (p2.x - p1.x) / (p2.y - p1.y) + p1.x;
            if (p1.x == p2.x || px <= xinters) ++counter;
          }
        }
      }
    }
  }
  return counter % 2 != 0;
}

/// mask[y * width + x] = insidePolygon(vertices, (x, y)), with border_value on vertices.
inline std::vector<std::uint8_t> polygon_mask_reference(const std::vector<Point>& vertices,
                                                        std::size_t height, std::size_t width,
                                                        std::uint8_t border_value = 1) {
  std::vector<std::uint8_t> m(height * width);
  for (std::size_t y = 0; y < height; ++y) {
    for (std::size_t x = 0; x < width; ++x) {
      const double px = static_cast<double>(x), py = static_cast<double>(y);
      const bool vertex = std::any_of(vertices.begin(), vertices.end(),
                                      [&](const Point& v) { return v.x == px && v.y == py; });
      m[y * width + x] = vertex ? border_value : static_cast<std::uint8_t>(inside_polygon(vertices, px, py, true));
    }
  }
  return m;
}

}  // namespace weft
