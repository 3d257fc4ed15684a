// The ProgramBuilder every backend builds through: a repeat build is found in memory without
// translating (no prelude hashed again), and a cached payload that does not load or lacks a
// kernel is rebuilt once and stored again, on every device with a disk cache.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cache/cache_support.hpp"
#include "cache/program_cache.hpp"
#include "runtime/program_builder.hpp"
#include "support.hpp"

namespace weft {
namespace {

using detail::ProgramBuilder;
using detail::ProgramCache;

class Builder : public ::testing::TestWithParam<Device> {
 protected:
  Device dev = GetParam();
  Queue q{dev};
  ProgramBuilder& builder = dev.impl()->program_builder();

  /// Runs unique_program's kernel `fill` from program over n items; true when right.
  bool fills(const Program& program, int n = 64, int bias = 7) {
    Kernel k = program.kernel("fill");
    Buffer x(dev, static_cast<std::size_t>(n) * sizeof(int));
    k.set_args(x, bias);
    q.launch(k, static_cast<std::size_t>(n)).wait();
    const auto out = test::download<int>(q, x, static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      if (out[static_cast<std::size_t>(i)] != 3 * i + bias) return false;
    }
    return true;
  }

  /// The disk cache, when it keeps what is stored under backend/key.
  ProgramCache* disk_cache_keeping(const detail::Digest& key, const std::string& payload) {
    ProgramCache& cache = ProgramCache::instance();
    if (cache.directory().empty() || !cache.store(builder.backend(), key, "test entry", payload)) return nullptr;
    const auto back = cache.load(builder.backend(), key);
    return back && *back == payload ? &cache : nullptr;
  }
};

TEST_P(Builder, RepeatBuildIsFoundWithoutTranslation) {
  const std::string src = detail::unique_program(20);
  const Program first = Program::build(dev, src, "-D UNUSED=1");
  const auto before = builder.counts();
  EXPECT_EQ(before.device_hashes, 1u);  // the prelude, toolchain and device: hashed once
  for (int i = 0; i < 1000; ++i) {
    const Program again = Program::build(dev, src, "-D UNUSED=1");
    ASSERT_EQ(again.impl(), first.impl());
  }
  const auto after = builder.counts();
  EXPECT_EQ(after.translations, before.translations);
  EXPECT_EQ(after.compiles, before.compiles);
  EXPECT_EQ(after.device_hashes, 1u);
  EXPECT_TRUE(fills(first));
  // Other options are another program.
  EXPECT_NE(builder.key(src, "-D UNUSED=1"), builder.key(src, "-D UNUSED=2"));
  EXPECT_NE(Program::build(dev, src, "-D UNUSED=2").impl(), first.impl());
  EXPECT_EQ(builder.counts().translations, before.translations + 1);
}

TEST_P(Builder, CachedPayloadThatDoesNotLoadIsRebuiltOnce) {
  const std::string src = detail::unique_program(21);
  const detail::Digest key = builder.key(src, "");
  const std::string garbage = "this is no " + std::string(builder.backend()) + " program";
  ProgramCache* cache = disk_cache_keeping(key, garbage);
  if (!cache) GTEST_SKIP() << "no writable disk cache";
  const auto before = builder.counts();
  const Program program = Program::build(dev, src);
  EXPECT_TRUE(fills(program));
  EXPECT_EQ(builder.counts().compiles, before.compiles + 1);
  // Stored again: the entry now holds the rebuilt payload.
  const auto stored = cache->load(builder.backend(), key);
  ASSERT_TRUE(stored.has_value());
  EXPECT_NE(*stored, garbage);
}

TEST_P(Builder, CachedPayloadLackingAKernelIsRebuiltOnce) {
  // A well-formed payload of another program (kernel `other`, no `fill`) under fill's key,
  // as a toolchain or weft bug could leave it: it loads, but lacks the kernel.
  std::string other = detail::unique_program(22);
  other = other.substr(0, other.find("__kernel")) + "__kernel void other(__global int *x) { x[0] = 1; }\n";
  const Program built_other = Program::build(dev, other);
  const auto payload = ProgramCache::instance().load(builder.backend(), builder.key(other, ""));
  if (!payload) GTEST_SKIP() << "no writable disk cache";
  const std::string src = detail::unique_program(23);
  const detail::Digest key = builder.key(src, "");
  ProgramCache* cache = disk_cache_keeping(key, *payload);
  if (!cache) GTEST_SKIP() << "no writable disk cache";
  const auto before = builder.counts();
  const Program program = Program::build(dev, src);
  EXPECT_TRUE(fills(program));
  EXPECT_EQ(builder.counts().compiles, before.compiles + 1);
  const auto stored = cache->load(builder.backend(), key);
  ASSERT_TRUE(stored.has_value());
  EXPECT_NE(*stored, *payload);
}

TEST_P(Builder, BadOptionsAreRefusedBeforeAnyWork) {
  const auto before = builder.counts();
  EXPECT_THROW(Program::build(dev, detail::unique_program(24), "--no-such-option"), InvalidArgument);
  EXPECT_EQ(builder.counts().translations, before.translations);
  EXPECT_EQ(builder.counts().compiles, before.compiles);
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Builder, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
