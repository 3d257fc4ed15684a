// The safe file helpers under the program cache: no link followed unless asked, no FIFO
// waited on, no read past a cap, modes exact whatever the umask.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "core/files.hpp"

namespace weft::detail {
namespace {

namespace fs = std::filesystem;

ReadOptions capped(std::uint64_t bytes) { return {.max_bytes = bytes}; }

TEST(SafeFiles, ATempDirIsRemovedOnlyByTheProcessThatMadeIt) {
  // A forked child that exits runs the destructors of what it inherited: it must not remove
  // the parent's temporary directories (the host prelude staged for every kernel compile).
  auto dir = std::make_unique<TempDir>("weft-fork-test-");
  const std::string path = dir->path();
  const pid_t pid = ::fork();
  if (pid == 0) {
    dir.reset();
    std::_Exit(std::filesystem::exists(path) ? 0 : 1);
  }
  ASSERT_GT(pid, 0);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_TRUE(std::filesystem::exists(path));
  dir.reset();
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(SafeFiles, ReadsRegularFilesWithinTheCap) {
  TempDir dir;
  std::ofstream(dir.path() + "/f") << "hello";
  FileRead r = read_regular_file(AT_FDCWD, dir.path() + "/f", capped(5));
  ASSERT_TRUE(r) << r.problem;
  EXPECT_EQ(r.data, "hello");
  EXPECT_EQ(r.bytes, 5u);
  r = read_regular_file(AT_FDCWD, dir.path() + "/f", capped(4));
  EXPECT_FALSE(r);
  EXPECT_NE(r.problem.find("more than 4 bytes"), std::string::npos) << r.problem;
  r = read_regular_file(AT_FDCWD, dir.path() + "/missing", capped(4));
  EXPECT_TRUE(r.missing);
  EXPECT_FALSE(r);
}

TEST(SafeFiles, AFileThatGrowsPastTheCapStops) {
  // /proc files say they are empty and then produce text: the read stops at the cap.
  FileRead r = read_regular_file(AT_FDCWD, "/proc/self/maps", capped(64));
  EXPECT_FALSE(r);
  EXPECT_NE(r.problem.find("more than 64 bytes"), std::string::npos) << r.problem;
  EXPECT_TRUE(r.data.empty());
}

TEST(SafeFiles, RefusesLinksDevicesAndFifosWithoutBlocking) {
  TempDir dir;
  std::ofstream(dir.path() + "/target") << "x";
  fs::create_symlink(dir.path() + "/target", dir.path() + "/link");
  FileRead r = read_regular_file(AT_FDCWD, dir.path() + "/link", capped(100));
  EXPECT_NE(r.problem.find("symbolic link"), std::string::npos) << r.problem;
  EXPECT_TRUE(read_regular_file(AT_FDCWD, dir.path() + "/link", {.max_bytes = 100, .follow_symlinks = true}));

  r = read_regular_file(AT_FDCWD, "/dev/zero", {.max_bytes = 1 << 20, .follow_symlinks = true});
  EXPECT_NE(r.problem.find("character device"), std::string::npos) << r.problem;

  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {  // ends a blocked open, were there one
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  });
  const auto t0 = std::chrono::steady_clock::now();
  r = read_regular_file(AT_FDCWD, fifo, capped(100));
  const auto waited = std::chrono::steady_clock::now() - t0;
  writer.join();
  EXPECT_NE(r.problem.find("FIFO"), std::string::npos) << r.problem;
  EXPECT_LT(waited, std::chrono::seconds(1));
}

TEST(SafeFiles, PrivateToUserChecksOwnerAndMode) {
  TempDir dir;
  const std::string f = dir.path() + "/f";
  std::ofstream(f) << "x";
  ::chmod(f.c_str(), 0644);
  EXPECT_TRUE(read_regular_file(AT_FDCWD, f, {.max_bytes = 10, .private_to_user = true}));
  ::chmod(f.c_str(), 0664);
  FileRead r = read_regular_file(AT_FDCWD, f, {.max_bytes = 10, .private_to_user = true});
  EXPECT_NE(r.problem.find("group-writable (mode 0664)"), std::string::npos) << r.problem;
  EXPECT_TRUE(read_regular_file(AT_FDCWD, f, capped(10)));  // only when asked
  if (::geteuid() == 0) {
    ::chmod(f.c_str(), 0600);
    ASSERT_EQ(::chown(f.c_str(), 65534, 65534), 0);
    r = read_regular_file(AT_FDCWD, f, {.max_bytes = 10, .private_to_user = true});
    EXPECT_NE(r.problem.find("owned by uid 65534, not by you (uid 0)"), std::string::npos) << r.problem;
  }
}

TEST(SafeFiles, PrivateWritesAndDirectoriesIgnoreTheUmask) {
  TempDir dir;
  const mode_t old = ::umask(0);
  std::string why;
  EXPECT_TRUE(make_private_directories(dir.path() + "/a/b", &why)) << why;
  UniqueFd d = open_private_directory(AT_FDCWD, dir.path() + "/a/b/c", true, &why);
  ::umask(0277);
  ASSERT_TRUE(d) << why;
  EXPECT_TRUE(write_private_file_at(d.get(), "f", "data", &why)) << why;
  ::umask(old);
  struct stat st {};
  for (const char* p : {"/a", "/a/b", "/a/b/c"}) {
    ASSERT_EQ(::stat((dir.path() + p).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0700u) << p;
  }
  ASSERT_EQ(::stat((dir.path() + "/a/b/c/f").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  FileRead r = read_regular_file(d.get(), "f", {.max_bytes = 4, .private_to_user = true});
  EXPECT_EQ(r.data, "data");
  // Nothing left behind but the file.
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path() + "/a/b/c")) ++n;
  EXPECT_EQ(n, 1u);

  // A directory others may write, or a link where a directory should be, is refused.
  ::chmod((dir.path() + "/a/b/c").c_str(), 0777);
  EXPECT_FALSE(open_private_directory(AT_FDCWD, dir.path() + "/a/b/c", false, &why));
  EXPECT_NE(why.find("world-writable"), std::string::npos) << why;
  fs::create_directory_symlink(dir.path() + "/a", dir.path() + "/link");
  EXPECT_FALSE(open_private_directory(AT_FDCWD, dir.path() + "/link", true, &why));
  EXPECT_NE(why.find("symbolic link"), std::string::npos) << why;
}

}  // namespace
}  // namespace weft::detail
