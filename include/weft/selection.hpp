// Where the nonzero elements are: NumPy's flatnonzero, nonzero, argwhere and extract, on
// expressions (argwhere(a > 0.5) reads a once), on every backend. The indices are int64.
//
//   weft::Array flat = weft::flatnonzero(a > 0);          // flat (C-order) indices
//   std::vector<weft::Array> ij = weft::nonzero(m);       // one index array per dimension
//   weft::Array rows = weft::argwhere(m);                 // (count, ndim)
//   weft::Array picked = weft::extract(a > 0, a);         // the elements themselves, flattened
//
// Each result's length is known only once the condition is counted: these calls wait for
// that count (one small read back), as CuPy's do.
#pragma once

#include <vector>

#include "weft/array.hpp"
#include "weft/export.hpp"

namespace weft {

/// The flat (C-order) indices of expr's nonzero elements (NaN counts as nonzero), ascending.
WEFT_API Array flatnonzero(const Expr& expr);
/// One array of indices per dimension of expr, for its nonzero elements in C order. A 0-d
/// expression is refused, as NumPy 2 refuses it.
WEFT_API std::vector<Array> nonzero(const Expr& expr);
/// The indices of expr's nonzero elements as rows of a (count, ndim) array, in C order.
WEFT_API Array argwhere(const Expr& expr);
/// The elements of arr where condition is nonzero, in C order (both flattened; condition
/// must have as many elements as arr).
WEFT_API Array extract(const Expr& condition, const Expr& arr);

}  // namespace weft
