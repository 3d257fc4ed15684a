// take, take_along_axis and repeat by an array of counts (weft/manipulation.hpp): each is one
// gather through an IndexPlan (src/array/indexing.cpp), whose offsets a fused elementwise
// kernel computes from the indices on the device. The indices are checked first, as NumPy
// checks them (a min and a max read back), so a bad index is an IndexOutOfRange, never a read
// outside the array.
#include <string>

#include "array/manipulation_axes.hpp"
#include "weft/error.hpp"
#include "weft/indexing.hpp"
#include "weft/manipulation.hpp"
#include "weft/search.hpp"

namespace weft {

namespace {

using detail::axis_index;

void integer_indices(const Array& x, const Array& indices, const char* who, const char* what) {
  if (!is_integer(indices.dtype())) {
    throw DTypeError(std::string(who) + ": " + what + " must be an array of integers, not " +
                     std::string(name(indices.dtype())));
  }
  detail::same_device({x, indices}, who);
}

std::int64_t read_one(const Array& a) { return a.to_host<std::int64_t>()[0]; }

// indices as int64 in [0, n): negative ones count from the end; one outside [-n, n) throws
// IndexOutOfRange with NumPy's message.
Array checked_indices(const Array& indices, std::int64_t n, std::size_t axis, const char* who) {
  const Expr ix = astype(Expr(indices), DType::int64);
  if (indices.size() == 0) return eval(ix);
  const std::int64_t lo = read_one(min(ix, {}, false)), hi = read_one(max(ix, {}, false));
  if (lo < -n || hi >= n) {
    throw IndexOutOfRange(std::string(who) + ": index " + std::to_string(lo < -n ? lo : hi) +
                          " is out of bounds for axis " + std::to_string(axis) + " with size " + std::to_string(n));
  }
  if (lo >= 0) return eval(ix);
  return eval(where(ix < Expr(0), ix + Expr(static_cast<long long>(n)), ix));
}

// Offsets into src's allocation of every position of the given shape, where dimension d
// steps by strides[d] (0 for a broadcast one): offset + sum of index * stride, fused.
Expr position_offsets(const Shape& shape, const Strides& strides, std::int64_t offset, const Device& dev) {
  Expr e = Expr::typed(static_cast<long long>(offset), DType::int64);
  for (std::size_t d = 0; d < shape.ndim(); ++d) {
    std::vector<std::int64_t> at(shape.ndim(), 1);
    at[d] = shape[d];
    const Array i = Array::arange_integers(0, shape[d], 1, DType::int64, dev).reshape(at);
    e = e + Expr(i) * Expr(static_cast<long long>(strides[d]));
  }
  return e;
}

// src's elements at int64 indices idx (already in [0, n)) along axis ax: one gather.
Array gather_along(const Array& src, const Array& idx, std::size_t ax) {
  std::vector<std::int64_t> out, rest;
  Strides rest_strides;
  std::int64_t post = 1;
  for (std::size_t d = 0; d < src.ndim(); ++d) {
    if (d == ax) {
      out.insert(out.end(), idx.shape().begin(), idx.shape().end());
      continue;
    }
    out.push_back(src.shape()[d]);
    rest.push_back(src.shape()[d]);
    rest_strides.push_back(src.strides()[d]);
    if (d > ax) post *= src.shape()[d];
  }
  const Shape shape(out);
  if (shape.size() == 0) return Array::empty(shape, src.dtype(), src.device());
  const Device dev = src.device();
  const Array off = eval(Expr(idx) * Expr(static_cast<long long>(src.strides()[ax])) +
                         Expr(static_cast<long long>(src.offset())));
  const Array roff = rest.empty() ? Array::zeros(Shape{1}, DType::int64, dev)
                                  : eval(position_offsets(Shape(rest), rest_strides, 0, dev));
  return gather(src, IndexPlan{off.ravel(), roff.ravel(), post, shape});
}

}  // namespace

Array take(const Array& x, const Array& indices, std::optional<int> axis) {
  integer_indices(x, indices, "take", "indices");
  const Array src = axis ? x : x.ravel();
  const std::size_t ax = axis_index(axis.value_or(0), src.ndim(), "take", "axis");
  return gather_along(src, checked_indices(indices, src.shape()[ax], ax, "take"), ax);
}

Array take_along_axis(const Array& x, const Array& indices, std::optional<int> axis) {
  integer_indices(x, indices, "take_along_axis", "indices");
  if (!axis && indices.ndim() != 1) {
    throw InvalidArgument("take_along_axis: without an axis, indices must be 1-D, not " +
                          std::to_string(indices.ndim()) + "-D");
  }
  const Array src = axis ? x : x.ravel();
  if (indices.ndim() != src.ndim()) {
    throw InvalidArgument("take_along_axis: indices and x must have the same number of dimensions, got " +
                          std::to_string(indices.ndim()) + " and " + std::to_string(src.ndim()));
  }
  const std::size_t ax = axis_index(axis.value_or(0), src.ndim(), "take_along_axis", "axis");
  // The result's shape: indices' along axis, the broadcast of the two elsewhere.
  std::vector<std::int64_t> out(src.ndim());
  Strides strides(src.ndim(), 0);
  for (std::size_t d = 0; d < src.ndim(); ++d) {
    const std::int64_t a = src.shape()[d], b = indices.shape()[d];
    if (d == ax) {
      out[d] = b;
      continue;
    }
    if (a != b && a != 1 && b != 1) {
      throw InvalidArgument("take_along_axis: indices of shape " + to_string(indices.shape()) +
                            " do not broadcast with x of shape " + to_string(src.shape()) + " (dimension " +
                            std::to_string(d) + ")");
    }
    out[d] = a == 1 ? b : a;
    strides[d] = a == 1 ? 0 : src.strides()[d];
  }
  const Shape shape(out);
  const Array idx = checked_indices(indices, src.shape()[ax], ax, "take_along_axis");
  if (shape.size() == 0) return Array::empty(shape, src.dtype(), src.device());
  const Device dev = src.device();
  // One offset per result element: x's position along the other axes plus the index's.
  const Expr along = Expr(idx.broadcast_to(shape)) * Expr(static_cast<long long>(src.strides()[ax]));
  const Array off = eval(position_offsets(shape, strides, src.offset(), dev) + along);
  return gather(src, IndexPlan{off.ravel(), Array::zeros(Shape{1}, DType::int64, dev), 1, shape});
}

Array repeat(const Array& x, const Array& repeats, std::optional<int> axis) {
  integer_indices(x, repeats, "repeat", "repeats");
  if (repeats.ndim() > 1) {
    throw InvalidArgument("repeat: repeats must be a number or a 1-D array, not " + std::to_string(repeats.ndim()) +
                          "-D");
  }
  if (repeats.size() == 1) return repeat(x, read_one(repeats.astype(DType::int64).ravel()), axis);
  const Array src = axis ? x : x.ravel();
  const std::size_t ax = axis_index(axis.value_or(0), src.ndim(), "repeat", "axis");
  const std::int64_t n = src.shape()[ax];
  if (repeats.size() != n) {
    throw InvalidArgument("repeat: repeats has " + std::to_string(repeats.size()) + " elements, but axis " +
                          std::to_string(ax) + " of x has " + std::to_string(n) + " (give one count per element)");
  }
  // Output position j takes element i where i is the number of running totals <= j: a binary
  // search of the totals for each position, then one gather.
  const Array totals = cumsum(astype(Expr(repeats), DType::int64));
  std::int64_t count = 0;
  if (n > 0) {
    if (!is_unsigned_integer(repeats.dtype()) && read_one(min(astype(Expr(repeats), DType::int64), {}, false)) < 0) {
      throw InvalidArgument("repeat: repeats may not contain negative values");
    }
    count = read_one(totals.slice(0, n - 1, n));
  }
  const Array positions = Array::arange_integers(0, count, 1, DType::int64, src.device());
  return gather_along(src, searchsorted(totals, positions, true), ax);
}

}  // namespace weft
