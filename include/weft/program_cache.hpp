// The on-disk program cache, as a user or a tool sees it: where it is, what it holds, and
// how to empty or trim it. weft fills the cache itself (every Program::build and generator
// looks there first); these calls are for inspecting and housekeeping, as `weft cache` does.
// The directory is WEFT_CACHE_DIR, else $XDG_CACHE_HOME/weft or ~/.cache/weft (config.hpp).
//
//   for (const weft::CacheEntry& e : weft::list_cache_entries()) std::cout << e.key << "\n";
//   weft::prune_cache(std::chrono::hours(24 * 30), std::nullopt);   // drop month-old entries
#pragma once

#include "weft/export.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace weft {

/// One compiled program on disk.
struct WEFT_API CacheEntry {
  std::string path;
  std::string backend;       // "host", "opencl", "cuda"
  std::string key;           // the hex digest of everything the build depended on
  std::string description;   // what was built (kernel names, device), for people
  std::string weft_version;  // the weft that wrote it
  std::uint64_t bytes = 0;
  std::int64_t modified = 0;  // seconds since the epoch
  bool valid = false;         // false: truncated, corrupt or unreadable (problem says why)
  std::string problem;
};

/// The cache directory this process uses (it need not exist yet).
WEFT_API std::string cache_directory();

/// Every entry in the cache directory, valid or not.
WEFT_API std::vector<CacheEntry> list_cache_entries();

/// Removes every entry (and leftover temporary and lock files); returns how many entries.
WEFT_API std::size_t clear_cache();

/// Removes invalid entries, entries of other weft versions and stale temporary files, then
/// entries older than max_age, then the oldest until the total is at most max_bytes.
/// Returns how many entries were removed.
WEFT_API std::size_t prune_cache(std::optional<std::chrono::seconds> max_age, std::optional<std::uint64_t> max_bytes);

/// A record of derived data kept in the cache beside the programs (the Python kernels'
/// translations: folder "pyk"), stored and read as program entries are: <dir>/<folder>/<key>.wpc
/// with the weft version, a checksum, 0600 in a 0700 directory, refused unless the user's own,
/// written by rename. key_text is hashed into the entry's key. load_cache_record gives nullopt
/// for a missing, corrupt (removed, with a warning) or refused entry; store_cache_record false
/// where the directory cannot be written or is refused. folder: letters, digits, '_' and '-'.
WEFT_API std::optional<std::string> load_cache_record(std::string_view folder, std::string_view key_text);
WEFT_API bool store_cache_record(std::string_view folder, std::string_view key_text, std::string_view description,
                                 std::string_view payload);

}  // namespace weft
