// The sorted unique elements of an array, with NumPy's optional extras (numpy.unique of the
// flattened array):
//
//   weft::Unique u = weft::unique(a, true, true, true);
//   u.values;   // sorted distinct elements
//   u.index;    // int64: where each first occurs in a (flat index)
//   u.inverse;  // int64, a's shape: a == u.values[u.inverse]
//   u.counts;   // int64: how often each occurs
//
// Built on the radix sort (weft/sort.hpp): a stable sort (with the indices when index or
// inverse are asked for), then one scan that marks and numbers the runs of equal elements.
// Elements compare as the sort orders them: -0.0 equals 0.0, and with equal_nan (NumPy 2's
// default) all NaNs are one element, last; without it every NaN is its own.
#pragma once

#include "weft/export.hpp"

#include "weft/array.hpp"

namespace weft {

struct WEFT_API Unique {
  Array values;
  Array index;    // only when asked for (else an empty handle)
  Array inverse;
  Array counts;
};

WEFT_API Unique unique(const Array& a, bool return_index = false, bool return_inverse = false,
                       bool return_counts = false, bool equal_nan = true);

}  // namespace weft
