// flatnonzero, nonzero, argwhere and extract: the condition evaluated to a bool mask, the
// mask's selected positions by the compaction of the indexing layer (masked_select: a scan
// of the mask, then a scatter), and the per-dimension indices from the flat ones by one
// fused division kernel.
#include "weft/selection.hpp"

#include <string>

#include "array/expr_node.hpp"
#include "weft/error.hpp"
#include "weft/indexing.hpp"

namespace weft {

namespace {

Device device_for(const Expr& e, const char* who) {
  const Device dev = detail::device_of(*e.node());
  if (!dev) throw InvalidArgument(std::string(who) + ": the expression holds no array, so it has no device");
  return dev;
}

// Whether each element is nonzero, flattened (C order).
Array flat_mask(const Expr& e) {
  const std::int64_t n = e.shape().size();
  return eval(e != 0).reshape({n});
}

}  // namespace

Array flatnonzero(const Expr& expr) {
  const Device dev = device_for(expr, "flatnonzero");
  const std::int64_t n = expr.shape().size();
  const Array positions = Array::arange_integers(0, n, 1, DType::int64, dev);
  return masked_select(positions, flat_mask(expr));
}

Array argwhere(const Expr& expr) {
  const Shape& shape = expr.shape();
  const auto nd = static_cast<std::int64_t>(shape.ndim());
  const Array flat = flatnonzero(expr);
  const std::int64_t count = flat.size();
  if (nd == 0) return Array::empty(Shape{count, 0}, DType::int64, flat.device());
  // Element (i, d): (flat[i] // stride[d]) % extent[d], all dimensions in one kernel.
  const Strides strides = contiguous_strides(shape);
  const Array st = Array::from_host<std::int64_t>(strides, Shape{nd}, flat.device());
  const Array ex = Array::from_host<std::int64_t>(shape.dims(), Shape{nd}, flat.device());
  return eval(remainder(floor_divide(Expr(flat.reshape({count, 1})), st), ex));
}

std::vector<Array> nonzero(const Expr& expr) {
  const Shape& shape = expr.shape();
  if (shape.ndim() == 0) {
    throw InvalidArgument("nonzero of a 0-d array is refused, as NumPy 2 refuses it: make it 1-d first "
                          "(reshape({1})) or use argwhere");
  }
  const Array flat = flatnonzero(expr);
  const Strides strides = contiguous_strides(shape);
  std::vector<Array> out;
  out.reserve(shape.ndim());
  for (std::size_t d = 0; d < shape.ndim(); ++d) {
    if (shape.ndim() == 1) {
      out.push_back(flat);
      break;
    }
    out.push_back(eval(remainder(floor_divide(Expr(flat), static_cast<long long>(strides[d])),
                                 static_cast<long long>(shape[d]))));
  }
  return out;
}

Array extract(const Expr& condition, const Expr& arr) {
  device_for(arr, "extract");
  if (condition.shape().size() != arr.shape().size()) {
    throw InvalidArgument("extract: condition has " + std::to_string(condition.shape().size()) +
                          " elements and arr " + std::to_string(arr.shape().size()) + "; they must match");
  }
  const std::int64_t n = arr.shape().size();
  return masked_select(eval(arr).reshape({n}), flat_mask(condition));
}

}  // namespace weft
