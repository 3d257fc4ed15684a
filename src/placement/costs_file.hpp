// The text of a stored calibration (src/placement/costs_store.cpp): encoded with its
// identity and a checksum, decoded strictly (a corrupt file is measured again, never trusted).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/files.hpp"
#include "weft/placement.hpp"

namespace weft::detail {

/// The framing both stored files share: body followed by a "checksum <hash>" line.
std::string with_checksum(const std::string& body);
/// The body of a framed text; nothing (the reason in problem) when the checksum line is
/// missing or does not match.
std::optional<std::string_view> checked_body(std::string_view text, std::string* problem);

std::string encode_costs(const DeviceCosts& costs);
/// False with the reason in problem when text is not a whole, valid calibration; outdated
/// (when given) tells a calibration of another format version (an older weft's: measured
/// again, never read by this format's rules).
bool decode_costs(std::string_view text, DeviceCosts* out, std::string* problem, bool* outdated = nullptr);
/// The stored calibration of device when a valid, trusted one is there; nothing (with a log
/// line saying why, when a file is there but refused) otherwise.
std::optional<DeviceCosts> load_costs(const Device& device);

/// The placement directory (`<cache>/placement`), opened under the cache's rules; invalid
/// when there is no disk cache or it is refused (the reason in problem).
UniqueFd placement_dir(bool create, std::string* problem);

// What online learning found (src/placement/learnt_store.cpp), stored beside the calibration
// of the device identity, under the same rules (a checksum, the identity, 0600, no links).
std::string encode_learnt(const std::string& identity, std::span<const LearntFactor> factors);
bool decode_learnt(std::string_view text, const std::string& identity, std::vector<LearntFactor>* out,
                   std::string* problem);
/// The stored factors of identity; none when absent or refused (with a log line saying why).
std::vector<LearntFactor> load_learnt(const std::string& identity);
/// Stores factors for identity (atomically, private to the user); false with the reason.
bool store_learnt(const std::string& identity, std::span<const LearntFactor> factors, std::string* problem = nullptr);
/// The file they are stored in; empty without a disk cache.
std::string learnt_path(const std::string& identity);
}  // namespace weft::detail
