#include "cache/cache_directory.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

namespace weft::detail {

UniqueFd open_cache_root(const std::string& root, bool create, std::string* problem, bool* creatable) {
  if (creatable) *creatable = true;
  if (create && !make_private_directories(root, problem)) {
    if (creatable) *creatable = false;
    return {};
  }
  struct stat link {};
  if (::lstat(root.c_str(), &link) != 0) {
    const bool absent = errno == ENOENT || errno == ENOTDIR;
    *problem = absent ? "it does not exist" : std::string("cannot stat it: ") + std::strerror(errno);
    return {};
  }
  if (S_ISLNK(link.st_mode)) {
    // A link the user made (~/.cache/weft -> /scratch/u/weft) is the user's choice; one
    // made by someone else would hand them the cache.
    if (link.st_uid != ::geteuid()) {
      *problem = "it is a symbolic link owned by uid " + std::to_string(link.st_uid) + ", not by you (uid " +
                 std::to_string(::geteuid()) + ")";
      return {};
    }
    // "root/." follows the link; the directory it reaches is then checked like any other.
    return open_private_directory(AT_FDCWD, root + "/.", false, problem);
  }
  return open_private_directory(AT_FDCWD, root, false, problem);
}

std::vector<DirectoryEntry> list_directory(int dir) {
  std::vector<DirectoryEntry> out;
  // fdopendir takes ownership of its descriptor: give it a duplicate.
  const int fd = ::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return out;
  DIR* d = ::fdopendir(fd);
  if (!d) {
    ::close(fd);
    return out;
  }
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    DirectoryEntry entry{name, {}};
    if (::fstatat(dir, name.c_str(), &entry.st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    out.push_back(std::move(entry));
  }
  ::closedir(d);
  return out;
}

EntryLock::EntryLock(int dir, const std::string& name, std::chrono::milliseconds timeout) {
  fd_ = UniqueFd(::openat(dir, name.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600));
  if (!fd_) {
    problem_ = errno == ELOOP ? "it is a symbolic link" : std::string("cannot open it: ") + std::strerror(errno);
    return;
  }
  struct stat st {};
  if (::fstat(fd_.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    problem_ = "it is not a regular file";
    return;
  }
  if (problem_ = ownership_problem(st); !problem_.empty()) return;
  if ((st.st_mode & 07777) != 0600) ::fchmod(fd_.get(), 0600);

  // Poll rather than block: a blocking flock() cannot be given up after a while.
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::milliseconds(1);
  while (true) {
    if (::flock(fd_.get(), LOCK_EX | LOCK_NB) == 0) {
      held_ = true;
      return;
    }
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) {
      problem_ = std::string("cannot lock it: ") + std::strerror(errno);
      return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      timed_out_ = true;
      return;
    }
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(pause, deadline - now));
    pause = std::min(pause * 2, std::chrono::milliseconds(25));
  }
}

}  // namespace weft::detail
