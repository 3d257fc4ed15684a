// NumPy's advanced indexing, the kernels of it: gather and scatter through a planned index,
// select and scatter rows through a boolean mask (PyTorch's masked_select and masked_scatter).
// The planning (which elements, in what order and shape, NumPy's errors) is the caller's:
// Python's weft.Array plans it in python/weft/_indexing.py.
//
//   // a[[2, 0]] of a 1-D float array a: result element i is element off[i] of a's memory.
//   weft::IndexPlan plan{Array::from_host<std::int64_t>(offsets, {2}, dev),
//                        Array::zeros({1}, DType::int64, dev), 1, Shape{2}};
//   Array picked = weft::gather(a, plan);
//   weft::scatter(a, plan, values);                  // a[[2, 0]] = values
//   Array kept = weft::masked_select(a, mask);       // a[mask], mask of a's leading dimensions
//   weft::masked_scatter(a, mask, values);           // a[mask] = values
//
// Each runs one generated kernel (a scan for the masked ones) on the device's array queue;
// the operands' pending work and lazy readers are ordered as for any array operation.
#pragma once

#include <cstdint>

#include "weft/array.hpp"
#include "weft/export.hpp"

namespace weft {

/// Where the elements of an advanced-indexing result lie in the indexed array's allocation.
/// Element i of the result (C order) is element off[i / post % nb] + roff[i / (post * nb) *
/// post + i % post] of the allocation (counted from its start, whatever the view's own offset
/// and strides), nb = off.size(). Every offset must lie inside the allocation: the planner
/// checked the indices.
struct WEFT_API IndexPlan {
  Array off;              // int64, one offset per position of the broadcast index arrays
  Array roff;             // int64, one offset per position of the dimensions not indexed
  std::int64_t post = 1;  // the result's elements after the broadcast dimensions
  Shape shape;            // the result's shape (off.size() * roff.size() elements)
};

/// The indexed elements of src's allocation, as a new array of plan.shape.
WEFT_API Array gather(const Array& src, const IndexPlan& plan);
/// Writes values (broadcast to plan.shape, cast to dst's dtype, as NumPy's assignment) to the
/// indexed elements of dst's allocation. Where an element is indexed more than once, which of
/// its values lands is unspecified (as in CuPy).
WEFT_API void scatter(const Array& dst, const IndexPlan& plan, const Array& values);

/// src[mask]: the rows of src where mask (bool, of src's leading dimensions' shape) is true,
/// in C order, as a new array of shape (count,) + the shape of the remaining dimensions.
WEFT_API Array masked_select(const Array& src, const Array& mask);
/// dst[mask] = values: values (broadcast to the shape masked_select would give, cast to dst's
/// dtype) go to the selected rows of dst, in order.
WEFT_API void masked_scatter(const Array& dst, const Array& mask, const Array& values);

}  // namespace weft
