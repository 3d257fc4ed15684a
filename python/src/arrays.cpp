// weft.Array for Python, the C++ part (_Array): weft::LazyArray with fused expressions, basic
// indexing (views), reductions and copies to and from host memory. python/weft/_array.py
// defines weft.Array over it and registers it, and every array made here is one.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <unordered_map>

#include "common.hpp"

namespace weftpy {

namespace {

// weft.Array, the Python class defined over _Array (python/weft/_array.py), once registered:
// every array made here is an instance of it, so that its Python methods are the class's own.
// A strong reference, kept to exit with the module's other types.
PyObject* array_class = nullptr;

nb::object wrap(weft::LazyArray value) {
  nb::handle type = array_class ? nb::handle(array_class) : nb::type<PyArray>();
  nb::object obj = nb::inst_alloc(type);
  new (nb::inst_ptr<PyArray>(obj)) PyArray{std::move(value)};
  nb::inst_mark_ready(obj);
  return obj;
}

}  // namespace

nb::object make_array(weft::Array array) { return wrap(weft::LazyArray(std::move(array))); }

nb::object make_lazy(weft::Expr expr) { return wrap(weft::LazyArray::defer(std::move(expr))); }

namespace {

PyArray& as_py(nb::handle h) { return nb::cast<PyArray&>(h); }

bool is_numpy_array(nb::handle h) {
  return std::string_view(Py_TYPE(h.ptr())->tp_name) == "numpy.ndarray";
}

/// A NumPy scalar as a number of its own dtype (NEP 50: int8 array + np.int64(3) is int64;
/// np.float64 is a Python float too, but a strong one).
std::optional<weft::Expr> numpy_scalar(nb::handle h) {
  PyObject* np = PyImport_GetModule(nb::str("numpy").ptr());
  if (!np) {
    PyErr_Clear();
    return std::nullopt;
  }
  nb::object numpy = nb::steal(np);
  if (!nb::isinstance(h, numpy.attr("generic")) || !nb::hasattr(h, "dtype")) return std::nullopt;
  const std::string dt = nb::cast<std::string>(h.attr("dtype").attr("name"));
  weft::DType t{};
  try {
    t = dtype_arg(dt);
  } catch (const weft::InvalidArgument&) {
    return std::nullopt;  // complex, strings: not one weft computes with
  }
  nb::object v = h.attr("item")();  // the value as a Python bool, int or float
  if (t == weft::DType::float16) return weft::Expr(PyFloat_AsDouble(v.ptr()));  // no float16 arithmetic yet
  if (weft::is_floating(t)) return weft::Expr::typed(PyFloat_AsDouble(v.ptr()), t);
  if (t == weft::DType::uint64) return weft::Expr::typed(PyLong_AsUnsignedLongLong(v.ptr()), t);
  return weft::Expr::typed(static_cast<long long>(PyLong_AsLongLong(v.ptr())), t);
}

/// An operand of an arithmetic operation, or nothing when the type is not one weft takes.
std::optional<weft::Expr> operand(nb::handle h) {
  if (nb::isinstance<PyArray>(h)) return as_py(h).expr();
  // Python's own numbers first (cheap); np.float64 is a float subclass but a strong number.
  if (!PyBool_Check(h.ptr()) && !PyLong_CheckExact(h.ptr()) && !PyFloat_CheckExact(h.ptr())) {
    if (auto e = numpy_scalar(h)) return e;
  }
  if (PyBool_Check(h.ptr())) return weft::Expr(h.ptr() == Py_True);
  if (PyLong_Check(h.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (!overflow) return weft::Expr(v);
    if (overflow > 0) {  // up to 2**64-1: a uint64 number
      const unsigned long long u = PyLong_AsUnsignedLongLong(h.ptr());
      if (!PyErr_Occurred()) return weft::Expr(u);
      PyErr_Clear();
    }
    // Beyond 64 bits: only a float can take it (an integer array refuses it, as NumPy's).
    return weft::Expr(PyLong_AsDouble(h.ptr()));
  }
  if (PyFloat_Check(h.ptr())) return weft::Expr(PyFloat_AS_DOUBLE(h.ptr()));
  if (is_numpy_array(h)) {
    throw nb::type_error("a NumPy array in an expression with a weft.Array: move it to the device with "
                         "weft.asarray() first (weft makes no copy you did not ask for)");
  }
  return std::nullopt;
}

weft::Expr need_operand(nb::handle h, const char* who) {
  auto e = operand(h);
  if (!e) {
    throw nb::type_error((std::string(who) + ": unsupported operand of type " +
                          nb::cast<std::string>(nb::type_name(h.type())))
                             .c_str());
  }
  return *e;
}

using Binary = weft::Expr (*)(const weft::Expr&, const weft::Expr&);
using Unary = weft::Expr (*)(const weft::Expr&);

/// A Python int beyond 64 bits with an integer or bool operand: NumPy refuses it (it takes part
/// as a float only beside floats).
void refuse_huge_int(nb::handle number, const weft::Expr& other) {
  if (!PyLong_Check(number.ptr()) || PyBool_Check(number.ptr()) || weft::is_floating(other.dtype())) return;
  int overflow = 0;
  PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (overflow < 0 || (overflow > 0 && (PyLong_AsUnsignedLongLong(number.ptr()), PyErr_Occurred()))) {
    PyErr_Clear();
    throw weft::ValueOutOfRange("Python integer " + nb::cast<std::string>(nb::str(number)) + " out of bounds for " +
                                std::string(weft::name(other.dtype())));
  }
}

bool is_comparison(Binary f);

nb::object binary(Binary f, nb::handle a, nb::handle b) {
  auto x = operand(a), y = operand(b);
  if (!x || !y) return nb::borrow(Py_NotImplemented);
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
bool is_comparison(Binary f) { return f == &lt || f == &le || f == &gt || f == &ge || f == &eq || f == &ne; }
weft::Expr neg(const weft::Expr& a) { return -a; }
weft::Expr inv(const weft::Expr& a) { return ~a; }

template <Binary F>
nb::object op(nb::handle a, nb::handle b) { return binary(F, a, b); }
template <Binary F>
nb::object rop(nb::handle a, nb::handle b) { return binary(F, b, a); }
template <Binary F>
nb::object iop(nb::handle self, nb::handle b) {
  auto y = operand(b);
  if (!y) return nb::borrow(Py_NotImplemented);
  weft::Array a = as_py(self).array();
  before_write(a);
  a.assign(F(weft::Expr(a), *y));
  return nb::borrow(self);
}

/// A view of a selected by a NumPy basic index: integers, slices, Ellipsis and None.
weft::Array index_view(const weft::Array& a, nb::handle key) {
  nb::tuple items = nb::isinstance<nb::tuple>(key) ? nb::borrow<nb::tuple>(key) : nb::make_tuple(key);
  std::size_t consuming = 0;
  bool ellipsis = false;
  for (nb::handle k : items) {
    if (k.ptr() == Py_Ellipsis) {
      if (ellipsis) throw nb::index_error("an index can only have a single ellipsis ('...')");
      ellipsis = true;
    } else if (!k.is_none()) {
      ++consuming;
    }
  }
  if (consuming > a.ndim()) {
    throw nb::index_error(("too many indices for array: array is " + std::to_string(a.ndim()) +
                           "-dimensional, but " + std::to_string(consuming) + " were indexed")
                              .c_str());
  }
  std::vector<std::int64_t> shape, strides;
  std::int64_t offset = a.offset();
  std::size_t axis = 0;
  auto take_rest = [&](std::size_t upto) {
    for (; axis < upto; ++axis) {
      shape.push_back(a.shape()[axis]);
      strides.push_back(a.strides()[axis]);
    }
  };
  for (nb::handle k : items) {
    if (k.ptr() == Py_Ellipsis) {
      take_rest(axis + (a.ndim() - consuming));
    } else if (k.is_none()) {
      shape.push_back(1);
      strides.push_back(0);
    } else if (PySlice_Check(k.ptr())) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(k.ptr(), &start, &stop, &step) < 0) throw nb::python_error();
      const Py_ssize_t len = PySlice_AdjustIndices(static_cast<Py_ssize_t>(a.shape()[axis]), &start, &stop, step);
      if (len > 0) offset += static_cast<std::int64_t>(start) * a.strides()[axis];  // start may be -1 when empty
      shape.push_back(len);
      strides.push_back(a.strides()[axis] * step);
      ++axis;
    } else if (PyIndex_Check(k.ptr()) && !PyBool_Check(k.ptr())) {
      const Py_ssize_t i = PyNumber_AsSsize_t(k.ptr(), PyExc_IndexError);
      if (i == -1 && PyErr_Occurred()) throw nb::python_error();
      const std::int64_t n = a.shape()[axis];
      const std::int64_t j = i < 0 ? i + n : i;
      if (j < 0 || j >= n) {
        throw nb::index_error(("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                               " with size " + std::to_string(n))
                                  .c_str());
      }
      offset += j * a.strides()[axis];
      ++axis;
    } else {
      throw nb::index_error(("only integers, slices, Ellipsis and None index a weft.Array (got " +
                             nb::cast<std::string>(nb::type_name(k.type())) +
                             "); arrays index it through weft.Array.__getitem__")
                                .c_str());
    }
  }
  take_rest(a.ndim());
  return a.as_strided(weft::Shape(shape), strides, offset);
}

std::vector<std::int64_t> shape_arg(nb::handle h) {
  std::vector<std::int64_t> out;
  if (PyIndex_Check(h.ptr())) {
    out.push_back(nb::cast<std::int64_t>(nb::int_(h)));
    return out;
  }
  for (nb::handle d : h) out.push_back(nb::cast<std::int64_t>(nb::int_(d)));
  return out;
}

/// Axes from None (all), an int or a sequence, normalized against ndim.
std::vector<int> axes_arg(nb::handle h, std::size_t ndim) {
  std::vector<int> out;
  auto add_axis = [&](std::int64_t ax) {
    const auto n = static_cast<std::int64_t>(ndim);
    if (ax < -n || ax >= n) {
      throw weft::InvalidArgument("axis " + std::to_string(ax) + " is out of bounds for array of dimension " +
                                  std::to_string(ndim));
    }
    out.push_back(static_cast<int>(ax < 0 ? ax + n : ax));
  };
  if (h.is_none()) {
    for (std::size_t d = 0; d < ndim; ++d) out.push_back(static_cast<int>(d));
  } else if (PyIndex_Check(h.ptr())) {
    add_axis(nb::cast<std::int64_t>(nb::int_(h)));
  } else {
    for (nb::handle d : h) add_axis(nb::cast<std::int64_t>(nb::int_(d)));
  }
  return out;
}

nb::object reduce(const std::string& what, nb::handle x, nb::handle axis, bool keepdims) {
  const weft::Expr e = need_operand(x, what.c_str());
  if (!nb::isinstance<PyArray>(x)) throw nb::type_error((what + ": expected a weft.Array").c_str());
  const std::size_t ndim = e.shape().ndim();
  const std::vector<int> axes = axes_arg(axis, ndim);
  if (!axis.is_none() && axes.empty() && ndim > 0) {
    // axis=(): NumPy reduces nothing, but still gives the reduction's dtype.
    const weft::DType t = e.dtype();
    if (what == "any" || what == "all") return make_lazy(e != 0);
    if (what == "min" || what == "max") return make_lazy(weft::astype(e, t));
    if (what == "mean") return make_lazy(weft::astype(e, weft::is_floating(t) ? t : weft::DType::float64));
    const weft::DType wide = weft::is_floating(t) ? t
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
nb::object arg_extreme(const std::string& what, nb::handle x, nb::handle axis, bool keepdims) {
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

nb::tuple to_tuple(const std::vector<std::int64_t>& v) {
  nb::list l;
  for (auto d : v) l.append(d);
  return nb::tuple(l);
}

weft::Array transposed(const weft::Array& a, nb::handle axes_obj) {
  std::vector<std::int64_t> order;
  if (axes_obj.is_none() || nb::len(axes_obj) == 0) {
    for (std::size_t d = a.ndim(); d-- > 0;) order.push_back(static_cast<std::int64_t>(d));
  } else {
    nb::handle seq = axes_obj;
    if (nb::len(axes_obj) == 1 && !PyIndex_Check(nb::borrow<nb::tuple>(axes_obj)[0].ptr())) {
      seq = nb::borrow<nb::tuple>(axes_obj)[0];  // transpose((1, 0)) as well as transpose(1, 0)
    }
    for (int ax : axes_arg(seq, a.ndim())) order.push_back(ax);
    std::vector<std::int64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t d = 0; d < sorted.size(); ++d) {
      if (sorted.size() != a.ndim() || sorted[d] != static_cast<std::int64_t>(d)) {
        throw weft::InvalidArgument("transpose: axes don't match array");
      }
    }
  }
  std::vector<std::int64_t> shape, strides;
  for (auto d : order) {
    shape.push_back(a.shape()[static_cast<std::size_t>(d)]);
    strides.push_back(a.strides()[static_cast<std::size_t>(d)]);
  }
  return a.as_strided(weft::Shape(shape), strides, a.offset());
}

}  // namespace

void register_arrays(nb::module_& m) {
  // The extension's part of weft.Array (python/weft/_array.py defines the class over it).
  auto cls = nb::class_<PyArray>(m, "_Array",
                                 "The C++ part of weft.Array: lazy expressions, views, arithmetic and copies.");
  cls.def_prop_ro("shape", [](const PyArray& p) { return to_tuple(p.shape().dims()); })
      .def_prop_ro("ndim", [](const PyArray& p) { return p.shape().ndim(); })
      .def_prop_ro("size", [](const PyArray& p) { return p.shape().size(); })
      .def_prop_ro("_dtype", [](const PyArray& p) { return std::string(p.dtype() == weft::DType::bool_ ? "bool" : weft::name(p.dtype())); })
      .def_prop_ro("itemsize", [](const PyArray& p) { return weft::size_of(p.dtype()); })
      .def_prop_ro("nbytes", [](const PyArray& p) { return static_cast<std::size_t>(p.shape().size()) * weft::size_of(p.dtype()); })
      .def_prop_ro("device", &PyArray::device)
      .def_prop_ro("strides", [](nb::handle self) {
        const weft::Array& a = as_py(self).array();
        std::vector<std::int64_t> s;
        for (auto st : a.strides()) s.push_back(st * static_cast<std::int64_t>(weft::size_of(a.dtype())));
        return to_tuple(s);
      }, "Strides in bytes, as NumPy's.")
      .def_prop_ro("offset", [](nb::handle self) { return as_py(self).array().offset(); },
                   "Where the first element lies in the buffer, in elements.")
      .def_prop_ro("data", [](nb::handle self) { return as_py(self).array().buffer(); },
                   "The buffer the array lies in (PyOpenCL's .data).")
      .def_prop_ro("is_lazy", &PyArray::lazy, "Whether the array is an expression not evaluated yet.")
      .def_prop_ro("flags_c_contiguous", [](nb::handle self) { return as_py(self).array().is_contiguous(); })
      .def("evaluate", [](nb::handle self) {
        as_py(self).array();
        return nb::borrow(self);
      }, "Evaluates a lazy array now (one kernel) and returns it.")
      .def("__len__", [](const PyArray& p) {
        if (p.shape().ndim() == 0) throw nb::type_error("len() of unsized object");
        return p.shape()[0];
      })
      .def("reshape", [](nb::handle self, nb::args shape) {
        nb::handle s = shape.size() == 1 ? shape[0] : nb::handle(shape);
        const weft::Array& a = as_py(self).array();
        return make_array(a.reshape(shape_arg(s)));
      })
      .def("ravel", [](nb::handle self) {
        const weft::Array& a = as_py(self).array();
        return make_array(a.ravel());
      })
      .def("flatten", [](nb::handle self) {
        const weft::Array& a = as_py(self).array();
        return make_array(a.copy().ravel());
      })
      .def("transpose", [](nb::handle self, nb::args axes) { return make_array(transposed(as_py(self).array(), axes)); })
      .def_prop_ro("T", [](nb::handle self) { return make_array(transposed(as_py(self).array(), nb::none())); })
      .def("copy", [](nb::handle self) {
        PyArray& p = as_py(self);
        const bool was_lazy = p.lazy();
        const weft::Array& a = p.array();
        return make_array(was_lazy ? a : a.copy());
      })
      .def("_astype", [](nb::handle self, const std::string& dtype, bool copy) {
        PyArray& p = as_py(self);
        const weft::DType t = dtype_arg(dtype);
        if (t == p.dtype() && !copy) return nb::borrow(self);
        if (t == p.dtype()) {
          const bool was_lazy = p.lazy();
          const weft::Array& a = p.array();
          return make_array(was_lazy ? a : a.copy());
        }
        return make_lazy(weft::astype(p.expr(), t));
      })
      .def("broadcast_to", [](nb::handle self, nb::handle shape) {
        return make_array(as_py(self).array().broadcast_to(weft::Shape(shape_arg(shape))));
      })
      .def("__getitem__", [](nb::handle self, nb::handle key) { return make_array(index_view(as_py(self).array(), key)); },
           nb::arg("key").none())
      .def("__setitem__", [](nb::handle self, nb::handle key, nb::handle value) {
        weft::Array view = index_view(as_py(self).array(), key);
        const weft::Expr e = need_operand(value, "__setitem__");
        before_write(view);
        view.assign(e);
      }, nb::arg("key").none(), nb::arg("value").none())
      .def("fill", [](nb::handle self, nb::handle value) {
        weft::Array a = as_py(self).array();
        const weft::Expr e = need_operand(value, "fill");
        before_write(a);
        a.assign(e);
        return nb::borrow(self);
      })
      .def("_set", [](nb::handle self, nb::handle host) {
        weft::Array a = as_py(self).array();
        HostBuffer h(host, false);
        const auto bytes = static_cast<std::size_t>(a.size()) * weft::size_of(a.dtype());
        if (static_cast<std::size_t>(h.view.len) != bytes) {
          throw weft::InvalidArgument("set: " + std::to_string(h.view.len) + " bytes given for " + a.describe());
        }
        before_write(a);
        std::vector<unsigned char> swapped;
        const void* data = h.native(swapped);  // '>f4' input is converted, never read raw
        if (a.is_contiguous()) {
          weft::Queue& q = weft::array_queue(a.device());
          nb::gil_scoped_release unlocked;
          q.write(a.buffer(), data, bytes, static_cast<std::size_t>(a.offset()) * weft::size_of(a.dtype()));
        } else {
          const weft::Array tmp = weft::Array::from_host_bytes(data, static_cast<std::size_t>(a.size()), a.dtype(),
                                                               a.shape(), a.device());
          a.assign(tmp);
        }
      })
      .def("_read_into", [](nb::handle self, nb::handle out) {
        const weft::Array& a = as_py(self).array();
        HostBuffer h(out, true);
        const auto bytes = static_cast<std::size_t>(a.size()) * weft::size_of(a.dtype());
        if (static_cast<std::size_t>(h.view.len) != bytes) throw weft::InvalidArgument("get: output has the wrong size");
        PyEvent e{a.to_host_bytes_async(h.view.buf, a.dtype()), weft::array_queue(a.device())};
        // A Ctrl-C may end the wait while the copy still writes into out: out lives until it is done.
        keep_alive_until(e.event, out);
        wait_interruptible(e);
      })
      .def("_read_async", [](nb::handle self, nb::handle out) {
        const weft::Array a = as_py(self).array();
        HostBuffer h(out, true);
        const auto bytes = static_cast<std::size_t>(a.size()) * weft::size_of(a.dtype());
        if (static_cast<std::size_t>(h.view.len) != bytes) throw weft::InvalidArgument("get_async: output has the wrong size");
        PyEvent e{a.to_host_bytes_async(h.view.buf, a.dtype()), weft::array_queue(a.device())};
        // Dropping the future before it completes must not free what the copy writes into.
        keep_alive_until(e.event, out);
        return e;
      })
      .def("__repr__", [](nb::handle self) {
        PyArray& p = as_py(self);
        return std::string("<weft.Array ") + (p.lazy() ? "(lazy) " : "") +
               std::string(p.dtype() == weft::DType::bool_ ? "bool" : weft::name(p.dtype())) + " " +
               weft::to_string(p.shape()) + " on " + p.device().selector() + ">";
      })
      .def("__add__", &op<add>).def("__radd__", &rop<add>).def("__iadd__", &iop<add>)
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
      .def("__ipow__", &iop<weft::power>)
      .def("__and__", &op<band>).def("__rand__", &rop<band>).def("__iand__", &iop<band>)
      .def("__or__", &op<bor>).def("__ror__", &rop<bor>).def("__ior__", &iop<bor>)
      .def("__xor__", &op<bxor>).def("__rxor__", &rop<bxor>).def("__ixor__", &iop<bxor>)
      .def("__lt__", &op<lt>).def("__le__", &op<le>).def("__gt__", &op<gt>).def("__ge__", &op<ge>)
      .def("__eq__", &op<eq>).def("__ne__", &op<ne>)
      .def("__neg__", [](const PyArray& p) { return make_lazy(-p.expr()); })
      .def("__pos__", [](nb::handle self) { return nb::borrow(self); })
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
      {"tanh", &weft::tanh},       {"floor", &weft::floor},      {"ceil", &weft::ceil},
      {"trunc", &weft::trunc},     {"rint", &weft::rint}, {"round", &weft::round}, {"fabs", &weft::fabs}, {"square", &weft::square},
      {"reciprocal", &weft::reciprocal},       {"isnan", &weft::isnan},
      {"isinf", &weft::isinf},     {"isfinite", &weft::isfinite}, {"logical_not", &weft::logical_not},
  };
  for (const auto& [name, f] : unary) {
    m.def(name, [f](nb::handle x) {
      if (!nb::isinstance<PyArray>(x)) throw nb::type_error("expected a weft.Array");
      return make_lazy(f(as_py(x).expr()));
    }, nb::arg("x"));
  }
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
  m.def("_set_array_class", [](nb::handle type) {
    if (!PyType_Check(type.ptr()) ||
        !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(type.ptr()),
                          reinterpret_cast<PyTypeObject*>(nb::type<PyArray>().ptr()))) {
      throw nb::type_error("_set_array_class: expected a subclass of weft._weft._Array");
    }
    Py_XDECREF(array_class);
    array_class = type.inc_ref().ptr();
  }, nb::arg("type"), "Makes every array the extension returns an instance of type (weft.Array).");
  m.def("where", [](nb::handle c, nb::handle a, nb::handle b) {
    return make_lazy(weft::where(need_operand(c, "where"), need_operand(a, "where"), need_operand(b, "where")));
  }, nb::arg("condition"), nb::arg("x"), nb::arg("y"));
  m.def("_as_strided", [](nb::handle a, nb::handle shape, nb::handle strides, std::int64_t offset) {
    // Another view of a's allocation (strides and offset in elements); the indexing code uses
    // it to read and write whole allocations through index arithmetic.
    return make_array(as_py(a).array().as_strided(weft::Shape(shape_arg(shape)), shape_arg(strides), offset));
  }, nb::arg("a"), nb::arg("shape"), nb::arg("strides"), nb::arg("offset"));
  // NumPy's advanced indexing, planned in python/weft/_indexing.py, run by src/array/indexing.
  m.def("_gather", [](nb::handle src, nb::handle off, nb::handle roff, std::int64_t post, nb::handle shape) {
    const weft::Array a = as_py(src).array();
    const weft::IndexPlan plan{as_py(off).array(), as_py(roff).array(), post, weft::Shape(shape_arg(shape))};
    weft::Array out;
    {
      nb::gil_scoped_release unlocked;
      out = weft::gather(a, plan);
    }
    return make_array(std::move(out));
  }, nb::arg("src"), nb::arg("off"), nb::arg("roff"), nb::arg("post"), nb::arg("shape"));
  m.def("_scatter", [](nb::handle dst, nb::handle off, nb::handle roff, std::int64_t post, nb::handle shape,
                       nb::handle values) {
    const weft::Array a = as_py(dst).array();
    const weft::IndexPlan plan{as_py(off).array(), as_py(roff).array(), post, weft::Shape(shape_arg(shape))};
    const weft::Array v = as_py(values).array();
    nb::gil_scoped_release unlocked;
    weft::scatter(a, plan, v);
  }, nb::arg("dst"), nb::arg("off"), nb::arg("roff"), nb::arg("post"), nb::arg("shape"), nb::arg("values"));
  m.def("_compress", [](nb::handle src, nb::handle mask) {
    const weft::Array a = as_py(src).array(), selected = as_py(mask).array();
    weft::Array out;
    {
      nb::gil_scoped_release unlocked;  // it waits for the count of selected rows
      out = weft::masked_select(a, selected);
    }
    return make_array(std::move(out));
  }, nb::arg("src"), nb::arg("mask"));
  m.def("_expand", [](nb::handle dst, nb::handle mask, nb::handle values) {
    const weft::Array a = as_py(dst).array(), selected = as_py(mask).array(), v = as_py(values).array();
    nb::gil_scoped_release unlocked;
    weft::masked_scatter(a, selected, v);
  }, nb::arg("dst"), nb::arg("mask"), nb::arg("values"));
  m.def("_assign_where", [](nb::handle target, nb::handle condition, nb::handle value) {
    // target[...] = where(condition, value, target) in one kernel: the where is never a lazy
    // array of its own (which the write would first evaluate into a temporary).
    weft::Array a = as_py(target).array();
    before_write(a);
    a.assign(weft::where(need_operand(condition, "where"), need_operand(value, "where"), weft::Expr(a)));
  }, nb::arg("target"), nb::arg("condition"), nb::arg("value"));
  m.def("clip", [](nb::handle a, nb::handle lo, nb::handle hi) {
    // A Python number clipped is an array to NumPy (np.clip(-100, lo, hi) is int64), not a
    // number that adapts.
    weft::Expr x = need_operand(a, "clip");
    if (PyBool_Check(a.ptr())) x = weft::Expr::typed(static_cast<long long>(a.ptr() == Py_True), weft::DType::bool_);
    else if (PyFloat_Check(a.ptr())) x = weft::Expr::typed(PyFloat_AS_DOUBLE(a.ptr()), weft::DType::float64);
    else if (PyLong_Check(a.ptr())) x = weft::Expr::typed(nb::cast<long long>(a), weft::DType::int64);
    return make_lazy(weft::clip(x, need_operand(lo, "clip"), need_operand(hi, "clip")));
  }, nb::arg("a"), nb::arg("a_min"), nb::arg("a_max"));
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
  m.def("_result_type", [](const std::string& a, const std::string& b) {
    const weft::DType t = weft::result_type(dtype_arg(a), dtype_arg(b));
    return std::string(t == weft::DType::bool_ ? "bool" : weft::name(t));
  });

  m.def("_empty", [](nb::handle shape, const std::string& dtype, nb::handle device) {
    return make_array(weft::Array::empty(weft::Shape(shape_arg(shape)), dtype_arg(dtype), device_arg(device)));
  }, nb::arg("shape"), nb::arg("dtype"), nb::arg("device").none());
  m.def("_full", [](nb::handle shape, nb::handle value, const std::string& dtype, nb::handle device) {
    // The number as Python gave it: an int stays exact (int64 fills above 2**53), and one that
    // is not a value of dtype raises OverflowError, as NumPy 2's full does.
    const weft::Expr v = need_operand(value, "full");
    const weft::Device dev = device_arg(device);
    return make_array(weft::Array::full(weft::Shape(shape_arg(shape)), v, dtype_arg(dtype), dev));
  }, nb::arg("shape"), nb::arg("value"), nb::arg("dtype"), nb::arg("device").none());
  m.def("_arange", [](nb::handle start, nb::handle stop, nb::handle step, const std::string& dtype, nb::handle device) {
    const weft::Device dev = device_arg(device);
    const weft::DType t = dtype_arg(dtype);
    // Python ints (NumPy integer scalars too) within int64: exact integer arithmetic.
    const auto as_int = [](nb::handle h) -> std::optional<std::int64_t> {
      if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr()) || PyFloat_Check(h.ptr())) return std::nullopt;
      nb::object i = nb::steal(PyNumber_Index(h.ptr()));
      if (!i.is_valid()) {
        PyErr_Clear();
        return std::nullopt;
      }
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
      if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return std::nullopt;
      }
      return v;
    };
    const auto a = as_int(start), b = as_int(stop), c = as_int(step);
    if (a && b && c) return make_array(weft::Array::arange_integers(*a, *b, *c, t, dev));
    const auto as_double = [](nb::handle h, const char* what) {
      const double v = PyFloat_AsDouble(h.ptr());
      if (v == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        throw nb::type_error((std::string("arange: ") + what + " must be a number, not " +
                              nb::cast<std::string>(nb::type_name(h.type())))
                                 .c_str());
      }
      return v;
    };
    return make_array(weft::Array::arange(as_double(start, "start"), as_double(stop, "stop"), as_double(step, "step"),
                                          t, dev));
  }, nb::arg("start"), nb::arg("stop"), nb::arg("step"), nb::arg("dtype"), nb::arg("device").none());
  m.def("_linspace", [](double start, double stop, std::int64_t num, bool endpoint, const std::string& dtype,
                        nb::handle device) {
    const weft::Device dev = device_arg(device);
    return make_array(weft::Array::linspace(start, stop, num, dtype_arg(dtype), dev, endpoint));
  }, nb::arg("start"), nb::arg("stop"), nb::arg("num"), nb::arg("endpoint"), nb::arg("dtype"), nb::arg("device").none());
  m.def("_from_host", [](nb::handle host, nb::handle shape, const std::string& dtype, nb::handle device) {
    HostBuffer h(host, false);
    const weft::DType t = dtype_arg(dtype);
    const weft::Device dev = device_arg(device);
    const weft::Shape s(shape_arg(shape));
    if (h.view.itemsize != static_cast<Py_ssize_t>(weft::size_of(t)) && h.view.itemsize > 1) {
      throw weft::InvalidArgument("asarray: host elements of " + std::to_string(h.view.itemsize) + " bytes given as " +
                                  std::string(weft::name(t)));
    }
    const auto count = static_cast<std::size_t>(h.view.len) / weft::size_of(t);
    std::vector<unsigned char> swapped;
    const void* data = h.native(swapped);  // '>f4' input is converted, never read raw
    weft::Array a;
    {
      nb::gil_scoped_release unlocked;
      a = weft::Array::from_host_bytes(data, count, t, s, dev);
    }
    return make_array(std::move(a));
  }, nb::arg("host"), nb::arg("shape"), nb::arg("dtype"), nb::arg("device").none());
  m.def("_to_device", [](nb::handle self, nb::handle device) {
    // Another device's copy of an array, through host memory.
    const weft::Array& a = as_py(self).array();
    const weft::Device dev = device_arg(device);
    if (dev == a.device()) return nb::borrow(self);
    std::vector<std::uint8_t> host(static_cast<std::size_t>(a.size()) * weft::size_of(a.dtype()));
    {
      nb::gil_scoped_release unlocked;
      a.to_host_bytes(host.data(), a.dtype());
    }
    return make_array(weft::Array::from_host_bytes(host.data(), static_cast<std::size_t>(a.size()), a.dtype(),
                                                   a.shape(), dev));
  }, nb::arg("array"), nb::arg("device").none());
  m.def("_to", [](nb::handle self, nb::handle device) {
    return make_array(as_py(self).array().to(device_arg(device)));
  }, nb::arg("array"), nb::arg("device").none());
  m.def("memory_stats", [](nb::handle device) {
    const weft::MemoryStats st = weft::memory_stats(device_arg(device));
    nb::dict d;
    d["in_use"] = st.in_use;
    d["cached"] = st.cached;
    d["peak"] = st.peak;
    d["limit"] = st.limit;
    d["allocations"] = st.allocations;
    d["reuses"] = st.reuses;
    return d;
  }, nb::arg("device").none() = nb::none(),
        "The array memory pool on device: bytes in arrays (in_use), kept for reuse (cached), the peak, "
        "WEFT_MEMORY_LIMIT (0: none), blocks asked of the driver and requests served from the cache.");
  m.def("free_cached_memory", [](nb::handle device) {
    const weft::Device dev = device_arg(device);
    nb::gil_scoped_release unlocked;
    weft::free_cached_memory(dev);
  }, nb::arg("device").none() = nb::none(), "Gives the pool's cached blocks on device back to the driver.");
  m.def("transfer_stats", [] {
    const weft::TransferStats t = weft::transfer_stats();
    nb::dict d;
    d["to_device"] = t.to_device;
    d["to_host"] = t.to_host;
    d["between_devices"] = t.between_devices;
    d["bytes"] = t.bytes;
    return d;
  }, "Copies the array layer has made since the process began: host to device, device to host, between "
     "devices, and their bytes.");
  m.def("synchronize", [](nb::handle device) {
    const weft::Device dev = device_arg(device);
    PyEvent e{weft::array_queue(dev).marker(), weft::array_queue(dev)};
    wait_interruptible(e);
  }, nb::arg("device").none() = nb::none(), "Waits for the array work queued on device.");
  m.def("array_queue", [](nb::handle device) { return weft::array_queue(device_arg(device)); },
        nb::arg("device").none() = nb::none(), "The in-order queue arrays use on device.");
  m.def("elementwise_launches", [](nb::handle device) { return weft::elementwise_launches(device_arg(device)); },
        nb::arg("device").none() = nb::none(), "How many kernels the array layer has launched on device.");
}

}  // namespace weftpy
