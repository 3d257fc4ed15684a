// weft.fft's C++ part (include/weft/fft.hpp): python/weft/fft.py gives it the Array API's and
// NumPy's signatures; this layer takes axes, dtype names and devices as the other bindings do.
#include <optional>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "weft/fft.hpp"

namespace weftpy {

namespace {

const weft::Array& need_array(nb::handle h, const char* who) {
  if (!nb::isinstance<PyArray>(h)) throw nb::type_error((std::string(who) + ": expected a weft.Array").c_str());
  return as_py(h).array();
}

}  // namespace

void register_fft(nb::module_& m) {
  m.def("_fftfreq", [](std::int64_t n, double d, const std::string& dtype, nb::handle device, bool real) {
    const weft::Device dev = device_arg(device);
    const weft::DType t = dtype.empty() ? (dev.info().fp64 ? weft::DType::float64 : weft::DType::float32)
                                        : dtype_arg(dtype);
    return make_array(real ? weft::fft::rfftfreq(n, d, t, dev) : weft::fft::fftfreq(n, d, t, dev));
  }, nb::arg("n"), nb::arg("d"), nb::arg("dtype"), nb::arg("device").none(), nb::arg("real"));
  m.def("_fftshift", [](nb::handle x, std::optional<std::vector<int>> axes, bool inverse) {
    const weft::Array& a = need_array(x, inverse ? "ifftshift" : "fftshift");
    const std::vector<int> ax = axes ? *axes : std::vector<int>{};
    if (axes && axes->empty()) return make_array(a.copy());  // axes=(): nothing moves
    return make_array(inverse ? weft::fft::ifftshift(a, ax) : weft::fft::fftshift(a, ax));
  }, nb::arg("x"), nb::arg("axes").none(), nb::arg("inverse"));
  m.def("_fft_library", [](nb::handle device) { return weft::fft::library(device_arg(device)); },
        nb::arg("device").none());
}

}  // namespace weftpy
