// The kernel generators for Python (ElementwiseKernel, ReductionKernel, GenericScanKernel),
// called with PyOpenCL's argument conventions and keywords (queue=, range=, wait_for=, out=).
#include <memory>
#include <span>
#include <string>

#include "kernel_arguments.hpp"
#include "weft/detail/generator_choices.hpp"

namespace weftpy {

namespace {

/// Arguments of a generated kernel, the queue and the element count from the call.
struct GeneratedCall {
  std::vector<weft::detail::RuntimeArg> args;
  weft::Queue queue;
  std::size_t n = 0;
  bool arrays = false;
  std::vector<weft::Event> wait;
  nb::handle out;             // ReductionKernel: out=
  bool return_event = false;  // ReductionKernel: return_event=
};

/// Binds a generated kernel's call: its arguments (arrays, buffers, numbers, checked against
/// the specs) and its keywords queue=, range= (or size=), wait_for=, and for reductions out=,
/// return_event= and allocator= (ignored: weft allocates itself). kind and name word errors.
GeneratedCall generated_call(const std::vector<weft::ArgSpec>& specs, nb::args args, nb::kwargs kwargs,
                             const char* kind, const std::string& name, bool reduction,
                             const std::vector<bool>* indexed = nullptr) {
  GeneratedCall c;
  const auto who = [&] { return std::string(kind) + (name.empty() ? "" : " " + name); };
  nb::handle queue_obj = nb::none(), size_obj = nb::none(), wait_for = nb::none();
  c.out = nb::none();
  for (auto [key, value] : kwargs) {
    const std::string k = nb::cast<std::string>(key);
    if (k == "queue") queue_obj = value;
    else if (k == "range" || k == "size") size_obj = value;
    else if (k == "wait_for") wait_for = value;
    else if (reduction && k == "out") {
      if (!value.is_none() && !nb::isinstance<PyArray>(value) && !PyObject_CheckBuffer(value.ptr())) {
        throw nb::type_error((who() + ": out= must be a weft.Array (or a NumPy array), not " +
                              nb::cast<std::string>(nb::type_name(value.type())))
                                 .c_str());
      }
      c.out = value;
    }
    else if (reduction && k == "return_event") c.return_event = nb::cast<bool>(value);
    else if (reduction && k == "allocator") continue;
    else throw nb::type_error((who() + " call: unexpected keyword argument '" + k + "'").c_str());
  }
  if (args.size() != specs.size()) {
    throw weft::InvalidArgument(who() + " takes " + std::to_string(specs.size()) + " arguments, " +
                                std::to_string(args.size()) + " were given");
  }
  std::optional<std::size_t> first_size;
  std::size_t largest = 0;  // elements of the largest array or buffer argument
  std::vector<std::pair<std::size_t, std::size_t>> held;  // (argument, elements) of arrays indexed [i]
  weft::Device device;
  for (std::size_t i = 0; i < args.size(); ++i) {
    nb::handle a = args[i];
    const auto& s = specs[i];
    const auto what = [&] { return who() + " " + arg_name(i, s.name); };
    if (PyArray* arr = as_array(a)) {
      if (!s.pointer) throw nb::type_error((what() + " is a value (" + s.type_name() + "), not an array").c_str());
      const weft::Buffer b = array_buffer(*arr, what);
      if (!first_size) first_size = static_cast<std::size_t>(arr->array().size());
      largest = std::max(largest, static_cast<std::size_t>(arr->array().size()));
      if (indexed && (*indexed)[i]) held.emplace_back(i, static_cast<std::size_t>(arr->array().size()));
      if (!device) device = b.device();
      if (!s.is_const) before_write(arr->array());
      c.args.push_back(weft::detail::RuntimeArg::of(b));
      c.arrays = true;
    } else if (nb::isinstance<weft::Buffer>(a)) {
      const auto& b = nb::cast<const weft::Buffer&>(a);
      if (!device) device = b.device();
      if (s.pointer && !s.is_const) before_write(b);
      largest = std::max(largest, b.size() / (weft::size_of(s.dtype) * s.vector_width));
      if (indexed && (*indexed)[i]) held.emplace_back(i, b.size() / (weft::size_of(s.dtype) * s.vector_width));
      c.args.push_back(weft::detail::RuntimeArg::of(b));
      c.arrays = true;
    } else if (s.pointer) {
      throw nb::type_error((what() + " is a pointer (" + s.type_name() + "): pass a weft.Array or a weft.Buffer, not " +
                            nb::cast<std::string>(nb::type_name(a.type())))
                               .c_str());
    } else if (PyBool_Check(a.ptr())) {
      c.args.push_back(weft::detail::RuntimeArg::of_value(a.ptr() == Py_True ? 1LL : 0LL));
    } else if (PyFloat_Check(a.ptr()) || (!PyIndex_Check(a.ptr()) && PyNumber_Check(a.ptr()))) {
      const double v = PyFloat_AsDouble(a.ptr());
      if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
      c.args.push_back(weft::detail::RuntimeArg::of_value(v));
    } else if (PyIndex_Check(a.ptr())) {
      nb::object idx = nb::steal(PyNumber_Index(a.ptr()));
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(idx.ptr(), &overflow);
      if (overflow > 0) {
        c.args.push_back(weft::detail::RuntimeArg::of_value(PyLong_AsUnsignedLongLong(idx.ptr())));
        if (PyErr_Occurred()) throw nb::python_error();
      } else {
        if (overflow < 0) throw nb::python_error();
        c.args.push_back(weft::detail::RuntimeArg::of_value(v));
      }
    } else {
      throw nb::type_error((what() + ": expected a weft.Array, a weft.Buffer or a number, got " +
                            nb::cast<std::string>(nb::type_name(a.type())))
                               .c_str());
    }
  }
  if (!size_obj.is_none()) c.n = size_of_index(size_obj.ptr(), "range");
  else if (first_size) c.n = *first_size;
  else throw weft::InvalidArgument(who() + ": no array argument gives the size; pass range= (or size=)");
  if (c.arrays && c.n > largest) {
    throw weft::InvalidArgument(who() + ": range " + std::to_string(c.n) + " is larger than every array argument (the " +
                                "largest has " + std::to_string(largest) + " elements)");
  }
  for (const auto& [i, count] : held) {
    if (count < c.n) {
      throw weft::InvalidArgument(who() + ": argument '" + specs[i].name + "' holds " + std::to_string(count) +
                                  " elements, but the operation reads or writes " + specs[i].name +
                                  "[i] for i up to " + std::to_string(c.n - 1));
    }
  }
  if (!queue_obj.is_none()) {
    if (!nb::isinstance<weft::Queue>(queue_obj)) {
      throw nb::type_error((who() + ": queue= must be a weft.Queue, not " +
                            nb::cast<std::string>(nb::type_name(queue_obj.type())))
                               .c_str());
    }
    c.queue = nb::cast<weft::Queue>(queue_obj);
  }
  else if (device) c.queue = weft::array_queue(device);
  else c.queue = weft::array_queue(weft::default_device());
  if (device && c.queue.device() != device) {
    throw weft::InvalidArgument(who() + ": the arrays are on " + device.selector() + ", the queue on " +
                                c.queue.device().selector());
  }
  c.wait = events_of(wait_for);
  if (c.arrays) {
  }
  // The generated kernels take no wait list: a marker that waits keeps an in-order queue's order.
  if (!c.wait.empty()) c.queue.marker(c.wait);
  return c;
}

std::string opt_str(nb::handle h) { return h.is_none() ? std::string() : nb::cast<std::string>(h); }

struct PyElementwise {
  std::unique_ptr<weft::ElementwiseKernel> k;
};
struct PyReduction {
  std::unique_ptr<weft::ReductionKernel> k;
};
struct PyScan {
  std::unique_ptr<weft::GenericScanKernel> k;
};

template <class T>
weft::Buffer reduce_typed(weft::ReductionKernel& k, weft::Queue& q, std::size_t n,
                          std::span<const weft::detail::RuntimeArg> args, weft::Event& done) {
  weft::Future<T> f = k.reduce_args<T>(q, n, args);
  done = f.event();
  return f.device_value();
}

weft::Buffer reduce_any(weft::ReductionKernel& k, weft::Queue& q, std::size_t n,
                        std::span<const weft::detail::RuntimeArg> args, weft::Event& done) {
  switch (k.out_dtype()) {
    case weft::DType::int8: return reduce_typed<std::int8_t>(k, q, n, args, done);
    case weft::DType::int16: return reduce_typed<std::int16_t>(k, q, n, args, done);
    case weft::DType::int32: return reduce_typed<std::int32_t>(k, q, n, args, done);
    case weft::DType::int64: return reduce_typed<std::int64_t>(k, q, n, args, done);
    case weft::DType::uint8: return reduce_typed<std::uint8_t>(k, q, n, args, done);
    case weft::DType::uint16: return reduce_typed<std::uint16_t>(k, q, n, args, done);
    case weft::DType::uint32: return reduce_typed<std::uint32_t>(k, q, n, args, done);
    case weft::DType::uint64: return reduce_typed<std::uint64_t>(k, q, n, args, done);
    case weft::DType::float32: return reduce_typed<float>(k, q, n, args, done);
    case weft::DType::float64: return reduce_typed<double>(k, q, n, args, done);
    default: throw weft::Unsupported("ReductionKernel: no reduction to " + std::string(weft::name(k.out_dtype())));
  }
}

}  // namespace

void register_generators(nb::module_& m) {
  m.def("_set_generator_choice", [](const std::string& name, const std::string& value) {
    weft::detail::set_generator_choice(name, value);
  }, nb::arg("name"), nb::arg("value"), "Tests only: a code path the kernel generators take (generator_choices.hpp).");
  nb::class_<PyElementwise>(m, "_ElementwiseKernel")
      .def("__init__", [](PyElementwise* self, const std::string& arguments, const std::string& operation,
                          const std::string& name, nb::handle preamble, nb::handle options) {
        new (self) PyElementwise{std::make_unique<weft::ElementwiseKernel>(arguments, operation, name,
                                                                          opt_str(preamble), opt_str(options))};
      }, nb::arg("arguments"), nb::arg("operation"), nb::arg("name") = "elementwise", nb::arg("preamble") = "",
         nb::arg("options").none() = nb::none())
      .def_prop_ro("source", [](const PyElementwise& e) { return e.k->source(); })
      .def_prop_ro("name", [](const PyElementwise& e) { return e.k->name(); })
      .def("__call__", [](PyElementwise& e, nb::args args, nb::kwargs kwargs) {
        GeneratedCall c = generated_call(e.k->arguments(), args, kwargs, "ElementwiseKernel", e.k->name(), false,
                                         &e.k->indexed_by_i());
        weft::Event ev = e.k->run(c.queue, c.n, c.args);
        return PyEvent{std::move(ev), c.queue};
      }, nb::sig("def __call__(self, *args: typing.Any, **kwargs: typing.Any) -> Event"));

  nb::class_<PyReduction>(m, "_ReductionKernel")
      .def("__init__", [](PyReduction* self, const std::string& dtype_out, const std::string& neutral,
                          const std::string& reduce_expr, const std::string& map_expr, const std::string& arguments,
                          const std::string& name, nb::handle options, nb::handle preamble) {
        new (self) PyReduction{std::make_unique<weft::ReductionKernel>(dtype_arg(dtype_out), neutral, reduce_expr,
                                                                      map_expr, arguments, opt_str(preamble), name,
                                                                      opt_str(options))};
      }, nb::arg("dtype_out"), nb::arg("neutral"), nb::arg("reduce_expr"), nb::arg("map_expr"),
         nb::arg("arguments"), nb::arg("name") = "reduce", nb::arg("options").none() = nb::none(),
         nb::arg("preamble").none() = nb::none())
      .def_prop_ro("source", [](const PyReduction& r) { return r.k->source(); })
      .def("__call__", [](PyReduction& r, nb::args args, nb::kwargs kwargs) {
        static const std::string no_name;
        GeneratedCall c = generated_call(r.k->arguments(), args, kwargs, "ReductionKernel", no_name, true);
        weft::Event done;
        weft::Buffer result = reduce_any(*r.k, c.queue, c.n, c.args, done);
        nb::object out = make_array(weft::Array::wrap(result, r.k->out_dtype(), weft::Shape{}));
        if (!c.out.is_none()) {
          c.out.attr("__setitem__")(nb::ellipsis(), out);
          out = nb::borrow(c.out);
        }
        if (c.return_event) return nb::object(nb::make_tuple(out, PyEvent{done, c.queue}));
        return out;
      });

  nb::class_<PyScan>(m, "_GenericScanKernel")
      .def("__init__", [](PyScan* self, const std::string& dtype, const std::string& arguments,
                          const std::string& input_expr, const std::string& scan_expr, const std::string& neutral,
                          const std::string& output_statement, nb::handle is_segment_start_expr, nb::handle preamble,
                          const std::string& name, nb::handle options) {
        new (self) PyScan{std::make_unique<weft::GenericScanKernel>(
            dtype_arg(dtype), arguments, input_expr, scan_expr, neutral, output_statement,
            opt_str(is_segment_start_expr), opt_str(preamble), name, opt_str(options))};
      }, nb::arg("dtype"), nb::arg("arguments"), nb::arg("input_expr"), nb::arg("scan_expr"), nb::arg("neutral"),
         nb::arg("output_statement"), nb::arg("is_segment_start_expr").none() = nb::none(), nb::arg("preamble").none() = nb::none(),
         nb::arg("name") = "scan", nb::arg("options").none() = nb::none())
      .def_prop_ro("source", [](const PyScan& s) { return s.k->source(); })
      .def("__call__", [](PyScan& s, nb::args args, nb::kwargs kwargs) {
        static const std::string no_name;
        GeneratedCall c = generated_call(s.k->arguments(), args, kwargs, "GenericScanKernel", no_name, false);
        weft::Event ev = s.k->run(c.queue, c.n, c.args);
        return PyEvent{std::move(ev), c.queue};
      }, nb::sig("def __call__(self, *args: typing.Any, **kwargs: typing.Any) -> Event"));
}

}  // namespace weftpy
