// The tools' output and input files, called directly (test_cli runs them through `weft`).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>

#include <filesystem>
#include <thread>

#include "support.hpp"
#include "tools/support/files.hpp"
#include "weft/error.hpp"

namespace weft::tool {
namespace {

using test::mode_of;

TEST(ToolFiles, ReplacesAFileWholeAndLeavesNoTemporaryBehind) {
  TempDir dir;
  const std::string f = dir.path() + "/out.txt";
  write_output_file(f, "first, longer text");
  ASSERT_EQ(::chmod(f.c_str(), 0640), 0);
  write_output_file(f, "second");
  EXPECT_EQ(read_input_file(f, 100, "test"), "second");
  EXPECT_EQ(mode_of(f) & 07777, 0640u);
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++files;
  EXPECT_EQ(files, 1u);
}

TEST(ToolFiles, AMissingDirectoryIsAnErrorNamingThePath) {
  TempDir dir;
  const std::string f = dir.path() + "/no/such/dir/out.txt";
  try {
    write_output_file(f, "x");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write " + f), std::string::npos) << e.what();
  }
  EXPECT_THROW(write_output_file("", "x"), Error);
}

TEST(ToolFiles, ReadsAPipeWithACap) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    const std::string chunk(1000, 'a');
    for (int i = 0; i < 10; ++i) {
      if (::write(fds[1], chunk.data(), chunk.size()) < 0) break;
    }
    ::close(fds[1]);
  });
  const std::string path = "/proc/self/fd/" + std::to_string(fds[0]);
  EXPECT_EQ(read_input_file(path, 20000, "test").size(), 10000u);
  writer.join();
  ::close(fds[0]);

  ASSERT_EQ(::pipe(fds), 0);
  std::thread endless([&] {
    // SIGPIPE blocked in this thread: once the reader gives up, write() fails with EPIPE.
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
    const std::string chunk(4096, 'b');
    while (::write(fds[1], chunk.data(), chunk.size()) > 0) {
    }
  });
  try {
    read_input_file("/proc/self/fd/" + std::to_string(fds[0]), std::size_t{1} << 20, "--vertices-file");
    FAIL() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("more than the 1 MiB accepted"), std::string::npos) << e.what();
  }
  ::close(fds[0]);  // the writer's next write fails and it ends
  endless.join();
  ::close(fds[1]);
}

TEST(ToolFiles, RefusesWhatIsNotAFileOrAPipe) {
  EXPECT_THROW(read_input_file("/dev/zero", 100, "test"), InvalidArgument);
  TempDir dir;
  EXPECT_THROW(read_input_file(dir.path(), 100, "test"), InvalidArgument);
  EXPECT_THROW(read_input_file(dir.path() + "/missing", 100, "test"), InvalidArgument);
}

}  // namespace
}  // namespace weft::tool
