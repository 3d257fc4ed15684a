#include "tools/support/process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "weft/error.hpp"

extern char** environ;

namespace weft::tool {

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::function<void(const std::string&)>& on_line) {
  if (argv.empty()) throw Error("run_process: no program given");
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    throw Error("cannot run '" + argv[0] + "': " + std::strerror(rc));
  }
  ProcessResult result;
  char buf[8192];
  std::size_t shown = 0;  // output before this offset went to on_line
  while (true) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) {
      result.output.append(buf, static_cast<std::size_t>(n));
      for (std::size_t end; on_line && (end = result.output.find('\n', shown)) != std::string::npos; shown = end + 1) {
        on_line(result.output.substr(shown, end - shown));
      }
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  if (on_line && shown < result.output.size()) on_line(result.output.substr(shown));
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) result.exit_code = 128 + WTERMSIG(status);
  return result;
}

}  // namespace weft::tool
