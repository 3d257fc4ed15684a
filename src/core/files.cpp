#include "core/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <vector>

#include "weft/config.hpp"
#include "weft/error.hpp"

namespace weft::detail {

std::optional<std::string> read_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string data;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) data.reserve(static_cast<std::size_t>(st.st_size));
  char buf[65536];
  bool ok = true;
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      data.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      ok = false;
      break;
    }
  }
  ::close(fd);
  if (!ok) return std::nullopt;
  return data;
}

namespace {
bool write_all(int fd, std::string_view data) {
  const char* p = data.data();
  std::size_t left = data.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  return true;
}

std::string octal_mode(mode_t mode) {
  char b[8];
  std::snprintf(b, sizeof b, "%04o", static_cast<unsigned>(mode & 07777));
  return b;
}

const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}
}  // namespace

bool write_file_atomic(const std::string& path, std::string_view data) {
  std::string tmp = path + ".tmp-XXXXXX";
  std::vector<char> name(tmp.begin(), tmp.end());
  name.push_back('\0');
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = write_all(fd, data);
  // An output the user asked for gets the permissions a newly created file would.
  ok = ok && ::fchmod(fd, 0644) == 0 && ::fsync(fd) == 0;
  ok = (::close(fd) == 0) && ok;
  if (ok && ::rename(name.data(), path.c_str()) == 0) return true;
  ::unlink(name.data());
  return false;
}

bool make_directories(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  return std::filesystem::is_directory(path, ec);
}

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.release();
  }
  return *this;
}

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) ::close(fd_);
}

std::string ownership_problem(const struct stat& st) {
  const uid_t me = ::geteuid();
  if (st.st_uid != me) {
    return "it is owned by uid " + std::to_string(st.st_uid) + ", not by you (uid " + std::to_string(me) + ")";
  }
  if (st.st_mode & S_IWOTH) return "it is world-writable (mode " + octal_mode(st.st_mode) + ")";
  if (st.st_mode & S_IWGRP) return "it is group-writable (mode " + octal_mode(st.st_mode) + ")";
  return {};
}

FileRead read_regular_file(int dir, const std::string& name, const ReadOptions& options) {
  FileRead r;
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
  int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
  if (!options.follow_symlinks) flags |= O_NOFOLLOW;
  UniqueFd fd(::openat(dir, name.c_str(), flags));
  if (!fd) {
    if (errno == ENOENT) {
      r.missing = true;
    } else if (errno == ELOOP && !options.follow_symlinks) {
      r.problem = "it is a symbolic link";
    } else {
      r.problem = std::string("cannot open it: ") + std::strerror(errno);
    }
    return r;
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    r.problem = std::string("cannot stat it: ") + std::strerror(errno);
    return r;
  }
  if (!S_ISREG(st.st_mode)) {
    r.problem = std::string("it is ") + file_kind(st.st_mode) + ", not a regular file";
    return r;
  }
  if (options.private_to_user) {
    if (auto why = ownership_problem(st); !why.empty()) {
      r.problem = std::move(why);
      return r;
    }
  }
  const auto too_big = [&] {
    return "it holds more than " + std::to_string(options.max_bytes) + " bytes, the most weft reads from it";
  };
  if (static_cast<std::uint64_t>(st.st_size) > options.max_bytes) {
    r.problem = too_big();
    return r;
  }
  r.bytes = static_cast<std::uint64_t>(st.st_size);
  r.modified = static_cast<std::int64_t>(st.st_mtime);
  r.data.reserve(static_cast<std::size_t>(st.st_size));
  char buf[65536];
  while (true) {
    // Never ask for more than one byte past the cap: a file that grows while it is read
    // (or /proc-like files whose size says 0) stops there.
    const std::uint64_t room = options.max_bytes + 1 - r.data.size();
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(sizeof buf, room));
    const ssize_t n = ::read(fd.get(), buf, want);
    if (n > 0) {
      r.data.append(buf, static_cast<std::size_t>(n));
      if (r.data.size() > options.max_bytes) {
        r.data.clear();
        r.problem = too_big();
        return r;
      }
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      r.data.clear();
      r.problem = std::string("cannot read it: ") + std::strerror(errno);
      return r;
    }
  }
  r.bytes = r.data.size();
  return r;
}

bool write_private_file_at(int dir, const std::string& name, std::string_view data, std::string* problem) {
  static std::atomic<std::uint64_t> counter{0};
  thread_local std::mt19937_64 rng{std::random_device{}() ^ static_cast<std::uint64_t>(::getpid())};
  UniqueFd fd;
  std::string tmp;
  for (int attempt = 0; attempt < 16 && !fd; ++attempt) {
    char suffix[40];
    std::snprintf(suffix, sizeof suffix, ".tmp-%016llx%llx", static_cast<unsigned long long>(rng()),
                  static_cast<unsigned long long>(counter++));
    tmp = name + suffix;
    fd = UniqueFd(::openat(dir, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!fd && errno != EEXIST) break;
  }
  if (!fd) {
    *problem = "cannot create " + tmp + ": " + std::strerror(errno);
    return false;
  }
  // The umask may have taken the owner's bits; the mode is exactly 0600 either way.
  bool ok = ::fchmod(fd.get(), 0600) == 0 && write_all(fd.get(), data) && ::fsync(fd.get()) == 0;
  ok = (::close(fd.release()) == 0) && ok;
  if (ok && ::renameat(dir, tmp.c_str(), dir, name.c_str()) == 0) return true;
  *problem = "cannot write " + name + ": " + std::strerror(errno);
  ::unlinkat(dir, tmp.c_str(), 0);
  return false;
}

UniqueFd open_private_directory(int parent, const std::string& name, bool create, std::string* problem) {
  bool created = false;
  if (create) {
    if (::mkdirat(parent, name.c_str(), 0700) == 0) {
      created = true;
    } else if (errno != EEXIST) {
      *problem = std::string("cannot create it: ") + std::strerror(errno);
      return {};
    }
  }
  UniqueFd fd(::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd) {
    const int error = errno;
    struct stat link {};
    const bool is_link = ::fstatat(parent, name.c_str(), &link, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(link.st_mode);
    if (error == ENOENT) *problem = "it does not exist";
    else if (is_link) *problem = "it is a symbolic link";  // O_DIRECTORY reports it as ENOTDIR
    else if (error == ENOTDIR) *problem = "it is not a directory";
    else *problem = std::string("cannot open it: ") + std::strerror(error);
    return {};
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    *problem = std::string("cannot stat it: ") + std::strerror(errno);
    return {};
  }
  if (auto why = ownership_problem(st); !why.empty()) {
    *problem = std::move(why);
    return {};
  }
  // What weft makes is 0700 whatever the umask. A directory that was there before (the
  // user's own WEFT_CACHE_DIR, say) keeps its mode: weft does not change what it did not make.
  if (created && (st.st_mode & 07777) != 0700) ::fchmod(fd.get(), 0700);
  return fd;
}

bool make_private_directories(const std::string& path, std::string* problem) {
  std::size_t pos = 0;
  while (pos != std::string::npos) {
    pos = path.find('/', pos + 1);
    const std::string prefix = path.substr(0, pos);
    if (prefix.empty() || prefix.back() == '/') continue;
    if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) {
      *problem = "cannot create " + prefix + ": " + std::strerror(errno);
      return false;
    }
  }
  return true;
}

TempDir::TempDir(std::string_view prefix) {
  std::string tmpl = config().temp_dir + "/" + std::string(prefix) + "XXXXXX";
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  if (!::mkdtemp(name.data())) {
    throw Error("cannot create a temporary directory " + tmpl + ": " + std::strerror(errno));
  }
  path_ = name.data();
  owner_ = ::getpid();
}

TempDir::~TempDir() {
  if (::getpid() != owner_) return;  // a forked child's copy: the directory is the parent's
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace weft::detail
