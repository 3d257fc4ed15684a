// Zero-copy exchange with other array libraries: DLPack (both ways) and
// __cuda_array_interface__ (both ways), on CUDA devices and the host backend.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>

#include "common.hpp"

namespace weftpy {

namespace {

// DLPack's ABI (dlpack.h, the "dltensor" capsule), spelled out here: it is a fixed C layout.
struct DLDevice {
  std::int32_t device_type;
  std::int32_t device_id;
};
struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;
  std::uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};
constexpr std::int32_t kDLCPU = 1, kDLCUDA = 2;
constexpr std::uint8_t kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLComplex = 5, kDLBool = 6;

/// (device type, id) of an array's memory as DLPack names it; Unsupported where buffers have
/// no address (OpenCL).
DLDevice dl_device(const weft::Device& d) {
  const weft::DeviceCapabilities& caps = d.capabilities();
  if (caps.addressable_memory) return {caps.dlpack_device_type, caps.dlpack_device_id};
  throw weft::Unsupported(d.selector() + ": " + d.backend() +
                          " buffers have no address to share; copy the array to the host (get()) or to a CUDA "
                          "device first");
}

DLDataType dl_dtype(weft::DType t) {
  const auto bits = static_cast<std::uint8_t>(weft::size_of(t) * 8);
  if (t == weft::DType::bool_) return {kDLBool, 8, 1};
  if (weft::is_floating(t)) return {kDLFloat, bits, 1};
  if (weft::is_complex(t)) return {kDLComplex, bits, 1};  // the bits of both parts: 64 for complex64
  if (weft::is_unsigned_integer(t)) return {kDLUInt, bits, 1};
  return {kDLInt, bits, 1};
}

weft::DType from_dl_dtype(DLDataType t) {
  if (t.lanes != 1) throw weft::Unsupported("DLPack: vector dtypes (lanes > 1) are not supported");
  if (t.code == kDLBool && t.bits == 8) return weft::DType::bool_;
  const std::string name = (t.code == kDLFloat ? "float" : t.code == kDLUInt ? "uint" : t.code == kDLInt ? "int"
                            : t.code == kDLComplex ? "complex" : "?") +
                           std::to_string(t.bits);
  auto d = weft::parse_dtype(name);
  if (!d || *d == weft::DType::float16) throw weft::Unsupported("DLPack: dtype code " + std::to_string(t.code) +
                                                                " with " + std::to_string(t.bits) + " bits is not one weft arrays hold");
  return *d;
}

/// Waits until the array layer's work on device is done: what another library reads through
/// a shared pointer must be there (it runs on its own streams).
void settle(const weft::Device& d) {
  PyEvent e{weft::array_queue(d).marker(), weft::array_queue(d)};
  wait_interruptible(e);
}

struct Export {
  weft::Array array;
  std::vector<std::int64_t> shape, strides;
  DLManagedTensor managed{};
};

void delete_export(DLManagedTensor* m) { delete static_cast<Export*>(m->manager_ctx); }  // NOLINT: DLPack's C ownership

void capsule_destructor(PyObject* capsule) {
  // A capsule nobody consumed still owns its tensor; a consumed one was renamed.
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
    if (m && m->deleter) m->deleter(m);
  } else {
    PyErr_Clear();
  }
}

nb::object to_dlpack(PyArray& p) {
  const weft::Array a = p.array();
  const DLDevice dev = dl_device(a.device());
  settle(a.device());
  auto* e = new Export{a, a.shape().dims(), a.strides(), {}};  // NOLINT: owned by the capsule / consumer
  const std::size_t item = weft::size_of(a.dtype());
  DLTensor& t = e->managed.dl_tensor;
  t.data = reinterpret_cast<void*>(static_cast<std::uintptr_t>(a.buffer().address() + static_cast<std::uint64_t>(a.offset()) * item));
  t.device = dev;
  t.ndim = static_cast<std::int32_t>(a.ndim());
  t.dtype = dl_dtype(a.dtype());
  t.shape = e->shape.data();
  t.strides = e->strides.data();
  t.byte_offset = 0;
  e->managed.manager_ctx = e;
  e->managed.deleter = &delete_export;
  PyObject* cap = PyCapsule_New(&e->managed, "dltensor", &capsule_destructor);
  if (!cap) {
    delete e;  // NOLINT
    throw nb::python_error();
  }
  return nb::steal(cap);
}

/// A weft array over memory described by address, shape, strides (elements) and dtype on the
/// device of (type, id), kept alive by owner.
ArrayObject wrap_foreign(std::int32_t type, std::int32_t id, std::uint64_t address, weft::DType dtype,
                         std::vector<std::int64_t> shape, std::vector<std::int64_t> strides, std::shared_ptr<void> owner) {
  weft::Device device;
  if (type == kDLCUDA) device = weft::device("cuda:" + std::to_string(id));
  else if (type == kDLCPU) device = weft::device("host");
  else throw weft::Unsupported("DLPack: device type " + std::to_string(type) + " is not one weft can use in place");
  if (strides.empty()) strides = weft::contiguous_strides(weft::Shape(shape));
  std::int64_t lo = 0, hi = 0, size = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    size *= shape[d];
    const std::int64_t reach = (shape[d] - 1) * strides[d];
    (reach < 0 ? lo : hi) += reach;
  }
  const std::size_t item = weft::size_of(dtype);
  const std::size_t bytes = size == 0 ? item : static_cast<std::size_t>(hi - lo + 1) * item;
  const std::uint64_t base = address - static_cast<std::uint64_t>(-lo) * item;
  weft::Buffer buffer = weft::Buffer::wrap(device, base, bytes, std::move(owner));
  return make_array(weft::Array::wrap(buffer, dtype, weft::Shape(shape), strides, -lo));
}

/// Drops a foreign owner on weft's callback thread (with the GIL), never on a backend thread.
std::shared_ptr<void> python_owner(std::function<void()> release) {
  return std::shared_ptr<void>(nullptr, [release = std::move(release)](void*) mutable { post_to_python(std::move(release)); });
}

ArrayObject from_dlpack(nb::handle obj) {
  nb::object cap = nb::borrow(obj);
  if (!PyCapsule_CheckExact(obj.ptr())) {
    if (!nb::hasattr(obj, "__dlpack__")) {
      throw nb::type_error("from_dlpack: the object has neither __dlpack__ nor is a DLPack capsule");
    }
    cap = obj.attr("__dlpack__")();
  }
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap.ptr(), "dltensor"));
  if (!m) throw nb::python_error();
  const DLTensor& t = m->dl_tensor;
  const weft::DType dtype = from_dl_dtype(t.dtype);
  std::vector<std::int64_t> shape(t.shape, t.shape + t.ndim);
  std::vector<std::int64_t> strides;
  if (t.strides) strides.assign(t.strides, t.strides + t.ndim);
  const std::uint64_t address = reinterpret_cast<std::uintptr_t>(t.data) + t.byte_offset;
  std::shared_ptr<void> owner = python_owner([m] {
    if (m->deleter) m->deleter(m);
  });
  if (PyCapsule_SetName(cap.ptr(), "used_dltensor") != 0) throw nb::python_error();
  return wrap_foreign(t.device.device_type, t.device.device_id, address, dtype, std::move(shape), std::move(strides),
                      std::move(owner));
}

ArrayObject from_cuda_array_interface(nb::handle obj) {
  nb::dict cai = nb::cast<nb::dict>(obj.attr("__cuda_array_interface__"));
  std::vector<std::int64_t> shape;
  for (nb::handle d : cai["shape"]) shape.push_back(nb::cast<std::int64_t>(d));
  nb::object np = nb::module_::import_("numpy");
  const std::string name = nb::cast<std::string>(np.attr("dtype")(cai["typestr"]).attr("name"));
  const weft::DType dtype = dtype_arg(name);
  std::vector<std::int64_t> strides;
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    for (nb::handle s : cai["strides"]) strides.push_back(nb::cast<std::int64_t>(s) / static_cast<std::int64_t>(weft::size_of(dtype)));
  }
  const std::uint64_t address = nb::cast<std::uint64_t>(nb::cast<nb::tuple>(cai["data"])[0]);
  PyObject* keep = obj.inc_ref().ptr();
  std::shared_ptr<void> owner = python_owner([keep] { Py_DECREF(keep); });
  // The current CUDA device of the process is where the pointer lives; ask the driver through
  // the pointer's context would need the driver here, so take CuPy's and PyTorch's convention:
  // device 0 unless the producer says otherwise.
  int id = 0;
  if (nb::hasattr(obj, "device")) {
    nb::object dev = obj.attr("device");
    if (nb::hasattr(dev, "id")) id = nb::cast<int>(dev.attr("id"));
    else if (nb::hasattr(dev, "index") && !dev.attr("index").is_none()) id = nb::cast<int>(dev.attr("index"));
  }
  return wrap_foreign(kDLCUDA, id, address, dtype, std::move(shape), std::move(strides), std::move(owner));
}

}  // namespace

void register_interop(nb::module_& m) {
  nb::handle cls = m.attr("_Array");
  nb::setattr(cls, "__dlpack__", nb::cpp_function([](nb::handle self, nb::kwargs) { return to_dlpack(nb::cast<PyArray&>(self)); },
                                                   nb::is_method(), nb::name("__dlpack__"), nb::scope(cls),
                                                   nb::sig("def __dlpack__(self, **kwargs: object) -> object"),
                                                   "A DLPack capsule of the array (CUDA and host devices), after its pending work is done."));
  nb::setattr(cls, "__dlpack_device__", nb::cpp_function([](nb::handle self) {
    const DLDevice d = dl_device(nb::cast<PyArray&>(self).device());
    return nb::typed<nb::tuple, int, int>(nb::make_tuple(d.device_type, d.device_id));
  }, nb::is_method(), nb::name("__dlpack_device__"), nb::scope(cls)));
  nb::setattr(cls, "_cuda_array_interface", nb::cpp_function([](nb::handle self) {
    PyArray& p = nb::cast<PyArray&>(self);
    const weft::Array a = p.array();
    if (a.device().capabilities().dlpack_device_type != kDLCUDA) {
      throw nb::attribute_error("__cuda_array_interface__: the array is not on a CUDA device");
    }
    settle(a.device());
    const std::size_t item = weft::size_of(a.dtype());
    nb::object np = nb::module_::import_("numpy");
    nb::typed<nb::dict, nb::str, nb::object> d;
    nb::list shape, strides;
    for (auto s : a.shape().dims()) shape.append(s);
    for (auto s : a.strides()) strides.append(s * static_cast<std::int64_t>(item));
    d["shape"] = nb::tuple(shape);
    d["typestr"] = np.attr("dtype")(a.dtype() == weft::DType::bool_ ? "bool" : std::string(weft::name(a.dtype()))).attr("str");
    d["data"] = nb::make_tuple(a.buffer().address() + static_cast<std::uint64_t>(a.offset()) * item, false);
    d["strides"] = a.is_contiguous() ? nb::none() : nb::object(nb::tuple(strides));
    d["version"] = 3;
    d["stream"] = nb::none();  // the work is done (settled) before the pointer is handed out
    return d;
  }, nb::is_method(), nb::name("_cuda_array_interface"), nb::scope(cls)));
  m.def("from_dlpack", &from_dlpack, nb::arg("x"),
        "A weft array over another library's memory, without a copy (CUDA devices and host memory).");
  m.def("_from_cuda_array_interface", &from_cuda_array_interface, nb::arg("x"));
  // weft.asarray(x, device="auto") of a writable, aligned, C-contiguous NumPy array: its memory
  // borrowed (weft::Array::borrow_host), x kept alive until the array and its work are gone.
  m.def("_borrow_host", [](nb::handle x, std::uint64_t address, std::vector<std::int64_t> shape, const std::string& dtype) {
    PyObject* keep = x.inc_ref().ptr();
    std::shared_ptr<void> owner = python_owner([keep] { Py_DECREF(keep); });
    return make_array(weft::Array::borrow_host(reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)),
                                               dtype_arg(dtype), weft::Shape(std::move(shape)), std::move(owner)));
  }, nb::arg("x"), nb::arg("address"), nb::arg("shape"), nb::arg("dtype"));
}

}  // namespace weftpy
