// For tests only, not API: makes the kernel generators take a code path they would otherwise
// choose per device (src/kernels/generators/choices.hpp holds the choices and their meaning).
// The Python tests reach it as weft._weft._set_generator_choice.
#pragma once

#include "weft/export.hpp"

#include <string_view>

namespace weft::detail {

/// Sets one choice by name: scan_algorithm (auto, single-pass, chunked), scan_aggregates_only,
/// scan_tickets, scan_lookback_warp, scan_status16 (auto, on, off), scan_prefetch (auto or
/// tiles ahead, 0 to 4096), reduce_algorithm (auto, fused, two-pass), reduce_split (auto,
/// always, never). Throws InvalidArgument naming what is accepted.
WEFT_API void set_generator_choice(std::string_view name, std::string_view value);

}  // namespace weft::detail
