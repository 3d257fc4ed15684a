// Shared pieces of the Python extension: the Python-side array (lazy or materialized), the
// record of lazy arrays that read each buffer, argument conversions and the interruptible wait.
#pragma once

#include <nanobind/nanobind.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "weft/weft.hpp"

namespace weftpy {

namespace nb = nanobind;

/// An event as Python sees it: the queue it came from is kept so that a wait can flush it
/// (an OpenCL command that was never flushed need not make progress).
struct PyEvent {
  weft::Event event;
  mutable weft::Queue queue;  // flushing changes no state Python sees
};

/// weft.Array: a weft::LazyArray (a computed array, or an expression evaluated on first need;
/// the record of what it reads and the evaluation before writes live in C++, lazy_array.hpp).
struct PyArray {
  weft::LazyArray value;

  /// The array, evaluating the expression first if it is lazy.
  const weft::Array& array() const { return value.array(); }
  /// The expression this array stands for (the array itself when computed).
  weft::Expr expr() const { return value.expr(); }
  bool lazy() const { return value.lazy(); }
  weft::DType dtype() const { return value.dtype(); }
  const weft::Shape& shape() const { return value.shape(); }
  weft::Device device() const { return value.device(); }
};

/// A weft.Array as the bindings return it: an nb::object that the signatures name `Array`, so
/// that the generated stub types each result as weft.Array (python/stubs.pat imports the name
/// from weft._array). An operator's NotImplemented travels in it too, as Python's stubs say.
class ArrayObject : public nb::object {
  static bool is_array(PyObject* o) { return nb::isinstance<PyArray>(nb::handle(o)); }

  NB_OBJECT_DEFAULT(ArrayObject, nb::object, "Array", is_array)
};

/// A value of a dict of mixed types, named typing.Any in the signatures (dict[str, Any]).
class AnyObject : public nb::object {
  static bool is_object(PyObject*) { return true; }

  NB_OBJECT_DEFAULT(AnyObject, nb::object, "typing.Any", is_object)
};
/// Such a dict: weft.explain's, the program cache's entries.
using AnyDict = nb::typed<nb::dict, nb::str, AnyObject>;

/// The Python object for an expression: lazy when small, evaluated at once when the tree has
/// grown large (a loop of x = x + 1 must not build an unbounded kernel).
ArrayObject make_lazy(weft::Expr expr);
ArrayObject make_array(weft::Array array);
/// self (an array method that returns its array: fill, evaluate, a += b).
inline ArrayObject same_array(nb::handle self) { return nb::borrow<ArrayObject>(self); }

/// Evaluates every lazy array that reads buffer, before something writes to it.
inline void before_write(const weft::Buffer& buffer) { weft::prepare_write(buffer); }
/// The same for an array's allocation (every view, every device); its copies on other
/// devices become stale.
inline void before_write(const weft::Array& a) { weft::prepare_write(a); }

/// A contiguous host buffer (NumPy array, bytes, bytearray, memoryview) seen through the
/// buffer protocol, writable when asked, released at scope exit.
struct HostBuffer {
  HostBuffer(nb::handle obj, bool writable) {
    if (PyObject_GetBuffer(obj.ptr(), &view, (writable ? PyBUF_WRITABLE : 0) | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
      throw nb::python_error();
    }
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  ~HostBuffer() { PyBuffer_Release(&view); }
  std::size_t bytes() const { return static_cast<std::size_t>(view.len); }
  /// Whether the elements are stored in the other byte order than this machine's ('>f4' on
  /// a little-endian CPU): read raw, every value would be wrong.
  bool foreign_byte_order() const {
    if (!view.format || view.itemsize <= 1) return false;
    const char order = view.format[0];
    constexpr bool little = std::endian::native == std::endian::little;
    return little ? (order == '>' || order == '!') : order == '<';
  }
  /// The elements in this machine's byte order: the buffer itself, or a swapped copy in scratch.
  const void* native(std::vector<unsigned char>& scratch) const {
    if (!foreign_byte_order()) return view.buf;
    const auto size = static_cast<std::size_t>(view.itemsize);
    scratch.assign(static_cast<const unsigned char*>(view.buf), static_cast<const unsigned char*>(view.buf) + bytes());
    for (std::size_t i = 0; i + size <= scratch.size(); i += size) std::reverse(&scratch[i], &scratch[i] + size);
    return scratch.data();
  }
  Py_buffer view{};
};

/// weft.Context: PyOpenCL's context, the devices it was made with (opencl_forms.cpp).
struct PyContext {
  std::vector<weft::Device> devices;
};

/// A device from None (the default device), a Device, a Queue, a Context (its first device)
/// or a selector string.
weft::Device device_arg(nb::handle h);
/// Device.create_sub_devices(properties), PyOpenCL's device fission (opencl_forms.cpp).
std::vector<weft::Device> create_sub_devices(const weft::Device& dev, nb::handle properties);
/// A dtype from its NumPy name ("float32"), as the Python layer passes it.
weft::DType dtype_arg(const std::string& name);

/// Keeps obj alive until event completes (a copy still writing into it, say), whatever
/// happens to the caller's reference in between (an exception, Ctrl-C, a dropped future).
void keep_alive_until(const weft::Event& event, nb::handle obj);

/// A list of weft.Event (None: empty); TypeError naming `what` for anything else.
std::vector<weft::Event> event_list(nb::handle events, const char* what);

/// Waits for event with the GIL released; a pending Ctrl-C (or other signal handler that
/// raises) interrupts the wait with its exception.
void wait_interruptible(const PyEvent& event);

/// Runs job later on weft's callback thread with the GIL held; callable from any thread, GIL
/// or not (a backend thread must never wait for the GIL).
void post_to_python(std::function<void()> job);

void register_errors(nb::module_& m);
void register_runtime(nb::module_& m);
void register_opencl_forms(nb::module_& m);
void register_arrays(nb::module_& m);
void register_kernels(nb::module_& m);
void register_generators(nb::module_& m);
void register_interop(nb::module_& m);
void register_random(nb::module_& m);
void register_fft(nb::module_& m);
void register_cache(nb::module_& m);

}  // namespace weftpy
