// count_nonzero and diff (weft/statistics.hpp); cumulative_sum and cumulative_prod are the scan
// of cumulative.cpp.
#include "weft/statistics.hpp"

#include <string>

#include "array/manipulation_axes.hpp"
#include "weft/error.hpp"
#include "weft/manipulation.hpp"

namespace weft {

Array count_nonzero(const Expr& x, const std::vector<int>& axes, bool keepdims) {
  // Checked here so that a wrong axis is count_nonzero's error, not the sum's it runs.
  for (const int a : axes) detail::axis_index(a, x.shape().ndim(), "count_nonzero", "axis");
  return sum(x != Expr(0), axes, keepdims);
}

Array diff(const Array& x, int axis, int n, const Array& prepend, const Array& append) {
  if (x.ndim() == 0) throw InvalidArgument("diff: x must have at least one dimension, not 0");
  if (n < 0) throw InvalidArgument("diff: n (the order) must not be negative, got " + std::to_string(n));
  const std::size_t ax = detail::axis_index(axis, x.ndim(), "diff", "axis");
  Array r = x;
  if (prepend || append) {
    // A 0-d operand stands for a slice of x's shape, one element long along axis (NumPy's).
    std::vector<std::int64_t> slice = x.shape().dims();
    slice[ax] = 1;
    auto part = [&](const Array& p) { return p.ndim() == 0 ? p.broadcast_to(Shape(slice)) : p; };
    std::vector<Array> parts;
    if (prepend) parts.push_back(part(prepend));
    parts.push_back(x);
    if (append) parts.push_back(part(append));
    r = concat(parts, static_cast<int>(ax));
  }
  for (int k = 0; k < n; ++k) {
    const Array hi = r.slice(ax, 1, Array::none), lo = r.slice(ax, 0, -1);
    r = eval(r.dtype() == DType::bool_ ? Expr(hi) != Expr(lo) : Expr(hi) - Expr(lo));
    if (r.shape()[ax] == 0) break;
  }
  return r;
}

}  // namespace weft
