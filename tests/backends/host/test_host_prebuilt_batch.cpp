// The prebuilt kernels' batches (tools/host_prebuilt_batch.hpp): programs compiled together
// in one translation unit load and run as their own, each with its own build options and
// macros; a program that does not build fails alone.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include <unistd.h>

#include "backends/host/host_compiler.hpp"
#include "backends/host/host_prebuilt.hpp"
#include "dialect/translate.hpp"
#include "host_prebuilt_batch.hpp"
#include "support.hpp"
#include "weft/weft.hpp"

namespace weft {
namespace {

using test::download;
using test::upload;

// The same kernel name and macro in each program, values apart; a token of this run so that no
// program cache holds them (a program on disk is not compiled, so the batch would not be used).
std::string program(int k) {
  static const std::string run = std::to_string(::getpid()) + "_" +
                                 std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  return "// batch test " + run + "\n#define STEP " + std::to_string(k) +
         "\n__kernel void scale(__global const float* a, __global float* out) {\n"
         "  size_t i = get_global_id(0);\n  out[i] = a[i] * FACTOR + STEP;\n}\n";
}

struct HookReset {
  ~HookReset() { detail::set_host_compile_hook({}); }
};

TEST(HostPrebuiltBatch, ProgramsOfOneUnitRunAsTheirOwn) {
  const Device dev = device("host");
  Queue q(dev);
  std::vector<detail::BatchProgram> programs;
  for (int k = 0; k < 3; ++k) {
    const std::string options = "-DFACTOR=" + std::to_string(k + 2);
    const auto tr = detail::dialect::translate(program(k), detail::dialect::Target::host, options);
    programs.push_back({tr.text, detail::host_build_flags(options), program(k)});
    ASSERT_TRUE(detail::batch_part(tr.text, k == 0).has_value());
  }
  const auto results = detail::compile_batches(detail::HostToolchain::get(), programs, 1);
  ASSERT_EQ(results.size(), 3u);
  for (const auto& r : results) {
    ASSERT_FALSE(r.error);
    EXPECT_EQ(r.image, results[0].image) << "the three programs are one shared object";
  }
  // Each program built from the batch's object: the hook stands in for the compiler.
  HookReset reset;
  detail::set_host_compile_hook([&](const detail::dialect::Translation&, const std::vector<std::string>&,
                                    std::string_view) { return results[0].image; });
  const std::vector<float> a{1.0f, -2.5f, 4.0f};
  for (int k = 0; k < 3; ++k) {
    Kernel kernel = Program::build(dev, program(k), "-DFACTOR=" + std::to_string(k + 2)).kernel("scale");
    Buffer in = upload(q, a), out = test::poisoned<float>(q, a.size());
    kernel.set_args(in, out);
    q.launch(kernel, a.size());
    const auto got = download<float>(q, out, a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(got[i], a[i] * static_cast<float>(k + 2) + static_cast<float>(k)) << "program " << k << ", i " << i;
    }
  }
}

TEST(HostPrebuiltBatch, AProgramThatDoesNotBuildFailsAlone) {
  std::vector<detail::BatchProgram> programs;
  for (const std::string& body : {std::string("out[0] = 1.0f;"), std::string("out[0] = undefined_name;"),
                                  std::string("out[0] = 2.0f;")}) {
    const std::string source = program(7) + "__kernel void k(__global float* out) { " + body + " }\n";
    const auto tr = detail::dialect::translate(source, detail::dialect::Target::host, "-DFACTOR=1");
    programs.push_back({tr.text, detail::host_build_flags("-DFACTOR=1"), source});
  }
  const auto results = detail::compile_batches(detail::HostToolchain::get(), programs, 2);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_FALSE(results[0].error);
  EXPECT_FALSE(results[2].error);
  ASSERT_TRUE(results[1].error);
  EXPECT_THROW(std::rethrow_exception(results[1].error), BuildError);
  EXPECT_FALSE(results[0].image.empty());
  EXPECT_NE(results[0].image, results[2].image) << "built alone after the batch failed";
}

}  // namespace
}  // namespace weft
