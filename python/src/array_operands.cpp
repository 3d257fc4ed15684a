// Python values as weft expressions: Python's numbers (ints beyond 64 bits included), NumPy
// scalars as strong numbers of their dtype (NEP 50), arrays; and shapes and axes.
#include <algorithm>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arrays.hpp"

namespace weftpy {

namespace {

bool is_numpy_array(nb::handle h) {
  return std::string_view(Py_TYPE(h.ptr())->tp_name) == "numpy.ndarray";
}

// NumPy's scalar types met so far and their dtypes: dtype.name is a Python-level property that
// costs microseconds, more than the rest of an operation on a lazy array (a chain of
// y = sin(y + x) * np.float32(0.5) + np.float32(1) spent three quarters of its time there).
// Only static types (NumPy's own, never freed) are kept, so an address never names another
// type later; the dtype of such a type does not vary between its values.
std::mutex scalar_types_mutex;
std::vector<std::pair<PyTypeObject*, weft::DType>> scalar_types;

std::optional<weft::DType> known_scalar_type(PyTypeObject* type) {
  std::lock_guard lock(scalar_types_mutex);
  for (const auto& [t, d] : scalar_types) {
    if (t == type) return d;
  }
  return std::nullopt;
}

void remember_scalar_type(PyTypeObject* type, weft::DType d) {
  if (PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE)) return;  // a class made in Python: may be freed
  std::lock_guard lock(scalar_types_mutex);
  if (!std::any_of(scalar_types.begin(), scalar_types.end(), [&](const auto& e) { return e.first == type; })) {
    scalar_types.emplace_back(type, d);
  }
}

/// A NumPy scalar as a number of its own dtype (NEP 50: int8 array + np.int64(3) is int64;
/// np.float64 is a Python float too, but a strong one).
std::optional<weft::Expr> numpy_scalar(nb::handle h) {
  PyTypeObject* type = Py_TYPE(h.ptr());
  std::optional<weft::DType> known = known_scalar_type(type);
  if (!known) {
    PyObject* np = PyImport_GetModule(nb::str("numpy").ptr());
    if (!np) {
      PyErr_Clear();
      return std::nullopt;
    }
    nb::object numpy = nb::steal(np);
    if (!nb::isinstance(h, numpy.attr("generic")) || !nb::hasattr(h, "dtype")) return std::nullopt;
    const std::string dt = nb::cast<std::string>(h.attr("dtype").attr("name"));
    try {
      known = dtype_arg(dt);
    } catch (const weft::InvalidArgument&) {
      return std::nullopt;  // strings, float128: not one weft computes with
    }
    remember_scalar_type(type, *known);
  }
  const weft::DType t = *known;
  if (weft::is_floating(t)) {
    // A real NumPy float's value as a double through its __float__ slot: exact (float16 and
    // float32 widen), and without item()'s method call.
    const double d = PyFloat_AsDouble(h.ptr());
    if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
    if (t == weft::DType::float16) return weft::Expr(d);  // no float16 arithmetic yet
    return weft::Expr::typed(d, t);
  }
  nb::object v = h.attr("item")();  // the value as a Python bool, int or complex
  if (weft::is_complex(t)) {
    const Py_complex c = PyComplex_AsCComplex(v.ptr());
    return weft::Expr::typed(std::complex<double>(c.real, c.imag), t);
  }
  if (t == weft::DType::uint64) return weft::Expr::typed(PyLong_AsUnsignedLongLong(v.ptr()), t);
  return weft::Expr::typed(static_cast<long long>(PyLong_AsLongLong(v.ptr())), t);
}

}  // namespace

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
  if (PyComplex_Check(h.ptr())) {
    const Py_complex c = PyComplex_AsCComplex(h.ptr());
    return weft::Expr(std::complex<double>(c.real, c.imag));
  }
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

namespace {
/// An integer as Python holds it (an int, a NumPy integer: anything with __index__, not a
/// float or a str), checked to fit an int64; TypeError / OverflowError naming what.
std::int64_t index_arg(nb::handle h, const char* what) {
  if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr())) {
    throw nb::type_error((std::string(what) + ": expected an integer, got " +
                          nb::cast<std::string>(nb::type_name(h.type())))
                             .c_str());
  }
  nb::object i = nb::steal(PyNumber_Index(h.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    throw weft::ValueOutOfRange(std::string(what) + ": " + nb::cast<std::string>(nb::str(h)) +
                                " does not fit a 64-bit integer");
  }
  return v;
}
}  // namespace

std::vector<std::int64_t> shape_arg(nb::handle h) {
  std::vector<std::int64_t> out;
  if (PyIndex_Check(h.ptr()) && !PyBool_Check(h.ptr())) {
    out.push_back(index_arg(h, "shape"));
    return out;
  }
  if (!PySequence_Check(h.ptr()) || PyUnicode_Check(h.ptr()) || PyBytes_Check(h.ptr())) {
    throw nb::type_error(("shape: expected an integer or a sequence of integers, got " +
                          nb::cast<std::string>(nb::type_name(h.type())))
                             .c_str());
  }
  for (nb::handle d : h) out.push_back(index_arg(d, "shape"));
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
  } else if (PyIndex_Check(h.ptr()) && !PyBool_Check(h.ptr())) {
    add_axis(index_arg(h, "axis"));
  } else if (PySequence_Check(h.ptr()) && !PyUnicode_Check(h.ptr())) {
    for (nb::handle d : h) add_axis(index_arg(d, "axis"));
  } else {
    throw nb::type_error(("axis: expected None, an integer or a tuple of integers, got " +
                          nb::cast<std::string>(nb::type_name(h.type())))
                             .c_str());
  }
  return out;
}

}  // namespace weftpy
