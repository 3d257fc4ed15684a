// Whether host memory is a pinned block of weft::result_memory made for a device, so that a
// copy from that device into it can go straight there at the copy engine's speed rather than
// through staging (algorithms/polygon.cpp).
#pragma once

#include <cstddef>

#include "weft/device.hpp"

namespace weft::detail {

/// Whether [p, p + bytes) lies inside one live pinned result_memory block made for device.
bool is_pinned_result_memory(const Device& device, const void* p, std::size_t bytes);

}  // namespace weft::detail
