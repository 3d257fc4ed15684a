#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cache/include_digest.hpp"
#include "core/files.hpp"

namespace weft::detail {
namespace {

namespace fs = std::filesystem;

void write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

TEST(IncludeDigest, FindsDirectivesCheaply) {
  EXPECT_TRUE(has_include_directive("#include \"a.h\"\n"));
  EXPECT_TRUE(has_include_directive("x\n  #  include <b.h>\n"));
  EXPECT_FALSE(has_include_directive("__kernel void include(int included) {}\n"));
  EXPECT_FALSE(has_include_directive("// no directives\n"));
}

TEST(IncludeDigest, FollowsHeadersThroughIDirectories) {
  TempDir dir;
  const std::string a = dir.path() + "/a", b = dir.path() + "/b";
  write(a + "/top.h", "#include \"sub/inner.h\"\n#include <angled.h>\n");
  write(a + "/sub/inner.h", "#define X 1\n");
  write(b + "/angled.h", "#define Y 2\n");
  const std::string src = "#include \"top.h\"\n#include <stdio_like_system_header.h>\n";
  const std::string opts = "-D Z=1 -I " + a + " -I" + b;
  const Digest d0 = include_digest(src, opts);
  EXPECT_EQ(include_digest(src, opts), d0);  // deterministic

  write(a + "/sub/inner.h", "#define X 2\n");  // two levels down, quoted, relative to top.h
  const Digest d1 = include_digest(src, opts);
  EXPECT_NE(d1, d0);
  write(b + "/angled.h", "#define Y 3\n");  // angled, in the second -I directory
  const Digest d2 = include_digest(src, opts);
  EXPECT_NE(d2, d1);
  EXPECT_NE(include_digest(src, "-I " + a), d2);  // which directories are searched matters

  // A header appearing where it was not found before (earlier in the search) counts too.
  write(a + "/angled.h", "#define Y 4\n");
  EXPECT_NE(include_digest(src, opts), d2);
}

TEST(IncludeDigest, CyclesAndMissingHeadersEnd) {
  TempDir dir;
  write(dir.path() + "/x.h", "#include \"y.h\"\n#include \"x.h\"\n");
  write(dir.path() + "/y.h", "#include \"x.h\"\n#include MACRO_NAME\n#include \"\"\n#include <unterminated\n");
  const std::string src = "#include \"x.h\"\n#include \"nowhere.h\"\n";
  const Digest d = include_digest(src, "-I" + dir.path());
  EXPECT_EQ(include_digest(src, "-I" + dir.path()), d);
  EXPECT_NE(include_digest("#include \"nowhere_else.h\"\n", ""), include_digest("#include \"nowhere.h\"\n", ""));
}

TEST(IncludeDigest, AddsNothingWithoutAnInclude) {
  Hasher a, b;
  a.update("source");
  b.update("source");
  hash_includes(b, "__kernel void k() {}", "-I /nonexistent");
  EXPECT_EQ(a.finish(), b.finish());
}

}  // namespace
}  // namespace weft::detail
