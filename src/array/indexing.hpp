// The generated sources of the indexing kernels (weft/indexing.hpp), for the NVRTC tests.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "weft/dtype.hpp"
#include "weft/indexing.hpp"

namespace weft::detail {

/// The generated sources of the four kernels for dtype, named (NVRTC compiles them in tests).
std::vector<std::pair<const char*, std::string_view>> indexing_sources(DType dtype);

}  // namespace weft::detail
