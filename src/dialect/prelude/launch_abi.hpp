// The calling convention between the host backend and the shared objects it compiles.
// This file is included by the backend AND pasted at the top of every generated kernel
// source, so both sides agree on the layout by construction. Keep it free of includes (a
// standard header would define macros such as offsetof or SIZE_MAX in front of the user's
// source, where OpenCL C lets them be ordinary names) and of anything dialect-specific.
#pragma once

namespace weft_host {

// The same types as std::size_t and std::uint32_t, named without <cstddef>/<cstdint>.
using size_t = decltype(sizeof 0);
using uint32_t = unsigned int;
static_assert(sizeof(uint32_t) == 4, "the launch ABI needs a 32-bit unsigned int");

/// One launch's geometry. Dimensions past work_dim have offset 0, size 1, local size 1.
struct Launch {
  uint32_t work_dim;
  size_t goff[3];   // global offset
  size_t gsize[3];  // global size
  size_t lsize[3];  // work-group size
};

/// What a compiled kernel reports about its parameters: their count and sizeof each, so
/// the backend can check by-value arguments (structs included) before calling it.
struct KernelInfo {
  uint32_t num_args;
  uint32_t arg_size[64];
};

/// Runs the work-items whose linear index (x fastest, then y, then z, over the global
/// size) lies in [begin, end). args[i] points at the value of parameter i (for a buffer,
/// at the pointer to its memory).
using RunFn = void (*)(void* const* args, const Launch* launch, size_t begin,
                       size_t end);

}  // namespace weft_host
