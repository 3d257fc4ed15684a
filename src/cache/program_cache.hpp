// The on-disk program cache, shared by every backend and every process of a user.
//
// An entry is one file, <dir>/<backend>/<key>.wpc: a magic, a header of key=value lines
// (weft version, backend, key, what was built), the payload (a shared object, a cubin, an
// OpenCL binary) and a checksum over header and payload. Writes go to a temporary file that
// is renamed into place, so a reader sees a whole entry or none. A truncated or corrupt
// entry, or one whose header states another key or backend than the name it was found
// under, is removed with a warning and rebuilt. A build takes an exclusive lock on
// <key>.wpc.lock so that several processes building the same program compile it once and
// all succeed; a lock held longer than WEFT_CACHE_LOCK_TIMEOUT is given up with a warning.
//
// Trust (docs/SECURITY.md): the cache holds code weft loads and runs, so it must be the
// user's alone. Directories are created 0700 and entries 0600 whatever the umask; a
// directory or entry that is not owned by the user, or that others may write, is refused
// with a warning naming it and why, and the program is built in memory and not stored.
// Entries are opened without following links, must be regular files and are read with a
// size cap. The checksum only detects corruption; ownership is what keeps others out. A
// missing directory is created; one that cannot be written (or no directory at all, an
// empty path) makes the cache a no-op: slower, never wrong.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/files.hpp"
#include "core/hash.hpp"

namespace weft::detail {

struct CacheEntryInfo {
  std::string path;
  std::string backend;
  std::string key;
  std::string description;
  std::string weft_version;
  std::uint64_t bytes = 0;
  std::int64_t modified = 0;  // seconds since the epoch
  bool valid = false;
  std::string problem;        // why it is not valid
};

class ProgramCache {
 public:
  /// The most bytes weft reads from one entry.
  static constexpr std::uint64_t max_entry_bytes = std::uint64_t{1} << 30;

  /// The process-wide cache at config().cache_dir.
  static ProgramCache& instance();
  /// A cache at directory ("" for none), waiting config().cache_lock_timeout for a lock.
  explicit ProgramCache(std::string directory);
  ProgramCache(std::string directory, std::chrono::milliseconds lock_timeout);

  const std::string& directory() const noexcept { return dir_; }

  /// The payload stored under key, or nullopt. A corrupt entry is removed with a warning;
  /// one that is refused (see above) is left alone with a warning. An entry larger than
  /// max_bytes is refused.
  std::optional<std::string> load(std::string_view backend, const Digest& key,
                                  std::uint64_t max_bytes = max_entry_bytes);
  /// Stores payload under key; false when the directory cannot be written (warned once).
  bool store(std::string_view backend, const Digest& key, std::string_view description,
             std::string_view payload);
  /// A small note kept beside the entries, <dir>/<folder>/<key>.txt (the host compiler's
  /// version string), read with the same checks as an entry and at most max_note_bytes;
  /// nullopt when absent or refused. Notes are not entries: list() and clear() skip them.
  static constexpr std::uint64_t max_note_bytes = 4096;
  std::optional<std::string> load_note(std::string_view folder, const Digest& key);
  bool store_note(std::string_view folder, const Digest& key, std::string_view text);

  /// load(), else build() under the entry's inter-process lock, then store() (not when the
  /// entry or its directory was refused). from_disk tells which happened.
  std::string load_or_build(std::string_view backend, const Digest& key,
                            std::string_view description, const std::function<std::string()>& build,
                            bool* from_disk = nullptr);

  /// Every entry, checked. A symbolic link or a directory that is not the user's is skipped
  /// with a warning, never followed.
  std::vector<CacheEntryInfo> list();
  /// Removes every entry (regular files only; nothing behind a symbolic link); returns how many.
  std::size_t clear();
  /// Removes invalid entries, entries of other weft versions, stale temporary and lock
  /// files, entries older than max_age, then the oldest until the total is under max_bytes.
  std::size_t prune(std::optional<std::chrono::seconds> max_age,
                    std::optional<std::uint64_t> max_bytes);

  /// Parses an entry file's contents; returns the payload or the problem.
  static bool decode(std::string_view file, std::string* payload, CacheEntryInfo* info);
  static std::string encode(std::string_view backend, const Digest& key,
                            std::string_view description, std::string_view payload);

 private:
  enum class Lookup { hit, miss, refused };

  std::string entry_path(std::string_view backend, const Digest& key) const;
  /// The checked <dir>/<backend>, or an invalid fd (warned once).
  UniqueFd open_backend(std::string_view backend, bool create);
  Lookup load_at(int dir, std::string_view backend, const Digest& key, std::uint64_t max_bytes,
                 std::string* payload);
  bool store_at(int dir, std::string_view backend, const Digest& key, std::string_view description,
                std::string_view payload);
  /// Calls visit(backend directory, backend name) for each usable backend directory.
  void for_each_backend(const std::function<void(int, const std::string&)>& visit);
  void warn_once(const std::string& message);

  std::string dir_;
  std::chrono::milliseconds lock_timeout_;
  std::mutex mutex_;
  std::set<std::string> warned_;
};

struct DigestHash {
  std::size_t operator()(const Digest& d) const noexcept { return static_cast<std::size_t>(d.lo ^ (d.hi * 31)); }
};

/// The in-memory table in front of the disk: what a backend made of an entry (a loaded
/// module, a cl_program), by key, for the life of the process.
template <class T>
class ProgramTable {
 public:
  std::shared_ptr<T> find(const Digest& key) {
    std::lock_guard lock(mutex_);
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : it->second;
  }
  std::shared_ptr<T> insert(const Digest& key, std::shared_ptr<T> value) {
    std::lock_guard lock(mutex_);
    auto [it, inserted] = map_.emplace(key, std::move(value));
    return it->second;  // a concurrent builder may have won: everyone uses the first
  }
  void clear() {
    std::lock_guard lock(mutex_);
    map_.clear();
  }

 private:
  std::mutex mutex_;
  std::unordered_map<Digest, std::shared_ptr<T>, DigestHash> map_;
};

}  // namespace weft::detail
