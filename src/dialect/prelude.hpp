// The preludes the C++-based translations paste before the user's source: prelude/*.hpp and
// prelude/*.cuh, embedded at build time and joined here once per process. Their text is part
// of every program-cache key of its backend.
#pragma once

#include <string_view>

namespace weft::detail {

/// The file the host translation includes in place of its head (host_prelude_text(), which
/// the host backend stages under this name, precompiled where it can:
/// backends/host/host_prelude_header.hpp).
inline constexpr std::string_view host_prelude_file = "weft_host_prelude.hpp";

/// The host's translation unit head: launch ABI, host prelude, dialect core, spellings.
std::string_view host_prelude_text();

/// The CUDA translation unit head: CUDA prelude, dialect core, spellings.
std::string_view cuda_prelude_text();

}  // namespace weft::detail
