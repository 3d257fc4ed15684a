// Programs and kernels called as in PyOpenCL, and the kernel generators (elementwise,
// reduction, scan) with PyOpenCL's argument conventions.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <unordered_map>

#include "common.hpp"

namespace weftpy {

namespace {

PyArray* as_array(nb::handle h) { return nb::isinstance<PyArray>(h) ? &nb::cast<PyArray&>(h) : nullptr; }

std::string arg_name(std::size_t i, const std::string& name) {
  return "argument " + std::to_string(i) + (name.empty() ? "" : " '" + name + "'");
}

/// The buffer of an array argument: a whole contiguous array from its first element. who()
/// names the argument; it is called only to word an error (nothing is built per call).
template <class Who>
weft::Buffer array_buffer(PyArray& p, const Who& who) {
  const weft::Array& a = p.array();
  if (a.offset() != 0 || !a.is_contiguous()) {
    throw weft::InvalidArgument(who() + ": " + a.describe() +
                                " is a view that does not start at its buffer's first element or is not "
                                "contiguous; pass a.copy()");
  }
  return a.buffer();
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

/// Converts a Python number to dtype t into out (at most 8 bytes); TypeError naming who.
void number_to(weft::DType t, nb::handle obj, void* out, const std::string& who) {
  PyObject* o = obj.ptr();
  auto fail = [&](const char* want) {
    throw nb::type_error((who + " expects " + want + " (" + std::string(weft::name(t)) + "), got " +
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
    throw weft::ValueOutOfRange(who + ": Python integer " + nb::cast<std::string>(nb::str(obj)) + " out of bounds for " +
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

/// What recorded launches may write: a graph's launch evaluates the lazy arrays reading it
/// first, as a kernel call does.
inline const weft::Buffer& buffer_of(const weft::Array& a) { return a.buffer(); }
inline const weft::Buffer& buffer_of(const weft::Buffer& b) { return b; }

struct Written {
  std::vector<weft::Array> arrays;
  std::vector<weft::Buffer> buffers;

  /// Adds other's, each allocation once (before_write of one view covers all of its views),
  /// so a graph of many launches over the same arrays checks each once per launch.
  void merge(Written&& other) {
    // (An array's before_write also marks its copies on other devices stale: a raw buffer
    // seen first does not stand in for it.)
    const auto in = [](const auto& list, const weft::Buffer& b) {
      for (const auto& x : list) {
        if (buffer_of(x).impl() == b.impl()) return true;
      }
      return false;
    };
    for (auto& a : other.arrays) {
      if (!in(arrays, a.buffer())) arrays.push_back(std::move(a));
    }
    for (auto& b : other.buffers) {
      if (!in(arrays, b) && !in(buffers, b)) buffers.push_back(std::move(b));
    }
  }
};

struct PyKernel {
  weft::Kernel kernel;
  std::vector<weft::KernelArgInfo> info;
  std::vector<bool> writes;  // a non-const __global pointer

  explicit PyKernel(weft::Kernel k) : kernel(std::move(k)) {
    for (std::size_t i = 0; i < kernel.num_args(); ++i) {
      info.push_back(kernel.arg_info(i));
      const auto& a = info.back();
      writes.push_back(a.is_pointer && a.space == weft::AddressSpace::global &&
                       a.type_name.find("const") == std::string::npos);
    }
  }

  /// Binds args[first..] to the parameters; returns whether any was a weft.Array or Buffer.
  /// written, when given, collects what the kernel may write (a graph does this again at
  /// each launch).
  bool bind(nb::handle args_obj, std::size_t first, struct Written* written = nullptr) {
    nb::tuple args = nb::borrow<nb::tuple>(args_obj);
    const std::size_t n = args.size() - first;
    if (n != info.size()) {
      throw weft::InvalidArgument("kernel " + kernel.name() + " takes " + std::to_string(info.size()) +
                                  " arguments, " + std::to_string(n) + " were given");
    }
    bool arrays = false;
    for (std::size_t i = 0; i < n; ++i) {
      nb::handle a = args[first + i];
      const auto& p = info[i];
      if (PyArray* arr = as_array(a)) {
        const weft::Buffer b = array_buffer(*arr, [&] { return "kernel " + kernel.name() + " " + arg_name(i, p.name); });
        if (writes[i]) {
          before_write(arr->array());
          if (written) written->arrays.push_back(arr->array());
        }
        kernel.set_arg(i, b);
        arrays = true;
      } else if (nb::isinstance<weft::Buffer>(a)) {
        const auto& b = nb::cast<const weft::Buffer&>(a);
        if (writes[i]) {
          before_write(b);
          if (written) written->buffers.push_back(b);
        }
        kernel.set_arg(i, b);
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
        number_to(*p.dtype, a, bytes, "kernel " + kernel.name() + " " + arg_name(i, p.name));
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
          number_to(*p.dtype, x, bytes.data() + bytes.size() - es, "kernel " + kernel.name() + " " + arg_name(i, p.name));
        }
        kernel.set_value(i, std::nullopt, bytes.data(), bytes.size());
      } else {
        throw nb::type_error(("kernel " + kernel.name() + " " + arg_name(i, p.name) + " (" + p.type_name +
                              ") takes the value's bytes (a NumPy scalar or array, bytes)")
                                 .c_str());
      }
    }
    return arrays;
  }
};

struct PyProgram {
  weft::Device device;
  std::string source;
  weft::Program program;
  std::unordered_map<std::string, nb::object> kernels;

  weft::Program& built() {
    if (!program) throw weft::InvalidArgument("program: call build() before asking for a kernel");
    return program;
  }
};

/// weft.Graph: recorded launches and what they may write.
struct PyGraph {
  weft::Graph graph;
  Written written;
  bool arrays = false;  // a recorded launch took a weft.Array or Buffer

  weft::Event launch(weft::Queue& q, std::vector<weft::Event> wait) {
    for (const auto& a : written.arrays) before_write(a);
    for (const auto& b : written.buffers) before_write(b);
    if (arrays) {
    }
    weft::Event ev;
    {
      nb::gil_scoped_release unlocked;  // a first launch instantiates the graph
      ev = graph.launch(q, wait);
    }
    return ev;
  }
};

/// The PyOpenCL-style call: k(queue, global_size, local_size, *args, global_offset=, wait_for=).
/// With a weft.Graph in place of the queue, the launch is recorded (and None returned).
// The keywords are parameters of their own (not **kwargs): a call without them makes no dict.
nb::object call_kernel(PyKernel& k, nb::args args, nb::handle global_offset, nb::handle wait_for) {
  if (args.size() < 3) {
    throw nb::type_error(("kernel " + k.kernel.name() + ": call as kernel(queue, global_size, local_size, *args)").c_str());
  }
  if (nb::isinstance<PyGraph>(args[0])) {
    PyGraph* g = nb::inst_ptr<PyGraph>(args[0]);
    if (!wait_for.is_none()) {
      throw weft::InvalidArgument("kernel " + k.kernel.name() +
                                  ": a launch recorded in a Graph takes no wait_for (give it to Graph.launch)");
    }
    const weft::NDRange global = ndrange(args[1], "global_size");
    const weft::NDRange local = ndrange(args[2], "local_size");
    const weft::NDRange offset = ndrange(global_offset, "global_offset");
    Written written;
    const bool buffers = k.bind(args, 3, &written);
    g->graph.add(k.kernel, global, local, offset);
    g->arrays = g->arrays || buffers;
    g->written.merge(std::move(written));  // after add: a refused launch leaves no trace
    return nb::none();
  }
  weft::Queue& q = nb::cast<weft::Queue&>(args[0]);
  const weft::NDRange global = ndrange(args[1], "global_size");
  const weft::NDRange local = ndrange(args[2], "local_size");
  const weft::NDRange offset = ndrange(global_offset, "global_offset");
  std::vector<weft::Event> wait = events_of(wait_for);
  const bool buffers = k.bind(args, 3);
  if (buffers) {
  }
  weft::Event ev = q.launch(k.kernel, global, local, offset, wait);
  return nb::cast(PyEvent{std::move(ev), q});
}

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
    else if (reduction && k == "out") c.out = value;
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

void register_kernels(nb::module_& m) {
  nb::class_<PyKernel>(m, "Kernel", "A kernel of a built Program, called as in PyOpenCL.")
      .def_prop_ro("name", [](const PyKernel& k) { return k.kernel.name(); })
      .def_prop_ro("num_args", [](const PyKernel& k) { return k.info.size(); })
      .def_prop_ro("arg_names", [](const PyKernel& k) {
        std::vector<std::string> out;
        for (const auto& a : k.info) out.push_back(a.name);
        return out;
      })
      .def_prop_ro("private_bytes_per_item", [](const PyKernel& k) { return k.kernel.private_bytes_per_item(); },
                   "Bytes of private memory per work-item the build placed in device memory (arrays kept "
                   "out of registers, spilled registers), or None where the backend cannot tell (host). "
                   "PyOpenCL: kernel.get_work_group_info(PRIVATE_MEM_SIZE, device).")
      .def("__call__", &call_kernel, nb::arg("args"), nb::arg("global_offset").none() = nb::none(),
           nb::arg("wait_for").none() = nb::none(),
           "kernel(queue, global_size, local_size, *args, global_offset=None, wait_for=None) -> Event. "
           "Arrays and Buffers go to pointer parameters, numbers to values (converted to the declared "
           "type), LocalMemory to __local ones.")
      .def("__repr__", [](const PyKernel& k) { return "<weft.Kernel " + k.kernel.name() + ">"; });

  nb::class_<PyGraph>(m, "Graph",
                      "Kernel launches recorded once and replayed as one submission (a CUDA graph on CUDA "
                      "devices). Record by calling a kernel with the graph in place of the queue.")
      .def("__init__", [](PyGraph* self, nb::handle device) {
        new (self) PyGraph{weft::Graph(device_arg(device)), {}, false};
      }, nb::arg("device").none() = nb::none())
      .def_prop_ro("device", [](const PyGraph& g) { return g.graph.device(); })
      .def("__len__", [](const PyGraph& g) { return g.graph.size(); })
      .def("launch", [](PyGraph& g, weft::Queue& q, nb::handle wait_for) {
        return PyEvent{g.launch(q, events_of(wait_for)), q};
      }, nb::arg("queue"), nb::arg("wait_for").none() = nb::none(),
         "Runs every recorded launch on queue, in order, after wait_for; returns the Event of the last.")
      .def("clear", [](PyGraph& g) {
        g.graph.clear();
        g.written = {};
        g.arrays = false;
      }, "Forgets every recorded launch.")
      .def("__repr__", [](const PyGraph& g) {
        return "<weft.Graph of " + std::to_string(g.graph.size()) + " launches on " + g.graph.device().selector() + ">";
      });

  nb::class_<PyProgram>(m, "Program", "Kernels from OpenCL C source, built for one device, as PyOpenCL's Program.")
      .def("__init__", [](PyProgram* self, nb::handle device, std::string source) {
        new (self) PyProgram{device_arg(device), std::move(source), {}, {}};
      }, nb::arg("device").none(), nb::arg("source"))
      .def("build", [](nb::handle self, nb::handle options_obj) {
        PyProgram& p = nb::cast<PyProgram&>(self);
        std::string options;
        if (nb::isinstance<nb::str>(options_obj)) {
          options = nb::cast<std::string>(options_obj);
        } else if (!options_obj.is_none()) {
          for (nb::handle o : options_obj) options += (options.empty() ? "" : " ") + nb::cast<std::string>(nb::str(o));
        }
        weft::Program built;
        {
          nb::gil_scoped_release unlocked;
          built = weft::Program::build(p.device, p.source, options);
        }
        p.program = built;
        p.kernels.clear();
        return nb::borrow(self);
      }, nb::arg("options").none() = "", "Compiles (or finds in the disk cache) and returns the program. options: "
         "a string or a list of strings, as PyOpenCL's.")
      .def_prop_ro("kernel_names", [](PyProgram& p) { return p.built().kernel_names(); })
      .def_prop_ro("device", [](const PyProgram& p) { return p.device; })
      .def_prop_ro("source", [](const PyProgram& p) { return p.source; })
      .def("kernel", [](PyProgram& p, const std::string& name) {
        auto it = p.kernels.find(name);
        if (it != p.kernels.end()) return it->second;
        nb::object k = nb::cast(PyKernel(p.built().kernel(name)));
        p.kernels.emplace(name, k);
        return k;
      }, nb::arg("name"))
      .def("__getattr__", [](PyProgram& p, const std::string& name) {
        auto it = p.kernels.find(name);
        if (it != p.kernels.end()) return it->second;
        if (!p.program) throw nb::attribute_error(("program is not built: no kernel '" + name + "' yet").c_str());
        const auto names = p.program.kernel_names();
        if (std::find(names.begin(), names.end(), name) == names.end()) {
          throw nb::attribute_error(("program has no kernel '" + name + "'").c_str());
        }
        nb::object k = nb::cast(PyKernel(p.program.kernel(name)));
        p.kernels.emplace(name, k);
        return k;
      });

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
      });

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
      });
}

}  // namespace weftpy
