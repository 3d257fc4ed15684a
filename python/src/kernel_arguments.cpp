// Arguments of kernel calls from Python (kernel_arguments.hpp).
#include <cstring>

#include "kernel_arguments.hpp"

namespace weftpy {

std::string arg_name(std::size_t i, const std::string& name) {
  return "argument " + std::to_string(i) + (name.empty() ? "" : " '" + name + "'");
}

std::size_t size_of_index(PyObject* o, const char* what) {
  // An integer (or anything with __index__, a NumPy integer), not a float or a string.
  if (PyBool_Check(o) || !PyIndex_Check(o)) {
    throw nb::type_error((std::string(what) + ": sizes must be non-negative integers, not " +
                          nb::cast<std::string>(nb::type_name(nb::handle(o).type())))
                             .c_str());
  }
  nb::object i = nb::steal(PyNumber_Index(o));
  if (!i.is_valid()) throw nb::python_error();
  const std::size_t v = PyLong_AsSize_t(i.ptr());
  if (v == static_cast<std::size_t>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    throw weft::ValueOutOfRange(std::string(what) + ": " + nb::cast<std::string>(nb::str(nb::handle(o))) +
                                " is not a size (a non-negative integer below 2**64)");
  }
  return v;
}

weft::NDRange ndrange(nb::handle h, const char* what) {
  if (h.is_none()) return {};
  PyObject* o = h.ptr();
  if (PyLong_Check(o) || PyIndex_Check(o)) return weft::NDRange(size_of_index(o, what));
  std::size_t d[3];
  std::size_t n = 0;
  if (PyTuple_Check(o)) {
    n = static_cast<std::size_t>(PyTuple_GET_SIZE(o));
    if (n < 1 || n > 3) throw weft::InvalidArgument(std::string(what) + ": 1 to 3 dimensions, got " + std::to_string(n));
    for (std::size_t i = 0; i < n; ++i) d[i] = size_of_index(PyTuple_GET_ITEM(o, static_cast<Py_ssize_t>(i)), what);
  } else {
    for (nb::handle x : h) {
      if (n == 3) throw weft::InvalidArgument(std::string(what) + ": 1 to 3 dimensions, got more");
      d[n++] = size_of_index(x.ptr(), what);
    }
  }
  switch (n) {
    case 1: return weft::NDRange(d[0]);
    case 2: return weft::NDRange(d[0], d[1]);
    case 3: return weft::NDRange(d[0], d[1], d[2]);
    default: throw weft::InvalidArgument(std::string(what) + ": 1 to 3 dimensions, got 0");
  }
}

std::vector<weft::Event> events_of(nb::handle wait_for) { return event_list(wait_for, "wait_for"); }

namespace {
// who() words the argument in an error; it is called only then: a launch builds no string.
template <class Who>
void convert_number(weft::DType t, nb::handle obj, void* out, const Who& who) {
  PyObject* o = obj.ptr();
  auto fail = [&](const char* want) {
    throw nb::type_error((who() + " expects " + want + " (" + std::string(weft::name(t)) + "), got " +
                          nb::cast<std::string>(nb::type_name(obj.type())))
                             .c_str());
  };
  if (weft::is_floating(t)) {
    const double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      fail("a number");
    }
    if (t == weft::DType::float32) {
      const auto f = static_cast<float>(v);
      std::memcpy(out, &f, 4);
    } else if (t == weft::DType::float64) {
      std::memcpy(out, &v, 8);
    } else {
      fail("a float32 or float64");
    }
    return;
  }
  if (!PyIndex_Check(o)) fail("an integer");
  nb::object idx = nb::steal(PyNumber_Index(o));
  if (!idx.is_valid()) throw nb::python_error();
  // The value as Python holds it, then checked against the parameter's range: a number that
  // does not fit raises OverflowError (2**40 + 16 for an int is not 16, 300 for a char not 44).
  int overflow = 0;
  const long long s = PyLong_AsLongLongAndOverflow(idx.ptr(), &overflow);
  if (s == -1 && PyErr_Occurred()) throw nb::python_error();
  unsigned long long u = 0;
  bool big = false;  // above 2**63 - 1
  if (overflow > 0) {
    u = PyLong_AsUnsignedLongLong(idx.ptr());
    if (PyErr_Occurred()) {
      PyErr_Clear();
      overflow = 2;  // beyond 64 bits
    } else {
      big = true;
    }
  }
  const auto out_of_range = [&] {
    throw weft::ValueOutOfRange(who() + ": Python integer " + nb::cast<std::string>(nb::str(obj)) + " out of bounds for " +
                                std::string(weft::name(t)) + " (" + std::string(weft::c_name(t)) + ")");
  };
  if (overflow < 0 || overflow == 2) out_of_range();
  const auto in = [&](long long lo, unsigned long long hi) {
    if (big) return u <= hi;
    return s >= lo && (s < 0 || static_cast<unsigned long long>(s) <= hi);
  };
  auto store = [&](auto v) { std::memcpy(out, &v, sizeof v); };
  switch (t) {
    case weft::DType::int8: if (!in(INT8_MIN, INT8_MAX)) out_of_range(); store(static_cast<std::int8_t>(s)); break;
    case weft::DType::int16: if (!in(INT16_MIN, INT16_MAX)) out_of_range(); store(static_cast<std::int16_t>(s)); break;
    case weft::DType::int32: if (!in(INT32_MIN, INT32_MAX)) out_of_range(); store(static_cast<std::int32_t>(s)); break;
    case weft::DType::int64: if (!in(INT64_MIN, INT64_MAX)) out_of_range(); store(static_cast<std::int64_t>(s)); break;
    case weft::DType::uint8: if (!in(0, UINT8_MAX)) out_of_range(); store(static_cast<std::uint8_t>(s)); break;
    case weft::DType::uint16: if (!in(0, UINT16_MAX)) out_of_range(); store(static_cast<std::uint16_t>(s)); break;
    case weft::DType::uint32: if (!in(0, UINT32_MAX)) out_of_range(); store(static_cast<std::uint32_t>(s)); break;
    case weft::DType::uint64:
      if (!in(0, UINT64_MAX)) out_of_range();
      store(big ? static_cast<std::uint64_t>(u) : static_cast<std::uint64_t>(s));
      break;
    default: fail("a scalar");
  }
}
}  // namespace

void number_to(weft::DType t, nb::handle obj, void* out, const std::string& who) {
  convert_number(t, obj, out, [&] { return who; });
}

bool PyKernel::bind(nb::handle args_obj, std::size_t first, Written* written) {
  nb::tuple args = nb::borrow<nb::tuple>(args_obj);
  const std::size_t n = args.size() - first;
  if (n != info.size()) {
    throw weft::InvalidArgument("kernel " + kernel.name() + " takes " + std::to_string(info.size()) +
                                " arguments, " + std::to_string(n) + " were given");
  }
  bool arrays = false;
  for (std::size_t i = 0; i < n; ++i) arrays = bind_one(i, args[first + i], written) || arrays;
  return arrays;
}

bool PyKernel::bind_one(std::size_t i, nb::handle a, Written* written) {
  if (i >= info.size()) {
    throw weft::InvalidArgument("kernel " + kernel.name() + " has " + std::to_string(info.size()) +
                                " arguments; there is no argument " + std::to_string(i));
  }
  const auto& p = info[i];
  bool arrays = false;
  held[i] = nb::object();
  if (PyArray* arr = as_array(a)) {
    const weft::Buffer b = array_buffer(*arr, [&] { return "kernel " + kernel.name() + " " + arg_name(i, p.name); });
    if (writes[i]) {
      before_write(arr->array());
      if (written) written->arrays.push_back(arr->array());
    }
    // Its elements only (a memory-pool block may be larger): what WEFT_BOUNDS_CHECK checks.
    const weft::Array& array = arr->array();
    kernel.set_arg(i, b, static_cast<std::size_t>(array.size()) * weft::size_of(array.dtype()));
    if (writes[i]) held[i] = nb::borrow(a);
    arrays = true;
  } else if (nb::isinstance<weft::Buffer>(a)) {
    const auto& b = nb::cast<const weft::Buffer&>(a);
    if (writes[i]) {
      before_write(b);
      if (written) written->buffers.push_back(b);
    }
    kernel.set_arg(i, b);
    if (writes[i]) held[i] = nb::borrow(a);
    arrays = true;
  } else if (nb::isinstance<weft::LocalMemory>(a)) {
    kernel.set_arg(i, nb::cast<weft::LocalMemory>(a));
  } else if (p.is_pointer) {
    throw nb::type_error(("kernel " + kernel.name() + " " + arg_name(i, p.name) + " is a pointer (" + p.type_name +
                          "): pass a weft.Array, a weft.Buffer" +
                          (p.space == weft::AddressSpace::local ? " or a weft.LocalMemory" : "") + ", not " +
                          nb::cast<std::string>(nb::type_name(a.type())))
                             .c_str());
  } else if (p.dtype && p.vector_width == 1) {
    unsigned char bytes[8];
    convert_number(*p.dtype, a, bytes, [&] { return "kernel " + kernel.name() + " " + arg_name(i, p.name); });
    kernel.set_value(i, p.dtype, bytes, weft::size_of(*p.dtype));
  } else if (PyObject_CheckBuffer(a.ptr())) {
    Py_buffer view;
    if (PyObject_GetBuffer(a.ptr(), &view, PyBUF_C_CONTIGUOUS) != 0) throw nb::python_error();
    try {
      kernel.set_value(i, std::nullopt, view.buf, static_cast<std::size_t>(view.len));
    } catch (...) {
      PyBuffer_Release(&view);
      throw;
    }
    PyBuffer_Release(&view);
  } else if (p.dtype && nb::isinstance<nb::sequence>(a)) {
    // A vector value from a sequence of numbers: (1, 2, 3, 4) for a float4.
    std::vector<unsigned char> bytes;
    const std::size_t es = weft::size_of(*p.dtype);
    for (nb::handle x : a) {
      bytes.resize(bytes.size() + es);
      convert_number(*p.dtype, x, bytes.data() + bytes.size() - es,
                     [&] { return "kernel " + kernel.name() + " " + arg_name(i, p.name); });
    }
    kernel.set_value(i, std::nullopt, bytes.data(), bytes.size());
  } else {
    throw nb::type_error(("kernel " + kernel.name() + " " + arg_name(i, p.name) + " (" + p.type_name +
                          ") takes the value's bytes (a NumPy scalar or array, bytes)")
                             .c_str());
  }
  return arrays;
}

}  // namespace weftpy
