// The text of a stored calibration (src/placement/costs_store.cpp): encoded with its
// identity and a checksum, decoded strictly (a corrupt file is measured again, never trusted).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "weft/placement.hpp"

namespace weft::detail {

std::string encode_costs(const DeviceCosts& costs);
/// False with the reason in problem when text is not a whole, valid calibration.
bool decode_costs(std::string_view text, DeviceCosts* out, std::string* problem);
/// The stored calibration of device when a valid, trusted one is there; nothing (with a log
/// line saying why, when a file is there but refused) otherwise.
std::optional<DeviceCosts> load_costs(const Device& device);

}  // namespace weft::detail
