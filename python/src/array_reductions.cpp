// Reductions of weft.Array for Python: sum, prod, min, max, mean, any, all (axis=() keeps
// NumPy's result dtype), argmin/argmax, var/std, cumsum/cumprod and dot.
#include <string>

#include "arrays.hpp"

namespace weftpy {

namespace {

ArrayObject reduce(const std::string& what, nb::handle x, nb::handle axis, bool keepdims) {
  const weft::Expr e = need_operand(x, what.c_str());
  if (!nb::isinstance<PyArray>(x)) throw nb::type_error((what + ": expected a weft.Array").c_str());
  const std::size_t ndim = e.shape().ndim();
  const std::vector<int> axes = axes_arg(axis, ndim);
  if (!axis.is_none() && axes.empty() && ndim > 0) {
    // axis=(): NumPy reduces nothing, but still gives the reduction's dtype.
    const weft::DType t = e.dtype();
    if (what == "any" || what == "all") return make_lazy(e != 0);
    if (what == "min" || what == "max") return make_lazy(weft::astype(e, t));
    if (what == "mean") return make_lazy(weft::astype(e, weft::is_inexact(t) ? t : weft::DType::float64));
    const weft::DType wide = weft::is_inexact(t) ? t
                             : weft::is_unsigned_integer(t) ? weft::DType::uint64 : weft::DType::int64;
    return make_lazy(weft::astype(e, wide));
  }
  if (what == "sum") return make_array(weft::sum(e, axes, keepdims));
  if (what == "prod") return make_array(weft::prod(e, axes, keepdims));
  if (what == "min") return make_array(weft::min(e, axes, keepdims));
  if (what == "max") return make_array(weft::max(e, axes, keepdims));
  if (what == "mean") return make_array(weft::mean(e, axes, keepdims));
  if (what == "any") return make_array(weft::any(e, axes, keepdims));
  if (what == "all") return make_array(weft::all(e, axes, keepdims));
  throw weft::InvalidArgument("unknown reduction " + what);
}

/// argmin/argmax: over every element (None) or one axis.
ArrayObject arg_extreme(const std::string& what, nb::handle x, nb::handle axis, bool keepdims) {
  const weft::Expr e = need_operand(x, what.c_str());
  if (!nb::isinstance<PyArray>(x)) throw nb::type_error((what + ": expected a weft.Array").c_str());
  const bool mx = what == "argmax";
  if (axis.is_none()) {
    weft::Array r = mx ? weft::argmax(e) : weft::argmin(e);
    if (keepdims) r = r.reshape(std::vector<std::int64_t>(e.shape().ndim(), 1));
    return make_array(std::move(r));
  }
  const int ax = nb::cast<int>(axis);
  return make_array(mx ? weft::argmax(e, ax, keepdims) : weft::argmin(e, ax, keepdims));
}

}  // namespace

void register_array_reductions(nb::module_& m) {
  m.def("_reduce", &reduce, nb::arg("what"), nb::arg("x"), nb::arg("axis").none() = nb::none(), nb::arg("keepdims") = false);
  m.def("_arg_extreme", &arg_extreme, nb::arg("what"), nb::arg("x"), nb::arg("axis").none() = nb::none(),
        nb::arg("keepdims") = false);
  m.def("_var", [](const std::string& what, nb::handle x, nb::handle axis, bool keepdims, int ddof) {
    const weft::Expr e = need_operand(x, what.c_str());
    const std::vector<int> axes = axes_arg(axis, e.shape().ndim());
    return make_array(what == "std" ? weft::std(e, axes, keepdims, ddof) : weft::var(e, axes, keepdims, ddof));
  }, nb::arg("what"), nb::arg("x"), nb::arg("axis").none() = nb::none(), nb::arg("keepdims") = false,
        nb::arg("ddof") = 0);
  m.def("_scan", [](const std::string& what, nb::handle x, nb::handle axis) {
    const weft::Expr e = need_operand(x, what.c_str());
    const bool sum = what == "cumsum";
    if (axis.is_none()) return make_array(sum ? weft::cumsum(e) : weft::cumprod(e));
    const int ax = nb::cast<int>(axis);
    return make_array(sum ? weft::cumsum(e, ax) : weft::cumprod(e, ax));
  }, nb::arg("what"), nb::arg("x"), nb::arg("axis").none() = nb::none());
  m.def("_dot", [](nb::handle a, nb::handle b) {
    const weft::Expr x = need_operand(a, "dot");
    const weft::Expr y = need_operand(b, "dot");
    if (!nb::isinstance<PyArray>(a) && !nb::isinstance<PyArray>(b)) throw nb::type_error("dot: expected a weft.Array");
    return make_array(weft::dot(x, y));
  });
}

}  // namespace weftpy
