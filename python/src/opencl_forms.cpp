// PyOpenCL's runtime objects in the forms its users type: weft.Context (a list of devices;
// weft has no OpenCL-style contexts, so a context stands for its first device wherever a device
// is taken), weft.UserEvent with set_status, weft.Buffer(context, flags, size, hostbuf) with
// mem_flags, and device fission (Device.create_sub_devices). The Python names around them
// (mem_flags, command_execution_status, get_platforms, ...) are in weft/_pyopencl.py.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "common.hpp"
#include "kernel_arguments.hpp"

namespace weftpy {

namespace {

// OpenCL's values, as PyOpenCL's mem_flags and device_partition_property carry them.
constexpr unsigned long long read_write = 1 << 0, write_only = 1 << 1, read_only = 1 << 2, use_host_ptr = 1 << 3,
                             alloc_host_ptr = 1 << 4, copy_host_ptr = 1 << 5;
constexpr unsigned long long known_flags = (1 << 6) - 1 + (1 << 7) + (1 << 8) + (1 << 9);  // + HOST_{WRITE,READ,NO}_ACCESS
constexpr long long partition_equally = 0x1086, partition_by_counts = 0x1087, partition_by_affinity = 0x1088;

struct PyUserEvent : PyEvent {
  weft::UserEvent user;
};

std::string type_of(nb::handle h) { return nb::cast<std::string>(nb::type_name(h.type())); }

/// weft.Buffer(context_or_device_or_queue, flags, size=0, hostbuf=None), with PyOpenCL's rules
/// (and its errors for what OpenCL itself would refuse).
weft::Buffer make_buffer(nb::handle where, nb::handle flags_obj, nb::handle size_obj, nb::handle hostbuf) {
  const weft::Device dev = device_arg(where);
  if (size_obj.is_none() && hostbuf.is_none()) {
    // weft's own Buffer(device, size): a PyOpenCL buffer always has a size or a hostbuf.
    if (flags_obj.is_none()) throw weft::InvalidArgument("Buffer: give a size (or hostbuf= with COPY_HOST_PTR)");
    return weft::Buffer(dev, size_of_index(flags_obj.ptr(), "Buffer: size"));
  }
  unsigned long long flags = 0;
  if (!flags_obj.is_none()) {
    if (PyBool_Check(flags_obj.ptr()) || !PyIndex_Check(flags_obj.ptr())) {
      throw nb::type_error(("Buffer: flags must be weft.mem_flags values or'ed together (an int), not " + type_of(flags_obj))
                               .c_str());
    }
    flags = size_of_index(flags_obj.ptr(), "Buffer: flags");
  }
  std::size_t size = size_obj.is_none() ? 0 : size_of_index(size_obj.ptr(), "Buffer: size");
  if ((flags & ~known_flags) != 0) {
    throw weft::InvalidArgument("Buffer: flags " + std::to_string(flags) + " hold bits that are no weft.mem_flags value");
  }
  if (std::popcount(flags & (read_write | write_only | read_only)) > 1) {
    throw weft::InvalidArgument("Buffer: READ_WRITE, WRITE_ONLY and READ_ONLY exclude each other; give one");
  }
  if ((flags & use_host_ptr) && (flags & (copy_host_ptr | alloc_host_ptr))) {
    throw weft::InvalidArgument("Buffer: USE_HOST_PTR excludes COPY_HOST_PTR and ALLOC_HOST_PTR");
  }
  const bool wants_host = (flags & (use_host_ptr | copy_host_ptr)) != 0;
  if (wants_host && hostbuf.is_none()) {
    throw weft::InvalidArgument("Buffer: COPY_HOST_PTR and USE_HOST_PTR need hostbuf= (the host data to start from)");
  }
  if (!hostbuf.is_none() && !wants_host) {
    // PyOpenCL warns and ignores it; so does weft.
    PyErr_WarnEx(PyExc_UserWarning,
                 "Buffer: 'hostbuf' was passed, but no memory flags to make use of it (COPY_HOST_PTR); it is ignored", 1);
    if (size == 0) {
      HostBuffer h(hostbuf, false);
      size = h.bytes();
    }
    return weft::Buffer(dev, size);
  }
  if (!wants_host) {
    if (size == 0) throw weft::InvalidArgument("Buffer: size must be > 0 (or give hostbuf= with COPY_HOST_PTR)");
    return weft::Buffer(dev, size);
  }
  HostBuffer h(hostbuf, false);
  if (size == 0) size = h.bytes();
  if (size > h.bytes()) {
    throw weft::InvalidArgument("Buffer: size " + std::to_string(size) + " is larger than hostbuf (" +
                                std::to_string(h.bytes()) + " bytes)");
  }
  if (size == 0) throw weft::InvalidArgument("Buffer: hostbuf is empty; a buffer needs at least one byte");
  std::vector<unsigned char> scratch;
  const void* bytes = h.native(scratch);
  weft::Buffer b(dev, size);
  weft::Queue q(dev, weft::QueueOptions{false, false});
  {
    nb::gil_scoped_release unlocked;
    q.write(b, bytes, size, 0, weft::Blocking::yes);
  }
  return b;
}

}  // namespace

/// Device.create_sub_devices([EQUALLY, n]) or ([BY_COUNTS, c1, c2, ..., BY_COUNTS_LIST_END]).
std::vector<weft::Device> create_sub_devices(const weft::Device& dev, nb::handle properties) {
  std::vector<long long> p;
  const char* form = "Device.create_sub_devices: properties must be [weft.device_partition_property.EQUALLY, n] or "
                     "[weft.device_partition_property.BY_COUNTS, c1, c2, ..., BY_COUNTS_LIST_END]";
  if (nb::isinstance<nb::str>(properties) || !PyObject_HasAttrString(properties.ptr(), "__iter__")) {
    throw nb::type_error(form);
  }
  for (nb::handle h : properties) {
    if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr())) throw nb::type_error(form);
    p.push_back(nb::cast<long long>(nb::int_(h)));
  }
  if (p.empty()) throw weft::InvalidArgument(form);
  if (p[0] == partition_equally) {
    if (p.size() != 2 || p[1] <= 0) {
      throw weft::InvalidArgument("Device.create_sub_devices: EQUALLY takes one positive count of compute units per "
                                  "sub-device ([EQUALLY, n])");
    }
    nb::gil_scoped_release unlocked;
    return dev.partition(static_cast<unsigned>(p[1]));
  }
  if (p[0] == partition_by_counts) {
    std::vector<unsigned> counts;
    for (std::size_t i = 1; i < p.size() && p[i] != 0; ++i) {  // 0: BY_COUNTS_LIST_END, optional
      if (p[i] < 0) throw weft::InvalidArgument("Device.create_sub_devices: BY_COUNTS takes positive counts");
      counts.push_back(static_cast<unsigned>(p[i]));
    }
    nb::gil_scoped_release unlocked;
    return dev.partition_by_counts(counts);
  }
  if (p[0] == partition_by_affinity) {
    throw weft::Unsupported("Device.create_sub_devices: BY_AFFINITY_DOMAIN is not supported; use EQUALLY or BY_COUNTS");
  }
  throw weft::InvalidArgument(form);
}

void register_opencl_forms(nb::module_& m) {
  nb::class_<PyContext>(m, "Context",
      "PyOpenCL's Context: the devices it was made with. weft needs no contexts (memory and\n"
      "programs belong to a device); where a device is taken, a Context stands for its first.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "devices : list of weft.Device, optional\n"
      "    The devices (the default device when None).\n"
      "properties : optional\n"
      "    Accepted for PyOpenCL's signature.\n"
      "dev_type : int, optional\n"
      "    weft.device_type bits: the devices of that type.\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> ctx = weft.Context([weft.Device(\"host\")])\n"
      ">>> [d.selector for d in ctx.devices]\n"
      "['host']")
      .def("__init__", [](PyContext* self, nb::handle devices, nb::handle properties, nb::handle dev_type) {
        (void)properties;  // PyOpenCL's platform property: the devices already name it
        std::vector<weft::Device> devs;
        if (!devices.is_none()) {
          if (nb::isinstance<nb::str>(devices) || !PyObject_HasAttrString(devices.ptr(), "__iter__")) {
            throw nb::type_error(("Context: devices must be a list of weft.Device, not " + type_of(devices)).c_str());
          }
          for (nb::handle d : devices) devs.push_back(device_arg(d));
          if (devs.empty()) throw weft::InvalidArgument("Context: devices is empty");
        } else if (!dev_type.is_none()) {
          // PyOpenCL's device_type bits: DEFAULT 1 (the default device), CPU 2, GPU 4,
          // ACCELERATOR 8, ALL (every bit).
          const auto bits = nb::cast<unsigned long long>(nb::int_(dev_type));
          if (bits == 1) devs.push_back(weft::default_device());
          for (const auto& d : bits == 1 ? std::vector<weft::Device>{} : weft::devices()) {
            const unsigned long long t = d.type() == weft::DeviceType::cpu   ? 2
                                         : d.type() == weft::DeviceType::gpu ? 4
                                         : d.type() == weft::DeviceType::accelerator ? 8 : 0;
            if ((bits & t) != 0 || bits == 0xFFFFFFFFULL) devs.push_back(d);
          }
          if (devs.empty()) throw weft::InvalidArgument("Context: no device of dev_type " + std::to_string(bits));
        } else {
          devs.push_back(weft::default_device());
        }
        new (self) PyContext{std::move(devs)};
      }, nb::arg("devices").none() = nb::none(), nb::arg("properties").none() = nb::none(),
         nb::arg("dev_type").none() = nb::none())
      .def_ro("devices", &PyContext::devices)
      .def("__eq__", [](const PyContext& a, nb::handle b) {
        return nb::isinstance<PyContext>(b) && a.devices == nb::cast<const PyContext&>(b).devices;
      })
      .def("__hash__", [](const PyContext& c) { return reinterpret_cast<std::uintptr_t>(c.devices[0].impl().get()); })
      .def("__repr__", [](const PyContext& c) {
        std::string s = "<weft.Context on";
        for (const auto& d : c.devices) s += " " + d.selector();
        return s + ">";
      });

  nb::class_<PyUserEvent, PyEvent>(m, "UserEvent",
      "An event the host completes, as PyOpenCL's UserEvent: commands given it in wait_for run\n"
      "once set_status(weft.command_execution_status.COMPLETE) is called.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "context : weft.Context, weft.Device or None, optional\n"
      "    Its device.\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> gate = weft.UserEvent(weft.Device(\"host\"))\n"
      ">>> gate.done\n"
      "False\n"
      ">>> gate.set_status(weft.command_execution_status.COMPLETE)\n"
      ">>> gate.done\n"
      "True")
      .def("__init__", [](PyUserEvent* self, nb::handle context) {
        if (!context.is_none()) (void)device_arg(context);  // checked, as PyOpenCL's; any device's queue may wait on it
        weft::UserEvent u;
        new (self) PyUserEvent{PyEvent{u, {}}, u};
      }, nb::arg("context").none() = nb::none())
      .def("set_status", [](PyUserEvent& e, nb::handle status) {
        if (PyBool_Check(status.ptr()) || !PyIndex_Check(status.ptr())) {
          throw nb::type_error("UserEvent.set_status: status must be weft.command_execution_status.COMPLETE or a "
                               "negative error code");
        }
        const long long s = nb::cast<long long>(nb::int_(status));
        if (s == 0) {
          e.user.complete();
        } else if (s < 0) {
          e.user.fail("set_status(" + std::to_string(s) + ")");
        } else {
          throw weft::InvalidArgument("UserEvent.set_status: " + std::to_string(s) +
                                      " is not COMPLETE (0) or a negative error code; a user event is only ever "
                                      "completed or failed");
        }
      }, nb::arg("status"));

  nb::class_<weft::Buffer>(m, "Buffer",
      "Raw device memory, as PyOpenCL's Buffer.\n"
      "\n"
      "weft.Buffer(device, size) allocates size bytes on a device (or a Context's first device);\n"
      "PyOpenCL's form Buffer(context, flags, size=0, hostbuf=None) is taken too (COPY_HOST_PTR\n"
      "copies hostbuf in). Copy with weft.enqueue_copy; pass it to a kernel's pointer parameter.\n"
      "\n"
      "Raises\n"
      "------\n"
      "weft.OutOfMemory\n"
      "    The device could not allocate it.\n"
      "weft.InvalidArgument\n"
      "    A size or flag combination is wrong.\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> q = weft.Queue(weft.Device(\"host\"))\n"
      ">>> buf = weft.Buffer(q.device, 12)\n"
      ">>> buf.size\n"
      "12\n"
      ">>> _ = weft.enqueue_copy(q, buf, np.array([1, 2, 3], np.float32))\n"
      ">>> out = np.empty(3, np.float32)\n"
      ">>> _ = weft.enqueue_copy(q, out, buf)\n"
      ">>> out\n"
      "array([1., 2., 3.], dtype=float32)")
      .def(nb::new_([](nb::handle where, nb::handle flags, nb::handle size, nb::handle hostbuf) {
             return make_buffer(where, flags, size, hostbuf);
           }),
           nb::arg("context").none(), nb::arg("flags").none() = nb::none(), nb::arg("size").none() = nb::none(),
           nb::arg("hostbuf").none() = nb::none(),
           "Buffer(context_or_device_or_queue, flags=None, size=0, hostbuf=None), as PyOpenCL's (weft.mem_flags). "
           "weft's own form Buffer(device, size) still works: a second argument without a size is the size.")
      .def_prop_ro("size", &weft::Buffer::size)
      .def_prop_ro("device", &weft::Buffer::device)
      .def_prop_ro("int_ptr", &weft::Buffer::address, "The address kernels see (host, CUDA); 0 on OpenCL.")
      .def("__repr__", [](const weft::Buffer& b) {
        return "<weft.Buffer of " + std::to_string(b.size()) + " bytes on " + b.device().selector() + ">";
      });
}

}  // namespace weftpy
