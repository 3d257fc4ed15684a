// File-system helpers with error reporting in weft's terms.
//
// Two families. read_file / write_file_atomic / make_directories are for files the user
// names (outputs, inputs). The *_at functions are for weft's own state (the program cache):
// they work relative to an open directory, never follow a symbolic link, never block on a
// FIFO, read at most a stated number of bytes, and can insist that what they open belongs
// to the current user and is writable by nobody else. See docs/SECURITY.md for why.
//
//   UniqueFd dir = open_private_directory(AT_FDCWD, "/home/u/.cache/weft", true, &why);
//   FileRead r = read_regular_file(dir.get(), "x.wpc", {.max_bytes = 1 << 30, .private_to_user = true});
//   if (!r) log(r.missing ? "absent" : r.problem);
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct stat;

namespace weft::detail {

/// The whole file, or nullopt when it cannot be read.
std::optional<std::string> read_file(const std::string& path);

/// Writes data to path atomically: a temporary file in the same directory, fsync'd data,
/// then rename(). Readers see the old file or the new one, never a part. Returns false
/// (and leaves nothing behind) when the directory is not writable.
bool write_file_atomic(const std::string& path, std::string_view data);

/// Creates a directory and its parents; false when that is not possible.
bool make_directories(const std::string& path);

/// A file descriptor, closed on destruction.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd();
  int get() const noexcept { return fd_; }
  int release() noexcept {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  explicit operator bool() const noexcept { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

/// Empty when st is owned by the effective user and neither group- nor world-writable;
/// otherwise the reason, e.g. "it is owned by uid 1001, not by you (uid 1000)".
std::string ownership_problem(const struct stat& st);

struct ReadOptions {
  std::uint64_t max_bytes = 0;   // a larger file, or one that grows past it, is refused
  bool follow_symlinks = false;  // false: a symbolic link is refused (O_NOFOLLOW)
  bool private_to_user = false;  // true: refused unless ownership_problem() is empty
};

struct FileRead {
  bool missing = false;   // the file does not exist
  std::string problem;    // why it was refused or could not be read; empty on success
  std::string data;
  std::uint64_t bytes = 0;
  std::int64_t modified = 0;  // seconds since the epoch
  explicit operator bool() const noexcept { return !missing && problem.empty(); }
};

/// Reads name (relative to the directory dir, or a path with AT_FDCWD): a regular file only
/// (a FIFO, device or directory is refused without blocking), at most options.max_bytes.
FileRead read_regular_file(int dir, const std::string& name, const ReadOptions& options);

/// Writes data to name in dir as a 0600 file (whatever the umask) through a fresh temporary
/// file and renameat(), so a reader sees the old file or the new one. False with the reason
/// in problem when it cannot.
bool write_private_file_at(int dir, const std::string& name, std::string_view data, std::string* problem);

/// Opens (with create, first creating as 0700) the directory name in parent without
/// following a symbolic link, and checks ownership_problem(). Returns an invalid fd with the
/// reason in problem. An existing directory keeps its mode.
UniqueFd open_private_directory(int parent, const std::string& name, bool create, std::string* problem);

/// Creates each missing component of path as 0700 (existing ones are left as they are);
/// false with the reason when one cannot be made.
bool make_private_directories(const std::string& path, std::string* problem);

/// A fresh private directory under config().temp_dir, removed with its contents on
/// destruction by the process that made it (a forked child that exits runs the destructors of
/// the statics it inherited: it leaves the parent's directories alone, such as the staged host
/// prelude every later kernel compile of the parent includes).
class TempDir {
 public:
  explicit TempDir(std::string_view prefix = "weft-");
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
  pid_t owner_;  // the process that made it
};

}  // namespace weft::detail
