// The fuzz targets' checked-in inputs, replayed by the ordinary test suite (and so under
// ASan/UBSan in CI): every seed of tests/fuzz/corpus and every input a fuzz run once crashed
// on (tests/fuzz/regressions) must pass through its target.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "fuzz/targets.hpp"
#include "support.hpp"

namespace weft {
namespace {

namespace fs = std::filesystem;

struct Target {
  const char* name;
  void (*run)(const std::uint8_t*, std::size_t);
};

class FuzzInputs : public ::testing::TestWithParam<Target> {};

TEST_P(FuzzInputs, PassThroughTheirTarget) {
  const Target& t = GetParam();
  // WEFT_TEST_FUZZ_DIR: the checkout's tests/fuzz where the binary runs on another machine.
  const std::string root = test::program_path("WEFT_TEST_FUZZ_DIR", WEFT_FUZZ_DIR);
  std::size_t count = 0;
  for (const char* kind : {"corpus", "regressions"}) {
    const fs::path dir = fs::path(root) / kind / t.name;
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir)) {
      std::ifstream in(e.path(), std::ios::binary);
      const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      SCOPED_TRACE(e.path().string());
      t.run(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
      ++count;
    }
  }
  EXPECT_GT(count, 0u) << "no inputs for " << t.name << " under " << root;
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzInputs,
                         ::testing::Values(Target{"dialect", fuzz::dialect}, Target{"arg_spec", fuzz::arg_spec},
                                           Target{"config", fuzz::config}, Target{"cache_entry", fuzz::cache_entry},
                                           Target{"build_log", fuzz::build_log}),
                         [](const auto& target) { return std::string(target.param.name); });

}  // namespace
}  // namespace weft
