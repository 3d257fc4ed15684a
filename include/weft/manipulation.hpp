// The Array API's creation, manipulation and indexing functions that rearrange elements:
// NumPy's names and results (dtypes included), on the arrays' own device.
//
//   weft::Array i3 = weft::eye(3, std::nullopt, 0, weft::DType::float32, dev);
//   weft::Array lower = weft::tril(a);                            // one fused where()
//   weft::Array ab = weft::concat({a, b}, 0);                     // one copy kernel per operand
//   weft::Array r = weft::roll(a, {1}, std::vector<int>{0});     // a copy of a's blocks
//   weft::Array picked = weft::take(a, idx, 1);                   // one gather kernel
//   weft::Array v = weft::flip(a);                                // a view (negative strides)
//
// Views where NumPy gives views (broadcast_arrays, unstack, expand_dims, squeeze, flip,
// moveaxis, permute_dims); otherwise a new contiguous array written by generated elementwise
// copies (concat, stack, repeat, roll, tile, meshgrid, tril, triu, eye) or a gather kernel
// (take, take_along_axis, repeat by an array of counts). Nothing goes through host memory
// but what decides a result's shape or an index error: the total of an array of repeats, and
// whether any index is out of range (one small read each). Negative axes count from the end;
// a bad argument throws InvalidArgument naming it (IndexOutOfRange for an index).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "weft/array.hpp"
#include "weft/export.hpp"

namespace weft {

// ---- creation ---------------------------------------------------------------------------

/// n_rows x n_cols (n_rows when none) with ones on diagonal k (above the main one for k > 0).
WEFT_API Array eye(std::int64_t n_rows, std::optional<std::int64_t> n_cols, std::int64_t k, DType dtype,
                   const Device& device);
/// x with the elements above diagonal k (tril) or below it (triu) of its last two axes set
/// to zero; a 1-D x is taken as the square matrix of its rows repeated, as NumPy does.
WEFT_API Array tril(const Array& x, std::int64_t k = 0);
WEFT_API Array triu(const Array& x, std::int64_t k = 0);
/// Coordinate matrices of 1-D arrays (each keeps its dtype): xy indexing swaps the first two
/// output dimensions (Cartesian), ij does not (matrix).
enum class MeshIndexing { xy, ij };
WEFT_API std::vector<Array> meshgrid(const std::vector<Array>& arrays, MeshIndexing indexing = MeshIndexing::xy);

// ---- manipulation -----------------------------------------------------------------------

/// Views of the arrays broadcast to their common shape.
WEFT_API std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays);
/// The arrays joined along axis (none: each flattened first) in their result type.
WEFT_API Array concat(const std::vector<Array>& arrays, std::optional<int> axis = 0);
/// Arrays of one shape joined along a new axis.
WEFT_API Array stack(const std::vector<Array>& arrays, int axis = 0);
/// The views x[..., i, ...] along axis.
WEFT_API std::vector<Array> unstack(const Array& x, int axis = 0);
/// x with extent-1 axes inserted (axes count in the result's dimensions).
WEFT_API Array expand_dims(const Array& x, const std::vector<int>& axes);
/// x without the given extent-1 axes (none: every extent-1 axis).
WEFT_API Array squeeze(const Array& x, const std::optional<std::vector<int>>& axes = std::nullopt);
/// x reversed along axes (none: every axis).
WEFT_API Array flip(const Array& x, const std::optional<std::vector<int>>& axes = std::nullopt);
/// x with axes source moved to positions destination, the others in their order.
WEFT_API Array moveaxis(const Array& x, const std::vector<int>& source, const std::vector<int>& destination);
/// x's axes in the order given (a permutation of 0 .. ndim-1).
WEFT_API Array permute_dims(const Array& x, const std::vector<int>& axes);
/// Each element repeated along axis (none: of the flattened x), repeats times or, with an
/// array of counts (integers, one per element along axis or one for all), that many times.
WEFT_API Array repeat(const Array& x, std::int64_t repeats, std::optional<int> axis = std::nullopt);
WEFT_API Array repeat(const Array& x, const Array& repeats, std::optional<int> axis = std::nullopt);
/// x's elements shifted along axes (none: of the flattened x), wrapping around; shifts and
/// axes pair up (one shift for every axis, or one each), shifts on one axis add.
WEFT_API Array roll(const Array& x, const std::vector<std::int64_t>& shifts,
                    const std::optional<std::vector<int>>& axes = std::nullopt);
/// x repeated reps[d] times along each dimension (NumPy's tile: the shorter of x's shape and
/// reps is padded with leading ones).
WEFT_API Array tile(const Array& x, const std::vector<std::int64_t>& reps);

// ---- indexing ---------------------------------------------------------------------------

/// The elements of x at integer indices along axis (none: of the flattened x); the result's
/// shape is x's with axis replaced by indices' shape. Negative indices count from the end.
WEFT_API Array take(const Array& x, const Array& indices, std::optional<int> axis = std::nullopt);
/// result[..., j, ...] = x[..., indices[..., j, ...], ...] along axis: indices has x's number
/// of dimensions and broadcasts with x along the others (none: both flattened).
WEFT_API Array take_along_axis(const Array& x, const Array& indices, std::optional<int> axis = -1);

}  // namespace weft
