#include "cache/program_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <ctime>

#include "cache/cache_directory.hpp"
#include "core/files.hpp"
#include "core/log.hpp"
#include "weft/config.hpp"
#include "weft/version.hpp"

namespace weft::detail {

namespace {
constexpr std::string_view magic = "WEFTPRG1";
constexpr std::string_view entry_suffix = ".wpc";

void put_u64(std::string& out, std::uint64_t v) {
  char b[8];
  std::memcpy(b, &v, 8);
  out.append(b, 8);
}
std::uint64_t get_u64(std::string_view s, std::size_t at) {
  std::uint64_t v;
  std::memcpy(&v, s.data() + at, 8);
  return v;
}

std::string header_value(std::string_view header, std::string_view name) {
  std::size_t pos = 0;
  while (pos < header.size()) {
    std::size_t nl = header.find('\n', pos);
    if (nl == std::string_view::npos) nl = header.size();
    const auto line = header.substr(pos, nl - pos);
    if (line.size() > name.size() && line.substr(0, name.size()) == name && line[name.size()] == '=') {
      return std::string(line.substr(name.size() + 1));
    }
    pos = nl + 1;
  }
  return {};
}

std::string one_line(std::string_view s) {
  std::string out(s.substr(0, 200));
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

std::string file_name(const Digest& key) { return key.hex() + std::string(entry_suffix); }

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

std::string without_trailing_slashes(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  return dir;
}
}  // namespace

ProgramCache& ProgramCache::instance() {
  static ProgramCache cache(config().cache_dir);
  return cache;
}

ProgramCache::ProgramCache(std::string directory)
    : ProgramCache(std::move(directory), config().cache_lock_timeout) {}

ProgramCache::ProgramCache(std::string directory, std::chrono::milliseconds lock_timeout)
    : dir_(without_trailing_slashes(std::move(directory))), lock_timeout_(lock_timeout) {}

std::string ProgramCache::entry_path(std::string_view backend, const Digest& key) const {
  return dir_ + "/" + std::string(backend) + "/" + file_name(key);
}

void ProgramCache::warn_once(const std::string& message) {
  {
    std::lock_guard lock(mutex_);
    if (!warned_.insert(message).second) return;
  }
  WEFT_LOG_WARNING(message);
}

UniqueFd ProgramCache::open_backend(std::string_view backend, bool create) {
  if (dir_.empty()) {
    warn_once("no program cache on disk: neither WEFT_CACHE_DIR, XDG_CACHE_HOME nor HOME is set and the "
              "user has no home directory; programs will be compiled in every process (set WEFT_CACHE_DIR "
              "to a directory of your own to keep them)");
    return {};
  }
  std::string problem;
  bool creatable = true;
  UniqueFd root = open_cache_root(dir_, create, &problem, &creatable);
  if (!root) {
    if (!creatable) {
      warn_once("program cache " + dir_ + " cannot be written (" + problem +
                "); programs will be compiled in every process");
    } else if (create || problem != "it does not exist") {
      warn_once("program cache directory " + dir_ + " is refused: " + problem +
                "; programs are built in memory and not stored (make it yours and private, "
                "chmod 700, or set WEFT_CACHE_DIR)");
    }
    return {};
  }
  const std::string name(backend);
  UniqueFd dir = open_private_directory(root.get(), name, create, &problem);
  if (!dir && (create || problem != "it does not exist")) {
    warn_once("program cache directory " + dir_ + "/" + name + " is refused: " + problem +
              "; programs are built in memory and not stored (weft leaves it alone: remove it by hand)");
  }
  return dir;
}

ProgramCache::Lookup ProgramCache::load_at(int dir, std::string_view backend, const Digest& key,
                                           std::uint64_t max_bytes, std::string* payload) {
  const std::string path = entry_path(backend, key);
  FileRead file = read_regular_file(dir, file_name(key), {.max_bytes = max_bytes, .private_to_user = true});
  if (file.missing) {
    WEFT_LOG_DEBUG("program cache miss: " << path);
    return Lookup::miss;
  }
  if (!file) {
    warn_once("program cache entry " + path + " is refused: " + file.problem +
              "; the program is built in memory and not stored (remove the entry with `weft cache clear`)");
    return Lookup::refused;
  }
  CacheEntryInfo info;
  std::string problem;
  if (!decode(file.data, payload, &info)) {
    problem = info.problem;
  } else if (info.key != key.hex() || info.backend != backend) {
    // Renamed or swapped: its payload was built for something else.
    problem = "it states key " + info.key + " of backend " + info.backend + ", not the name it is stored under";
  }
  if (!problem.empty()) {
    WEFT_LOG_WARNING("program cache entry " << path << " is corrupt (" << problem << "); removing it and rebuilding");
    ::unlinkat(dir, file_name(key).c_str(), 0);
    return Lookup::miss;
  }
  WEFT_LOG_DEBUG("program cache hit (disk): " << path);
  return Lookup::hit;
}

std::optional<std::string> ProgramCache::load(std::string_view backend, const Digest& key, std::uint64_t max_bytes) {
  UniqueFd dir = open_backend(backend, false);
  if (!dir) return std::nullopt;
  std::string payload;
  if (load_at(dir.get(), backend, key, max_bytes, &payload) != Lookup::hit) return std::nullopt;
  return payload;
}

bool ProgramCache::store_at(int dir, std::string_view backend, const Digest& key, std::string_view description,
                            std::string_view payload) {
  const std::string path = entry_path(backend, key);
  std::string problem;
  if (!write_private_file_at(dir, file_name(key), encode(backend, key, description, payload), &problem)) {
    warn_once("program cache " + dir_ + " cannot be written (" + problem +
              "); programs will be compiled in every process");
    return false;
  }
  WEFT_LOG_DEBUG("program cache stored: " << path << " (" << payload.size() << " bytes)");
  return true;
}

bool ProgramCache::store(std::string_view backend, const Digest& key, std::string_view description,
                         std::string_view payload) {
  UniqueFd dir = open_backend(backend, true);
  return dir && store_at(dir.get(), backend, key, description, payload);
}

std::string ProgramCache::encode(std::string_view backend, const Digest& key,
                                 std::string_view description, std::string_view payload) {
  std::string header = "weft=" + std::string(WEFT_VERSION_STRING) + "\nbackend=" +
                       std::string(backend) + "\nkey=" + key.hex() + "\ncreated=" +
                       std::to_string(static_cast<long long>(std::time(nullptr))) +
                       "\ndescription=" + one_line(description) + "\n";
  std::string out;
  out.reserve(magic.size() + 24 + header.size() + payload.size());
  out += magic;
  put_u64(out, header.size());
  put_u64(out, payload.size());
  std::string summed = header;
  summed += payload;
  put_u64(out, checksum64(summed.data(), summed.size()));
  out += header;
  out += payload;
  return out;
}

bool ProgramCache::decode(std::string_view file, std::string* payload, CacheEntryInfo* info) {
  auto fail = [&](const char* why) {
    if (info) info->problem = why;
    return false;
  };
  const std::size_t fixed = magic.size() + 24;
  if (file.size() < fixed) return fail("truncated: shorter than its header");
  if (file.substr(0, magic.size()) != magic) return fail("not a weft cache entry (bad magic)");
  const std::uint64_t header_size = get_u64(file, magic.size());
  const std::uint64_t payload_size = get_u64(file, magic.size() + 8);
  const std::uint64_t sum = get_u64(file, magic.size() + 16);
  if (header_size > file.size() || payload_size > file.size() ||
      fixed + header_size + payload_size != file.size()) {
    return fail("truncated or padded: its size does not match its header");
  }
  const auto body = file.substr(fixed);
  if (checksum64(body.data(), body.size()) != sum) return fail("checksum mismatch");
  const auto header = body.substr(0, header_size);
  if (info) {
    info->valid = true;
    info->backend = header_value(header, "backend");
    info->key = header_value(header, "key");
    info->description = header_value(header, "description");
    info->weft_version = header_value(header, "weft");
  }
  if (payload) *payload = std::string(body.substr(header_size));
  return true;
}

std::optional<std::string> ProgramCache::load_note(std::string_view folder, const Digest& key) {
  UniqueFd dir = open_backend(folder, false);
  if (!dir) return std::nullopt;
  const std::string name = key.hex() + ".txt";
  FileRead file = read_regular_file(dir.get(), name, {.max_bytes = max_note_bytes, .private_to_user = true});
  if (file.missing) return std::nullopt;
  if (!file) {
    warn_once("program cache note " + dir_ + "/" + std::string(folder) + "/" + name + " is refused: " + file.problem);
    return std::nullopt;
  }
  return std::move(file.data);
}

bool ProgramCache::store_note(std::string_view folder, const Digest& key, std::string_view text) {
  UniqueFd dir = open_backend(folder, true);
  std::string problem;
  if (dir && !write_private_file_at(dir.get(), key.hex() + ".txt", text, &problem)) {
    warn_once("program cache " + dir_ + " cannot be written (" + problem +
              "); programs will be compiled in every process");
    return false;
  }
  return static_cast<bool>(dir);
}

std::string ProgramCache::load_or_build(std::string_view backend, const Digest& key,
                                        std::string_view description,
                                        const std::function<std::string()>& build, bool* from_disk) {
  if (from_disk) *from_disk = false;
  UniqueFd dir = open_backend(backend, true);
  if (!dir) return build();
  std::string payload;
  Lookup found = load_at(dir.get(), backend, key, max_entry_bytes, &payload);
  if (found == Lookup::miss) {
    // Build under the entry's lock; whoever waited finds the entry the first builder stored.
    const std::string lock_name = file_name(key) + ".lock";
    EntryLock lock(dir.get(), lock_name, lock_timeout_);
    const std::string lock_path = entry_path(backend, key) + ".lock";
    if (lock.timed_out()) {
      WEFT_LOG_WARNING("waited " << static_cast<double>(lock_timeout_.count()) / 1000
                                 << " s for the program cache lock " << lock_path
                                 << ", held by another process (a stuck build?); building without it "
                                 << "(WEFT_CACHE_LOCK_TIMEOUT sets the wait)");
    } else if (!lock.held()) {
      warn_once("program cache lock " + lock_path + " is not used: " + lock.problem() + "; building without it");
    } else {
      found = load_at(dir.get(), backend, key, max_entry_bytes, &payload);
    }
  }
  if (found == Lookup::hit) {
    if (from_disk) *from_disk = true;
    return payload;
  }
  payload = build();
  if (found == Lookup::miss) store_at(dir.get(), backend, key, description, payload);
  return payload;
}

void ProgramCache::for_each_backend(const std::function<void(int, const std::string&)>& visit) {
  if (dir_.empty()) return;
  std::string problem;
  UniqueFd root = open_cache_root(dir_, false, &problem);
  if (!root) {
    if (problem != "it does not exist") warn_once("program cache directory " + dir_ + " is refused: " + problem);
    return;
  }
  for (const auto& e : list_directory(root.get())) {
    const std::string path = dir_ + "/" + e.name;
    if (S_ISLNK(e.st.st_mode)) {
      warn_once("program cache: skipping " + path + ": it is a symbolic link, which weft does not follow");
      continue;
    }
    if (!S_ISDIR(e.st.st_mode)) continue;
    UniqueFd dir = open_private_directory(root.get(), e.name, false, &problem);
    if (!dir) {
      warn_once("program cache: skipping " + path + ": " + problem);
      continue;
    }
    visit(dir.get(), e.name);
  }
}

std::vector<CacheEntryInfo> ProgramCache::list() {
  std::vector<CacheEntryInfo> out;
  for_each_backend([&](int dir, const std::string& backend) {
    for (const auto& e : list_directory(dir)) {
      if (!ends_with(e.name, entry_suffix)) continue;
      CacheEntryInfo info;
      info.path = dir_ + "/" + backend + "/" + e.name;
      info.backend = backend;
      const std::string stem = e.name.substr(0, e.name.size() - entry_suffix.size());
      info.key = stem;
      info.bytes = static_cast<std::uint64_t>(e.st.st_size);
      info.modified = static_cast<std::int64_t>(e.st.st_mtime);
      FileRead file = read_regular_file(dir, e.name, {.max_bytes = max_entry_bytes, .private_to_user = true});
      if (!file) {
        info.problem = file.missing ? "it vanished while listed" : file.problem;
      } else if (decode(file.data, nullptr, &info) && (info.key != stem || info.backend != backend)) {
        info.valid = false;
        info.problem =
            "it states key " + info.key + " of backend " + info.backend + ", not the name it is stored under";
      }
      out.push_back(std::move(info));
    }
  });
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  return out;
}

namespace {
// What `weft cache clear` may remove: entries, and the temporary and lock files beside them;
// always regular files, never what a symbolic link points to.
bool is_cache_file(const DirectoryEntry& e) {
  return S_ISREG(e.st.st_mode) && (ends_with(e.name, entry_suffix) || ends_with(e.name, ".lock") ||
                                   e.name.find(".tmp-") != std::string::npos);
}
}  // namespace

std::size_t ProgramCache::clear() {
  std::size_t n = 0;
  for_each_backend([&](int dir, const std::string& backend) {
    for (const auto& e : list_directory(dir)) {
      if (!is_cache_file(e)) {
        if (!S_ISREG(e.st.st_mode)) {
          warn_once("program cache: leaving " + dir_ + "/" + backend + "/" + e.name +
                    " alone: it is not a regular file");
        }
        continue;
      }
      if (::unlinkat(dir, e.name.c_str(), 0) == 0 && ends_with(e.name, entry_suffix)) ++n;
    }
  });
  return n;
}

std::size_t ProgramCache::prune(std::optional<std::chrono::seconds> max_age,
                                std::optional<std::uint64_t> max_bytes) {
  const std::int64_t now = static_cast<std::int64_t>(std::time(nullptr));
  // Temporary files older than an hour belong to builds that died; a lock nobody holds may go.
  for_each_backend([&](int dir, const std::string&) {
    for (const auto& e : list_directory(dir)) {
      if (!is_cache_file(e)) continue;
      if (e.name.find(".tmp-") != std::string::npos && now - e.st.st_mtime > 3600) {
        ::unlinkat(dir, e.name.c_str(), 0);
      } else if (ends_with(e.name, ".lock")) {
        UniqueFd fd(::openat(dir, e.name.c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        if (fd && ::flock(fd.get(), LOCK_EX | LOCK_NB) == 0) ::unlinkat(dir, e.name.c_str(), 0);
      }
    }
  });
  std::vector<CacheEntryInfo> remove, kept;
  for (auto& e : list()) {
    const bool stale = !e.valid || e.weft_version != WEFT_VERSION_STRING ||
                       (max_age && now - e.modified > max_age->count());
    (stale ? remove : kept).push_back(std::move(e));
  }
  if (max_bytes) {
    std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.modified > b.modified; });
    std::uint64_t total = 0;
    for (auto& e : kept) {
      total += e.bytes;
      if (total > *max_bytes) remove.push_back(std::move(e));
    }
  }
  // Removed by name within the checked backend directories, never by a path string.
  std::size_t removed = 0;
  for_each_backend([&](int dir, const std::string& backend) {
    for (const auto& e : remove) {
      if (e.backend != backend) continue;
      const std::string name = e.key + std::string(entry_suffix);
      struct stat st {};
      if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
          ::unlinkat(dir, name.c_str(), 0) == 0) {
        ++removed;
      }
    }
  });
  return removed;
}

}  // namespace weft::detail
