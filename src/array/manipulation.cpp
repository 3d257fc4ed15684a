// The Array API's rearranging functions (weft/manipulation.hpp) that are views or copies:
// views through as_strided and slice where NumPy gives views, and otherwise a new array
// written by generated elementwise copies (Array::assign into views of it), so the elements
// never leave their device. take, take_along_axis and repeat by counts, which index through
// a gather, are in src/algorithms/take.cpp.
#include "weft/manipulation.hpp"

#include <algorithm>
#include <functional>
#include <string>

#include "array/manipulation_axes.hpp"
#include "weft/error.hpp"

namespace weft {

namespace detail {

std::size_t axis_index(std::int64_t axis, std::size_t ndim, const std::string& who, const char* what) {
  const auto n = static_cast<std::int64_t>(ndim);
  if (axis < -n || axis >= n) {
    throw InvalidArgument(who + ": " + what + " " + std::to_string(axis) + " is out of bounds for array of dimension " +
                          std::to_string(ndim));
  }
  return static_cast<std::size_t>(axis < 0 ? axis + n : axis);
}

std::vector<std::size_t> axis_indices(const std::vector<int>& axes, std::size_t ndim, const std::string& who,
                                      const char* what) {
  std::vector<std::size_t> out;
  for (int a : axes) {
    const std::size_t d = axis_index(a, ndim, who, what);
    if (std::find(out.begin(), out.end(), d) != out.end()) {
      throw InvalidArgument(who + ": repeated axis " + std::to_string(a) + " in " + what);
    }
    out.push_back(d);
  }
  return out;
}

Array permuted(const Array& x, const std::vector<std::size_t>& order) {
  std::vector<std::int64_t> dims;
  Strides st;
  for (auto d : order) {
    dims.push_back(x.shape()[d]);
    st.push_back(x.strides()[d]);
  }
  return x.as_strided(Shape(dims), st, x.offset());
}

void same_device(const std::vector<Array>& arrays, const std::string& who) {
  for (std::size_t i = 1; i < arrays.size(); ++i) {
    if (!(arrays[i].device() == arrays[0].device())) {
      throw InvalidArgument(who + ": the array at index " + std::to_string(i) + " is on " +
                            arrays[i].device().selector() + ", the array at index 0 on " +
                            arrays[0].device().selector() + " (move one with to())");
    }
  }
}

}  // namespace detail

using detail::axis_index;
using detail::axis_indices;

namespace {

// A view of x with an extent-1 axis (stride 0) inserted before dimension d.
Array with_unit_axis(const Array& x, std::size_t d) {
  std::vector<std::int64_t> dims = x.shape().dims();
  Strides st = x.strides();
  dims.insert(dims.begin() + static_cast<std::ptrdiff_t>(d), 1);
  st.insert(st.begin() + static_cast<std::ptrdiff_t>(d), 0);
  return x.as_strided(Shape(dims), st, x.offset());
}

Array triangle(const Array& x0, std::int64_t k, bool lower, const char* who) {
  if (x0.ndim() == 0) throw InvalidArgument(std::string(who) + ": x must have at least one dimension, not 0");
  const Array x = x0.ndim() == 1 ? x0.broadcast_to(Shape{x0.shape()[0], x0.shape()[0]}) : x0;
  const std::int64_t rows = x.shape()[x.ndim() - 2], cols = x.shape()[x.ndim() - 1];
  const Device dev = x.device();
  // The kept elements are those whose column minus row is at most k (tril) or at least k
  // (triu): one where() over x and two small index arrays, fused into one kernel.
  const Array r = Array::arange_integers(0, rows, 1, DType::int64, dev).reshape({rows, 1});
  const Array c = Array::arange_integers(0, cols, 1, DType::int64, dev).reshape({1, cols});
  const Expr above = Expr(c) - Expr(r);
  const Expr kk = Expr::typed(static_cast<long long>(k), DType::int64);
  const Expr keep = lower ? above <= kk : above >= kk;
  return eval(astype(where(keep, Expr(x), Expr(false)), x.dtype()));
}

}  // namespace

// ---- creation ---------------------------------------------------------------------------

Array eye(std::int64_t n_rows, std::optional<std::int64_t> n_cols, std::int64_t k, DType dtype, const Device& device) {
  const std::int64_t cols = n_cols.value_or(n_rows);
  if (n_rows < 0 || cols < 0) {
    throw InvalidArgument("eye: n_rows and n_cols must not be negative, got " + std::to_string(n_rows) + " and " +
                          std::to_string(cols));
  }
  Array out = Array::zeros(Shape{n_rows, cols}, dtype, device);
  if (k >= cols || k <= -n_rows) return out;
  // The diagonal is a strided view (a step of one row and one column): one more kernel writes it.
  const std::int64_t r0 = k < 0 ? -k : 0, c0 = k > 0 ? k : 0;
  const std::int64_t len = std::min(n_rows - r0, cols - c0);
  out.as_strided(Shape{len}, {cols + 1}, r0 * cols + c0).assign(Expr(1));
  return out;
}

Array tril(const Array& x, std::int64_t k) { return triangle(x, k, true, "tril"); }
Array triu(const Array& x, std::int64_t k) { return triangle(x, k, false, "triu"); }

std::vector<Array> meshgrid(const std::vector<Array>& arrays, MeshIndexing indexing) {
  detail::same_device(arrays, "meshgrid");
  const std::size_t n = arrays.size();
  std::vector<std::int64_t> dims;
  for (const Array& a : arrays) dims.push_back(a.size());
  const bool xy = indexing == MeshIndexing::xy && n >= 2;
  if (xy) std::swap(dims[0], dims[1]);
  std::vector<Array> out;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::int64_t> at(n, 1);
    const std::size_t d = xy && i < 2 ? 1 - i : i;
    at[d] = dims[d];
    out.push_back(arrays[i].ravel().reshape(at).broadcast_to(Shape(dims)).copy());
  }
  return out;
}

// ---- manipulation -----------------------------------------------------------------------

std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays) {
  Shape shape;
  for (const Array& a : arrays) shape = broadcast_shapes(shape, a.shape());
  std::vector<Array> out;
  for (const Array& a : arrays) out.push_back(a.broadcast_to(shape));
  return out;
}

Array concat(const std::vector<Array>& arrays, std::optional<int> axis) {
  if (arrays.empty()) throw InvalidArgument("concat: need at least one array to concatenate");
  detail::same_device(arrays, "concat");
  std::vector<Array> parts;
  for (const Array& a : arrays) parts.push_back(axis ? a : a.ravel());
  const std::size_t nd = parts[0].ndim();
  if (nd == 0) throw InvalidArgument("concat: zero-dimensional arrays cannot be concatenated");
  const std::size_t ax = axis_index(axis.value_or(0), nd, "concat", "axis");
  std::vector<std::int64_t> dims = parts[0].shape().dims();
  dims[ax] = 0;
  DType type = parts[0].dtype();
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Shape& s = parts[i].shape();
    if (s.ndim() != nd) {
      throw InvalidArgument("concat: all the input arrays must have the same number of dimensions, but the array at "
                            "index 0 has " + std::to_string(nd) + " dimension(s) and the array at index " +
                            std::to_string(i) + " has " + std::to_string(s.ndim()) + " dimension(s)");
    }
    for (std::size_t d = 0; d < nd; ++d) {
      if (d != ax && s[d] != dims[d]) {
        throw InvalidArgument("concat: all the input array dimensions except for the concatenation axis must match "
                              "exactly, but along dimension " + std::to_string(d) + ", the array at index 0 has size " +
                              std::to_string(dims[d]) + " and the array at index " + std::to_string(i) + " has size " +
                              std::to_string(s[d]));
      }
    }
    dims[ax] += s[ax];
    if (i > 0) type = result_type(type, parts[i].dtype());
  }
  Array out = Array::empty(Shape(dims), type, parts[0].device());
  if (out.size() == 0) return out;
  std::int64_t at = 0;
  for (const Array& p : parts) {
    const std::int64_t len = p.shape()[ax];
    if (len > 0) out.slice(ax, at, at + len).assign(astype(Expr(p), type));
    at += len;
  }
  return out;
}

Array stack(const std::vector<Array>& arrays, int axis) {
  if (arrays.empty()) throw InvalidArgument("stack: need at least one array to stack");
  for (std::size_t i = 1; i < arrays.size(); ++i) {
    if (arrays[i].shape() != arrays[0].shape()) {
      throw InvalidArgument("stack: all input arrays must have the same shape, but the array at index 0 has shape " +
                            to_string(arrays[0].shape()) + " and the array at index " + std::to_string(i) +
                            " has shape " + to_string(arrays[i].shape()));
    }
  }
  const std::size_t ax = axis_index(axis, arrays[0].ndim() + 1, "stack", "axis");
  std::vector<Array> parts;
  for (const Array& a : arrays) parts.push_back(with_unit_axis(a, ax));
  return concat(parts, static_cast<int>(ax));
}

std::vector<Array> unstack(const Array& x, int axis) {
  if (x.ndim() == 0) throw InvalidArgument("unstack: x must have at least one dimension, not 0");
  const std::size_t ax = axis_index(axis, x.ndim(), "unstack", "axis");
  std::vector<std::int64_t> dims = x.shape().dims();
  Strides st = x.strides();
  dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(ax));
  st.erase(st.begin() + static_cast<std::ptrdiff_t>(ax));
  std::vector<Array> out;
  for (std::int64_t i = 0; i < x.shape()[ax]; ++i) {
    out.push_back(x.as_strided(Shape(dims), st, x.offset() + i * x.strides()[ax]));
  }
  return out;
}

Array expand_dims(const Array& x, const std::vector<int>& axes) {
  const std::size_t nd = x.ndim() + axes.size();
  std::vector<std::size_t> at = axis_indices(axes, nd, "expand_dims", "axis");
  std::sort(at.begin(), at.end());
  Array out = x;
  for (std::size_t d : at) out = with_unit_axis(out, d);
  return out;
}

Array squeeze(const Array& x, const std::optional<std::vector<int>>& axes) {
  std::vector<std::size_t> drop;
  if (axes) {
    drop = axis_indices(*axes, x.ndim(), "squeeze", "axis");
    for (std::size_t d : drop) {
      if (x.shape()[d] != 1) {
        throw InvalidArgument("squeeze: cannot select an axis to squeeze out which has size not equal to one (axis " +
                              std::to_string(d) + " has size " + std::to_string(x.shape()[d]) + ")");
      }
    }
  } else {
    for (std::size_t d = 0; d < x.ndim(); ++d) {
      if (x.shape()[d] == 1) drop.push_back(d);
    }
  }
  std::vector<std::size_t> keep;
  for (std::size_t d = 0; d < x.ndim(); ++d) {
    if (std::find(drop.begin(), drop.end(), d) == drop.end()) keep.push_back(d);
  }
  return detail::permuted(x, keep);
}

Array flip(const Array& x, const std::optional<std::vector<int>>& axes) {
  std::vector<std::size_t> at;
  if (axes) {
    at = axis_indices(*axes, x.ndim(), "flip", "axis");
  } else {
    for (std::size_t d = 0; d < x.ndim(); ++d) at.push_back(d);
  }
  Array out = x;
  for (std::size_t d : at) out = out.slice(d, Array::none, Array::none, -1);
  return out;
}

Array moveaxis(const Array& x, const std::vector<int>& source, const std::vector<int>& destination) {
  if (source.size() != destination.size()) {
    throw InvalidArgument("moveaxis: source and destination must have the same number of elements, got " +
                          std::to_string(source.size()) + " and " + std::to_string(destination.size()));
  }
  const std::vector<std::size_t> from = axis_indices(source, x.ndim(), "moveaxis", "source");
  const std::vector<std::size_t> to = axis_indices(destination, x.ndim(), "moveaxis", "destination");
  std::vector<std::size_t> order;
  for (std::size_t d = 0; d < x.ndim(); ++d) {
    if (std::find(from.begin(), from.end(), d) == from.end()) order.push_back(d);
  }
  std::vector<std::pair<std::size_t, std::size_t>> moves;
  for (std::size_t i = 0; i < from.size(); ++i) moves.emplace_back(to[i], from[i]);
  std::sort(moves.begin(), moves.end());
  for (const auto& [dst, src] : moves) order.insert(order.begin() + static_cast<std::ptrdiff_t>(dst), src);
  return detail::permuted(x, order);
}

Array permute_dims(const Array& x, const std::vector<int>& axes) {
  if (axes.size() != x.ndim()) {
    throw InvalidArgument("permute_dims: axes don't match array (" + std::to_string(axes.size()) + " axes for " +
                          std::to_string(x.ndim()) + " dimension(s))");
  }
  return detail::permuted(x, axis_indices(axes, x.ndim(), "permute_dims", "axis"));
}

Array repeat(const Array& x, std::int64_t repeats, std::optional<int> axis) {
  if (repeats < 0) throw InvalidArgument("repeat: repeats must not be negative, got " + std::to_string(repeats));
  const Array src = axis ? x : x.ravel();
  const std::size_t ax = axis_index(axis.value_or(0), src.ndim(), "repeat", "axis");
  std::vector<std::int64_t> dims = src.shape().dims();
  dims[ax] *= repeats;
  Array out = Array::empty(Shape(dims), src.dtype(), src.device());
  if (out.size() == 0) return out;
  // out seen as (..., n, repeats, ...): each element of src broadcast over its repeats, one copy.
  std::vector<std::int64_t> split = src.shape().dims();
  split.insert(split.begin() + static_cast<std::ptrdiff_t>(ax) + 1, repeats);
  out.reshape(split).assign(Expr(with_unit_axis(src, ax + 1).broadcast_to(Shape(split))));
  return out;
}

Array roll(const Array& x, const std::vector<std::int64_t>& shifts, const std::optional<std::vector<int>>& axes) {
  if (!axes) {
    if (shifts.size() != 1) {
      throw InvalidArgument("roll: without an axis, shift must be one number, not " + std::to_string(shifts.size()));
    }
    return roll(x.ravel(), shifts, std::vector<int>{0}).reshape(x.shape().dims());
  }
  const std::size_t n = std::max(shifts.size(), axes->size());
  if ((shifts.size() != n && shifts.size() != 1) || (axes->size() != n && axes->size() != 1) || n == 0) {
    throw InvalidArgument("roll: shift and axis must have one element or the same number of elements, got " +
                          std::to_string(shifts.size()) + " and " + std::to_string(axes->size()));
  }
  std::vector<std::int64_t> by(x.ndim(), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t d = axis_index((*axes)[axes->size() == 1 ? 0 : i], x.ndim(), "roll", "axis");
    by[d] += shifts[shifts.size() == 1 ? 0 : i];
  }
  Array out = Array::empty(x.shape(), x.dtype(), x.device());
  if (out.size() == 0) return out;
  // Along each shifted axis the result is two blocks of x swapped: 2**k block copies in all
  // (one per combination), together one pass over x.
  std::function<void(std::size_t, Array, Array)> copy_blocks = [&](std::size_t d, Array dst, Array src) {
    if (d == x.ndim()) {
      dst.assign(Expr(src));
      return;
    }
    const std::int64_t len = x.shape()[d];
    const std::int64_t s = ((by[d] % len) + len) % len;
    if (s == 0) {
      copy_blocks(d + 1, dst, src);
      return;
    }
    copy_blocks(d + 1, dst.slice(d, s, len), src.slice(d, 0, len - s));
    copy_blocks(d + 1, dst.slice(d, 0, s), src.slice(d, len - s, len));
  };
  copy_blocks(0, out, x);
  return out;
}

Array tile(const Array& x, const std::vector<std::int64_t>& reps) {
  for (std::int64_t r : reps) {
    if (r < 0) throw InvalidArgument("tile: reps must not be negative, got " + std::to_string(r));
  }
  const std::size_t nd = std::max(x.ndim(), reps.size());
  Array xv = x;
  while (xv.ndim() < nd) xv = with_unit_axis(xv, 0);
  std::vector<std::int64_t> r(nd - reps.size(), 1);
  r.insert(r.end(), reps.begin(), reps.end());
  std::vector<std::int64_t> dims, split, src_split;
  Strides src_strides;
  for (std::size_t d = 0; d < nd; ++d) {
    dims.push_back(xv.shape()[d] * r[d]);
    split.insert(split.end(), {r[d], xv.shape()[d]});
    src_split.insert(src_split.end(), {1, xv.shape()[d]});
    src_strides.insert(src_strides.end(), {0, xv.strides()[d]});
  }
  Array out = Array::empty(Shape(dims), x.dtype(), x.device());
  if (out.size() == 0) return out;
  // out seen as (r0, s0, r1, s1, ...): x broadcast over the r's, one copy kernel.
  const Array src = xv.as_strided(Shape(src_split), src_strides, xv.offset());
  out.reshape(split).assign(Expr(src.broadcast_to(Shape(split))));
  return out;
}

}  // namespace weft
