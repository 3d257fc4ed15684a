// The host backend's prebuilt kernels and stepwise evaluation (backends/host/host_prebuilt.hpp,
// array/stepwise.hpp): a new expression's first result, taken on prebuilt code, is the same
// bit for bit as the result of its own compiled kernel once that is in; the pack holds what
// the array layer generates; its format reads back; kernels move to their upgraded code.
//
// Run with a fresh program cache too (ctest HostPrebuiltFreshCache): only then is every first
// result taken on the prebuilt path for sure (the shared test cache may hold the compiled
// programs of an earlier run, and a program on disk is used as it is).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "array/stepwise.hpp"
#include "backends/host/host_api.hpp"
#include "backends/host/host_prebuilt.hpp"
#include "cache/program_cache.hpp"
#include "runtime/background_builds.hpp"
#include "runtime/backend.hpp"
#include "runtime/program_builder.hpp"
#include "weft/config.hpp"
#include "weft/weft.hpp"

namespace weft {
namespace {

// The bytes of an array's elements.
std::vector<unsigned char> bytes_of(const Array& a) {
  std::vector<unsigned char> out(static_cast<std::size_t>(a.size()) * size_of(a.dtype()));
  a.to_host_bytes(out.data(), a.dtype());
  return out;
}

struct Inputs {
  Array a, b, c, i, j, k, x, y, p;
};

Inputs inputs(const Device& dev, std::size_t n) {
  std::vector<float> f(n), g(n), h(n);
  std::vector<double> d(n), e(n);
  std::vector<std::int32_t> m(n), q(n);
  std::vector<std::int64_t> l(n);
  std::vector<std::uint8_t> bits(n);
  for (std::size_t t = 0; t < n; ++t) {
    f[t] = static_cast<float>(t % 17) * 0.1f - 0.8f;
    g[t] = static_cast<float>((t * 7) % 19) * 0.37f - 3.1f;
    h[t] = 2.0f + static_cast<float>(t % 5);
    d[t] = static_cast<double>(t % 13) * 0.25 + 0.5;
    e[t] = static_cast<double>((t * 11) % 29) * -0.125 + 1.0 / 3.0;
    m[t] = static_cast<std::int32_t>(t % 23) - 11;
    q[t] = static_cast<std::int32_t>((t * 5) % 31) - 7;
    l[t] = static_cast<std::int64_t>(t) * 1000003 - 77;
    bits[t] = (t % 3) == 0;
  }
  const Shape s{static_cast<std::int64_t>(n)};
  Inputs in;
  in.a = Array::from_host<float>(f, s, dev);
  in.b = Array::from_host<float>(g, s, dev);
  in.c = Array::from_host<float>(h, s, dev);
  in.i = Array::from_host<std::int32_t>(m, s, dev);
  in.j = Array::from_host<std::int32_t>(q, s, dev);
  in.k = Array::from_host<std::int64_t>(l, s, dev);
  in.x = Array::from_host<double>(d, s, dev);
  in.y = Array::from_host<double>(e, s, dev);
  in.p = eval(astype(Array::from_host<std::uint8_t>(bits, s, dev), DType::bool_));
  return in;
}

struct Case {
  const char* text;
  std::function<Array(const Inputs&)> run;
  // The first run compiles nothing: false where the fused kernel must be compiled first (a
  // product the compiler fuses into an FMA with the sum it feeds) or Array::full's may be.
  bool prebuilt = true;
};

// The first-result benchmark's expressions (bench/suites/first_result.cpp) and more of the
// array tests' kinds: int64, bool, casts, mixed dtypes, reductions over an axis.
const std::vector<Case>& cases() {
  static const std::vector<Case> list = {
      {"a*b + c", [](const Inputs& v) { return eval(v.a * v.b + v.c); }, false},
      {"sin(a) + cos(b)", [](const Inputs& v) { return eval(sin(v.a) + cos(v.b)); }},
      {"sqrt(abs(a)) * 2", [](const Inputs& v) { return eval(sqrt(abs(v.a)) * 2.0); }},
      {"where(a > b, a, c)", [](const Inputs& v) { return eval(where(v.a > v.b, v.a, v.c)); }},
      {"exp(a) - b / c", [](const Inputs& v) { return eval(exp(v.a) - v.b / v.c); }},
      {"maximum(a, b) * c", [](const Inputs& v) { return eval(maximum(v.a, v.b) * v.c); }},
      {"floor(a * 10) % 3", [](const Inputs& v) { return eval(remainder(floor(v.a * 10.0), 3.0)); }},
      {"clip(a, -0.5, 0.5)", [](const Inputs& v) { return eval(clip(v.a, -0.5, 0.5)); }},
      {"i*j + 3", [](const Inputs& v) { return eval(v.i * v.j + 3); }},
      {"(i & j) | 5", [](const Inputs& v) { return eval((v.i & v.j) | 5); }},
      {"i // 7 - j % 5", [](const Inputs& v) { return eval(floor_divide(v.i, 7) - remainder(v.j, 5)); }},
      {"x*y + x", [](const Inputs& v) { return eval(v.x * v.y + v.x); }, false},
      {"hypot(x, y) - atan2(y, x)", [](const Inputs& v) { return eval(hypot(v.x, v.y) - atan2(v.y, v.x)); }},
      {"x + i", [](const Inputs& v) { return eval(v.x + v.i); }},
      {"k * 3 - k // 7", [](const Inputs& v) { return eval(v.k * 3 - floor_divide(v.k, 7)); }},
      {"where(p, x, -y) * 2", [](const Inputs& v) { return eval(where(v.p, v.x, -v.y) * 2.0); }},
      {"(a > 0) & p", [](const Inputs& v) { return eval((v.a > 0.0) & v.p); }},
      {"astype(a * b, float64) + x", [](const Inputs& v) { return eval(astype(v.a * v.b, DType::float64) + v.x); }},
      {"a * i - b", [](const Inputs& v) { return eval(v.a * v.i - v.b); }, false},
      {"tanh(x) * exp(-y) + log(abs(x) + 1)",
       [](const Inputs& v) { return eval(tanh(v.x) * exp(-v.y) + log(abs(v.x) + 1.0)); }, false},
      {"power(c, 3) - square(b)", [](const Inputs& v) { return eval(power(v.c, 3.0) - square(v.b)); }, false},
      {"a + b", [](const Inputs& v) { return eval(v.a + v.b); }},
      {"sin(x)", [](const Inputs& v) { return eval(sin(v.x)); }},
      {"sum(a)", [](const Inputs& v) { return sum(v.a, {0}); }},
      {"sum(x)", [](const Inputs& v) { return sum(v.x, {0}); }},
      {"min(i)", [](const Inputs& v) { return min(v.i, {0}); }},
      {"max(k)", [](const Inputs& v) { return max(v.k, {0}); }},
      {"sum(a * b)", [](const Inputs& v) { return sum(v.a * v.b, {0}); }, false},
      {"max(a - c), a future", [](const Inputs& v) { return Array::full({1}, max(v.a - v.c).get(), DType::float64, device("host")); }, false},
  };
  return list;
}

// Whether the process's program cache held no host program when the test started: then every
// program below is new to it.
bool fresh_cache() {
  for (const auto& e : detail::ProgramCache::instance().list()) {
    if (e.backend == "host") return false;
  }
  return true;
}

TEST(HostPrebuilt, TheLibraryShipsAPackThatLoads) {
#ifndef WEFT_TEST_HOST_PREBUILT
  GTEST_SKIP() << "built with WEFT_HOST_PREBUILT=OFF (the ASan build's default): no pack to load";
#endif
  const auto& pack = detail::HostPrebuilt::instance();
  ASSERT_GT(pack.size(), 100u) << "the library was built without its prebuilt host kernels";
  std::size_t checked = 0;
  for (const auto& key : pack.keys()) {
    if (checked++ % 50) continue;  // a sample: each load is a dlopen
    const auto image = pack.find(key);
    ASSERT_TRUE(image.has_value());
    if (image->empty()) continue;  // the marker of the toolchain the pack was made for
    EXPECT_NO_THROW(detail::HostModule::load(*image, "a prebuilt kernel"));
  }
}

TEST(HostPrebuilt, PackFormatReadsBack) {
  detail::Hasher h1, h2;
  const detail::Digest k1 = h1.update("one").finish(), k2 = h2.update("two").finish();
  const std::string blob = detail::HostPrebuilt::encode({{k2, "second image"}, {k1, "first"}});
  const detail::HostPrebuilt pack(blob);
  EXPECT_EQ(pack.size(), 2u);
  EXPECT_EQ(pack.find(k1).value(), "first");
  EXPECT_EQ(pack.find(k2).value(), "second image");
  detail::Hasher h3;
  EXPECT_FALSE(pack.find(h3.update("three").finish()).has_value());
  EXPECT_THROW(detail::HostPrebuilt(blob.substr(0, blob.size() - 3)), Error);
  EXPECT_THROW(detail::HostPrebuilt("not a pack"), Error);
  // The programs of one batch share their shared object: stored once, found under each key.
  const std::string shared = detail::HostPrebuilt::encode({{k1, "batch image"}, {k2, "batch image"}});
  EXPECT_EQ(shared.size(), blob.size() - std::string("second image").size() - std::string("first").size() +
                               std::string("batch image").size());
  const detail::HostPrebuilt both(shared);
  EXPECT_EQ(both.find(k1).value(), "batch image");
  EXPECT_EQ(both.find(k2).value(), "batch image");
}

TEST(HostPrebuilt, FirstResultsEqualTheCompiledKernelsBitForBit) {
  if (!config().host_prebuilt) GTEST_SKIP() << "WEFT_HOST_PREBUILT=0";
  const bool fresh = fresh_cache();
  const Device dev = device("host");
  auto& builder = dev.impl()->program_builder();
  const auto start = builder.counts();
  for (std::size_t n : {std::size_t{1000}, std::size_t{4099}}) {
    const Inputs in = inputs(dev, n);
    for (const auto& c : cases()) {
      SCOPED_TRACE(std::string(c.text) + ", n=" + std::to_string(n));
      const std::vector<unsigned char> first = bytes_of(c.run(in));
      // Its own kernel, compiled in the background where the first run went stepwise.
      detail::BackgroundBuilds::instance().wait_idle();
      const std::vector<unsigned char> compiled = bytes_of(c.run(in));
      EXPECT_EQ(first, compiled);
    }
  }
  // With nothing on disk, the first runs took prebuilt kernels (one per operation and dtype
  // met, each loaded once), not compiles of their own.
  if (fresh) {
    EXPECT_GT(builder.counts().prebuilt - start.prebuilt, 20u);
  }
}

// A nested expression with an operation the pack lacks (int16 here: the pack holds bool,
// int32, int64, float32, float64) is not stepped: that step would be a compile of its own, so
// the fused kernel is built and runs as one launch. Likewise a reduction of such an expression.
TEST(HostPrebuilt, AnOperationThePackLacksIsNotStepped) {
  const Device dev = device("host");
  const Array a = Array::full({64}, 3, DType::int16, dev);
  const Array b = Array::full({64}, 2, DType::int16, dev);
  synchronize(dev);
  const auto before = elementwise_launches(dev);
  const Array r = eval((a + b) * a - b);
  synchronize(dev);
  EXPECT_EQ(elementwise_launches(dev) - before, 1u);
  EXPECT_EQ(r.to_host<std::int16_t>(), std::vector<std::int16_t>(64, 13));
  const auto launches = elementwise_launches(dev);
  EXPECT_EQ(sum(a * b + a).get(), 64.0 * 9);
  EXPECT_EQ(elementwise_launches(dev), launches);  // no temporary computed on the side
}

// A child forked while a background build runs has none of the parent's threads: it queues
// and waits for builds on a thread of its own, and its exit (which stops the build thread)
// does not wait for the parent's. Before, the child's exit joined a thread that was not in
// it, forever.
TEST(HostPrebuilt, AForkedChildHasABuildThreadOfItsOwn) {
  auto& builds = detail::BackgroundBuilds::instance();
  std::atomic<bool> running{false}, release{false};
  builds.submit([&] {
    running = true;
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  while (!running) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const pid_t pid = ::fork();
  if (pid == 0) {
    int code = 0;
#ifndef __SANITIZE_THREAD__  // ThreadSanitizer ends a child that starts threads after a fork
    std::atomic<bool> ran{false};
    builds.submit([&] { ran = true; });
    builds.wait_idle();
    code = ran ? 0 : 3;
#endif
    // (_Exit: no leak check of what the parent's other threads hold, and no destructors of the
    // parent's statics; TempDir leaves a parent's directory alone anyway.)
    std::_Exit(code);
  }
  release = true;
  builds.wait_idle();
  ASSERT_GT(pid, 0);
  int status = 0;
  pid_t done = 0;
  for (int k = 0; k < 2000 && done == 0; ++k) {
    done = ::waitpid(pid, &status, WNOHANG);
    if (done == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (done == 0) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    FAIL() << "the forked child did not exit in 20 s";
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(HostPrebuilt, SteppableLeavesWhatATemporaryCannotHoldToTheFusedKernel) {
  const Device dev = device("host");
  const Array a = Array::full({4}, 1.0, DType::float32, dev);
  const Array i = Array::full({4}, 1.0, DType::int32, dev);
  EXPECT_TRUE(detail::steppable(*(sin(a) + a).node()));
  EXPECT_TRUE(detail::steppable(*(i * i + i).node()));      // integers: no FMA
  EXPECT_FALSE(detail::steppable(*(a + a).node()));         // one operation
  EXPECT_FALSE(detail::steppable(*(a * a + a).node()));     // the compiler fuses it into an FMA
  EXPECT_FALSE(detail::steppable(*(a - square(a)).node()));
  EXPECT_FALSE(detail::steppable(*(a + (Expr(2.0) * Expr(3.0))).node()));  // a number not yet typed
  const Array m = Array::full({2, 3}, 1.0, DType::float32, dev);
  const Array row = Array::full({3}, 1.0, DType::float32, dev);
  EXPECT_TRUE(detail::steppable(*(sin(m) + m).node()));
  EXPECT_FALSE(detail::steppable(*(sin(m) + row).node()));              // broadcast
  EXPECT_FALSE(detail::steppable(*(sin(m.transpose()) + m.transpose()).node()));  // strided
}

}  // namespace
}  // namespace weft
