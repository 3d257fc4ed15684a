// The program cache cannot be turned against its user: what others could write is never
// loaded, nothing is followed out of the cache, and a stuck lock does not stop a build.
// (docs/SECURITY.md.) Several cases need a second user: they chown to "nobody" and run
// only as root, which CI is.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include "cache/cache_support.hpp"
#include "cache/program_cache.hpp"
#include "core/files.hpp"
#include "support.hpp"

namespace weft::detail {
namespace {

namespace fs = std::filesystem;

constexpr uid_t nobody = 65534;

Digest digest_of(const std::string& s) { return Hasher().update(s).finish(); }

std::string entry_file(const std::string& root, const std::string& backend, const Digest& key) {
  return root + "/" + backend + "/" + key.hex() + ".wpc";
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

#define REQUIRE_ROOT()                                                            \
  do {                                                                            \
    if (::geteuid() != 0) GTEST_SKIP() << "needs root to make a file another user's"; \
  } while (0)

TEST(CacheTrust, DirectoriesAndEntriesArePrivateWhateverTheUmask) {
  TempDir dir;
  const std::string root = dir.path() + "/a/cache";  // its parent is missing too
  ScopedUmask open_umask(0);
  ProgramCache cache(root);
  const Digest k = digest_of("private");
  EXPECT_EQ(cache.load_or_build("host", k, "d", [] { return std::string("payload"); }), "payload");
  EXPECT_EQ(mode_of(dir.path() + "/a"), 0700u);
  EXPECT_EQ(mode_of(root), 0700u);
  EXPECT_EQ(mode_of(root + "/host"), 0700u);
  EXPECT_EQ(mode_of(entry_file(root, "host", k)), 0600u);
  EXPECT_EQ(mode_of(entry_file(root, "host", k) + ".lock"), 0600u);

  // A umask that takes the owner's own bits changes nothing either.
  ScopedUmask strict(0277);
  const Digest k2 = digest_of("private 2");
  EXPECT_TRUE(cache.store("opencl", k2, "d", "x"));
  EXPECT_EQ(mode_of(root + "/opencl"), 0700u);
  EXPECT_EQ(mode_of(entry_file(root, "opencl", k2)), 0600u);
  EXPECT_EQ(cache.load("opencl", k2), "x");
}

TEST(CacheTrust, ADirectoryTheUserChoseKeepsItsMode) {
  TempDir dir;
  const std::string root = dir.path() + "/mine";
  ASSERT_EQ(::mkdir(root.c_str(), 0755), 0);
  ::chmod(root.c_str(), 0755);
  ProgramCache cache(root);
  EXPECT_TRUE(cache.store("host", digest_of("k"), "d", "x"));
  EXPECT_EQ(mode_of(root), 0755u);
  EXPECT_EQ(mode_of(root + "/host"), 0700u);  // what weft made
  EXPECT_EQ(cache.load("host", digest_of("k")), "x");
}

TEST(CacheTrust, EntriesOthersMayWriteAreRefusedNotStored) {
  TempDir dir;
  ProgramCache cache(dir.path());
  const Digest k = digest_of("writable");
  ASSERT_TRUE(cache.store("host", k, "d", "planted"));
  const std::string path = entry_file(dir.path(), "host", k);
  for (const mode_t mode : {0666, 0620}) {
    ::chmod(path.c_str(), mode);
    testing::internal::CaptureStderr();
    EXPECT_FALSE(cache.load("host", k).has_value()) << std::oct << mode;
    int builds = 0;
    bool from_disk = true;
    EXPECT_EQ(cache.load_or_build("host", k, "d", [&] { return "built-" + std::to_string(++builds); }, &from_disk),
              "built-1");
    EXPECT_FALSE(from_disk);
    const std::string log = testing::internal::GetCapturedStderr();
    EXPECT_NE(log.find(path), std::string::npos) << log;
    EXPECT_NE(log.find(mode == 0666 ? "world-writable" : "group-writable"), std::string::npos) << log;
    // Left as it was: not loaded, not replaced.
    EXPECT_EQ(mode_of(path), static_cast<unsigned>(mode));
    std::string payload;
    EXPECT_TRUE(ProgramCache::decode(contents(path), &payload, nullptr));
    EXPECT_EQ(payload, "planted");
  }
}

TEST(CacheTrust, NotesAreCheckedAndCappedLikeEntries) {
  TempDir dir;
  ProgramCache cache(dir.path());
  const Digest k = digest_of("compiler");
  ASSERT_TRUE(cache.store_note("compilers", k, "g++ 12"));
  const std::string path = dir.path() + "/compilers/" + k.hex() + ".txt";
  EXPECT_EQ(mode_of(path), 0600u);
  EXPECT_EQ(cache.load_note("compilers", k), "g++ 12");
  EXPECT_TRUE(cache.list().empty());  // a note is not an entry
  ::chmod(path.c_str(), 0622);
  EXPECT_FALSE(cache.load_note("compilers", k).has_value());
  ASSERT_TRUE(cache.store_note("compilers", k, std::string(ProgramCache::max_note_bytes + 1, 'v')));
  EXPECT_FALSE(cache.load_note("compilers", k).has_value());
  fs::remove(path);
  fs::create_symlink("/dev/zero", path);
  EXPECT_FALSE(cache.load_note("compilers", k).has_value());
}

TEST(CacheTrust, EntriesOfOtherUsersAreRefused) {
  REQUIRE_ROOT();
  TempDir dir;
  ProgramCache cache(dir.path());
  const Digest k = digest_of("theirs");
  ASSERT_TRUE(cache.store("host", k, "d", "theirs"));
  const std::string path = entry_file(dir.path(), "host", k);
  ASSERT_EQ(::chown(path.c_str(), nobody, nobody), 0);
  ::chmod(path.c_str(), 0600);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(cache.load("host", k).has_value());
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("owned by uid 65534"), std::string::npos) << log;
  EXPECT_EQ(cache.load_or_build("host", k, "d", [] { return std::string("mine"); }), "mine");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, nobody);  // not stored over
}

TEST(CacheTrust, DirectoriesOthersOwnOrMayWriteAreRefused) {
  TempDir dir;
  const std::string root = dir.path() + "/cache";
  ProgramCache cache(root);
  const Digest k = digest_of("dirs");
  ASSERT_TRUE(cache.store("host", k, "d", "x"));
  ASSERT_EQ(cache.load("host", k), "x");

  // The backend directory, then the root, writable by the group or everyone.
  for (const std::string& d : {root + "/host", root}) {
    for (const mode_t mode : {0770, 0707}) {
      ::chmod(d.c_str(), mode);
      testing::internal::CaptureStderr();
      EXPECT_FALSE(cache.load("host", k).has_value()) << d;
      EXPECT_FALSE(cache.store("host", digest_of("other"), "d", "y")) << d;
      int builds = 0;
      EXPECT_EQ(cache.load_or_build("host", k, "d", [&] { return std::to_string(++builds); }), "1");
      EXPECT_TRUE(cache.list().empty());
      const std::string log = testing::internal::GetCapturedStderr();
      EXPECT_NE(log.find(d), std::string::npos) << log;
      EXPECT_NE(log.find("writable"), std::string::npos) << log;
      ::chmod(d.c_str(), 0700);
    }
  }
  EXPECT_FALSE(fs::exists(entry_file(root, "host", digest_of("other"))));
  EXPECT_EQ(cache.load("host", k), "x");

  if (::geteuid() != 0) return;
  for (const std::string& d : {root + "/host", root}) {
    ASSERT_EQ(::chown(d.c_str(), nobody, nobody), 0);
    EXPECT_FALSE(cache.load("host", k).has_value()) << d;
    EXPECT_FALSE(cache.store("host", k, "d", "y")) << d;
    ASSERT_EQ(::chown(d.c_str(), 0, 0), 0);
  }
  EXPECT_EQ(cache.load("host", k), "x");
}

TEST(CacheTrust, RootSymlinkOnlyWhenTheUserMadeIt) {
  TempDir dir;
  const std::string target = dir.path() + "/real";
  ASSERT_TRUE(ProgramCache(target).store("host", digest_of("s"), "d", "via link"));
  const std::string link = dir.path() + "/link";
  fs::create_directory_symlink(target, link);
  // The user's own link to the user's own directory is the user's choice.
  EXPECT_EQ(ProgramCache(link).load("host", digest_of("s")), "via link");
  EXPECT_EQ(ProgramCache(link + "/").load("host", digest_of("s")), "via link");

  if (::geteuid() != 0) return;
  ASSERT_EQ(::lchown(link.c_str(), nobody, nobody), 0);
  ProgramCache theirs(link);
  EXPECT_FALSE(theirs.load("host", digest_of("s")).has_value());
  EXPECT_FALSE(theirs.store("host", digest_of("t"), "d", "x"));
  EXPECT_TRUE(theirs.list().empty());
  EXPECT_EQ(theirs.clear(), 0u);
  EXPECT_TRUE(fs::exists(entry_file(target, "host", digest_of("s"))));

  // The user's link to someone else's directory.
  ASSERT_EQ(::lchown(link.c_str(), 0, 0), 0);
  ASSERT_EQ(::chown(target.c_str(), nobody, nobody), 0);
  EXPECT_FALSE(ProgramCache(link).load("host", digest_of("s")).has_value());
}

TEST(CacheTrust, EntryThatIsALinkOrAFifoIsRefusedWithoutBlocking) {
  TempDir dir;
  ProgramCache cache(dir.path() + "/cache");
  ProgramCache elsewhere(dir.path() + "/elsewhere");
  const Digest k = digest_of("link");
  ASSERT_TRUE(elsewhere.store("host", k, "d", "not from this cache"));
  ASSERT_TRUE(cache.store("host", digest_of("make dirs"), "d", "x"));
  const std::string path = entry_file(dir.path() + "/cache", "host", k);
  fs::create_symlink(entry_file(dir.path() + "/elsewhere", "host", k), path);
  EXPECT_FALSE(cache.load("host", k).has_value());
  fs::remove(path);
  fs::create_symlink("/dev/zero", path);
  EXPECT_FALSE(cache.load("host", k).has_value());
  fs::remove(path);

  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  // Were the open to wait for a writer, this one comes after two seconds and ends it.
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  });
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_FALSE(cache.load("host", k).has_value());
  EXPECT_EQ(cache.load_or_build("host", k, "d", [] { return std::string("built"); }), "built");
  const auto waited = std::chrono::steady_clock::now() - t0;
  writer.join();
  EXPECT_LT(waited, std::chrono::seconds(1));
}

TEST(CacheTrust, SwappedEntryIsRebuilt) {
  TempDir dir;
  ProgramCache cache(dir.path());
  const Digest a = digest_of("program a"), b = digest_of("program b");
  ASSERT_TRUE(cache.store("host", a, "a", "payload of a"));
  fs::rename(entry_file(dir.path(), "host", a), entry_file(dir.path(), "host", b));
  EXPECT_FALSE(cache.list()[0].valid);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(cache.load("host", b).has_value());
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("states key " + a.hex()), std::string::npos) << log;
  EXPECT_EQ(cache.load_or_build("host", b, "b", [] { return std::string("payload of b"); }), "payload of b");
  EXPECT_EQ(cache.load("host", b), "payload of b");

  // An entry of another backend under this one's directory.
  ASSERT_TRUE(cache.store("opencl", a, "a", "an opencl binary"));
  fs::rename(entry_file(dir.path(), "opencl", a), entry_file(dir.path(), "host", a));
  EXPECT_FALSE(cache.load("host", a).has_value());
}

TEST(CacheTrust, StuckLockTimesOutNamingTheLock) {
  TempDir dir;
  ProgramCache cache(dir.path(), std::chrono::milliseconds(300));
  const Digest k = digest_of("locked");
  ASSERT_TRUE(cache.store("host", digest_of("make dirs"), "d", "x"));
  const std::string lock_path = entry_file(dir.path(), "host", k) + ".lock";
  // Another open file description holding the lock, as a stuck process would.
  const int stuck = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(stuck, 0);
  ASSERT_EQ(::flock(stuck, LOCK_EX), 0);
  testing::internal::CaptureStderr();
  auto done = std::async(std::launch::async, [&] {
    return cache.load_or_build("host", k, "d", [] { return std::string("built anyway"); });
  });
  const bool finished = done.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  ::close(stuck);  // lets a build that ignored the timeout finish, so the test ends either way
  EXPECT_EQ(done.get(), "built anyway");
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(finished) << "load_or_build waited for the lock for more than 10 s";
  EXPECT_NE(log.find(lock_path), std::string::npos) << log;
  EXPECT_EQ(cache.load("host", k), "built anyway");
}

TEST(CacheTrust, ClearAndPruneNeverFollowLinksOutOfTheCache) {
  TempDir dir;
  const std::string root = dir.path() + "/cache";
  const std::string outside = dir.path() + "/precious";
  fs::create_directories(outside + "/sub");
  for (const char* name : {"/a.wpc", "/b.lock", "/c.tmp-123", "/sub/d.wpc"}) std::ofstream(outside + name) << "keep";
  ProgramCache cache(root);
  ASSERT_TRUE(cache.store("host", digest_of("e"), "e", "entry"));
  fs::create_directory_symlink(outside, root + "/evil");       // a "backend" that is a link
  fs::create_symlink(outside + "/a.wpc", root + "/host/x.wpc");  // an "entry" that is a link
  fs::create_directory_symlink(outside, root + "/host/y.wpc");
  const auto listed = cache.list();
  ASSERT_EQ(listed.size(), 3u);  // the entry, and the two links shown as invalid
  EXPECT_EQ(cache.clear(), 1u);
  EXPECT_EQ(cache.prune(std::chrono::seconds(0), std::uint64_t{0}), 0u);  // links are not entries
  for (const char* name : {"/a.wpc", "/b.lock", "/c.tmp-123", "/sub/d.wpc"}) {
    EXPECT_TRUE(fs::exists(outside + name)) << name;
  }
  EXPECT_TRUE(fs::is_symlink(root + "/evil"));
  EXPECT_FALSE(fs::exists(entry_file(root, "host", digest_of("e"))));
}

TEST(CacheTrust, NoDirectoryMeansNoDiskCache) {
  ProgramCache cache("");
  testing::internal::CaptureStderr();
  int builds = 0;
  auto build = [&] { return std::to_string(++builds); };
  EXPECT_EQ(cache.load_or_build("host", digest_of("n"), "d", build), "1");
  EXPECT_EQ(cache.load_or_build("host", digest_of("n"), "d", build), "2");
  EXPECT_FALSE(cache.store("host", digest_of("n"), "d", "x"));
  EXPECT_FALSE(cache.load("host", digest_of("n")).has_value());
  EXPECT_TRUE(cache.list().empty());
  const std::string log = testing::internal::GetCapturedStderr();
  const auto first = log.find("no program cache on disk");
  EXPECT_NE(first, std::string::npos) << log;
  EXPECT_EQ(log.find("no program cache on disk", first + 1), std::string::npos) << "warned twice: " << log;
}

}  // namespace
}  // namespace weft::detail
