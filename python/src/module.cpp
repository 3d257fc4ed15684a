// The extension module weft._weft: the C++ library for Python. The package's modules
// (python/weft/) add NumPy's protocols and PyOpenCL's conventions on top.
#include "common.hpp"

NB_MODULE(_weft, m) {
  m.doc() = "weft's C++ core (use the weft package, not this module)";
  // Objects still referenced at interpreter exit (devices in module globals, callbacks whose
  // release was posted after the callback thread stopped) are left to the OS by design.
  nanobind::set_leak_warnings(false);
  weftpy::register_errors(m);
  weftpy::register_runtime(m);
  weftpy::register_opencl_forms(m);
  weftpy::register_arrays(m);
  weftpy::register_kernels(m);
  weftpy::register_generators(m);
  weftpy::register_interop(m);
  weftpy::register_random(m);
  weftpy::register_fft(m);
  weftpy::register_cache(m);
}
