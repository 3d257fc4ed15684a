// The calling convention between the host backend and the shared objects it compiles.
// This file is included by the backend AND pasted at the top of every generated kernel
// source, so both sides agree on the layout by construction. Keep it free of includes
// beyond <cstddef>/<cstdint> and of anything dialect-specific.
#pragma once

#include <cstddef>
#include <cstdint>

namespace weft_host {

/// One launch's geometry. Dimensions past work_dim have offset 0, size 1, local size 1.
struct Launch {
  std::uint32_t work_dim;
  std::size_t goff[3];   // global offset
  std::size_t gsize[3];  // global size
  std::size_t lsize[3];  // work-group size
};

/// What a compiled kernel reports about its parameters: their count and sizeof each, so
/// the backend can check by-value arguments (structs included) before calling it.
struct KernelInfo {
  std::uint32_t num_args;
  std::uint32_t arg_size[64];
};

/// Runs the work-items whose linear index (x fastest, then y, then z, over the global
/// size) lies in [begin, end). args[i] points at the value of parameter i (for a buffer,
/// at the pointer to its memory).
using RunFn = void (*)(void* const* args, const Launch* launch, std::size_t begin,
                       std::size_t end);

}  // namespace weft_host
