// The workloads of `weft bench placement` (bench/suites/placement.cpp): each runs the same
// work on arrays of one fixed device or on automatic arrays, or (polygon_mask, which reads no
// array) on a named device or on device auto.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "weft/weft.hpp"

namespace weft::bench {

struct PlacementWorkload {
  std::string name;      // "light a*b+c", "sum", "polygon 4 vertices", ...
  std::size_t inputs;    // float32 arrays of n elements it reads (0: polygon_mask)
  // The work on arrays (all of one fixed device, or all automatic). to_host: the inputs came
  // from host memory, so the result is read there too (a value, or the array copied out);
  // otherwise an array result stays where it is computed and is waited for.
  std::function<void(const std::vector<Array>& in, bool to_host)> on_arrays;
  // polygon_mask: the mask of n pixels on device (empty: device auto), into host memory.
  std::function<void(const Device* device, std::size_t n)> on_device;
};

/// Every workload: elementwise light and heavy, sum, cumsum, sort, a chain of operations on the
/// same data, polygon_mask with 4 and 256 vertices.
std::vector<PlacementWorkload> placement_workloads();

}  // namespace weft::bench
