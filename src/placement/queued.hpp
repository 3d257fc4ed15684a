// Whether an operation queues behind a pending producer (include/weft/placement.hpp,
// InputResidence::pending_on): the chooser's estimate and its log line ask it alike, device
// auto's learning whether any input is pending.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "weft/placement.hpp"

namespace weft::detail {

/// Whether an operation on device index d reads an input whose copy there is still being
/// written by work queued on d.
inline bool queued_behind(std::span<const InputResidence> inputs, std::size_t d) noexcept {
  const std::uint64_t me = std::uint64_t{1} << d;
  return std::any_of(inputs.begin(), inputs.end(),
                     [me](const InputResidence& in) { return (in.pending_on & in.valid_on & me) != 0; });
}

/// Whether any input's copy is still being written by queued work somewhere.
inline bool any_pending(std::span<const InputResidence> inputs) noexcept {
  return std::any_of(inputs.begin(), inputs.end(),
                     [](const InputResidence& in) { return (in.pending_on & in.valid_on) != 0; });
}

}  // namespace weft::detail
