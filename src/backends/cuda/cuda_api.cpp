#include "backends/cuda/cuda_api.hpp"

#include <dlfcn.h>

#include "weft/error.hpp"

namespace weft::detail::cu {

namespace {

struct LoadedDriver {
  Driver api;
  std::string problem;
};

LoadedDriver load_driver() {
  LoadedDriver out;
  void* lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    out.problem = "libcuda.so.1 not found (no NVIDIA driver on this machine)";
    return out;
  }
#define WEFT_CU_FN(name, symbol, ...)                                              \
  out.api.name = reinterpret_cast<decltype(out.api.name)>(::dlsym(lib, symbol));  \
  if (!out.api.name && out.problem.empty()) out.problem = "libcuda.so.1 lacks " symbol;
#include "backends/cuda/cuda_functions.inc"
#undef WEFT_CU_FN
  if (!out.problem.empty()) return out;
  out.api.graphs = true;
#define WEFT_CU_FN(name, symbol, ...)                                              \
  out.api.name = reinterpret_cast<decltype(out.api.name)>(::dlsym(lib, symbol));  \
  if (!out.api.name) out.api.graphs = false;
#include "backends/cuda/cuda_graph_functions.inc"
#undef WEFT_CU_FN
  const CUresult r = out.api.cuInit(0);
  if (r == CUDA_ERROR_NO_DEVICE) {
    out.problem = "the NVIDIA driver reports no CUDA device";
  } else if (r != CUDA_SUCCESS) {
    const char* name = nullptr;
    out.api.cuGetErrorName(r, &name);
    out.problem = std::string("cuInit failed: ") + (name ? name : std::to_string(r));
  }
  return out;
}

struct LoadedNvrtc {
  Nvrtc api;
  std::string problem;
};

LoadedNvrtc load_nvrtc() {
  LoadedNvrtc out;
  void* lib = nullptr;
  // Newest first; the unversioned name last (a development install).
  for (const char* name : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so"}) {
    if ((lib = ::dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
  }
  if (!lib) {
    out.problem = "libnvrtc not found (install the CUDA toolkit's NVRTC, or add its lib64 to the loader path)";
    return out;
  }
  out.api.nvrtcVersion = reinterpret_cast<decltype(out.api.nvrtcVersion)>(::dlsym(lib, "nvrtcVersion"));
  out.api.nvrtcGetErrorString =
      reinterpret_cast<decltype(out.api.nvrtcGetErrorString)>(::dlsym(lib, "nvrtcGetErrorString"));
#define WEFT_NVRTC_FN(name, ...)                                                 \
  out.api.name = reinterpret_cast<decltype(out.api.name)>(::dlsym(lib, #name)); \
  if (!out.api.name && out.problem.empty()) out.problem = "libnvrtc lacks " #name;
#include "backends/cuda/nvrtc_functions.inc"
#undef WEFT_NVRTC_FN
  if (!out.api.nvrtcVersion) out.problem = "libnvrtc lacks nvrtcVersion";
  if (out.problem.empty()) {
    int major = 0, minor = 0;
    out.api.nvrtcVersion(&major, &minor);
    out.api.version = std::to_string(major) + "." + std::to_string(minor);
  }
  return out;
}

}  // namespace

const Driver& driver() {
  static const LoadedDriver loaded = load_driver();
  if (!loaded.problem.empty()) throw Unsupported(loaded.problem);
  return loaded.api;
}

const Nvrtc& nvrtc() {
  static const LoadedNvrtc loaded = load_nvrtc();
  if (!loaded.problem.empty()) throw Unsupported(loaded.problem);
  return loaded.api;
}

std::string error_name(CUresult code) {
  const char* name = nullptr;
  try {
    driver().cuGetErrorName(code, &name);
  } catch (const Error&) {
  }
  return name ? name : "CUDA_ERROR_" + std::to_string(code);
}

void check(CUresult code, const char* call) {
  if (code == CUDA_SUCCESS) return;
  const std::string name = error_name(code);
  const char* text = nullptr;
  driver().cuGetErrorString(code, &text);
  const std::string msg = std::string(call) + " failed: " + name + (text ? std::string(": ") + text : "");
  if (code == CUDA_ERROR_OUT_OF_MEMORY) throw OutOfMemory(msg, 0, name, call);
  throw DeviceError(msg, name, call);
}

}  // namespace weft::detail::cu
