// The host backend's loop interchange for barrier-free kernels whose hot loop has uniform bounds
// (issue 29: the per-pixel polygon kernel). Run one work-item at a time, such a kernel's loop is
// scalar; PoCL vectorizes it across work-items. This pass writes a second function that runs the
// kernel for a strip of 64 consecutive work-items along dimension 0 (within one row):
//
//   - statements uniform across work-items (declarations with no varying value) run once per strip;
//   - a `for` whose init, condition and increment are uniform runs once per strip, around loops
//     over the strip's work-items ("lane loops") for the statements that differ per item;
//   - variables that differ per item and live across lane loops become arrays of 64; those equal
//     to get_global_id(d) are recomputed per lane instead;
//   - `return` becomes the item's done flag; after a lane loop that may return, the strip leaves
//     when no item is still running;
//   - a subscript of signed int arithmetic (+ - *) is computed in 64 bits, which gives the same
//     value whenever the int one does not overflow (undefined in OpenCL C), and lets GCC see
//     consecutive addresses.
//
//   - a strip-uniform variable (private pointers too) assigned at the split level from uniform
//     values (`p = v + i * 2;`) is assigned once per strip; calls of program functions that take
//     no pointer and call no other (pure leaves: pyk_umod_long) are per-item expressions.
//
// GCC then vectorizes the lane loops. Anything outside the shape (barriers, atomics, calls of other
// program functions, printf, address-of, break/continue/switch/while/goto, private arrays or
// per-item pointers at the split level, bounds-checked builds, edits of other passes in the kernel)
// returns nullopt, and the kernel keeps the per-work-item path.
//
//   if (auto s = strip_kernel(parsed, k, edits, symbol)) text += s->definition;  // <symbol>__strip
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dialect/edits.hpp"
#include "dialect/parse.hpp"

namespace weft::detail::dialect {

struct StripKernel {
  std::string definition;  // static inline void <symbol>__strip(WorkItem, int count, params...)
};

/// edits: the other passes' edits of the translation; a kernel they touch is not transformed.
std::optional<StripKernel> strip_kernel(const ParsedSource& parsed, const Function& kernel,
                                        const std::vector<Edit>& edits, const std::string& symbol);

}  // namespace weft::detail::dialect
