// The CUDA driver API and NVRTC, declared here and opened with dlopen at run time
// (libcuda.so.1, libnvrtc.so.N): no link-time dependency, so the same build runs where no
// CUDA exists, and NVRTC alone (no GPU) is enough to compile dialect kernels.
#pragma once

#include <cstddef>
#include <string>

namespace weft::detail::cu {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
using CUgraph = struct CUgraph_st*;
using CUgraphNode = struct CUgraphNode_st*;
using CUgraphExec = struct CUgraphExec_st*;

/// CUDA_KERNEL_NODE_PARAMS (the _v2 layout of CUDA 12 and 13).
struct KernelNodeParams {
  CUfunction func;
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  void** kernelParams;
  void** extra;
  void* kern;     // CUkernel: null, func is used
  CUcontext ctx;  // null: the current context
};

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_NOT_READY = 600;

inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
inline constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
inline constexpr int CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
inline constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
inline constexpr unsigned CU_EVENT_DISABLE_TIMING = 2;

struct Driver {
#define WEFT_CU_FN(name, symbol, ...) CUresult (*name)(__VA_ARGS__) = nullptr;
#include "backends/cuda/cuda_functions.inc"
  // Optional: null where the driver lacks them.
#include "backends/cuda/cuda_graph_functions.inc"
#undef WEFT_CU_FN
  /// Whether every graph entry point was found.
  bool graphs = false;
};

/// The driver, initialized (cuInit), or throws Unsupported with the reason.
const Driver& driver();

using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram*;

struct Nvrtc {
  nvrtcResult (*nvrtcVersion)(int*, int*) = nullptr;
  const char* (*nvrtcGetErrorString)(nvrtcResult) = nullptr;
#define WEFT_NVRTC_FN(name, ...) nvrtcResult (*name)(__VA_ARGS__) = nullptr;
#include "backends/cuda/nvrtc_functions.inc"
#undef WEFT_NVRTC_FN
  std::string version;  // "13.0"
};

/// NVRTC, or throws Unsupported ("libnvrtc not found ...").
const Nvrtc& nvrtc();

/// "CUDA_ERROR_OUT_OF_MEMORY" for 2, from the driver when it is loaded.
std::string error_name(CUresult code);
/// Throws DeviceError ("<call> failed: <name>: <description>"), OutOfMemory for code 2.
void check(CUresult code, const char* call);

}  // namespace weft::detail::cu
