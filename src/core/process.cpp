#include "core/process.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "weft/config.hpp"
#include "weft/error.hpp"

extern char** environ;

namespace weft::detail {

namespace {
// Closes a descriptor on scope exit.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

// posix_spawn's file actions, destroyed on scope exit.
class SpawnActions {
 public:
  SpawnActions() { posix_spawn_file_actions_init(&actions_); }
  SpawnActions(const SpawnActions&) = delete;
  SpawnActions& operator=(const SpawnActions&) = delete;
  ~SpawnActions() { posix_spawn_file_actions_destroy(&actions_); }
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};
}  // namespace

std::vector<std::string> split_command(const std::string& command) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : command) {
    if (c == ' ' || c == '\t') {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

std::string find_executable(const std::string& name) {
  auto resolve = [](const std::string& path) -> std::string {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || ::access(path.c_str(), X_OK) != 0) {
      return {};
    }
    char buf[PATH_MAX];
    if (::realpath(path.c_str(), buf)) return buf;
    return path;
  };
  if (name.find('/') != std::string::npos) return resolve(name);
  const std::string& dirs = config().path;
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t colon = dirs.find(':', start);
    if (colon == std::string::npos) colon = dirs.size();
    std::string dir = dirs.substr(start, colon - start);
    if (dir.empty()) dir = ".";
    if (auto found = resolve(dir + "/" + name); !found.empty()) return found;
    start = colon + 1;
  }
  return {};
}

ProcessResult run_process(const std::vector<std::string>& argv) {
  if (argv.empty()) throw Error("run_process: no program given");
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  Fd read_end(fds[0]);
  Fd write_end(fds[1]);

  SpawnActions actions;
  posix_spawn_file_actions_adddup2(actions.get(), write_end.get(), 1);
  posix_spawn_file_actions_adddup2(actions.get(), write_end.get(), 2);
  posix_spawn_file_actions_addopen(actions.get(), 0, "/dev/null", O_RDONLY, 0);

  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], actions.get(), nullptr, args.data(), environ);
  write_end.reset();
  if (rc != 0) {
    throw Error("cannot run '" + argv[0] + "': " + std::strerror(rc));
  }

  ProcessResult result;
  char buf[8192];
  while (true) {
    const ssize_t n = ::read(read_end.get(), buf, sizeof buf);
    if (n > 0) {
      result.output.append(buf, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) result.exit_code = 128 + WTERMSIG(status);
  return result;
}

std::filesystem::path libweft_folder() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&libweft_folder), &info) == 0 || !info.dli_fname) return {};
  return std::filesystem::path(info.dli_fname).parent_path();
}

}  // namespace weft::detail
