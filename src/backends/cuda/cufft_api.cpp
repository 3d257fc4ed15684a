#include "backends/cuda/cufft_api.hpp"

#include <dlfcn.h>

#include "weft/error.hpp"

namespace weft::detail::cufft {

namespace {

struct Loaded {
  Library api;
  std::string problem;
};

Loaded load() {
  Loaded out;
  void* lib = nullptr;
  // cuFFT's soname follows its own major version: 12 ships with CUDA 12.x and 13.x (a .so.13
  // is tried first should a later toolkit bring one), 11 with CUDA 11.x.
  for (const char* name : {"libcufft.so.13", "libcufft.so.12", "libcufft.so.11", "libcufft.so"}) {
    if ((lib = ::dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
  }
  if (!lib) {
    out.problem =
        "libcufft not found (install the CUDA toolkit's cuFFT, e.g. the libcufft package, or add its lib64 to the "
        "loader path)";
    return out;
  }
#define WEFT_CUFFT_FN(name, ...)                                                  \
  out.api.name = reinterpret_cast<decltype(out.api.name)>(::dlsym(lib, #name)); \
  if (!out.api.name && out.problem.empty()) out.problem = "libcufft lacks " #name;
#include "backends/cuda/cufft_functions.inc"
#undef WEFT_CUFFT_FN
  if (out.problem.empty()) {
    int v = 0;
    out.api.cufftGetVersion(&v);
    out.api.version = std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 100) + "." + std::to_string(v % 100);
  }
  return out;
}

}  // namespace

const Library& library() {
  static const Loaded loaded = load();
  if (!loaded.problem.empty()) throw Unsupported(loaded.problem);
  return loaded.api;
}

std::string result_name(cufftResult code) {
  switch (code) {
    case 0x0: return "CUFFT_SUCCESS";
    case 0x1: return "CUFFT_INVALID_PLAN";
    case 0x2: return "CUFFT_ALLOC_FAILED";
    case 0x3: return "CUFFT_INVALID_TYPE";
    case 0x4: return "CUFFT_INVALID_VALUE";
    case 0x5: return "CUFFT_INTERNAL_ERROR";
    case 0x6: return "CUFFT_EXEC_FAILED";
    case 0x7: return "CUFFT_SETUP_FAILED";
    case 0x8: return "CUFFT_INVALID_SIZE";
    case 0x9: return "CUFFT_UNALIGNED_DATA";
    case 0xB: return "CUFFT_INVALID_DEVICE";
    case 0xD: return "CUFFT_NO_WORKSPACE";
    case 0xE: return "CUFFT_NOT_IMPLEMENTED";
    case 0x10: return "CUFFT_NOT_SUPPORTED";
    case 0x11: return "CUFFT_MISSING_DEPENDENCY";
    case 0x12: return "CUFFT_NVRTC_FAILURE";
    case 0x13: return "CUFFT_NVJITLINK_FAILURE";
    default: break;
  }
  return "CUFFT_ERROR_" + std::to_string(code);
}

void check(cufftResult code, const char* call) {
  if (code == CUFFT_SUCCESS) return;
  const std::string name = result_name(code);
  const std::string msg = std::string(call) + " failed: " + name;
  if (code == CUFFT_ALLOC_FAILED) throw OutOfMemory(msg, 0, name, call);
  throw DeviceError(msg, name, call);
}

}  // namespace weft::detail::cufft
