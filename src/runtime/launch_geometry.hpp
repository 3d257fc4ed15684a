// Choosing a work-group size when a launch gives none, shared by the device backends.
#pragma once

#include <algorithm>
#include <cstddef>

#include "weft/ndrange.hpp"

namespace weft::detail {

/// The largest divisor of global not above limit, preferring multiples of `multiple` (the
/// warp or SIMD width): a valid OpenCL 1.2 work-group size that keeps the device busy.
inline std::size_t choose_local_size(std::size_t global, std::size_t limit, std::size_t multiple) {
  limit = std::max<std::size_t>(1, std::min(limit, global));
  if (multiple > 1) {
    for (std::size_t l = limit - limit % multiple; l >= multiple; l -= multiple) {
      if (global % l == 0) return l;
    }
  }
  for (std::size_t l = limit; l > 1; --l) {
    if (global % l == 0) return l;
  }
  return 1;
}

/// Local sizes for every dimension of global: dimension 0 gets up to `preferred` items,
/// the others share what is left of max_group.
inline void choose_local_sizes(const NDRange& global, std::size_t max_group, std::size_t preferred,
                               std::size_t multiple, std::size_t out[3]) {
  std::size_t group = 1;
  for (unsigned d = 0; d < 3; ++d) {
    if (d >= global.dims()) {
      out[d] = 1;
      continue;
    }
    const std::size_t room = std::max<std::size_t>(1, max_group / group);
    out[d] = d == 0 ? choose_local_size(global[d], std::min(room, preferred), multiple)
                    : choose_local_size(global[d], std::min<std::size_t>(room, 16), 1);
    group *= out[d];
  }
}

}  // namespace weft::detail
