#include "cache/program_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "core/files.hpp"
#include "core/log.hpp"
#include "weft/config.hpp"
#include "weft/version.hpp"

namespace weft::detail {

namespace fs = std::filesystem;

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

// An exclusive flock() held for the life of the object; inert when the file cannot be opened.
class FileLock {
 public:
  explicit FileLock(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ >= 0) {
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
    }
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }

 private:
  int fd_ = -1;
};
}  // namespace

ProgramCache& ProgramCache::instance() {
  static ProgramCache cache(config().cache_dir);
  return cache;
}

ProgramCache::ProgramCache(std::string directory) : dir_(std::move(directory)) {}

std::string ProgramCache::entry_path(std::string_view backend, const Digest& key) const {
  return dir_ + "/" + std::string(backend) + "/" + key.hex() + std::string(entry_suffix);
}

bool ProgramCache::ensure_directory(std::string_view backend) {
  return make_directories(dir_ + "/" + std::string(backend));
}

void ProgramCache::warn_unwritable(const std::string& why) {
  std::lock_guard lock(mutex_);
  if (warned_unwritable_) return;
  warned_unwritable_ = true;
  WEFT_LOG_WARNING("program cache " << dir_ << " cannot be written (" << why
                                    << "); programs will be compiled in every process");
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

std::optional<std::string> ProgramCache::load(std::string_view backend, const Digest& key) {
  const std::string path = entry_path(backend, key);
  auto file = read_file(path);
  if (!file) {
    WEFT_LOG_DEBUG("program cache miss: " << path);
    return std::nullopt;
  }
  std::string payload;
  CacheEntryInfo info;
  if (!decode(*file, &payload, &info)) {
    WEFT_LOG_WARNING("program cache entry " << path << " is corrupt (" << info.problem
                                            << "); removing it and rebuilding");
    ::unlink(path.c_str());
    return std::nullopt;
  }
  WEFT_LOG_DEBUG("program cache hit (disk): " << path);
  return payload;
}

bool ProgramCache::store(std::string_view backend, const Digest& key, std::string_view description,
                         std::string_view payload) {
  if (!ensure_directory(backend)) {
    warn_unwritable("cannot create " + dir_ + "/" + std::string(backend));
    return false;
  }
  const std::string path = entry_path(backend, key);
  if (!write_file_atomic(path, encode(backend, key, description, payload))) {
    warn_unwritable(std::string("cannot write ") + path + ": " + std::strerror(errno));
    return false;
  }
  WEFT_LOG_DEBUG("program cache stored: " << path << " (" << payload.size() << " bytes)");
  return true;
}

std::string ProgramCache::load_or_build(std::string_view backend, const Digest& key,
                                        std::string_view description,
                                        const std::function<std::string()>& build, bool* from_disk) {
  if (auto hit = load(backend, key)) {
    if (from_disk) *from_disk = true;
    return std::move(*hit);
  }
  // Build under the entry's lock; whoever waited finds the entry the first builder stored.
  std::optional<FileLock> lock;
  if (ensure_directory(backend)) {
    lock.emplace(entry_path(backend, key) + ".lock");
    if (auto hit = load(backend, key)) {
      if (from_disk) *from_disk = true;
      return std::move(*hit);
    }
  }
  std::string payload = build();
  store(backend, key, description, payload);
  if (from_disk) *from_disk = false;
  return payload;
}

std::vector<CacheEntryInfo> ProgramCache::list() const {
  std::vector<CacheEntryInfo> out;
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) return out;
  for (const auto& backend_dir : fs::directory_iterator(dir_, ec)) {
    if (!backend_dir.is_directory(ec)) continue;
    for (const auto& e : fs::directory_iterator(backend_dir.path(), ec)) {
      if (e.path().extension() != entry_suffix) continue;
      CacheEntryInfo info;
      info.path = e.path().string();
      info.backend = backend_dir.path().filename().string();
      info.key = e.path().stem().string();
      struct stat st {};
      if (::stat(info.path.c_str(), &st) == 0) {
        info.bytes = static_cast<std::uint64_t>(st.st_size);
        info.modified = st.st_mtime;
      }
      if (auto file = read_file(info.path)) {
        decode(*file, nullptr, &info);
      } else {
        info.problem = "unreadable";
      }
      out.push_back(std::move(info));
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  return out;
}

std::size_t ProgramCache::clear() {
  std::size_t n = 0;
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) return 0;
  for (const auto& backend_dir : fs::directory_iterator(dir_, ec)) {
    if (!backend_dir.is_directory(ec)) continue;
    for (const auto& e : fs::directory_iterator(backend_dir.path(), ec)) {
      const auto name = e.path().filename().string();
      const bool entry = e.path().extension() == entry_suffix;
      if (entry || name.find(".tmp-") != std::string::npos || e.path().extension() == ".lock") {
        if (fs::remove(e.path(), ec) && entry) ++n;
      }
    }
  }
  return n;
}

std::size_t ProgramCache::prune(std::optional<std::chrono::seconds> max_age,
                                std::optional<std::uint64_t> max_bytes) {
  std::size_t removed = 0;
  std::error_code ec;
  const std::int64_t now = static_cast<std::int64_t>(std::time(nullptr));
  // Temporary files older than an hour belong to builds that died.
  if (fs::is_directory(dir_, ec)) {
    for (const auto& backend_dir : fs::directory_iterator(dir_, ec)) {
      if (!backend_dir.is_directory(ec)) continue;
      for (const auto& e : fs::directory_iterator(backend_dir.path(), ec)) {
        const auto name = e.path().filename().string();
        struct stat st {};
        if (::stat(e.path().c_str(), &st) != 0) continue;
        if (name.find(".tmp-") != std::string::npos && now - st.st_mtime > 3600) fs::remove(e.path(), ec);
        if (e.path().extension() == ".lock") {
          // Only a lock nobody holds may go.
          const int fd = ::open(e.path().c_str(), O_RDWR | O_CLOEXEC);
          if (fd >= 0) {
            if (::flock(fd, LOCK_EX | LOCK_NB) == 0) fs::remove(e.path(), ec);
            ::close(fd);
          }
        }
      }
    }
  }
  auto entries = list();
  std::vector<CacheEntryInfo> kept;
  for (auto& e : entries) {
    const bool stale = !e.valid || e.weft_version != WEFT_VERSION_STRING ||
                       (max_age && now - e.modified > max_age->count());
    if (stale) {
      if (fs::remove(e.path, ec)) ++removed;
    } else {
      kept.push_back(std::move(e));
    }
  }
  if (max_bytes) {
    std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.modified > b.modified; });
    std::uint64_t total = 0;
    for (const auto& e : kept) {
      total += e.bytes;
      if (total > *max_bytes && fs::remove(e.path, ec)) ++removed;
    }
  }
  return removed;
}

}  // namespace weft::detail
