// weft.fft's C++ part (include/weft/fft.hpp): python/weft/fft.py gives it the Array API's and
// NumPy's signatures; this layer takes axes, dtype names and devices as the other bindings do.
#include <optional>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "weft/fft.hpp"

namespace weftpy {

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
  m.def("_fft", [](nb::handle x, const std::string& kind, std::optional<std::vector<std::int64_t>> s,
                   std::optional<std::vector<int>> axes, const std::string& norm_text) {
    const weft::Array& a = need_array(x, kind.c_str());
    const weft::fft::Norm norm = weft::fft::parse_norm(norm_text);
    const std::vector<std::int64_t> ss = s ? *s : std::vector<std::int64_t>{};
    const std::vector<int> ax = axes ? *axes : std::vector<int>{};
    std::optional<std::int64_t> n;
    if (!ss.empty()) n = ss.front();
    const int axis = ax.empty() ? -1 : ax.front();
    if (kind == "fft") return make_array(weft::fft::fft(a, n, axis, norm));
    if (kind == "ifft") return make_array(weft::fft::ifft(a, n, axis, norm));
    if (kind == "rfft") return make_array(weft::fft::rfft(a, n, axis, norm));
    if (kind == "irfft") return make_array(weft::fft::irfft(a, n, axis, norm));
    if (kind == "hfft") return make_array(weft::fft::hfft(a, n, axis, norm));
    if (kind == "ihfft") return make_array(weft::fft::ihfft(a, n, axis, norm));
    if (axes && axes->empty()) return make_array(a.copy());  // axes=(): no axis is transformed
    if (kind == "fftn") return make_array(weft::fft::fftn(a, ss, ax, norm));
    if (kind == "ifftn") return make_array(weft::fft::ifftn(a, ss, ax, norm));
    if (kind == "rfftn") return make_array(weft::fft::rfftn(a, ss, ax, norm));
    if (kind == "irfftn") return make_array(weft::fft::irfftn(a, ss, ax, norm));
    throw nb::value_error(("fft: no transform named " + kind).c_str());
  }, nb::arg("x"), nb::arg("kind"), nb::arg("s").none(), nb::arg("axes").none(), nb::arg("norm"));
  m.def("_fft_library", [](nb::handle device) { return weft::fft::library(device_arg(device)); },
        nb::arg("device").none());
}

}  // namespace weftpy
