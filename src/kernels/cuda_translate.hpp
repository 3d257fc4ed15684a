// Translation of dialect source into CUDA C++ for NVRTC (backends/cuda/cuda_compiler.hpp
// compiles it; NVRTC needs no GPU, so CI compiles every dialect kernel that way).
//
// Each kernel becomes extern "C" __global__ with a hidden first parameter (weft_cuda::Launch:
// global offsets and dimensions); a __local pointer parameter becomes an unsigned offset into
// the dynamic shared memory the launch sizes; __local variables become __shared__ and
// program-scope __constant data __constant__.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kernels/dialect.hpp"

namespace weft::detail {

struct CudaTranslation {
  std::string cu;
  std::vector<std::string> kernels;
};

CudaTranslation translate_for_cuda(const dialect::ParsedSource& parsed);

/// The embedded CUDA prelude with the dialect core, for cache keys.
std::string_view cuda_prelude_text();

/// NVRTC options for build options (already checked): -D/-I pass through,
/// -cl-fast-relaxed-math becomes --use_fast_math.
std::vector<std::string> cuda_build_flags(std::string_view options);

}  // namespace weft::detail
