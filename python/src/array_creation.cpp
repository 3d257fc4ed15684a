// weft.Array creation for Python: empty, full, arange (exact integers where the bounds are
// ints), linspace, from host memory (any byte order), and copies to another device.
#include <cstdint>
#include <string>

#include "arrays.hpp"

namespace weftpy {

void register_array_creation(nb::module_& m) {
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
    if (dev == a.device()) return same_array(self);
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
}

}  // namespace weftpy
