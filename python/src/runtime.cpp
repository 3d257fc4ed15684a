// Devices, queues, events, buffers and the polygon mask for Python (the errors: errors.cpp;
// the callback thread and waits: callbacks.cpp).
#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>
#include <nanobind/ndarray.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "callbacks.hpp"
#include "weft/array.hpp"
#include "weft/config.hpp"
#include "common.hpp"
#include "kernel_arguments.hpp"

namespace weftpy {

weft::Device device_arg(nb::handle h) {
  if (h.is_none()) return weft::default_device();
  if (nb::isinstance<weft::Device>(h)) return nb::cast<weft::Device>(h);
  if (nb::isinstance<weft::Queue>(h)) return nb::cast<weft::Queue&>(h).device();
  if (nb::isinstance<nb::str>(h)) return weft::device(nb::cast<std::string>(h));
  if (nb::isinstance<PyContext>(h)) return nb::cast<const PyContext&>(h).devices.front();
  throw nb::type_error("device: expected None, a weft.Device, a weft.Queue, a weft.Context or a selector string "
                       "such as 'host', 'opencl:cpu', 'cuda:0' or 'opencl:0:0/1' (a sub-device)");
}

weft::DType dtype_arg(const std::string& name) {
  if (name == "bool") return weft::DType::bool_;
  auto t = weft::parse_dtype(name);
  if (!t) throw weft::InvalidArgument("dtype " + name + " is not one weft knows");
  return *t;
}

/// weft.LaunchLog: the log and the queue it listens to (its events flush that queue).
struct PyLaunchLog {
  weft::Queue queue;
  std::shared_ptr<weft::LaunchLog> log;
};

namespace {

std::vector<weft::Event> wait_list(nb::handle wait_for) { return event_list(wait_for, "wait_for"); }

}  // namespace

void register_runtime(nb::module_& m) {
  nb::class_<weft::Device>(m, "Device",
      "A device: the host's threads, an OpenCL device or a CUDA GPU.\n"
      "\n"
      "weft.Device(selector) names one: 'host', 'opencl', 'opencl:gpu', 'opencl:cpu', 'opencl:P:D',\n"
      "'cuda', 'cuda:N' or 'auto'; weft.Device() (None) is the default device (WEFT_DEVICE). Its\n"
      "properties say what it is and what it can do (has_barriers, memory_is_host, fp64 ...).\n"
      "``with device:`` makes it the current device of a block (arrays made there live on it).\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "selector : str, weft.Device or None, optional\n"
      "    The device's selector, as weft.devices() and `weft devices` list them.\n"
      "\n"
      "Raises\n"
      "------\n"
      "weft.InvalidArgument\n"
      "    The selector is malformed or names no device this machine has (the message lists the\n"
      "    valid forms).\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> d = weft.Device(\"host\")\n"
      ">>> d.selector, d.backend, d.type\n"
      "('host', 'host', 'cpu')\n"
      ">>> with d:\n"
      "...     weft.zeros(3).device == d\n"
      "True")
      .def(nb::new_([](nb::handle selector) { return device_arg(selector); }), nb::arg("selector").none() = nb::none(),
           "The device a selector names ('host', 'opencl:gpu', 'cuda:0', 'auto'); None is the default device "
           "(WEFT_DEVICE).")
      .def_prop_ro("name", [](const weft::Device& d) { return d.info().name; })
      .def_prop_ro("vendor", [](const weft::Device& d) { return d.info().vendor; })
      .def_prop_ro("backend", [](const weft::Device& d) { return d.info().backend; })
      .def_prop_ro("selector", [](const weft::Device& d) { return d.info().selector; })
      .def_prop_ro("platform", [](const weft::Device& d) { return d.info().platform; })
      .def_prop_ro("driver_version", [](const weft::Device& d) { return d.info().driver_version; })
      .def_prop_ro("type", [](const weft::Device& d) { return std::string(weft::to_string(d.info().type)); })
      .def_prop_ro("compute_units", [](const weft::Device& d) { return d.info().compute_units; })
      .def_prop_ro("global_mem_size", [](const weft::Device& d) { return d.info().global_mem_bytes; })
      .def_prop_ro("local_mem_size", [](const weft::Device& d) { return d.info().local_mem_bytes; })
      .def_prop_ro("max_mem_alloc_size", [](const weft::Device& d) { return d.info().max_alloc_bytes; })
      .def_prop_ro("max_work_group_size", [](const weft::Device& d) { return d.info().max_work_group_size; })
      .def_prop_ro("fp16", [](const weft::Device& d) { return d.info().fp16; })
      .def_prop_ro("fp64", [](const weft::Device& d) { return d.info().fp64; })
      // What the device can do (weft::DeviceCapabilities, documented in device.hpp).
      .def_prop_ro("has_barriers", [](const weft::Device& d) { return d.capabilities().has_barriers; })
      .def_prop_ro("memory_is_host", [](const weft::Device& d) { return d.capabilities().memory_is_host; })
      .def_prop_ro("addressable_memory", [](const weft::Device& d) { return d.capabilities().addressable_memory; })
      .def_prop_ro("prefers_row_kernels", [](const weft::Device& d) { return d.capabilities().prefers_row_kernels; })
      .def_prop_ro("native_ptx", [](const weft::Device& d) { return d.capabilities().native_ptx; })
      .def_prop_ro("inline_ptx", [](const weft::Device& d) { return d.capabilities().inline_ptx; })
      .def_prop_ro("native_api", [](const weft::Device& d) { return d.capabilities().native_api; })
      .def_prop_ro("cuda_source", [](const weft::Device& d) { return d.capabilities().cuda_source; },
                   "Whether CUDA C as written builds here (weft.Program(..., language='cuda'), weft.RawModule).")
      .def_prop_ro("dlpack_device_type", [](const weft::Device& d) { return d.capabilities().dlpack_device_type; })
      .def_prop_ro("dlpack_device_id", [](const weft::Device& d) { return d.capabilities().dlpack_device_id; })
      .def("create_sub_devices", &create_sub_devices, nb::arg("properties"),
           "Device fission, as PyOpenCL's: [weft.device_partition_property.EQUALLY, n] gives sub-devices of n compute "
           "units each; [BY_COUNTS, c1, c2, ..., BY_COUNTS_LIST_END] one of each count. OpenCL devices that can be "
           "split (PoCL's CPU device); Unsupported elsewhere. A selector names each while it lives: "
           "weft.Device('opencl:0:0/1').")
      .def_prop_ro("sub_devices", &weft::Device::sub_devices,
                   "The sub-devices of this device's latest create_sub_devices that are still alive.")
      .def("__eq__", [](const weft::Device& a, nb::handle b) {
        return nb::isinstance<weft::Device>(b) && a == nb::cast<const weft::Device&>(b);
      })
      .def("__hash__", [](const weft::Device& d) { return reinterpret_cast<std::uintptr_t>(d.impl().get()); })
      .def("__repr__", [](const weft::Device& d) {
        return "<weft.Device " + d.selector() + ": " + d.name() + " (" + d.backend() + ", " +
               std::string(weft::to_string(d.type())) + ")>";
      });

  m.def("devices", &weft::devices, 
        "Every device the enabled backends offer, in the order `weft devices` lists them.\n"
        "\n"
        "WEFT_BACKENDS narrows which backends load at all.\n"
        "\n"
        "Returns\n"
        "-------\n"
        "list of weft.Device\n"
        "    The devices; the host backend's is always there.\n"
        "\n"
        "Examples\n"
        "--------\n"
        ">>> any(d.selector == \"host\" for d in weft.devices())\n"
        "True");
  m.def("default_device", &weft::default_device, "The device WEFT_DEVICE names (host when unset).");
  m.def("_bounds_check", [] { return weft::config().bounds_check; },
        "Whether WEFT_BOUNDS_CHECK turns bounds checks on for every kernel (weft.Config's bounds_check).");
  m.def("backends", [] {
    nb::list out;
    for (const auto& b : weft::backends()) {
      nb::dict d;
      d["name"] = b.name;
      d["loaded"] = b.loaded;
      d["reason"] = b.reason;
      d["devices"] = b.devices;
      out.append(d);
    }
    return out;
  }, 
        "Each backend: whether it loaded, why not, and its devices.\n"
        "\n"
        "Returns\n"
        "-------\n"
        "list of dict\n"
        "    One dict per backend: name, loaded, reason (why it did not load or has no device),\n"
        "    devices.\n"
        "\n"
        "Examples\n"
        "--------\n"
        ">>> [b[\"name\"] for b in weft.backends()][0]\n"
        "'host'");

  nb::class_<weft::Queue>(m, "Queue",
      "A command queue: an OpenCL queue, a CUDA stream, a host worker thread.\n"
      "\n"
      "weft.Queue(device, out_of_order=False, profiling=False) orders the commands enqueued on it\n"
      "(in order unless out_of_order); every enqueue returns a weft.Event at once.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "device : weft.Device, str or None\n"
      "    The device (None: the default device).\n"
      "out_of_order : bool, optional\n"
      "    Let commands run in any order their wait lists allow.\n"
      "profiling : bool, optional\n"
      "    Record the commands' times (event.profile); off by default.\n"
      "ordered_with_arrays : bool, optional\n"
      "    Order the queue with the arrays' queue (the default, as CUDA's legacy default stream);\n"
      "    False: independent, ordered only by wait_for events (weft.stream_map's copy queues).\n"
      "\n"
      "Raises\n"
      "------\n"
      "weft.InvalidArgument\n"
      "    The device is not one this machine has.\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> q = weft.Queue(weft.Device(\"host\"))\n"
      ">>> q.device.selector\n"
      "'host'\n"
      ">>> q.finish()")
      .def(nb::new_([](nb::handle device, bool out_of_order, bool profiling, bool ordered_with_arrays) {
             weft::Queue q(device_arg(device), weft::QueueOptions{out_of_order, profiling, ordered_with_arrays});
             return q;
           }),
           nb::arg("device").none() = nb::none(), nb::arg("out_of_order") = false, nb::arg("profiling") = false,
           nb::arg("ordered_with_arrays") = true,
           "A queue on device. profiling=True gives its events times (Event.profile), as PyOpenCL's "
           "PROFILING_ENABLE; off by default, since it costs every command. ordered_with_arrays=False "
           "makes it independent of the arrays' queue (as a CUDA non-blocking stream): its commands "
           "overlap array work and are ordered with it only through wait_for events.")
      .def_prop_ro("device", &weft::Queue::device)
      .def_prop_ro("profiling", &weft::Queue::profiling, "Whether the queue's events carry times (Event.profile).")
      .def("finish", [](weft::Queue& q) {
        PyEvent pe{q.marker(), q};
        wait_interruptible(pe);
      }, "Waits until everything enqueued so far has finished.")
      .def("flush", &weft::Queue::flush)
      .def("marker", [](weft::Queue& q, nb::handle wait_for) {
        const auto w = wait_list(wait_for);
        return PyEvent{q.marker(w), q};
      }, nb::arg("wait_for").none() = nb::none(), "An event that completes when the work before it (or wait_for) has.")
      .def("barrier", [](weft::Queue& q, nb::handle wait_for) {
        const auto w = wait_list(wait_for);
        return PyEvent{q.barrier(w), q};
      }, nb::arg("wait_for").none() = nb::none(),
         "A marker that commands enqueued after it also wait for (PyOpenCL's enqueue_barrier; on an in-order "
         "queue the same as marker()).")
      .def_prop_ro("out_of_order", &weft::Queue::out_of_order)
      .def("__eq__", [](const weft::Queue& a, nb::handle b) {
        return nb::isinstance<weft::Queue>(b) && a.impl() == nb::cast<const weft::Queue&>(b).impl();
      })
      .def("__hash__", [](const weft::Queue& q) { return reinterpret_cast<std::uintptr_t>(q.impl().get()); })
      .def("__repr__", [](const weft::Queue& q) {
        return "<weft.Queue on " + q.device().selector() + (q.out_of_order() ? ", out of order" : "") +
               (q.profiling() ? ", profiling" : "") + ">";
      });

  nb::class_<PyLaunchLog>(m, "LaunchLog",
      "The kernels launched on a queue while it records, with their events: how many kernels an\n"
      "operation ran. Use it as a context manager on a queue (the arrays' queue:\n"
      "weft.array_queue(device)); entries are (kernel name, weft.Event), kernels the names.\n"
      "On the host, an expression seen for the first time may run step by step on prebuilt\n"
      "kernels (one per operation) while its fused kernel compiles (WEFT_HOST_PREBUILT), so\n"
      "count fused kernels on an expression the process has already run.\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> a = weft.asarray(np.arange(4.0))\n"
      ">>> with weft.LaunchLog(weft.array_queue(a.device)) as log:\n"
      "...     _ = (a + 1).get()\n"
      ">>> log.kernels\n"
      "['weft_expr']")
      .def(nb::new_([](const weft::Queue& q) { return PyLaunchLog{q, std::make_shared<weft::LaunchLog>(q)}; }),
           nb::arg("queue"))
      .def("__enter__", [](nb::handle self) { return nb::borrow(self); })
      .def("__exit__", [](PyLaunchLog& l, nb::args) { l.log->stop(); })
      .def("stop", [](PyLaunchLog& l) { l.log->stop(); }, "Stops recording; the entries stay.")
      .def_prop_ro("entries", [](const PyLaunchLog& l) {
        nb::list out;
        for (const auto& e : l.log->entries()) out.append(nb::make_tuple(e.kernel, PyEvent{e.event, l.queue}));
        return out;
      }, "A list of (kernel name, weft.Event) in launch order.")
      .def_prop_ro("kernels", [](const PyLaunchLog& l) {
        std::vector<std::string> names;
        for (const auto& e : l.log->entries()) names.push_back(e.kernel);
        return names;
      }, "The names of the kernels launched, in order.");

  nb::class_<weft::EventProfile>(m, "EventProfile",
      "Profiling times of an event, in nanoseconds on one clock: queued, submitted, start, end\n"
      "(seconds() is end - start in seconds).\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> event = weft.Queue(weft.Device(\"host\"), profiling=True).marker()\n"
      ">>> event.wait()\n"
      ">>> p = event.profile\n"
      ">>> p.queued <= p.submitted <= p.start <= p.end\n"
      "True")
      .def_ro("queued", &weft::EventProfile::queued)
      .def_ro("submitted", &weft::EventProfile::submitted)
      .def_ro("start", &weft::EventProfile::start)
      .def_ro("end", &weft::EventProfile::end)
      .def_prop_ro("seconds", &weft::EventProfile::seconds)
      .def("__repr__", [](const weft::EventProfile& p) {
        return "<weft.EventProfile " + std::to_string(p.end - p.start) + " ns>";
      });

  nb::class_<PyEvent>(m, "Event",
      "A command's completion, returned by every enqueue.\n"
      "\n"
      "Wait for it (wait(), which Ctrl-C interrupts), await it in asyncio, add a callback with\n"
      "then(f) (run on weft's completion thread), or read its profile (nanoseconds; on a queue\n"
      "made with profiling=True).\n"
      "\n"
      "Raises\n"
      "------\n"
      "weft.DeviceError\n"
      "    From wait() or await, when the command failed.\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> q = weft.Queue(weft.Device(\"host\"), profiling=True)\n"
      ">>> prg = weft.Program(q.device, \"__kernel void one(__global int *x) { x[get_global_id(0)] = 1; }\").build()\n"
      ">>> x = weft.zeros(4, np.int32)\n"
      ">>> event = prg.one(q, (4,), None, x)\n"
      ">>> event.wait()\n"
      ">>> event.done, event.profile.end >= event.profile.start\n"
      "(True, True)")
      .def("wait", [](const PyEvent& e) { wait_interruptible(e); }, "Waits (Ctrl-C interrupts) and raises if the command failed.")
      .def_prop_ro("done", [](const PyEvent& e) { return e.event.done(); })
      .def("__await__", [](nb::handle self) { return nb::module_::import_("weft._events").attr("await_event")(self); },
           nb::sig("def __await__(self) -> collections.abc.Generator[typing.Any, None, None]"),
           "await event: resumes when the command is done (weft/_events.py).")
      .def_prop_ro("status", [](const PyEvent& e) { return std::string(weft::to_string(e.event.status())); })
      .def_prop_ro("command_execution_status", [](const PyEvent& e) {
        // PyOpenCL's numbers (weft.command_execution_status): COMPLETE 0, RUNNING 1, SUBMITTED 2,
        // QUEUED 3, and a negative number for a command that failed.
        switch (e.event.status()) {
          case weft::EventStatus::queued: return 3;
          case weft::EventStatus::submitted: return 2;
          case weft::EventStatus::running: return 1;
          case weft::EventStatus::complete: return 0;
          case weft::EventStatus::error: break;
        }
        return -1;
      }, "As PyOpenCL's: weft.command_execution_status.COMPLETE (0), RUNNING, SUBMITTED, QUEUED, or < 0 (failed).")
      .def_prop_ro("profile", [](const PyEvent& e) {
        wait_interruptible(e);
        return e.event.profile();
      }, "Profiling times (waits for the event first). weft.Error on an event of a queue made without "
         "profiling (weft.Queue(device, profiling=True) gives times), but for markers on host and CUDA queues.")
      .def("as_future", [](nb::handle self) { return nb::module_::import_("weft._events").attr("as_future")(self); },
           nb::sig("def as_future(self) -> concurrent.futures.Future[None]"),
           "A concurrent.futures.Future that completes with the event: its result is None, or the "
           "command's error raised (weft/_events.py).")
      .def("then", [](nb::handle self, nb::handle callback) {
        if (!PyCallable_Check(callback.ptr())) {
          throw nb::type_error(("then: callback must be callable, not " +
                                nb::cast<std::string>(nb::type_name(callback.type())))
                                   .c_str());
        }
        const PyEvent& e = nb::cast<const PyEvent&>(self);
        if (e.queue) e.queue.flush();
        auto cb = std::make_shared<PyRef>(callback);
        auto me = std::make_shared<PyRef>(self);
        e.event.then([cb, me](const weft::Event&) {
          post_to_python([cb, me] {
            PyObject* r = PyObject_CallOneArg(cb->obj, me->obj);
            if (!r) PyErr_WriteUnraisable(cb->obj);
            Py_XDECREF(r);
          });
        });
        return nb::borrow(self);
      }, nb::arg("callback"), nb::sig("def then(self, callback: collections.abc.Callable[[Event], object]) -> Event"),
      "Calls callback(event) once the event is done (soon, if it is done already) on weft's callback "
      "thread with the GIL held, after the callbacks added to the event before it: e.then(f).then(g) "
      "runs f, then g. A callback that raises is reported (sys.unraisablehook) and the next ones still run. "
      "Returns the event.");

  m.def("_shutdown", [] {
        // The work still queued finishes first (PoCL crashes if its threads still run kernels
        // while the process tears down), then the callbacks it posted run, then the thread stops.
        // Not after Ctrl-C interrupted a wait (the user wants out), nor for longer than 10 s.
        if (!a_wait_was_interrupted()) {
          nb::gil_scoped_release unlocked;
          weft::finish_all_queues(std::chrono::seconds(10));
        }
        stop_callback_thread();
      }, "Waits for the work of every live queue, then stops the callback thread (atexit).");

  nb::class_<weft::LocalMemory>(m, "LocalMemory",
      "A __local argument's size in bytes, as PyOpenCL's LocalMemory: pass it where a kernel\n"
      "takes a __local pointer.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "size : int\n"
      "    Bytes.\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> weft.LocalMemory(256).size\n"
      "256")
      .def(nb::init<>())
      .def("__init__", [](weft::LocalMemory* self, nb::handle bytes) {
             new (self) weft::LocalMemory{size_of_index(bytes.ptr(), "LocalMemory: size")};
           }, nb::arg("size"))
      .def_ro("size", &weft::LocalMemory::bytes);

  m.def("enqueue_copy", [](weft::Queue& q, nb::handle dest, nb::handle src, bool is_blocking, nb::handle wait_for,
                           std::size_t dst_offset, std::size_t src_offset, std::optional<std::size_t> byte_count) {
    auto w = wait_list(wait_for);
    const bool dst_dev = nb::isinstance<weft::Buffer>(dest), src_dev = nb::isinstance<weft::Buffer>(src);
    weft::Event ev;
    if (dst_dev && src_dev) {
      const auto& d = nb::cast<const weft::Buffer&>(dest);
      const auto& s = nb::cast<const weft::Buffer&>(src);
      if (dst_offset > d.size() || src_offset > s.size()) {
        throw weft::InvalidArgument("enqueue_copy: an offset is beyond its buffer (dst_offset " + std::to_string(dst_offset) +
                                    " of " + std::to_string(d.size()) + " bytes, src_offset " + std::to_string(src_offset) +
                                    " of " + std::to_string(s.size()) + ")");
      }
      const std::size_t n = byte_count ? *byte_count : std::min(d.size() - dst_offset, s.size() - src_offset);
      before_write(d);
      ev = q.copy(s, d, n, src_offset, dst_offset, w);
    } else if (dst_dev) {
      const auto& d = nb::cast<const weft::Buffer&>(dest);
      HostBuffer h(src, false);
      const std::size_t n = byte_count ? *byte_count : h.bytes();
      if (n > h.bytes()) {
        throw weft::InvalidArgument("enqueue_copy: byte_count " + std::to_string(n) + " is more than the host source holds (" +
                                    std::to_string(h.bytes()) + " bytes)");
      }
      before_write(d);
      nb::gil_scoped_release unlocked;
      ev = q.write(d, h.view.buf, n, dst_offset, weft::Blocking::yes, w);  // the host view lives only this call
    } else if (src_dev) {
      const auto& s = nb::cast<const weft::Buffer&>(src);
      HostBuffer h(dest, true);
      const std::size_t n = byte_count ? *byte_count : h.bytes();
      if (n > h.bytes()) {
        throw weft::InvalidArgument("enqueue_copy: byte_count " + std::to_string(n) + " is more than the host destination "
                                    "holds (" + std::to_string(h.bytes()) + " bytes)");
      }
      if (is_blocking) {
        nb::gil_scoped_release unlocked;
        ev = q.read(s, h.view.buf, n, src_offset, weft::Blocking::yes, w);
      } else {
        // The destination stays alive through the event's callback.
        ev = q.read(s, h.view.buf, n, src_offset, weft::Blocking::no, w);
        auto keep = std::make_shared<PyRef>(dest);
        ev.then([keep](const weft::Event&) {});
      }
    } else {
      throw nb::type_error("enqueue_copy: one of dest and src must be a weft.Buffer");
    }
    return PyEvent{ev, q};
  }, nb::arg("queue"), nb::arg("dest"), nb::arg("src"), nb::kw_only(), nb::arg("is_blocking") = true,
     nb::arg("wait_for").none() = nb::none(), nb::arg("dst_offset") = 0, nb::arg("src_offset") = 0,
     nb::arg("byte_count").none() = nb::none(),
     
        "Copies between a weft.Buffer and host memory (any contiguous buffer object) or another\n"
        "Buffer, as PyOpenCL's enqueue_copy.\n"
        "\n"
        "Parameters\n"
        "----------\n"
        "queue : weft.Queue\n"
        "    The queue the copy is ordered on.\n"
        "dest, src : weft.Buffer or buffer object\n"
        "    The destination and the source; at least one a weft.Buffer.\n"
        "is_blocking : bool, optional\n"
        "    Return when the copy is done (True, the default) or at once.\n"
        "wait_for : list of weft.Event, optional\n"
        "    Events the copy waits for.\n"
        "dst_offset, src_offset : int, optional\n"
        "    Byte offsets into the Buffers.\n"
        "byte_count : int, optional\n"
        "    How many bytes; the host side's size by default.\n"
        "\n"
        "Returns\n"
        "-------\n"
        "weft.Event\n"
        "    The copy's event.\n"
        "\n"
        "Raises\n"
        "------\n"
        "TypeError\n"
        "    Neither dest nor src is a weft.Buffer.\n"
        "weft.InvalidArgument\n"
        "    An offset or byte_count is beyond a buffer.\n"
        "\n"
        "Examples\n"
        "--------\n"
        ">>> q = weft.Queue(weft.Device(\"host\"))\n"
        ">>> buf = weft.Buffer(q.device, 8)\n"
        ">>> _ = weft.enqueue_copy(q, buf, np.array([1, 2], np.int32))\n"
        ">>> out = np.zeros(2, np.int32)\n"
        ">>> weft.enqueue_copy(q, out, buf).done\n"
        "True\n"
        ">>> out\n"
        "array([1, 2], dtype=int32)");

  m.def("wait_for_events", [](nb::handle events) {
    event_list(events, "wait_for_events");  // checks every element first
    for (nb::handle h : events) wait_interruptible(nb::cast<const PyEvent&>(h));
  }, nb::arg("events"),
        "Waits for every event of a list (Ctrl-C interrupts), as PyOpenCL's wait_for_events.\n"
        "\n"
        "Parameters\n"
        "----------\n"
        "events : list of weft.Event\n"
        "    The events.\n"
        "\n"
        "Raises\n"
        "------\n"
        "weft.DeviceError\n"
        "    A command failed.\n"
        "\n"
        "Examples\n"
        "--------\n"
        ">>> q = weft.Queue(weft.Device(\"host\"))\n"
        ">>> weft.wait_for_events([q.marker(), q.marker()])");

  m.def("_polygon_mask", [](nb::ndarray<const double, nb::shape<-1, 2>, nb::c_contig, nb::device::cpu> vertices,
                            std::size_t height, std::size_t width, nb::handle device, std::uint8_t border_value,
                            nb::ndarray<std::uint8_t, nb::c_contig, nb::device::cpu> out) {
    std::vector<weft::Point> pts(vertices.shape(0));
    for (std::size_t i = 0; i < pts.size(); ++i) pts[i] = {vertices(i, 0), vertices(i, 1)};
    if (out.size() != height * width) throw weft::InvalidArgument("polygon_mask: out has the wrong size");
    if (nb::isinstance<nb::str>(device) && nb::cast<std::string>(device) == "auto") {
      // Device auto (docs/PLACEMENT.md): the chooser picks the device.
      nb::gil_scoped_release unlocked;
      weft::polygon_mask_auto_into(pts, height, width, std::span<std::uint8_t>(out.data(), out.size()), border_value);
      return;
    }
    const weft::Device dev = device_arg(device);
    nb::gil_scoped_release unlocked;
    // The device's array queue, made once (a queue per call cost a stream or command queue
    // each time): a small mask's call is dominated by such fixed costs.
    weft::polygon_mask_into(weft::array_queue(dev), pts, height, width,
                            std::span<std::uint8_t>(out.data(), out.size()), border_value);
  }, nb::arg("vertices"), nb::arg("height"), nb::arg("width"), nb::arg("device").none(), nb::arg("border_value"),
     nb::arg("out"));
  m.def("_random_polygon", [](std::size_t n, std::uint64_t seed, std::size_t width, std::size_t height) {
    std::vector<double> flat;
    for (const auto& p : weft::random_polygon(n, seed, width, height)) {
      flat.push_back(p.x);
      flat.push_back(p.y);
    }
    return flat;
  });
}

}  // namespace weftpy
