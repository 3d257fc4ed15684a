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

/// A CUDA block for a launch that gives no local size: at most 256 items in all (a 2-d launch
/// of 256 x 4 = 1024 items fit one block per SM for a kernel of over 32 registers, half the
/// warps 256-item blocks keep busy), unless a grid dimension past x would then exceed CUDA's
/// 65535 blocks: then up to max_threads items, which puts more of y and z in each block.
inline void choose_cuda_block(const NDRange& global, std::size_t max_threads, std::size_t out[3]) {
  choose_local_sizes(global, std::min<std::size_t>(max_threads, 256), 256, 32, out);
  const auto fits = [&] {
    for (unsigned d = 1; d < 3; ++d) {
      if (d < global.dims() && global[d] / out[d] > 65535) return false;
    }
    return true;
  };
  if (!fits()) choose_local_sizes(global, max_threads, 256, 32, out);
}

}  // namespace weft::detail
