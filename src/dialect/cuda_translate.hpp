// Translation of dialect source into CUDA C++ for NVRTC (backends/cuda/cuda_compiler.hpp
// compiles it; NVRTC needs no GPU, so CI compiles every dialect kernel that way).
//
// Each kernel becomes extern "C" __global__ with a hidden first parameter (weft_cuda::Launch:
// global offsets and dimensions); a __local pointer parameter becomes an unsigned offset into
// the dynamic shared memory the launch sizes; __local variables become __shared__ and
// program-scope __constant data __constant__.
#pragma once

#include "dialect/parse.hpp"
#include "dialect/translate.hpp"

namespace weft::detail::dialect {

/// defines: #define lines (cxx_defines), pasted between the prelude and the user's source.
Translation translate_for_cuda(const ParsedSource& parsed, const std::string& defines);

}  // namespace weft::detail::dialect
