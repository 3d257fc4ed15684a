// Python work that backend threads hand over (callbacks.cpp): the callback thread that runs it
// with the GIL held, and references to Python objects that any thread may drop.
#pragma once

#include "common.hpp"

namespace weftpy {

/// Finishes the queued jobs and stops the callback thread (atexit, with the GIL held by the
/// caller); jobs posted afterwards are dropped.
void stop_callback_thread();

/// Whether Ctrl-C (a signal) has interrupted a wait of this process: at exit, work still
/// queued is then not waited for (it may be the kernel that never ends).
bool a_wait_was_interrupted();

/// A strong reference to a Python object that any thread may drop: the decrement is posted
/// to the callback thread (post_to_python) instead of taking the GIL on a backend thread.
struct PyRef {
  explicit PyRef(nb::handle h) : obj(h.inc_ref().ptr()) {}
  PyRef(const PyRef&) = delete;
  PyRef& operator=(const PyRef&) = delete;
  ~PyRef() {
    PyObject* o = obj;
    post_to_python([o] { Py_DECREF(o); });
  }
  PyObject* obj;
};

}  // namespace weftpy
