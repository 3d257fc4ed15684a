// Programs, kernels and graphs called as in PyOpenCL: weft.Program (OpenCL C source built for
// a device), weft.Kernel (k(queue, global_size, local_size, *args)) and weft.Graph (launches
// recorded once and replayed).
#include <algorithm>
#include <string>
#include <unordered_map>

#include "kernel_arguments.hpp"

namespace weftpy {

namespace {

struct PyProgram {
  weft::Device device;
  std::string source;
  weft::Program program;
  std::unordered_map<std::string, nb::object> kernels;
  bool cuda = false;  // CUDA C as written (Program::build_cuda), not the dialect

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
  if (!nb::isinstance<weft::Queue>(args[0])) {
    throw nb::type_error(("kernel " + k.kernel.name() + ": the first argument must be a weft.Queue (or a weft.Graph), not " +
                          nb::cast<std::string>(nb::type_name(args[0].type())))
                             .c_str());
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

/// PyOpenCL's enqueue_nd_range_kernel(queue, kernel, global_size, local_size, ...): a launch
/// with the arguments set_args (or the last call) left in the kernel.
PyEvent enqueue_nd_range(weft::Queue& q, PyKernel& k, nb::handle global_size, nb::handle local_size,
                         nb::handle global_offset, nb::handle wait_for, bool g_times_l) {
  weft::NDRange global = ndrange(global_size, "global_size");
  const weft::NDRange local = ndrange(local_size, "local_size");
  if (g_times_l) {
    if (local.dims() != global.dims()) {
      throw weft::InvalidArgument("enqueue_nd_range_kernel: g_times_l needs local_size with as many dimensions as "
                                  "global_size");
    }
    std::size_t d[3] = {1, 1, 1};
    for (unsigned i = 0; i < global.dims(); ++i) d[i] = global[i] * local[i];
    global = global.dims() == 1 ? weft::NDRange(d[0]) : global.dims() == 2 ? weft::NDRange(d[0], d[1])
                                                                            : weft::NDRange(d[0], d[1], d[2]);
  }
  const weft::NDRange offset = ndrange(global_offset, "global_offset");
  std::vector<weft::Event> wait = events_of(wait_for);
  k.before_launch();
  weft::Event ev = q.launch(k.kernel, global, local, offset, wait);
  return PyEvent{std::move(ev), q};
}

}  // namespace

void register_kernels(nb::module_& m) {
  nb::class_<PyKernel>(m, "Kernel",
      "A kernel of a built Program, called as in PyOpenCL.\n"
      "\n"
      "``kernel(queue, global_size, local_size, *args, global_offset=None, wait_for=None)`` launches it\n"
      "and returns a weft.Event: weft arrays and Buffers go to pointer parameters, numbers to value\n"
      "parameters (converted to the declared type), LocalMemory to __local ones. With a weft.Graph\n"
      "in place of the queue the launch is recorded instead.\n"
      "\n"
      "Raises\n"
      "------\n"
      "weft.InvalidArgument\n"
      "    An argument does not fit its parameter (count, type, device), or a size is wrong.\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> prg = weft.Program(weft.Device(\"host\"), \"__kernel void add1(__global int *x, int n) { x[get_global_id(0)] += n; }\").build()\n"
      ">>> k = prg.add1\n"
      ">>> k.name, k.num_args, k.arg_names\n"
      "('add1', 2, ['x', 'n'])\n"
      ">>> x = weft.zeros(3, np.int32)\n"
      ">>> k(weft.Queue(x.device), (3,), None, x, 5).wait()\n"
      ">>> x.get()\n"
      "array([5, 5, 5], dtype=int32)")
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
      .def("set_args", [](PyKernel& k, nb::args args) { k.bind(args, 0); },
           "Sets every argument (PyOpenCL's Kernel.set_args), for enqueue_nd_range_kernel.")
      .def("set_arg", [](PyKernel& k, std::size_t i, nb::handle value) { k.bind_one(i, value); },
           nb::arg("index"), nb::arg("value"), "Sets argument index (PyOpenCL's Kernel.set_arg).")
      .def("__repr__", [](const PyKernel& k) { return "<weft.Kernel " + k.kernel.name() + ">"; });

  m.def("enqueue_nd_range_kernel", &enqueue_nd_range, nb::arg("queue"), nb::arg("kernel"), nb::arg("global_size"),
        nb::arg("local_size").none(), nb::arg("global_offset").none() = nb::none(),
        nb::arg("wait_for").none() = nb::none(), nb::kw_only(), nb::arg("g_times_l") = false,
        
        "Launches a kernel with the arguments set_args gave it (or its last call's), as PyOpenCL's\n"
        "enqueue_nd_range_kernel.\n"
        "\n"
        "Parameters\n"
        "----------\n"
        "queue : weft.Queue\n"
        "    The queue.\n"
        "kernel : weft.Kernel\n"
        "    The kernel.\n"
        "global_size : tuple of int\n"
        "    The NDRange.\n"
        "local_size : tuple of int or None\n"
        "    The work-group size (None: weft chooses).\n"
        "global_offset : tuple of int, optional\n"
        "    The first global id.\n"
        "wait_for : list of weft.Event, optional\n"
        "    Events to wait for.\n"
        "g_times_l : bool, optional\n"
        "    global_size counts work-groups (multiplied by local_size), as PyOpenCL's.\n"
        "\n"
        "Returns\n"
        "-------\n"
        "weft.Event\n"
        "\n"
        "Raises\n"
        "------\n"
        "weft.InvalidArgument\n"
        "    The kernel's arguments are not set, or the sizes do not fit.\n"
        "\n"
        "Examples\n"
        "--------\n"
        ">>> d = weft.Device(\"host\")\n"
        ">>> k = weft.Program(d, \"__kernel void inc(__global int *x) { x[get_global_id(0)] += 1; }\").build().inc\n"
        ">>> x = weft.zeros(4, np.int32)\n"
        ">>> k.set_args(x)\n"
        ">>> weft.enqueue_nd_range_kernel(weft.Queue(d), k, (4,), None).wait()\n"
        ">>> x.get()\n"
        "array([1, 1, 1, 1], dtype=int32)");

  nb::class_<PyGraph>(m, "Graph",
      "Kernel launches recorded once and replayed as one submission (a CUDA graph on CUDA\n"
      "devices). Record by calling a kernel with the graph in place of the queue; launch(queue,\n"
      "wait_for=None) runs them all in order and returns the last one's event.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "device : weft.Device, str or None, optional\n"
      "    The device (None: the default device).\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> d = weft.Device(\"host\")\n"
      ">>> prg = weft.Program(d, \"__kernel void inc(__global int *x) { x[get_global_id(0)] += 1; }\").build()\n"
      ">>> x = weft.zeros(4, np.int32)\n"
      ">>> g = weft.Graph(d)\n"
      ">>> for _ in range(3):\n"
      "...     prg.inc(g, (4,), None, x)\n"
      ">>> len(g)\n"
      "3\n"
      ">>> g.launch(weft.Queue(d)).wait()\n"
      ">>> x.get()\n"
      "array([3, 3, 3, 3], dtype=int32)")
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

  nb::class_<PyProgram>(m, "Program",
      "Kernels from OpenCL C source, built for one device, as PyOpenCL's Program.\n"
      "\n"
      "weft.Program(device, source).build(options) compiles the source (once: later builds, in any\n"
      "process, load it from the disk cache) and its kernels are attributes:\n"
      "``prg.name(queue, global_size, local_size, *args)`` launches one and returns a weft.Event.\n"
      "The source is OpenCL C 1.2 on every backend (weft translates it for the host compiler and\n"
      "for NVRTC); "
      "language='cuda' takes CUDA C as written, on CUDA devices.\n"
      "\n"
      "Parameters\n"
      "----------\n"
      "device : weft.Device, weft.Context, str or None\n"
      "    The device to build for (None: the default device).\n"
      "source : str\n"
      "    The program's source.\n"
      "language : str, optional\n"
      "    'opencl' (the default) or 'cuda'.\n"
      "\n"
      "Raises\n"
      "------\n"
      "weft.BuildError\n"
      "    From build(): the source did not compile (.log holds the compiler's output).\n"
      "weft.Unsupported\n"
      "    The device cannot run the kernel (e.g. CUDA C on a device that is not CUDA).\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> src = \"__kernel void twice(__global float *x) { x[get_global_id(0)] *= 2; }\"\n"
      ">>> prg = weft.Program(weft.Device(\"host\"), src).build()\n"
      ">>> prg.kernel_names\n"
      "['twice']\n"
      ">>> x = weft.asarray(np.array([1.0, 2.0, 3.0], np.float32))\n"
      ">>> prg.twice(weft.Queue(x.device), (3,), None, x).wait()\n"
      ">>> x.get()\n"
      "array([2., 4., 6.], dtype=float32)")
      .def("__init__", [](PyProgram* self, nb::handle device, nb::handle source, const std::string& language) {
        if (!nb::isinstance<nb::str>(source)) {
          throw nb::type_error(("Program: source must be a str of OpenCL C, not " +
                                nb::cast<std::string>(nb::type_name(source.type())))
                                   .c_str());
        }
        if (language != "opencl" && language != "cuda") {
          throw weft::InvalidArgument("Program: language must be 'opencl' (weft's dialect, every device) or 'cuda' "
                                      "(CUDA C as written, CUDA devices), not '" + language + "'");
        }
        new (self) PyProgram{device_arg(device), nb::cast<std::string>(source), {}, {}, language == "cuda"};
      }, nb::arg("device").none(), nb::arg("source"), nb::kw_only(), nb::arg("language") = "opencl")
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
          built = p.cuda ? weft::Program::build_cuda(p.device, p.source, options)
                         : weft::Program::build(p.device, p.source, options);
        }
        p.program = built;
        p.kernels.clear();
        return nb::borrow(self);
      }, nb::arg("options").none() = "", "Compiles (or finds in the disk cache) and returns the program. options: "
         "a string or a list of strings, as PyOpenCL's. A Program made with language='cuda' is CUDA C as "
         "written, built by NVRTC where the device's cuda_source is set (CUDA devices).")
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
}

}  // namespace weftpy
