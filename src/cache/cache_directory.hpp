// The program cache's directories and locks, opened so that nobody but the user can put
// anything where weft will load it from (docs/SECURITY.md).
//
// The root is created (with its missing parents) 0700. It may be a symbolic link only when
// the link itself belongs to the user; whatever it names must be a directory owned by the
// user and writable by nobody else. Backend directories below it are opened without
// following links and checked the same way. Everything after that is done relative to
// the open directories, so a path swapped in above them afterwards changes nothing.
//
//   std::string why;
//   UniqueFd root = open_cache_root("/home/u/.cache/weft", true, &why);
//   EntryLock lock(backend_dir.get(), "abc.wpc.lock", std::chrono::seconds(60));
#pragma once

#include <sys/stat.h>

#include <chrono>
#include <string>
#include <vector>

#include "core/files.hpp"

namespace weft::detail {

/// The checked cache root, or an invalid fd with the reason in problem. creatable is set
/// false when the directory (or a parent) could not be created, as opposed to refused.
UniqueFd open_cache_root(const std::string& root, bool create, std::string* problem, bool* creatable = nullptr);

struct DirectoryEntry {
  std::string name;
  struct stat st {};  // lstat: a symbolic link is reported as one, never followed
};

/// What dir holds ("." and ".." left out), in no particular order.
std::vector<DirectoryEntry> list_directory(int dir);

/// An exclusive flock() on the regular file name in dir (created 0600), waited for at
/// most timeout: a process stuck while holding it must not stop every other builder.
/// Released on destruction.
class EntryLock {
 public:
  EntryLock(int dir, const std::string& name, std::chrono::milliseconds timeout);
  EntryLock(const EntryLock&) = delete;
  EntryLock& operator=(const EntryLock&) = delete;

  bool held() const noexcept { return held_; }
  bool timed_out() const noexcept { return timed_out_; }
  /// Why the lock file could not be used (a symbolic link, someone else's file...).
  const std::string& problem() const noexcept { return problem_; }

 private:
  UniqueFd fd_;
  bool held_ = false;
  bool timed_out_ = false;
  std::string problem_;
};

}  // namespace weft::detail
