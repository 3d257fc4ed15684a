#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "cache/cache_support.hpp"
#include "cache/program_cache.hpp"
#include "core/files.hpp"
#include "core/process.hpp"
#include "support.hpp"
#include "weft/error.hpp"
#include "weft/program_cache.hpp"

namespace weft::detail {
namespace {

namespace fs = std::filesystem;

Digest key_of(const std::string& s) { return Hasher().update(s).finish(); }

std::string contents_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(ProgramCache, EncodeDecodeRoundTrip) {
  const std::string payload(5000, 'p');
  const std::string file = ProgramCache::encode("host", key_of("k"), "test entry", payload);
  std::string out;
  CacheEntryInfo info;
  ASSERT_TRUE(ProgramCache::decode(file, &out, &info)) << info.problem;
  EXPECT_EQ(out, payload);
  EXPECT_EQ(info.backend, "host");
  EXPECT_EQ(info.description, "test entry");
  EXPECT_EQ(info.key, key_of("k").hex());
}

TEST(ProgramCache, DetectsTruncationAndCorruption) {
  const std::string file = ProgramCache::encode("host", key_of("k"), "d", std::string(1000, 'x'));
  CacheEntryInfo info;
  EXPECT_FALSE(ProgramCache::decode(file.substr(0, file.size() - 1), nullptr, &info));
  EXPECT_NE(info.problem.find("truncated"), std::string::npos) << info.problem;
  EXPECT_FALSE(ProgramCache::decode(file.substr(0, 10), nullptr, &info));
  std::string flipped = file;
  flipped[flipped.size() - 10] ^= 1;
  EXPECT_FALSE(ProgramCache::decode(flipped, nullptr, &info));
  EXPECT_EQ(info.problem, "checksum mismatch");
  EXPECT_FALSE(ProgramCache::decode("garbage that is long enough to have a header", nullptr, &info));
}

TEST(ProgramCache, StoresLoadsAndRebuildsCorruptEntries) {
  TempDir dir;
  ProgramCache cache(dir.path() + "/cache");  // missing: created on first store
  const Digest k = key_of("program");
  EXPECT_FALSE(cache.load("host", k).has_value());
  int builds = 0;
  auto build = [&] {
    ++builds;
    return std::string("compiled-") + std::to_string(builds);
  };
  bool from_disk = true;
  EXPECT_EQ(cache.load_or_build("host", k, "d", build, &from_disk), "compiled-1");
  EXPECT_FALSE(from_disk);
  EXPECT_EQ(cache.load_or_build("host", k, "d", build, &from_disk), "compiled-1");
  EXPECT_TRUE(from_disk);
  EXPECT_EQ(builds, 1);

  // Truncate the entry on disk: it is detected, removed and rebuilt.
  const auto entries = cache.list();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_TRUE(entries[0].valid);
  fs::resize_file(entries[0].path, 20);
  EXPECT_FALSE(cache.list()[0].valid);
  EXPECT_EQ(cache.load_or_build("host", k, "d", build, &from_disk), "compiled-2");
  EXPECT_FALSE(from_disk);
  EXPECT_TRUE(cache.list()[0].valid);

  EXPECT_EQ(cache.clear(), 1u);
  EXPECT_TRUE(cache.list().empty());
}

// Records beside the programs (Python kernels' translations), in the process-wide cache
// (ctest's WEFT_CACHE_DIR): a round trip, keys and folders kept apart, folder names checked.
TEST(ProgramCache, RecordsBesideTheProgramsRoundTripInTheirFolder) {
  const std::string key = "weft_tests record " + std::to_string(::getpid());
  const std::string payload("\0record\xff", 8);
  ASSERT_TRUE(weft::store_cache_record("records-test", key, "a test record", payload));
  EXPECT_EQ(weft::load_cache_record("records-test", key), payload);
  EXPECT_FALSE(weft::load_cache_record("records-test", key + " other").has_value());
  EXPECT_FALSE(weft::load_cache_record("records-test2", key).has_value());
  for (const char* bad : {"", "..", "../records", "a/b", "records.test"}) {
    EXPECT_THROW((void)weft::load_cache_record(bad, key), weft::InvalidArgument) << bad;
  }
  fs::remove_all(weft::cache_directory() + "/records-test");
}

TEST(ProgramCache, UnwritableDirectoryRunsUncached) {
  TempDir dir;
  // A regular file where the directory should be: even root cannot create it.
  const std::string blocker = dir.path() + "/not-a-dir";
  std::ofstream(blocker) << "x";
  ProgramCache cache(blocker + "/cache");
  int builds = 0;
  auto build = [&] { return std::to_string(++builds); };
  EXPECT_EQ(cache.load_or_build("host", key_of("a"), "d", build), "1");
  EXPECT_EQ(cache.load_or_build("host", key_of("a"), "d", build), "2");  // nothing was kept
  EXPECT_TRUE(cache.list().empty());
}

TEST(ProgramCache, PruneRemovesInvalidAndOldEntries) {
  TempDir dir;
  ProgramCache cache(dir.path());
  cache.store("host", key_of("a"), "a", "aaaa");
  cache.store("host", key_of("b"), "b", "bbbb");
  ASSERT_EQ(cache.list().size(), 2u);
  fs::resize_file(cache.list()[0].path, 3);
  EXPECT_EQ(cache.prune(std::nullopt, std::nullopt), 1u);
  EXPECT_EQ(cache.list().size(), 1u);
  // An entry last written two hours ago goes with a one-hour limit; a fresh one stays. (The
  // times are set apart by hours: a file's mtime may run a second ahead of time().)
  const std::string old_path = cache.list()[0].path;
  fs::last_write_time(old_path, fs::file_time_type::clock::now() - std::chrono::hours(2));
  cache.store("host", key_of("c"), "c", "cccc");
  EXPECT_EQ(cache.prune(std::chrono::hours(1), std::nullopt), 1u);
  const auto left = cache.list();
  ASSERT_EQ(left.size(), 1u);
  EXPECT_NE(left[0].path, old_path);
}

TEST(ProgramCache, ManyProcessesBuildingOneProgramAllSucceed) {
  TempDir dir;
  const std::string src_path = dir.path() + "/fill.cl";
  std::ofstream(src_path) << unique_program(0);
  ScopedEnv cache_dir("WEFT_CACHE_DIR", dir.path() + "/cache");
  constexpr int processes = 8;
  std::vector<ProcessResult> results(processes);
  std::vector<std::thread> threads;
  for (int p = 0; p < processes; ++p) {
    threads.emplace_back([&, p] {
      results[static_cast<std::size_t>(p)] =
          run_process({weft::test::program_path("WEFT_TEST_CACHE_WORKER", WEFT_CACHE_WORKER), src_path, "10000", std::to_string(p)});
    });
  }
  for (auto& t : threads) t.join();
  for (int p = 0; p < processes; ++p) {
    EXPECT_EQ(results[static_cast<std::size_t>(p)].exit_code, 0) << results[static_cast<std::size_t>(p)].output;
    EXPECT_EQ(results[static_cast<std::size_t>(p)].output.rfind("ok", 0), 0u) << results[static_cast<std::size_t>(p)].output;
  }
  // One program entry (beside the host prelude's precompiled header, host-pch), and a later
  // process takes it from disk (WEFT_LOG=debug says so).
  ProgramCache cache(dir.path() + "/cache");
  ASSERT_EQ(host_entries(cache).size(), 1u);
  ScopedEnv log("WEFT_LOG", "debug");
  const auto again = run_process({weft::test::program_path("WEFT_TEST_CACHE_WORKER", WEFT_CACHE_WORKER), src_path, "100", "7"});
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("program cache hit (disk)"), std::string::npos) << again.output;
  EXPECT_EQ(again.output.find("compiling host program"), std::string::npos) << again.output;

  // A truncated entry: the next process warns, rebuilds and still computes the right thing.
  fs::resize_file(host_entries(cache)[0].path, 100);
  const auto rebuilt = run_process({weft::test::program_path("WEFT_TEST_CACHE_WORKER", WEFT_CACHE_WORKER), src_path, "100", "9"});
  EXPECT_EQ(rebuilt.exit_code, 0) << rebuilt.output;
  EXPECT_NE(rebuilt.output.find("is corrupt"), std::string::npos) << rebuilt.output;
  EXPECT_NE(rebuilt.output.find("compiling host program"), std::string::npos) << rebuilt.output;
  EXPECT_TRUE(host_entries(cache)[0].valid);
}

TEST(ProgramCache, ReadOnlyCacheDirectoryStillRuns) {
  TempDir dir;
  const std::string src_path = dir.path() + "/fill.cl";
  std::ofstream(src_path) << unique_program(1);
  // /proc cannot hold directories for anyone, root included.
  ScopedEnv cache_dir("WEFT_CACHE_DIR", "/proc/weft-cache-test");
  const auto r = run_process({weft::test::program_path("WEFT_TEST_CACHE_WORKER", WEFT_CACHE_WORKER), src_path, "1000", "5"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ok"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cannot be written"), std::string::npos) << r.output;
}

std::string worker() { return weft::test::program_path("WEFT_TEST_CACHE_WORKER", WEFT_CACHE_WORKER); }

Digest digest_of_hex(const std::string& hex) {
  return Digest{std::stoull(hex.substr(0, 16), nullptr, 16), std::stoull(hex.substr(16, 16), nullptr, 16)};
}

TEST(ProgramCache, EntryThatLoadsButLacksItsKernelIsRebuilt) {
  TempDir dir;
  const std::string cache_dir = dir.path() + "/cache";
  ScopedEnv env("WEFT_CACHE_DIR", cache_dir);
  ProgramCache cache(cache_dir);
  // A module with another kernel: the worker fails to find `fill`, but the entry is stored.
  const std::string other = dir.path() + "/other.cl";
  std::string src = unique_program(3);
  std::ofstream(other) << src.substr(0, src.find("__kernel")) << "__kernel void other(__global int *x) { x[0] = 1; }\n";
  EXPECT_NE(run_process({worker(), other, "10", "0"}).exit_code, 0);
  auto entries = host_entries(cache);
  ASSERT_EQ(entries.size(), 1u);
  std::string foreign;
  ASSERT_TRUE(ProgramCache::decode(contents_of(entries[0].path), &foreign, nullptr));
  fs::remove(entries[0].path);

  // The real program's entry, then its payload replaced by the other module, well formed
  // under the right key (as a toolchain or weft bug could leave it).
  const std::string fill = dir.path() + "/fill.cl";
  std::ofstream(fill) << unique_program(4);
  const auto first = run_process({worker(), fill, "100", "3"});
  ASSERT_EQ(first.exit_code, 0) << first.output;
  entries = host_entries(cache);
  ASSERT_EQ(entries.size(), 1u);
  ASSERT_TRUE(cache.store("host", digest_of_hex(entries[0].key), entries[0].description, foreign));

  const auto again = run_process({worker(), fill, "100", "3"});
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("rebuilding"), std::string::npos) << again.output;
  // Kept rebuilt: the next process loads it without a word.
  const auto third = run_process({worker(), fill, "100", "3"});
  EXPECT_EQ(third.exit_code, 0) << third.output;
  EXPECT_EQ(third.output.find("rebuilding"), std::string::npos) << third.output;
}

TEST(ProgramCache, EditingAnIncludedHeaderRebuilds) {
  TempDir dir;
  const std::string hdr_dir = dir.path() + "/inc";
  fs::create_directories(hdr_dir + "/nested");
  ScopedEnv env("WEFT_CACHE_DIR", dir.path() + "/cache");
  // fill computes SCALE * i + bias, SCALE from a header that includes another.
  std::ofstream(hdr_dir + "/scale.h") << "#include \"nested/value.h\"\n#define SCALE VALUE\n";
  std::ofstream(hdr_dir + "/nested/value.h") << "#define VALUE 3\n";
  std::string src = unique_program(5, "#include \"scale.h\"\n");
  src.replace(src.find("3 * i"), 5, "SCALE * i");
  const std::string path = dir.path() + "/fill.cl";
  std::ofstream(path) << src;
  const std::string options = "-I " + hdr_dir;
  const auto first = run_process({worker(), path, "10", "5", options});
  EXPECT_EQ(first.output.rfind("ok", 0), 0u) << first.output;
  // A fresh process, the nested header edited: the new value is used (the worker checks
  // 3*i + bias, so 4*i shows as wrong at i = 1).
  std::ofstream(hdr_dir + "/nested/value.h") << "#define VALUE 4\n";
  const auto second = run_process({worker(), path, "10", "5", options});
  EXPECT_NE(second.output.find("wrong x[1] = 9"), std::string::npos) << second.output;

  // In this process too, on the host device: the in-memory table is keyed the same way.
  const Device dev = device("host");
  Queue q(dev);
  auto value_of = [&] {
    Buffer x(dev, 4 * sizeof(int));
    Kernel k = Program::build(dev, src, options).kernel("fill");
    k.set_args(x, 0);
    q.launch(k, 4).wait();
    int out[4] = {};
    q.read(x, out, sizeof out);
    return out[1];
  };
  EXPECT_EQ(value_of(), 4);
  std::ofstream(hdr_dir + "/nested/value.h") << "#define VALUE 6\n";
  EXPECT_EQ(value_of(), 6);
}

}  // namespace
}  // namespace weft::detail
