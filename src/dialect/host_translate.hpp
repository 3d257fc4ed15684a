// Translation of dialect source into the C++ the host backend compiles: the launch ABI and
// the host prelude, the user's source inside namespace weft_kernel (line numbers kept, so
// compiler messages point at the user's lines), and one extern "C" entry per runnable
// kernel: weft_run_<symbol> and weft_info_<symbol> (prelude/launch_abi.hpp).
#pragma once

#include "dialect/parse.hpp"
#include "dialect/translate.hpp"

namespace weft::detail::dialect {

/// defines: #define lines (cxx_defines), pasted between the prelude and the user's source.
Translation translate_for_host(const ParsedSource& parsed, const std::string& defines);

}  // namespace weft::detail::dialect
