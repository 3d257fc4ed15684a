// Work estimates of the operations that are not one fused kernel (include/weft/placement.hpp):
// what a scan, a radix sort and polygon_mask read, write and compute, for the chooser.
#include <algorithm>
#include <bit>
#include <cstdint>

#include "weft/placement.hpp"

namespace weft {

WorkEstimate scan_work(std::int64_t n, double input_bytes, double ops_per_element, std::size_t result_size,
                       Arithmetic arithmetic) {
  WorkEstimate w;
  const double e = static_cast<double>(std::max<std::int64_t>(n, 0));
  w.elements = n;
  // The block sums read the expression, the second pass reads it again and writes the result.
  w.bytes_read = 2 * input_bytes;
  w.bytes_written = e * static_cast<double>(result_size);
  w.ops = e * (2 * std::max(1.0, ops_per_element) + 1);
  w.arithmetic = arithmetic;
  w.result_bytes = w.bytes_written;
  w.launches = 3;
  w.scan = true;
  return w;
}

WorkEstimate sort_work(std::int64_t n, std::size_t key_size, std::int64_t rows) {
  WorkEstimate w;
  const double e = static_cast<double>(std::max<std::int64_t>(n, 0));
  const auto k = static_cast<double>(key_size);
  w.elements = n;
  // 8-bit digits: a pass per key byte, and one per byte of the row numbers that varies.
  const std::uint64_t r = static_cast<std::uint64_t>(std::max<std::int64_t>(rows, 1));
  const double row_passes = r > 1 ? static_cast<double>((std::bit_width(r - 1) + 7) / 8) : 0.0;
  const double passes = k + row_passes;
  // Lines carry an int64 index per key through every pass.
  const double moved = k + (r > 1 ? 8.0 : 0.0);
  // Each pass: the count reads the keys, the scatter reads and writes keys (and indices).
  w.bytes_read = passes * e * (k + moved);
  w.bytes_written = passes * e * moved;
  w.ops = passes * e * 4;  // digit extraction, count, rank, address
  w.arithmetic = Arithmetic::integer;
  w.result_bytes = e * k;
  w.launches = 3 * passes;
  // A plain sort of n float32 keys (what the device's sort rate is measured on) moves 48 bytes
  // a key: 4 passes, each reading 8 and writing 4.
  w.sort_keys = (w.bytes_read + w.bytes_written) / 48.0;
  return w;
}

WorkEstimate polygon_work(std::size_t vertices, std::size_t height, std::size_t width) {
  WorkEstimate w;
  const double pixels = static_cast<double>(height) * static_cast<double>(width);
  w.elements = static_cast<std::int64_t>(height * width);
  // A vertex is two doubles, read by every row; the mask is a byte a pixel.
  w.bytes_read = static_cast<double>(height) * static_cast<double>(vertices) * 16;
  w.bytes_written = pixels;
  // Each row: every edge's crossing with it (about 8 operations in double), then its pixels
  // toggled and written (about 2 a pixel).
  w.ops = static_cast<double>(height) * static_cast<double>(vertices) * 8 + 2 * pixels;
  w.arithmetic = Arithmetic::float64;
  w.result_to_host = true;
  w.result_bytes = pixels;
  w.polygon_pixels = pixels;
  w.polygon_row_edges = static_cast<double>(height) * static_cast<double>(vertices);
  w.polygon_rows = static_cast<double>(height);
  return w;
}

}  // namespace weft
