// WEFT_BOUNDS_CHECK in the dialect: a kernel's accesses p[i] on its __global pointer
// parameters become checked accesses, before any target's translation (so the host, CUDA and
// OpenCL all get them alike). The kernel takes hidden parameters after its own: the error
// record (__global uint* weft_bce) and, for each checked parameter, the bytes of its Buffer
// (ulong weft_bcn<j>), which the runtime fills in at launch (runtime/bounds_check.hpp).
//
//   c[i] = a[i];   ->   (*weft_bc0_2(c, (long)(i), weft_bcn2, weft_bce, 7u, 1, get_global_id(0), ...)) = ...
//
// The helper returns p + i when 0 <= i < bytes / sizeof(*p); otherwise it records the first
// bad access (parameter, line, index, count, work-item) and returns a scratch element of the
// record: writes go to a scratch area, reads read zeros. Text is only inserted on the lines
// where it applies: line numbers stay the user's.
//
// Checked: p[i] inside a kernel's body where p is a __global pointer parameter to a scalar or
// vector type that the body never reassigns (p = ..., p += ..., p++, &p). Left unchecked:
// pointer arithmetic (*(p + i), vload/vstore), local pointer variables (q = p + k; q[i]),
// accesses in helper functions and in macros, __constant and __local memory, pointers to structs.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "dialect/parse.hpp"
#include "runtime/bounds_check.hpp"

namespace weft::detail::dialect {

struct BoundsInstrumented {
  std::string text;                                               // the source with checks
  std::map<std::string, std::shared_ptr<const BoundsPlan>> plans;  // by kernel; empty: none checked
};

/// The checked form of parsed (see above); plans is empty when no kernel has an access to check.
BoundsInstrumented instrument_bounds(const ParsedSource& parsed);

}  // namespace weft::detail::dialect
