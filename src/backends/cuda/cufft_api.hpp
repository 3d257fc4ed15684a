// cuFFT, declared here and opened with dlopen at run time (libcufft.so.12 for CUDA 12 and
// 13, .so.11 for CUDA 11): no link-time dependency, as for the driver API (cuda_api.hpp).
// Its stream is a CUstream (cudaStream_t is the same handle); it runs in the current context,
// which weft makes the device's primary context, the one the CUDA runtime inside cuFFT uses.
#pragma once

#include <cstddef>
#include <string>

#include "backends/cuda/cuda_api.hpp"

namespace weft::detail::cufft {

using cufftHandle = int;
using cufftResult = int;
using CUstream = cu::CUstream;

inline constexpr cufftResult CUFFT_SUCCESS = 0;
inline constexpr cufftResult CUFFT_ALLOC_FAILED = 2;
inline constexpr int CUFFT_R2C = 0x2a;
inline constexpr int CUFFT_C2R = 0x2c;
inline constexpr int CUFFT_C2C = 0x29;
inline constexpr int CUFFT_D2Z = 0x6a;
inline constexpr int CUFFT_Z2D = 0x6c;
inline constexpr int CUFFT_Z2Z = 0x69;
inline constexpr int CUFFT_FORWARD = -1;
inline constexpr int CUFFT_INVERSE = 1;

struct Library {
#define WEFT_CUFFT_FN(name, ...) cufftResult (*name)(__VA_ARGS__) = nullptr;
#include "backends/cuda/cufft_functions.inc"
#undef WEFT_CUFFT_FN
  std::string version;  // "11.4.1" from cufftGetVersion's 11401
};

/// cuFFT, or throws Unsupported ("libcufft not found ...").
const Library& library();

/// "CUFFT_ALLOC_FAILED" for 2.
std::string result_name(cufftResult code);
/// Throws DeviceError ("<call> failed: <name>"), OutOfMemory for CUFFT_ALLOC_FAILED.
void check(cufftResult code, const char* call);

}  // namespace weft::detail::cufft
