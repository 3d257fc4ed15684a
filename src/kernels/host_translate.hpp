// Translation of dialect source into the C++ the host backend compiles: the launch ABI and
// the host prelude, the user's source inside namespace weft_kernel (line numbers kept, so
// compiler messages point at the user's lines), and one extern "C" entry per runnable
// kernel.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "kernels/dialect.hpp"

namespace weft::detail {

struct HostTranslation {
  std::string cpp;                          // the whole translation unit
  std::vector<std::string> kernels;         // kernels with an entry point, in source order
  std::map<std::string, std::string> refused;  // kernel -> why the host cannot run it
};

/// The file name compiler messages use for the user's source.
inline constexpr const char* host_source_name = "kernel.cl";

HostTranslation translate_for_host(const dialect::ParsedSource& parsed);

/// The embedded launch ABI and prelude, for cache keys.
std::string_view host_prelude_text();

}  // namespace weft::detail
