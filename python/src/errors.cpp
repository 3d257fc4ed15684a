// weft's exception classes for Python (weft.Error and the classes under it, with their
// docstrings) and the translation of the C++ library's errors into them.
#include <initializer_list>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "common.hpp"
#include "weft/linalg.hpp"

namespace weftpy {

namespace {

PyObject* error_type = nullptr;
PyObject* build_error_type = nullptr;
PyObject* device_error_type = nullptr;
PyObject* out_of_memory_type = nullptr;
PyObject* invalid_argument_type = nullptr;
PyObject* config_error_type = nullptr;
PyObject* dtype_error_type = nullptr;
PyObject* value_out_of_range_type = nullptr;
PyObject* index_out_of_range_type = nullptr;
PyObject* unsupported_type = nullptr;
PyObject* linalg_error_type = nullptr;

/// An attribute the translator below sets on the exceptions of a class, and its type.
struct Attribute {
  const char* name;
  PyTypeObject* type;
};

/// weft.<name>, a subclass of bases (a new reference, consumed), with its extra attributes
/// declared in __annotations__: what typing.get_type_hints and the generated stub read
/// (python/stub_errors.py writes the classes into _weft.pyi from these).
PyObject* new_error(nb::module_& m, const char* name, PyObject* bases, const char* doc,
                    std::initializer_list<Attribute> attributes = {}) {
  const std::string full = std::string("weft.") + name;
  nb::dict annotations;
  for (const Attribute& a : attributes) annotations[a.name] = nb::handle(reinterpret_cast<PyObject*>(a.type));
  nb::dict dict;
  dict["__annotations__"] = annotations;
  PyObject* t = PyErr_NewExceptionWithDoc(full.c_str(), doc, bases, dict.ptr());
  Py_XDECREF(bases);
  if (!t) throw nb::python_error();
  m.attr(name) = nb::handle(t);
  return t;
}

PyObject* bases(std::initializer_list<PyObject*> types) {
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(types.size()));
  Py_ssize_t i = 0;
  for (PyObject* b : types) {
    Py_INCREF(b);
    PyTuple_SET_ITEM(t, i++, b);
  }
  return t;
}

/// A Python str of bytes that may not be UTF-8 (a compiler's log in the locale's encoding):
/// what does not decode is replaced, never an error of its own.
nb::object text(std::string_view bytes) {
  PyObject* o = PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), "replace");
  if (!o) {
    PyErr_Clear();
    return nb::str("");
  }
  return nb::steal(o);
}

/// Raises type(message) with extra attributes set on the exception object.
void raise_with(PyObject* type, const char* message, std::initializer_list<std::pair<const char*, nb::object>> attrs) {
  nb::object msg = text(message);
  nb::object exc = nb::steal(PyObject_CallOneArg(type, msg.ptr()));
  if (!exc.is_valid()) return;  // the call itself raised; that error stands
  for (const auto& [k, v] : attrs) PyObject_SetAttrString(exc.ptr(), k, v.ptr());
  PyErr_SetObject(type, exc.ptr());
}

}  // namespace

void register_errors(nb::module_& m) {
  error_type = new_error(m, "Error", bases({PyExc_RuntimeError}),
      "Every error weft raises (a RuntimeError); the others derive from it.\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> issubclass(weft.InvalidArgument, weft.Error), issubclass(weft.BuildError, weft.Error)\n"
      "(True, True)");
  build_error_type = new_error(m, "BuildError", bases({error_type}),
      "A kernel failed to compile.\n"
      "\n"
      "The message summarizes the compiler's errors with the failing source lines; .log is the\n"
      "compiler's whole output, .source the source that was compiled.\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> try:\n"
      "...     weft.Program(weft.Device(\"host\"), \"__kernel void k(__global int *x) { x[0] = nope; }\").build()\n"
      "... except weft.BuildError as e:\n"
      "...     print(\"nope\" in e.log, type(e.source).__name__)\n"
      "True str",
      {{"log", &PyUnicode_Type}, {"source", &PyUnicode_Type}});
  device_error_type = new_error(m, "DeviceError", bases({error_type}),
      "A device or driver call failed; .device names the device, .call the call.\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> issubclass(weft.OutOfMemory, weft.DeviceError)\n"
      "True",
      {{"device", &PyUnicode_Type}, {"call", &PyUnicode_Type}});
  out_of_memory_type = new_error(m, "OutOfMemory", bases({device_error_type, PyExc_MemoryError}),
      "A device allocation failed; .requested is the size in bytes (also a MemoryError).\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> try:\n"
      "...     weft.Buffer(weft.Device(\"host\"), 1 << 62)\n"
      "... except weft.OutOfMemory as e:\n"
      "...     print(e.requested, isinstance(e, MemoryError))\n"
      "4611686018427387904 True",
      {{"requested", &PyLong_Type}});
  invalid_argument_type = new_error(m, "InvalidArgument", bases({error_type, PyExc_ValueError}),
      "An argument was wrong: a shape, a dtype, a size, a name, a device (also a ValueError).\n"
      "weft checks before anything is launched, and the message names the argument.\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> try:\n"
      "...     weft.zeros(3) + weft.zeros(4)\n"
      "... except weft.InvalidArgument as e:\n"
      "...     print(isinstance(e, ValueError))\n"
      "True");
  dtype_error_type = new_error(m, "DTypeError", bases({invalid_argument_type, PyExc_TypeError}),
      "An operation the operands' dtypes do not support (also a TypeError, as NumPy raises).\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> try:\n"
      "...     weft.zeros(3) & weft.zeros(3)\n"
      "... except weft.DTypeError as e:\n"
      "...     print(isinstance(e, TypeError))\n"
      "True");
  value_out_of_range_type = new_error(m, "ValueOutOfRange", bases({invalid_argument_type, PyExc_OverflowError}),
      "A number that does not fit the dtype it must take (also an OverflowError, as NumPy raises).\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> try:\n"
      "...     weft.zeros(3, np.int8) + 1000\n"
      "... except weft.ValueOutOfRange as e:\n"
      "...     print(isinstance(e, OverflowError))\n"
      "True");
  index_out_of_range_type = new_error(m, "IndexOutOfRange", bases({invalid_argument_type, PyExc_IndexError}),
      "An index outside the extent it indexes (also an IndexError, as NumPy raises).\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> try:\n"
      "...     weft.take(weft.asarray(np.array([1, 2, 3])), [5])\n"
      "... except weft.IndexOutOfRange as e:\n"
      "...     print(isinstance(e, IndexError))\n"
      "True");
  config_error_type = new_error(m, "ConfigError", bases({invalid_argument_type}),
      "A WEFT_* setting (or a device selector) was malformed: the message names it and lists what\n"
      "it accepts.\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> try:\n"
      "...     weft.Device(\"nonsense\")\n"
      "... except weft.ConfigError as e:\n"
      "...     print(isinstance(e, weft.InvalidArgument))\n"
      "True");
  // Also numpy.linalg.LinAlgError, so `except np.linalg.LinAlgError` catches weft's.
  nb::object numpy_linalg_error = nb::module_::import_("numpy.linalg").attr("LinAlgError");
  linalg_error_type = new_error(m, "LinAlgError", bases({invalid_argument_type, numpy_linalg_error.ptr()}),
      "A linear-algebra routine failed on the values given: a singular matrix, one not positive\n"
      "definite, a non-square one where one must be square (an InvalidArgument, a ValueError and\n"
      "numpy.linalg.LinAlgError).\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> try:\n"
      "...     weft.linalg.inv(weft.zeros((2, 2)))\n"
      "... except weft.LinAlgError as e:\n"
      "...     print(e, isinstance(e, np.linalg.LinAlgError))\n"
      "inv: Singular matrix True");
  unsupported_type = new_error(m, "Unsupported", bases({error_type, PyExc_NotImplementedError}),
      "The device, backend or build cannot do what was asked (also a NotImplementedError).\n"
      "\n"
      "Examples\n"
      "--------\n"
      ">>> try:\n"
      "...     np.einsum(\"ii->i\", weft.zeros((2, 2)))  # a diagonal: not on weft arrays\n"
      "... except weft.Unsupported as e:\n"
      "...     print(isinstance(e, NotImplementedError))\n"
      "True");
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const weft::BuildError& e) {
      raise_with(build_error_type, e.what(), {{"log", text(e.log())}, {"source", text(e.source())}});
    } catch (const weft::OutOfMemory& e) {
      raise_with(out_of_memory_type, e.what(),
                 {{"requested", nb::int_(e.requested())}, {"device", nb::str(e.name().c_str())}, {"call", nb::str(e.call().c_str())}});
    } catch (const weft::DeviceError& e) {
      raise_with(device_error_type, e.what(), {{"device", nb::str(e.name().c_str())}, {"call", nb::str(e.call().c_str())}});
    } catch (const weft::LinAlgError& e) {
      PyErr_SetObject(linalg_error_type, text(e.what()).ptr());
    } catch (const weft::ConfigError& e) {
      PyErr_SetObject(config_error_type, text(e.what()).ptr());
    } catch (const weft::DTypeError& e) {
      PyErr_SetObject(dtype_error_type, text(e.what()).ptr());
    } catch (const weft::IndexOutOfRange& e) {
      PyErr_SetObject(index_out_of_range_type, text(e.what()).ptr());
    } catch (const weft::ValueOutOfRange& e) {
      PyErr_SetObject(value_out_of_range_type, text(e.what()).ptr());
    } catch (const weft::InvalidArgument& e) {
      PyErr_SetObject(invalid_argument_type, text(e.what()).ptr());
    } catch (const weft::Unsupported& e) {
      PyErr_SetObject(unsupported_type, text(e.what()).ptr());
    } catch (const weft::Error& e) {
      PyErr_SetObject(error_type, text(e.what()).ptr());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(PyExc_MemoryError, "out of host memory");
    }
  });
}

}  // namespace weftpy
