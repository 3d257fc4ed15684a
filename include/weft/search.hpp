// Searching sorted data: numpy.searchsorted.
//
//   weft::Array at = weft::searchsorted(sorted, needles);          // int64, needles' shape
//   weft::Array after = weft::searchsorted(sorted, needles, true);  // side='right'
//   weft::Array via = weft::searchsorted(a, needles, false, weft::argsort(a));  // sorter=
//
// One work-item per needle, a binary search over the sorted 1-D array. Elements compare as
// weft::sort orders them (NaNs last, -0.0 equal to 0.0), in the two arrays' common dtype.
#pragma once

#include "weft/export.hpp"

#include "weft/array.hpp"

namespace weft {

/// For each element of v, the index where inserting it into the sorted 1-D array a keeps a
/// sorted: the first such index (left), or the last (right). sorter, when given, holds the
/// int64 indices that sort a (a need not be sorted then). InvalidArgument for a of another
/// dimension than 1, arrays on different devices, a sorter of the wrong size or dtype, or
/// with an index out of range.
WEFT_API Array searchsorted(const Array& a, const Array& v, bool right = false, const Array& sorter = Array());

}  // namespace weft
