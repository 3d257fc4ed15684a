// weft.random's C++ part: the Philox generator (include/weft/random.hpp) as weft._weft._Generator.
// python/weft/random.py gives it NumPy's names and keyword arguments; this layer takes shapes,
// dtype names and devices as the other bindings do. Calls keep the GIL: it is what makes one
// generator safe to share between Python threads (a call takes its blocks from the counter).
#include <nanobind/stl/array.h>

#include <cstdint>
#include <string>

#include "arrays.hpp"
#include "weft/random.hpp"

namespace weftpy {

namespace {

using weft::random::Generator;

template <class F>
ArrayObject draw(F&& f) {
  return make_array(f());
}

}  // namespace

void register_random(nb::module_& m) {
  m.def("_random_source", &weft::random::kernel_source, nb::arg("fp64"),
        "The dialect source of weft.random's Philox helpers and kernels (random.cl, + random_f64.cl).");
  nb::class_<Generator>(m, "_Generator", "The C++ part of weft.random.Generator: Philox4x32-10.")
      .def(nb::init<std::uint64_t>(), nb::arg("seed"))
      .def_prop_ro("seed", &Generator::seed)
      .def_prop_rw(
          "counter", [](const Generator& g) { return g.counter(); },
          [](Generator& g, const weft::random::Counter& c) { g = Generator(g.seed(), c); })
      .def("advance", &Generator::advance, nb::arg("blocks"))
      .def("random_raw", [](Generator& g, nb::handle shape, nb::handle device) {
        const weft::Shape s(shape_arg(shape));
        const weft::Device d = device_arg(device);
        return draw([&] { return g.random_raw(s, d); });
      }, nb::arg("shape"), nb::arg("device").none())
      .def("uniform", [](Generator& g, double low, double high, nb::handle shape, const std::string& dtype,
                         nb::handle device) {
        const weft::Shape s(shape_arg(shape));
        const weft::DType t = dtype_arg(dtype);
        const weft::Device d = device_arg(device);
        return draw([&] { return g.uniform(low, high, s, t, d); });
      }, nb::arg("low"), nb::arg("high"), nb::arg("shape"), nb::arg("dtype"), nb::arg("device").none())
      .def("normal", [](Generator& g, double mean, double scale, nb::handle shape, const std::string& dtype,
                        nb::handle device) {
        const weft::Shape s(shape_arg(shape));
        const weft::DType t = dtype_arg(dtype);
        const weft::Device d = device_arg(device);
        return draw([&] { return g.normal(mean, scale, s, t, d); });
      }, nb::arg("mean"), nb::arg("scale"), nb::arg("shape"), nb::arg("dtype"), nb::arg("device").none())
      .def("exponential", [](Generator& g, double scale, nb::handle shape, const std::string& dtype,
                             nb::handle device) {
        const weft::Shape s(shape_arg(shape));
        const weft::DType t = dtype_arg(dtype);
        const weft::Device d = device_arg(device);
        return draw([&] { return g.exponential(scale, s, t, d); });
      }, nb::arg("scale"), nb::arg("shape"), nb::arg("dtype"), nb::arg("device").none())
      .def("integers", [](Generator& g, std::int64_t low, std::int64_t high, nb::handle shape,
                          const std::string& dtype, bool endpoint, nb::handle device) {
        const weft::Shape s(shape_arg(shape));
        const weft::DType t = dtype_arg(dtype);
        const weft::Device d = device_arg(device);
        return draw([&] { return g.integers(low, high, s, t, d, endpoint); });
      }, nb::arg("low"), nb::arg("high"), nb::arg("shape"), nb::arg("dtype"), nb::arg("endpoint"),
         nb::arg("device").none())
      .def("integers_unsigned", [](Generator& g, std::uint64_t low, std::uint64_t high, nb::handle shape,
                                   const std::string& dtype, bool endpoint, nb::handle device) {
        const weft::Shape s(shape_arg(shape));
        const weft::DType t = dtype_arg(dtype);
        const weft::Device d = device_arg(device);
        return draw([&] { return g.integers_unsigned(low, high, s, t, d, endpoint); });
      }, nb::arg("low"), nb::arg("high"), nb::arg("shape"), nb::arg("dtype"), nb::arg("endpoint"),
         nb::arg("device").none())
      // Array-valued parameters (weft arrays on the result's device, broadcast to shape).
      .def("uniform_arrays", [](Generator& g, nb::handle low, nb::handle high, nb::handle shape,
                                const std::string& dtype) {
        const weft::Shape s(shape_arg(shape));
        return draw([&] {
          return g.uniform(need_array(low, "uniform"), need_array(high, "uniform"), s, dtype_arg(dtype));
        });
      }, nb::arg("low"), nb::arg("high"), nb::arg("shape"), nb::arg("dtype"))
      .def("normal_arrays", [](Generator& g, nb::handle mean, nb::handle scale, nb::handle shape,
                               const std::string& dtype) {
        const weft::Shape s(shape_arg(shape));
        return draw([&] {
          return g.normal(need_array(mean, "normal"), need_array(scale, "normal"), s, dtype_arg(dtype));
        });
      }, nb::arg("mean"), nb::arg("scale"), nb::arg("shape"), nb::arg("dtype"))
      .def("exponential_arrays", [](Generator& g, nb::handle scale, nb::handle shape, const std::string& dtype) {
        const weft::Shape s(shape_arg(shape));
        return draw([&] { return g.exponential(need_array(scale, "exponential"), s, dtype_arg(dtype)); });
      }, nb::arg("scale"), nb::arg("shape"), nb::arg("dtype"))
      .def("integers_arrays", [](Generator& g, nb::handle low, nb::handle high, nb::handle shape,
                                 const std::string& dtype, bool endpoint) {
        const weft::Shape s(shape_arg(shape));
        return draw([&] {
          return g.integers(need_array(low, "integers"), need_array(high, "integers"), s, dtype_arg(dtype), endpoint);
        });
      }, nb::arg("low"), nb::arg("high"), nb::arg("shape"), nb::arg("dtype"), nb::arg("endpoint"))
      .def("__copy__", [](const Generator& g) { return g; });
}

}  // namespace weftpy
