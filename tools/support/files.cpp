#include "tools/support/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <random>
#include <utility>
#include <vector>

#include "weft/error.hpp"

namespace weft::tool {

namespace {

// Closes a descriptor on scope exit.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw Error("cannot write " + path + ": " + why);
}

std::string errno_text() { return std::strerror(errno); }

void write_all(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      refuse(path, errno_text());
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// The standard stream (1 or 2) that is the file `target`, or -1. Opening /dev/stdout anew
// would start at offset 0 of a redirected file and overwrite what was printed before.
int standard_stream(const struct stat& target) {
  for (const int fd : {1, 2}) {
    struct stat st {};
    if (::fstat(fd, &st) == 0 && same_file(st, target)) return fd;
  }
  return -1;
}

// A FIFO or character device: opened for writing as it is (no O_TRUNC, no rename).
void write_through(const std::string& path, std::string_view data) {
  Fd fd(::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) refuse(path, errno_text());
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
    refuse(path, "it changed into something else while being opened");
  }
  write_all(fd.get(), data, path);
}

// Another user's regular file that this user may write: truncated and written in place, so
// its owner and permissions stay. O_NOFOLLOW: it must still be that file, not a link.
void write_in_place(const std::string& path, const struct stat& existing, std::string_view data) {
  Fd fd(::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) refuse(path, errno_text());
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || !same_file(st, existing)) {
    refuse(path, "it changed while being opened");
  }
  if (::ftruncate(fd.get(), 0) != 0) refuse(path, errno_text());
  write_all(fd.get(), data, path);
}

// Writes a temporary file beside path and renames it over path. A new file is created
// 0666 (the kernel applies the umask and any default ACL); a replaced one takes the old
// file's group and permission bits (group first: chown clears set-id bits).
void replace_by_rename(const std::string& path, const struct stat* existing, std::string_view data) {
  const std::filesystem::path p(path);
  const std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  const std::string base = p.filename().string();
  if (base.empty() || base == "." || base == "..") refuse(path, "it names a directory");
  std::random_device entropy;
  std::string tmp;
  int raw = -1;
  for (int attempt = 0; attempt < 100 && raw < 0; ++attempt) {
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, ".tmp-%d-%08x", static_cast<int>(::getpid()), entropy());
    tmp = dir + "/." + base + suffix;
    raw = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, existing ? 0600 : 0666);
    if (raw < 0 && errno != EEXIST) refuse(path, "cannot create a temporary file in " + dir + ": " + errno_text());
  }
  if (raw < 0) refuse(path, "no free temporary file name in " + dir);
  Fd fd(raw);
  try {
    if (existing) {
      if (::fchown(fd.get(), static_cast<uid_t>(-1), existing->st_gid) != 0) {
        // Not a member of the old file's group: the new file keeps this user's group.
      }
      if (::fchmod(fd.get(), existing->st_mode & 07777) != 0) refuse(path, errno_text());
    }
    write_all(fd.get(), data, path);
    if (::fsync(fd.get()) != 0) refuse(path, errno_text());
    if (::close(fd.release()) != 0) refuse(path, errno_text());
    if (::rename(tmp.c_str(), path.c_str()) != 0) refuse(path, errno_text());
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
}

}  // namespace

void write_output_file(const std::string& path, std::string_view data) {
  if (path.empty()) throw Error("cannot write an output file with an empty name");
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0) {
    if (errno != ENOENT) refuse(path, errno_text());
    replace_by_rename(path, nullptr, data);
    return;
  }
  struct stat target = link;
  const bool symlink = S_ISLNK(link.st_mode);
  if (symlink && ::stat(path.c_str(), &target) != 0) {
    refuse(path, errno == ENOENT ? "it is a symlink to nothing (a dangling link is not followed)" : errno_text());
  }
  if (const int stream = standard_stream(target); stream >= 0) {
    (stream == 1 ? std::cout : std::cerr).flush();
    write_all(stream, data, path);
    return;
  }
  if (S_ISDIR(target.st_mode)) refuse(path, "it is a directory");
  if (S_ISFIFO(target.st_mode) || S_ISCHR(target.st_mode)) {
    write_through(path, data);
    return;
  }
  if (!S_ISREG(target.st_mode)) refuse(path, "it is not a regular file, a FIFO or a character device");
  const uid_t me = ::geteuid();
  if (symlink) {
    if (link.st_uid != me && link.st_uid != 0) {
      refuse(path, "it is a symlink owned by another user (uid " + std::to_string(link.st_uid) + "); not followed");
    }
    if (target.st_uid != me) {
      refuse(path, "it is a symlink to a file owned by another user (uid " + std::to_string(target.st_uid) +
                       "); not followed");
    }
    char real[PATH_MAX];
    if (!::realpath(path.c_str(), real)) refuse(path, errno_text());
    replace_by_rename(real, &target, data);  // the link stays a link, its file is replaced
    return;
  }
  if (link.st_uid != me) {
    write_in_place(path, link, data);
    return;
  }
  replace_by_rename(path, &link, data);
}

std::string read_input_file(const std::string& path, std::size_t max_bytes, std::string_view what) {
  const auto fail = [&](const std::string& why) {
    return InvalidArgument(std::string(what) + ": cannot read " + path + ": " + why);
  };
  // O_NONBLOCK: opening a FIFO that no one writes to must not wait for a writer.
  Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) throw fail(errno_text());
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw fail(errno_text());
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) throw fail("it is not a regular file or a pipe");
  const std::string cap = std::to_string(max_bytes >> 20) + " MiB";
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    throw fail("it holds " + std::to_string(st.st_size) + " bytes, more than the " + cap + " accepted");
  }
  // Blocking again: a pipe's writer may be slower than us. With no writer, read() says EOF.
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) throw fail(errno_text());
  std::string out;
  std::vector<char> buf(1 << 16);
  while (true) {
    const ssize_t n = ::read(fd.get(), buf.data(), buf.size());
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw fail(errno_text());
    }
    if (out.size() + static_cast<std::size_t>(n) > max_bytes) throw fail("it holds more than the " + cap + " accepted");
    out.append(buf.data(), static_cast<std::size_t>(n));
  }
  return out;
}

TempDir::TempDir(std::string_view prefix) {
  std::error_code ec;
  std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string tmpl = (base / (std::string(prefix) + "XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  if (!::mkdtemp(name.data())) {
    throw Error("cannot create a temporary directory " + tmpl + ": " + std::strerror(errno));
  }
  path_ = name.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

}  // namespace weft::tool
