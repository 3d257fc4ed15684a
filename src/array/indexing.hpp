// NumPy's advanced indexing, the kernels of it: gather and scatter through a planned index,
// compress and expand through a boolean mask. The planning (which elements, in what order and
// shape, NumPy's errors) is the caller's: python/weft/_indexing.py. Not a public API.
//
//   // a[[2, 0]] of a 1-D float array a: result element i is element off[i] of a's memory.
//   detail::IndexPlan plan{Array::from_host<std::int64_t>(offsets, {2}, dev),
//                          Array::zeros({1}, DType::int64, dev), 1, Shape{2}};
//   Array picked = detail::gather(a, plan);
//   detail::scatter(a, plan, values);                  // a[[2, 0]] = values
//   Array kept = detail::compress(a, mask);            // a[mask], mask of a's leading dimensions
//   detail::expand(a, mask, values);                   // a[mask] = values
//
// Each runs one generated kernel (a scan for compress and expand) on the device's array
// queue; the operands' pending work and lazy readers are ordered as for any array operation.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "weft/array.hpp"

namespace weft::detail {

/// Where the elements of an advanced-indexing result lie in the indexed array's allocation.
/// Element i of the result (C order) is element off[i / post % nb] + roff[i / (post * nb) *
/// post + i % post] of the allocation (counted from its start, whatever the view's own offset
/// and strides), nb = off.size(). Every offset must lie inside the allocation: the planner
/// checked the indices.
struct IndexPlan {
  Array off;              // int64, one offset per position of the broadcast index arrays
  Array roff;             // int64, one offset per position of the dimensions not indexed
  std::int64_t post = 1;  // the result's elements after the broadcast dimensions
  Shape shape;            // the result's shape (off.size() * roff.size() elements)
};

/// The indexed elements of src's allocation, as a new array of plan.shape.
Array gather(const Array& src, const IndexPlan& plan);
/// Writes values (broadcast to plan.shape, cast to dst's dtype, as NumPy's assignment) to the
/// indexed elements of dst's allocation. Where an element is indexed more than once, which of
/// its values lands is unspecified (as in CuPy).
void scatter(const Array& dst, const IndexPlan& plan, const Array& values);

/// src[mask]: the rows of src where mask (bool, of src's leading dimensions' shape) is true,
/// in C order, as a new array of shape (count,) + the shape of the remaining dimensions.
Array compress(const Array& src, const Array& mask);
/// dst[mask] = values: values (broadcast to the shape compress would give, cast to dst's
/// dtype) go to the selected rows of dst, in order.
void expand(const Array& dst, const Array& mask, const Array& values);

/// The generated sources of the four kernels for dtype, named (NVRTC compiles them in tests).
std::vector<std::pair<const char*, std::string_view>> indexing_sources(DType dtype);

}  // namespace weft::detail
