// The token-level rewrites every C++-based translation (host, CUDA) needs, because C++ reads
// these OpenCL C forms differently: vector literals `(float4)(a, b, c, d)` (a comma
// expression in C++), swizzles `.xy` `.s01` `.lo`, convert_<type>/as_<type> and vloadN/vstoreN.
// The preludes define what the rewritten names mean (weft_make, weft_swz, weft_convert ...).
#pragma once

#include <vector>

#include "dialect/edits.hpp"
#include "dialect/parse.hpp"

namespace weft::detail::dialect {

std::vector<Edit> vector_rewrites(const ParsedSource& parsed);

}  // namespace weft::detail::dialect
