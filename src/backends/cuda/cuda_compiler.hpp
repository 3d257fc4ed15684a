// NVRTC compilation of translated dialect source into CUBINs. Needs libnvrtc, not a GPU.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace weft::detail {

/// Compiles a translation (dialect/translate.hpp, Target::cuda) with NVRTC for arch ("sm_90") into
/// a CUBIN. Throws BuildError with NVRTC's log and the offending lines of user_source,
/// Unsupported when NVRTC is missing.
std::string compile_cuda(const std::string& cu, const std::vector<std::string>& flags, const std::string& arch,
                         std::string_view user_source);

/// NVRTC options for build options (checked here): -D/-I pass through,
/// -cl-fast-relaxed-math becomes --use_fast_math.
std::vector<std::string> cuda_build_flags(std::string_view options);

/// "13.0", or throws Unsupported when NVRTC is missing.
std::string nvrtc_version();

}  // namespace weft::detail
