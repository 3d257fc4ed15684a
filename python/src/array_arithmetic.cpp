// weft.Array's arithmetic for Python: its operators (a + b, a += b, a << b ...), the functions of
// one and two operands (sqrt, minimum, logical_and, copysign ...), where and clip, all lazy, with NumPy's
// promotion of Python numbers (NEP 50; ints beyond 64 bits refused beside integers).
#include <string>
#include <utility>

#include "arrays.hpp"

namespace weftpy {

namespace {

using Binary = weft::Expr (*)(const weft::Expr&, const weft::Expr&);
using Unary = weft::Expr (*)(const weft::Expr&);

/// A Python int beyond 64 bits with an integer or bool operand: NumPy refuses it (it takes part
/// as a float only beside floats).
void refuse_huge_int(nb::handle number, const weft::Expr& other) {
  if (!PyLong_Check(number.ptr()) || PyBool_Check(number.ptr()) || weft::is_inexact(other.dtype())) return;
  int overflow = 0;
  PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (overflow < 0 || (overflow > 0 && (PyLong_AsUnsignedLongLong(number.ptr()), PyErr_Occurred()))) {
    PyErr_Clear();
    throw weft::ValueOutOfRange("Python integer " + nb::cast<std::string>(nb::str(number)) + " out of bounds for " +
                                std::string(weft::name(other.dtype())));
  }
}

bool is_comparison(Binary f);

ArrayObject binary(Binary f, nb::handle a, nb::handle b) {
  auto x = operand(a), y = operand(b);
  if (!x || !y) return nb::borrow<ArrayObject>(Py_NotImplemented);
  if (!is_comparison(f)) {  // comparisons go by value
    refuse_huge_int(a, *y);
    refuse_huge_int(b, *x);
  }
  return make_lazy(f(*x, *y));
}

weft::Expr add(const weft::Expr& a, const weft::Expr& b) { return a + b; }
weft::Expr sub(const weft::Expr& a, const weft::Expr& b) { return a - b; }
weft::Expr mul(const weft::Expr& a, const weft::Expr& b) { return a * b; }
weft::Expr div(const weft::Expr& a, const weft::Expr& b) { return a / b; }
weft::Expr lt(const weft::Expr& a, const weft::Expr& b) { return a < b; }
weft::Expr le(const weft::Expr& a, const weft::Expr& b) { return a <= b; }
weft::Expr gt(const weft::Expr& a, const weft::Expr& b) { return a > b; }
weft::Expr ge(const weft::Expr& a, const weft::Expr& b) { return a >= b; }
weft::Expr eq(const weft::Expr& a, const weft::Expr& b) { return a == b; }
weft::Expr ne(const weft::Expr& a, const weft::Expr& b) { return a != b; }
weft::Expr band(const weft::Expr& a, const weft::Expr& b) { return a & b; }
weft::Expr bor(const weft::Expr& a, const weft::Expr& b) { return a | b; }
weft::Expr bxor(const weft::Expr& a, const weft::Expr& b) { return a ^ b; }
weft::Expr lshift(const weft::Expr& a, const weft::Expr& b) { return a << b; }
weft::Expr rshift(const weft::Expr& a, const weft::Expr& b) { return a >> b; }
bool is_comparison(Binary f) { return f == &lt || f == &le || f == &gt || f == &ge || f == &eq || f == &ne; }
weft::Expr neg(const weft::Expr& a) { return -a; }
weft::Expr inv(const weft::Expr& a) { return ~a; }

template <Binary F>
ArrayObject op(nb::handle a, nb::handle b) { return binary(F, a, b); }
template <Binary F>
ArrayObject rop(nb::handle a, nb::handle b) { return binary(F, b, a); }
template <Binary F>
ArrayObject iop(nb::handle self, nb::handle b) {
  auto y = operand(b);
  if (!y) return nb::borrow<ArrayObject>(Py_NotImplemented);
  weft::Array a = as_py(self).array();
  before_write(a);
  a.assign(F(weft::Expr(a), *y));
  return same_array(self);
}

}  // namespace

void register_array_arithmetic(nb::module_& m, nb::class_<PyArray>& cls) {
  cls.def("__add__", &op<add>).def("__radd__", &rop<add>).def("__iadd__", &iop<add>)
      .def("__sub__", &op<sub>).def("__rsub__", &rop<sub>).def("__isub__", &iop<sub>)
      .def("__mul__", &op<mul>).def("__rmul__", &rop<mul>).def("__imul__", &iop<mul>)
      .def("__truediv__", &op<div>).def("__rtruediv__", &rop<div>).def("__itruediv__", &iop<div>)
      .def("__floordiv__", &op<weft::floor_divide>).def("__rfloordiv__", &rop<weft::floor_divide>)
      .def("__ifloordiv__", &iop<weft::floor_divide>)
      .def("__mod__", &op<weft::remainder>).def("__rmod__", &rop<weft::remainder>).def("__imod__", &iop<weft::remainder>)
      .def("__pow__", [](nb::handle a, nb::handle b, nb::handle) { return binary(weft::power, a, b); },
           nb::arg("other"), nb::arg("mod").none() = nb::none())
      .def("__rpow__", [](nb::handle a, nb::handle b, nb::handle) { return binary(weft::power, b, a); },
           nb::arg("other"), nb::arg("mod").none() = nb::none())
      .def("__ipow__", [](nb::handle self, nb::handle b, nb::handle) { return iop<weft::power>(self, b); },
           nb::arg("other"), nb::arg("mod").none() = nb::none())  // as __pow__'s, which type checkers compare
      .def("__and__", &op<band>).def("__rand__", &rop<band>).def("__iand__", &iop<band>)
      .def("__or__", &op<bor>).def("__ror__", &rop<bor>).def("__ior__", &iop<bor>)
      .def("__xor__", &op<bxor>).def("__rxor__", &rop<bxor>).def("__ixor__", &iop<bxor>)
      .def("__lshift__", &op<lshift>).def("__rlshift__", &rop<lshift>).def("__ilshift__", &iop<lshift>)
      .def("__rshift__", &op<rshift>).def("__rrshift__", &rop<rshift>).def("__irshift__", &iop<rshift>)
      .def("__lt__", &op<lt>).def("__le__", &op<le>).def("__gt__", &op<gt>).def("__ge__", &op<ge>)
      .def("__eq__", &op<eq>).def("__ne__", &op<ne>)
      .def("__neg__", [](const PyArray& p) { return make_lazy(-p.expr()); })
      .def("__pos__", [](nb::handle self) { return same_array(self); })
      .def("__abs__", [](const PyArray& p) { return make_lazy(weft::abs(p.expr())); })
      .def("__invert__", [](const PyArray& p) { return make_lazy(~p.expr()); });

  // Functions of one operand, lazy.
  const std::pair<const char*, Unary> unary[] = {
      {"negative", &neg},          {"invert", &inv},
      {"abs", &weft::abs},         {"sqrt", &weft::sqrt},        {"cbrt", &weft::cbrt},
      {"exp", &weft::exp},         {"exp2", &weft::exp2},        {"expm1", &weft::expm1},
      {"log", &weft::log},         {"log2", &weft::log2},        {"log10", &weft::log10},
      {"log1p", &weft::log1p},     {"sin", &weft::sin},          {"cos", &weft::cos},
      {"tan", &weft::tan},         {"arcsin", &weft::asin},      {"arccos", &weft::acos},
      {"arctan", &weft::atan},     {"sinh", &weft::sinh},        {"cosh", &weft::cosh},
      {"tanh", &weft::tanh},       {"arcsinh", &weft::asinh},    {"arccosh", &weft::acosh},
      {"arctanh", &weft::atanh},   {"sign", &weft::sign},        {"positive", &weft::positive},
      {"signbit", &weft::signbit}, {"floor", &weft::floor},      {"ceil", &weft::ceil},
      {"trunc", &weft::trunc},     {"rint", &weft::rint}, {"fabs", &weft::fabs}, {"square", &weft::square},
      {"reciprocal", &weft::reciprocal},       {"isnan", &weft::isnan},
      {"isinf", &weft::isinf},     {"isfinite", &weft::isfinite}, {"logical_not", &weft::logical_not},
      {"real", &weft::real},       {"imag", &weft::imag},        {"conj", &weft::conj},
      {"angle", &weft::angle},
  };
  for (const auto& [name, f] : unary) {
    m.def(name, [f](nb::handle x) {
      if (!nb::isinstance<PyArray>(x)) throw nb::type_error("expected a weft.Array");
      return make_lazy(f(as_py(x).expr()));
    }, nb::arg("x"));
  }
  // round has a docstring of its own (the others get theirs from python/weft/_ufunc_docs.py,
  // through the Python wrapper that adds out= and dtype=; weft.round is this function itself).
  m.def("round", [](nb::handle x) {
    if (!nb::isinstance<PyArray>(x)) throw nb::type_error("expected a weft.Array");
    return make_lazy(weft::round(as_py(x).expr()));
  }, nb::arg("x"),
        "Each element rounded to the nearest integer, halves to even, as numpy.round (weft.around\n"
        "is the same function; integers keep their dtype). Lazy: fused with the operations around it.\n"
        "\n"
        "Parameters\n"
        "----------\n"
        "x : weft.Array\n"
        "    The input.\n"
        "\n"
        "Returns\n"
        "-------\n"
        "weft.Array\n"
        "    Of x's shape and dtype.\n"
        "\n"
        "Raises\n"
        "------\n"
        "TypeError\n"
        "    x is not a weft.Array.\n"
        "\n"
        "Examples\n"
        "--------\n"
        ">>> weft.round(weft.asarray(np.array([0.5, 1.5, 2.5, -1.7]))).get()\n"
        "array([ 0.,  2.,  2., -2.])\n"
        ">>> weft.around(weft.asarray(np.array([1, 2]))).dtype\n"
        "dtype('int64')");
  const std::pair<const char*, Binary> binaries[] = {
      {"add", &add},
      {"subtract", &sub},
      {"multiply", &mul},
      {"true_divide", &div},
      {"floor_divide", &weft::floor_divide},
      {"remainder", &weft::remainder},
      {"power", &weft::power},
      {"minimum", &weft::minimum},
      {"maximum", &weft::maximum},
      {"fmin", &weft::fmin},
      {"fmax", &weft::fmax},
      {"arctan2", &weft::atan2},
      {"hypot", &weft::hypot},
      {"copysign", &weft::copysign},
      {"nextafter", &weft::nextafter},
      {"logaddexp", &weft::logaddexp},
      {"left_shift", &lshift},
      {"right_shift", &rshift},
      {"less", &lt},
      {"less_equal", &le},
      {"greater", &gt},
      {"greater_equal", &ge},
      {"equal", &eq},
      {"not_equal", &ne},
      {"bitwise_and", &band},
      {"bitwise_or", &bor},
      {"bitwise_xor", &bxor},
      {"logical_and", &weft::logical_and},
      {"logical_or", &weft::logical_or},
      {"logical_xor", &weft::logical_xor},
  };
  for (const auto& [name, f] : binaries) {
    m.def(name, [f, name = std::string(name)](nb::handle a, nb::handle b) {
      if (!nb::isinstance<PyArray>(a) && !nb::isinstance<PyArray>(b)) {
        throw nb::type_error((name + ": expected a weft.Array operand").c_str());
      }
      const weft::Expr x = need_operand(a, name.c_str()), y = need_operand(b, name.c_str());
      if (!is_comparison(f)) {  // comparisons go by value
        refuse_huge_int(a, y);
        refuse_huge_int(b, x);
      }
      return make_lazy(f(x, y));
    }, nb::arg("x1"), nb::arg("x2"));
  }
  m.def("where", [](nb::handle c, nb::handle a, nb::handle b) {
    return make_lazy(weft::where(need_operand(c, "where"), need_operand(a, "where"), need_operand(b, "where")));
  }, nb::arg("condition"), nb::arg("x"), nb::arg("y"),
        "Elements of x where condition is true, else of y, as numpy.where (lazy: fused with the\n"
        "operations around it).\n"
        "\n"
        "Parameters\n"
        "----------\n"
        "condition : weft.Array\n"
        "    Where to take x (nonzero is true).\n"
        "x, y : weft.Array or number\n"
        "    The values; the three broadcast together.\n"
        "\n"
        "Returns\n"
        "-------\n"
        "weft.Array\n"
        "    Of the broadcast shape and x's and y's promoted dtype.\n"
        "\n"
        "Raises\n"
        "------\n"
        "weft.InvalidArgument\n"
        "    The shapes do not broadcast, or the arrays are on different devices.\n"
        "\n"
        "Examples\n"
        "--------\n"
        ">>> a = weft.asarray(np.array([-1.0, 2.0, -3.0]))\n"
        ">>> weft.where(a > 0, a, 0.0).get()\n"
        "array([0., 2., 0.])");
  m.def("clip", [](nb::handle a, nb::handle lo, nb::handle hi) {
    // A Python number clipped is an array to NumPy (np.clip(-100, lo, hi) is int64), not a
    // number that adapts.
    weft::Expr x = need_operand(a, "clip");
    if (PyBool_Check(a.ptr())) x = weft::Expr::typed(static_cast<long long>(a.ptr() == Py_True), weft::DType::bool_);
    else if (PyFloat_Check(a.ptr())) x = weft::Expr::typed(PyFloat_AS_DOUBLE(a.ptr()), weft::DType::float64);
    else if (PyLong_Check(a.ptr())) x = weft::Expr::typed(nb::cast<long long>(a), weft::DType::int64);
    return make_lazy(weft::clip(x, need_operand(lo, "clip"), need_operand(hi, "clip")));
  }, nb::arg("a"), nb::arg("a_min"), nb::arg("a_max"));
  m.def("_result_type", [](const std::string& a, const std::string& b) {
    const weft::DType t = weft::result_type(dtype_arg(a), dtype_arg(b));
    return std::string(t == weft::DType::bool_ ? "bool" : weft::name(t));
  });
}

}  // namespace weftpy
