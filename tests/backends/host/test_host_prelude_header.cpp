// The host prelude's precompiled header: GCC uses it when it is valid, it is rebuilt (never
// handed to the compiler) when it is missing, corrupt, someone else's or writable by others,
// and a kernel compiles to the same shared object with it as without it. Cases that need a
// second user chown to "nobody" and run only as root, which CI is.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "backends/host/host_compiler.hpp"
#include "backends/host/host_prelude_header.hpp"
#include "cache/cache_support.hpp"
#include "core/process.hpp"
#include "dialect/prelude.hpp"
#include "dialect/translate.hpp"

namespace weft::detail {
namespace {

namespace fs = std::filesystem;

constexpr uid_t nobody = 65534;

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class HostPch : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!tc.problem.empty()) GTEST_SKIP() << tc.problem;
    if (!PreludeHeaders::reads_gch(tc)) GTEST_SKIP() << tc.version << " reads no .gch";
  }
  std::string entry() const {
    return dir.path() + "/host-pch/" + PreludeHeaders::key(tc, PreludeHeaders::header_flags(tc, {})).hex() + ".wpc";
  }
  std::string gch(const PreludeHeader& h) const {
    return h.directory + "/" + std::string(host_prelude_file) + ".gch";
  }
  // A program-cache entry that is not a usable header: what a planted one would be.
  void plant() {
    ASSERT_TRUE(cache.store("host-pch", PreludeHeaders::key(tc, PreludeHeaders::header_flags(tc, {})), "planted",
                            "gpch planted"));
  }

  const HostToolchain& tc = HostToolchain::get();
  TempDir dir{"weft-pch-test-"};
  ProgramCache cache{dir.path()};
};

TEST_F(HostPch, BuiltOnceKeptInTheCacheAndUsedByTheCompiler) {
  PreludeHeaders first(cache, true);
  const auto& built = first.get(tc, {});
  EXPECT_TRUE(built.precompiled);
  EXPECT_FALSE(built.from_disk);
  EXPECT_EQ(mode_of(entry()), 0600u);
  EXPECT_EQ(&first.get(tc, {}), &built) << "staged once per process";

  PreludeHeaders second(cache, true);
  const auto& loaded = second.get(tc, {});
  EXPECT_TRUE(loaded.precompiled);
  EXPECT_TRUE(loaded.from_disk);
  EXPECT_NE(loaded.directory, built.directory);
  EXPECT_EQ(contents(gch(loaded)), contents(gch(built)));

  // GCC's -H marks a precompiled header it used with '!'.
  const std::string src = dir.path() + "/use.cpp";
  ASSERT_TRUE(write_file_atomic(src, "#include \"" + std::string(host_prelude_file) +
                                         "\"\nextern \"C\" int weft_probe() { return (int)sizeof(weft_kernel::float4); }\n"));
  std::vector<std::string> argv = tc.command;
  argv.insert(argv.end(), tc.flags.begin(), tc.flags.end());
  for (const std::string& a : std::vector<std::string>{"-I" + loaded.directory, "-H", src, "-o", dir.path() + "/use.so"}) {
    argv.push_back(a);
  }
  const auto r = run_process(argv);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("! " + gch(loaded)), std::string::npos) << r.output;
}

TEST_F(HostPch, MissingOrCorruptIsRebuilt) {
  ASSERT_TRUE(PreludeHeaders(cache, true).get(tc, {}).precompiled);
  fs::remove(entry());
  {
    PreludeHeaders h(cache, true);
    EXPECT_TRUE(h.get(tc, {}).precompiled);
    EXPECT_FALSE(h.get(tc, {}).from_disk);
  }
  // One byte changed in the middle of the header: the checksum no longer holds.
  std::string bad = contents(entry());
  bad[bad.size() / 2] ^= 0x5a;
  {
    std::ofstream out(entry(), std::ios::binary | std::ios::trunc);
    out << bad;
  }
  testing::internal::CaptureStderr();
  PreludeHeaders h(cache, true);
  const auto& rebuilt = h.get(tc, {});
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("corrupt"), std::string::npos) << log;
  EXPECT_TRUE(rebuilt.precompiled);
  EXPECT_FALSE(rebuilt.from_disk);
  EXPECT_TRUE(PreludeHeaders(cache, true).get(tc, {}).from_disk) << "stored again";
}

TEST_F(HostPch, WritableByOthersIsNeverUsed) {
  plant();
  for (const mode_t mode : {0620, 0606}) {
    ::chmod(entry().c_str(), mode);
    testing::internal::CaptureStderr();
    PreludeHeaders h(cache, true);
    const auto& built = h.get(tc, {});
    const std::string log = testing::internal::GetCapturedStderr();
    EXPECT_NE(log.find("writable"), std::string::npos) << log;
    EXPECT_TRUE(built.precompiled);
    EXPECT_FALSE(built.from_disk);
    EXPECT_NE(contents(gch(built)), "gpch planted");
    EXPECT_EQ(mode_of(entry()), static_cast<unsigned>(mode)) << "left alone, not replaced";
  }
}

TEST_F(HostPch, SomeoneElsesIsNeverUsed) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to make a file another user's";
  plant();
  ASSERT_EQ(::chown(entry().c_str(), nobody, nobody), 0);
  testing::internal::CaptureStderr();
  PreludeHeaders h(cache, true);
  const auto& built = h.get(tc, {});
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("owned by uid 65534"), std::string::npos) << log;
  EXPECT_TRUE(built.precompiled);
  EXPECT_FALSE(built.from_disk);
  EXPECT_NE(contents(gch(built)), "gpch planted");
}

TEST_F(HostPch, OffMeansTheTextHeaderOnly) {
  PreludeHeaders h(cache, false);
  const auto& plain = h.get(tc, {});
  EXPECT_FALSE(plain.precompiled);
  EXPECT_FALSE(fs::exists(gch(plain)));
  EXPECT_EQ(contents(plain.directory + "/" + std::string(host_prelude_file)), std::string(host_prelude_text()));
  EXPECT_FALSE(fs::exists(entry()));
}

TEST_F(HostPch, BuildOptionsThatChangeCodeGetTheirOwnHeader) {
  PreludeHeaders h(cache, true);
  const auto& plain = h.get(tc, {"-DN=3", "-I/nowhere"});
  const auto& fast = h.get(tc, {"-ffast-math"});
  EXPECT_EQ(&plain, &h.get(tc, {})) << "-D and -I do not reach the prelude";
  EXPECT_NE(plain.directory, fast.directory);
  EXPECT_TRUE(fast.precompiled);
}

TEST_F(HostPch, KernelsCompileToTheSameModuleWithAndWithout) {
  const std::string elementwise =
      "__kernel void f(__global const float* a, __global float* b, float s) {\n"
      "  size_t i = get_global_id(0);\n  b[i] = sin(a[i]) * s + (float4)(a[i]).y;\n}\n";
  const std::string reduction =
      "__kernel void r(__global const double* a, __global double* out, int n) {\n"
      "  double acc[8] = {0};\n  for (int i = 0; i < n; ++i) acc[i & 7] += a[i];\n"
      "  double t = 0;\n  for (int k = 0; k < 8; ++k) t += acc[k];\n  out[get_global_id(0)] = t;\n}\n";
  PreludeHeaders with(cache, true), without(cache, false);
  for (const std::string& src : {elementwise, reduction}) {
    for (const auto& options : std::vector<std::vector<std::string>>{{}, {"-ffast-math"}}) {
      const auto tr = dialect::translate(src, dialect::Target::host, options.empty() ? "" : "-cl-fast-relaxed-math");
      const std::string a = compile_host_module(tc, tr.text, options, src, with);
      const std::string b = compile_host_module(tc, tr.text, options, src, without);
      EXPECT_FALSE(a.empty());
      EXPECT_TRUE(a == b) << "the precompiled prelude changed the code of\n" << src;
    }
  }
}

}  // namespace
}  // namespace weft::detail
