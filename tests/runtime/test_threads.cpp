// Several threads using weft at once: the array layer's cached kernels, one generator object
// and one Kernel launched through KernelArgs, each thread with its own data. Every result is
// checked; ThreadSanitizer runs this suite in CI.
#include <gtest/gtest.h>

#include <atomic>
#include <numeric>
#include <thread>

#include "embedded/weft_test_kernels.hpp"
#include "support.hpp"

namespace weft {
namespace {

class Threads : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();
  static constexpr int threads = 4;

  // Runs body(t) on `threads` threads; failures are collected and reported here.
  template <class F>
  void run(F body) {
    std::atomic<int> failures{0};
    std::vector<std::string> errors(threads);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        try {
          body(t);
        } catch (const std::exception& e) {
          errors[static_cast<std::size_t>(t)] = e.what();
          ++failures;
        }
      });
    }
    for (auto& th : pool) th.join();
    for (const auto& e : errors) EXPECT_TRUE(e.empty()) << e;
    EXPECT_EQ(failures.load(), 0);
  }
};

TEST_P(Threads, ArrayExpressionsShareTheirCachedKernelsSafely) {
  run([&](int t) {
    for (int round = 0; round < 30; ++round) {
      const std::int64_t n = 1000 + 37 * t + round;
      const Array a = Array::arange(0, static_cast<double>(n), 1, DType::float32, dev);
      const Array b = Array::full({n}, 1.0 + t, DType::float32, dev);
      const Array c = Array::full({n}, static_cast<double>(round), DType::float32, dev);
      const auto got = eval(a * b + c).to_host<float>();
      for (std::int64_t i = 0; i < n; i += 97) {
        const float want = static_cast<float>(i) * static_cast<float>(1 + t) + static_cast<float>(round);
        if (got[static_cast<std::size_t>(i)] != want) {
          throw Error("thread " + std::to_string(t) + " round " + std::to_string(round) + ": element " +
                      std::to_string(i) + " is " + std::to_string(got[static_cast<std::size_t>(i)]));
        }
      }
      const double s = sum(a * b).get();
      const double want = (1.0 + t) * static_cast<double>(n) * static_cast<double>(n - 1) / 2;
      if (std::abs(s - want) > 1e-6 * want) throw Error("thread " + std::to_string(t) + ": sum " + std::to_string(s));
      const auto cs = cumsum(b).to_host<float>();
      if (cs.back() != static_cast<float>(n * (1 + t))) throw Error("thread " + std::to_string(t) + ": cumsum");
    }
  });
}

TEST_P(Threads, OneGeneratorObjectCalledFromSeveralThreads) {
  ElementwiseKernel axpy("float a, const float *x, float *y", "y[i] = a * x[i] + y[i]", "threads_axpy");
  ReductionKernel total(DType::float32, "0", "a + b", "x[i]", "const float *x");
  run([&](int t) {
    Queue q(dev);
    const std::size_t n = 5000 + 13 * static_cast<std::size_t>(t);
    std::vector<float> x(n, 1.0f), y(n, static_cast<float>(t));
    Buffer bx = test::upload(q, x), by = test::upload(q, y);
    for (int round = 0; round < 30; ++round) {
      axpy(q, n, 2.0f, bx, by);
      const float s = total.reduce<float>(q, n, bx).get();
      if (s != static_cast<float>(n)) throw Error("thread " + std::to_string(t) + ": reduction " + std::to_string(s));
    }
    const auto got = test::download<float>(q, by, n);
    for (std::size_t i = 0; i < n; i += 101) {
      if (got[i] != static_cast<float>(t) + 60.0f) {
        throw Error("thread " + std::to_string(t) + ": y[" + std::to_string(i) + "] = " + std::to_string(got[i]));
      }
    }
  });
}

TEST_P(Threads, OneKernelLaunchedWithArgumentsOfEachThread) {
  const Kernel copy = Program::build(dev, test_kernels::ordering_cl).kernel("copy_int");
  run([&](int t) {
    Queue q(dev);
    for (int round = 0; round < 50; ++round) {
      std::vector<std::int32_t> src(256, 1000 * t + round);
      Buffer s = test::upload(q, src);
      Buffer d(dev, 256 * sizeof(std::int32_t));
      KernelArgs args(copy);
      args.set_all(s, d);
      q.launch(args, 256);
      const auto got = test::download<std::int32_t>(q, d, 256);
      if (got != src) throw Error("thread " + std::to_string(t) + " round " + std::to_string(round) + ": wrong copy");
    }
  });
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Threads, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
