// polygon_mask on device auto (include/weft/polygon.hpp): the chooser weighs the mask's work on
// each device (weft::polygon_work) and its copy to the host, with the vertices as the one input
// (in host memory).
#include <bit>
#include <cstdint>
#include <span>

#include "array/array_queue.hpp"
#include "array/auto_device.hpp"
#include "weft/error.hpp"
#include "weft/placement.hpp"
#include "weft/polygon.hpp"

namespace weft {

void polygon_mask_auto_into(std::span<const Point> vertices, std::size_t height, std::size_t width,
                            std::span<std::uint8_t> out, std::uint8_t border_value) {
  const WorkEstimate work = polygon_work(vertices.size(), height, width);
  // The vertices, two doubles each, start in host memory.
  const InputResidence in[] = {{.bytes = 16.0 * static_cast<double>(vertices.size()), .valid_on = 0, .on_host = true}};
  // The signature: the operation and the vertex count's class (4 and 256 vertices cost unlike).
  const std::uint64_t signature =
      0x706f6c79676f6e00ULL ^ static_cast<std::uint64_t>(std::bit_width(static_cast<std::uint64_t>(vertices.size())));
  const detail::AutoPlacement placed = detail::place_work("polygon_mask", signature, work, in);
  polygon_mask_into(detail::array_queue(placed.device), vertices, height, width, out, border_value);
  detail::learn_now(placed);
}

Mask polygon_mask_auto(std::span<const Point> vertices, std::size_t height, std::size_t width,
                       std::uint8_t border_value) {
  Mask m;
  m.height = height;
  m.width = width;
  m.data.resize(height * width);
  polygon_mask_auto_into(vertices, height, width, m.data, border_value);
  return m;
}

}  // namespace weft
