// weft.Array for Python, the C++ part (_Array): weft::LazyArray with its properties, views
// (reshape, transpose, broadcast_to), copies, and copies to and from host memory.
// python/weft/_array.py defines weft.Array over it and registers it, and every array made here
// is one. Its arithmetic, indexing and the array functions are bound in the other array_*.cpp
// (arrays.hpp).
#include <algorithm>
#include <string>
#include <vector>

#include "arrays.hpp"

namespace weftpy {

namespace {

// weft.Array, the Python class defined over _Array (python/weft/_array.py), once registered:
// every array made here is an instance of it, so that its Python methods are the class's own.
// A strong reference, kept to exit with the module's other types.
PyObject* array_class = nullptr;

ArrayObject wrap(weft::LazyArray value) {
  nb::handle type = array_class ? nb::handle(array_class) : nb::type<PyArray>();
  nb::object obj = nb::inst_alloc(type);
  new (nb::inst_ptr<PyArray>(obj)) PyArray{std::move(value)};
  nb::inst_mark_ready(obj);
  return nb::steal<ArrayObject>(obj.release());
}

}  // namespace

ArrayObject make_array(weft::Array array) { return wrap(weft::LazyArray(std::move(array))); }

ArrayObject make_lazy(weft::Expr expr) { return wrap(weft::LazyArray::defer(std::move(expr))); }

namespace {

nb::typed<nb::tuple, int, nb::ellipsis> to_tuple(const std::vector<std::int64_t>& v) {
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
  m.def("_explain", [](nb::handle x, bool reduction) -> AnyDict {
    const weft::PlacementExplanation e = weft::explain(as_py(x).expr(), reduction);
    nb::dict out;
    out["automatic"] = e.automatic;
    out["pinned"] = e.pinned;
    out["chosen"] = e.chosen;
    out["text"] = e.text;
    nb::list devices;
    for (std::size_t i = 0; i < e.devices.size(); ++i) {
      const weft::PlacementEstimate& t = e.estimates[i];
      nb::dict d;
      d["device"] = e.devices[i];
      d["launch_s"] = t.launch;
      d["compute_s"] = t.compute;
      d["copy_in_s"] = t.copy_in;
      d["copy_out_s"] = t.copy_out;
      d["total_s"] = t.total();
      d["chain_s"] = e.chain_s[i];
      devices.append(d);
    }
    out["devices"] = devices;
    out["following"] = e.following;
    if (e.automatic) {
      nb::dict w;
      w["elements"] = e.work.elements;
      w["bytes_read"] = e.work.bytes_read;
      w["bytes_written"] = e.work.bytes_written;
      w["ops"] = e.work.ops;
      w["math_calls"] = e.work.math_calls;
      w["arithmetic"] = std::string(weft::to_string(e.work.arithmetic));
      w["result_to_host"] = e.work.result_to_host;
      out["work"] = w;
    }
    return out;
  }, nb::arg("x"), nb::arg("reduction") = false, "weft.explain's C++ part (python/weft/_placement.py).");
  // ``with weft.Device(d):`` pins device auto in this thread (python/weft/_device.py); None unpins.
  m.def("_pin_placement", [](nb::handle d) {
    weft::set_placement_pin(d.is_none() ? weft::Device() : nb::cast<weft::Device>(d));
  }, nb::arg("device").none());
  // WEFT_DEVICE=auto: arrays made without a device are automatic (Config::device_automatic).
  m.def("_default_is_auto", [] { return weft::config().device_automatic; });
  // Python kernels' cached calls (python/weft/_pyk_fastcall.py): x's shape where x is a weft.Array
  // of dtype and ndim on device, strided or not as asked (strided: not C-contiguous from offset
  // 0), else None (the call then takes the signature path): one call for five attributes.
  m.def("_pyk_guard", [](nb::handle x, const std::string& dtype, std::size_t ndim, bool strided,
                         const weft::Device& device) -> nb::object {
    if (!nb::isinstance<PyArray>(x)) return nb::none();
    const PyArray& p = as_py(x);
    const std::string_view name = p.dtype() == weft::DType::bool_ ? std::string_view("bool") : weft::name(p.dtype());
    if (name != dtype || p.shape().ndim() != ndim || !(p.device() == device)) return nb::none();
    const weft::Array& a = p.array();
    if ((a.offset() != 0 || !a.is_contiguous()) != strided) return nb::none();
    return to_tuple(p.shape().dims());
  }, nb::arg("x"), nb::arg("dtype"), nb::arg("ndim"), nb::arg("strided"), nb::arg("device"),
     "Python kernels' guard of a cached call's array argument (python/weft/_pyk_fastcall.py).");
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
      .def("to_auto", [](nb::handle self) {
        as_py(self).array().to_auto();
        return same_array(self);
      }, "Device auto (docs/PLACEMENT.md): from now on each fused evaluation and full reduction that\n"
         "reads only automatic arrays runs on the device the cost model expects to finish it first,\n"
         "copies included; its result is automatic too. Marks the memory (every view of it); returns\n"
         "the array.\n\n"
         ">>> a = weft.asarray(np.arange(4.0), device=\"host\").to_auto()\n"
         ">>> float((a * 2).sum())\n"
         "12.0")
      .def_prop_ro("is_auto", [](nb::handle self) { return as_py(self).array().is_auto(); },
                   "Whether the array's memory is placed automatically (to_auto); evaluates a lazy array.")
      .def_prop_ro("flags_c_contiguous", [](nb::handle self) { return as_py(self).array().is_contiguous(); })
      .def("evaluate", [](nb::handle self) {
        as_py(self).array();
        return same_array(self);
      }, "Evaluates a lazy array now (one kernel) and returns it.")
      .def("__len__", [](const PyArray& p) {
        if (p.shape().ndim() == 0) throw nb::type_error("len() of unsized object");
        return p.shape()[0];
      })
      .def("reshape", [](nb::handle self, nb::args shape) {
        nb::handle s = shape.size() == 1 ? shape[0] : nb::handle(shape);
        const weft::Array& a = as_py(self).array();
        return make_array(a.reshape(shape_arg(s)));
      }, nb::sig("def reshape(self, *shape: typing.SupportsIndex | collections.abc.Sequence[typing.SupportsIndex]) -> Array"))
      .def("ravel", [](nb::handle self) {
        const weft::Array& a = as_py(self).array();
        return make_array(a.ravel());
      })
      .def("flatten", [](nb::handle self) {
        const weft::Array& a = as_py(self).array();
        return make_array(a.copy().ravel());
      })
      .def("transpose", [](nb::handle self, nb::args axes) { return make_array(transposed(as_py(self).array(), axes)); },
           nb::sig("def transpose(self, *axes: typing.SupportsIndex | collections.abc.Sequence[typing.SupportsIndex]) -> Array"))
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
        if (t == p.dtype() && !copy) return same_array(self);
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
      .def("fill", [](nb::handle self, nb::handle value) {
        weft::Array a = as_py(self).array();
        const weft::Expr e = need_operand(value, "fill");
        before_write(a);
        a.assign(e);
        return same_array(self);
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
        // A Ctrl-C may end the wait while the copy still writes into out: then out lives until
        // it is done. Not otherwise: a reference released later, on the callback thread, would
        // keep a pooled result block from the next get() (weft/_result_memory.py).
        try {
          wait_interruptible(e);
        } catch (...) {
          keep_alive_until(e.event, out);
          throw;
        }
      })
      .def_static("_read_all_into", [](const std::vector<nb::object>& arrays, const std::vector<nb::object>& outs) {
        // Every copy enqueued (and every queue flushed) before any is waited for, so that the
        // devices copy side by side (weft.multi's get()); as _read_into, the outs are kept
        // alive past this call only when a wait is interrupted.
        const std::size_t n = arrays.size();
        if (outs.size() != n) throw weft::InvalidArgument("_read_all_into: as many outs as arrays are needed");
        std::vector<PyEvent> events;
        events.reserve(n);
        try {
          for (std::size_t i = 0; i < n; ++i) {
            const nb::object item = arrays[i];
            const nb::object out = outs[i];
            const weft::Array a = as_py(item).array();
            HostBuffer h(out, true);
            const auto bytes = static_cast<std::size_t>(a.size()) * weft::size_of(a.dtype());
            if (h.bytes() != bytes) throw weft::InvalidArgument("get: output " + std::to_string(i) + " has the wrong size");
            events.push_back(PyEvent{a.to_host_bytes_async(h.view.buf, a.dtype()), weft::array_queue(a.device())});
          }
          for (const PyEvent& e : events) {
            if (e.queue) e.queue.flush();
          }
          for (const PyEvent& e : events) wait_interruptible(e);
        } catch (...) {
          for (std::size_t i = 0; i < events.size(); ++i) {
            const nb::object out = outs[i];
            keep_alive_until(events[i].event, out);
          }
          throw;
        }
      }, nb::arg("arrays"), nb::arg("outs"))
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
      });
  m.def("_set_array_class", [](nb::handle type) {
    if (!PyType_Check(type.ptr()) ||
        !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(type.ptr()),
                          reinterpret_cast<PyTypeObject*>(nb::type<PyArray>().ptr()))) {
      throw nb::type_error("_set_array_class: expected a subclass of weft._weft._Array");
    }
    Py_XDECREF(array_class);
    array_class = type.inc_ref().ptr();
  }, nb::arg("type"), "Makes every array the extension returns an instance of type (weft.Array).");
  // The rest of the class and the array functions, one file a concept (arrays.hpp).
  register_array_arithmetic(m, cls);
  register_array_indexing(m, cls);
  register_array_reductions(m);
  register_array_sorting(m);
  register_array_creation(m);
  register_array_memory(m);
  register_array_histogram(m);
  register_array_manipulation(m);
  register_array_functions(m);
  register_array_linalg(m);
}

}  // namespace weftpy
