// CUDA C as written (what CuPy's RawModule takes): the `extern "C" __global__` functions of a
// source and their parameters, read so that Program::build_cuda's kernels bind arguments as
// dialect kernels do. The source itself goes to NVRTC unchanged (after the build options'
// -D macros); nothing is translated.
#pragma once

#include <string_view>

#include "dialect/translate.hpp"

namespace weft::detail {

/// The source for NVRTC (options' -D macros as #define lines, then the source as written,
/// its lines numbered as the user's) and its kernels: every __global__ function defined with
/// C linkage, parameters typed from their C declarations (pointers are global memory).
/// Throws BuildError, naming the line, for a kernel without C linkage (its name would be
/// mangled: write extern "C") or a template kernel; InvalidArgument for options weft does not
/// accept.
dialect::Translation read_cuda_source(std::string_view source, std::string_view options);

}  // namespace weft::detail
