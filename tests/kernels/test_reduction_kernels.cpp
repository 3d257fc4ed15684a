// ReductionKernel on every device: sizes around powers of two, the dtypes the issue names,
// maps and other operators, arrays at any alignment, any number of lanes, the one-launch
// (fused) reduction, and arguments named like the templates' own variables.
#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <limits>
#include <numeric>

#include "generators_fixture.hpp"
#include "support.hpp"

namespace weft {
namespace {

using test::download;

template <class T>
void check_sum(Generators& g, Device& dev, Queue& q, const char* type) {
  ReductionKernel sum(dtype_of<T>, "0", "a + b", "x[i]", std::string("const ") + type + " *x", {},
                      std::string("sum_") + type);
  for (std::size_t n : sizes) {
    const auto x = test::random_vector<T>(n, 4, T(0), T(1000));
    Buffer dx = g.upload_typed(x);
    const T got = sum.reduce<T>(q, n, dx).get();
    if constexpr (std::is_floating_point_v<T>) {
      long double exact = 0, abs_sum = 0;
      for (auto v : x) {
        exact += static_cast<long double>(v);
        abs_sum += std::fabs(static_cast<long double>(v));
      }
      const double ref = static_cast<double>(exact);
      // A sum in any order errs by about eps * sum|x| * sqrt(n) (the bound grows with n;
      // rounding errors of random data grow with its square root).
      const double tol = static_cast<double>(std::numeric_limits<T>::epsilon() * abs_sum) *
                             (4.0 + 2.0 * std::sqrt(static_cast<double>(n))) + 1e-30;
      EXPECT_NEAR(static_cast<double>(got), ref, tol) << type << " n = " << n << " on " << dev.selector()
                                                      << std::setprecision(17) << " got " << got << " ref " << ref;
    } else {
      T ref = 0;
      for (auto v : x) ref = static_cast<T>(ref + v);
      EXPECT_EQ(got, ref) << type << " n = " << n << " on " << dev.selector();
    }
  }
}

TEST_P(Generators, SumOverDtypesAndSizes) {
  check_sum<float>(*this, dev, q, "float");
  check_sum<double>(*this, dev, q, "double");
  check_sum<std::int32_t>(*this, dev, q, "int");
  check_sum<std::int64_t>(*this, dev, q, "long");
  check_sum<std::uint32_t>(*this, dev, q, "uint");
}

TEST_P(Generators, ReductionsWithMapsAndOtherOperators) {
  const std::size_t n = 100003;
  const auto x = test::random_vector<float>(n, 5, -10.0f, 10.0f);
  const auto y = test::random_vector<float>(n, 6, -10.0f, 10.0f);
  Buffer dx = upload_typed(x), dy = upload_typed(y);
  ReductionKernel dot(DType::float64, "0", "a + b", "(double)x[i] * y[i]", "const float *x, const float *y");
  double ref = 0;
  for (std::size_t i = 0; i < n; ++i) ref += static_cast<double>(x[i]) * y[i];
  EXPECT_NEAR(dot.reduce<double>(q, n, dx, dy).get(), ref, 1e-9 * n);
  ReductionKernel maxk(DType::float32, "-INFINITY", "fmax(a, b)", "x[i]", "const float *x");
  EXPECT_EQ(maxk.reduce<float>(q, n, dx).get(), *std::max_element(x.begin(), x.end()));
  ReductionKernel count(DType::int32, "0", "a + b", "(x[i] > limit) ? 1 : 0", "const float *x, float limit");
  EXPECT_EQ(count.reduce<std::int32_t>(q, n, dx, 5.0).get(),
            static_cast<std::int32_t>(std::count_if(x.begin(), x.end(), [](float v) { return v > 5.0f; })));
  // The result also stays on the device.
  auto f = maxk.reduce<float>(q, n, dx);
  f.event().wait();
  float on_device = 0;
  q.read(f.device_value(), &on_device, 4);
  EXPECT_EQ(on_device, f.get());
}

TEST_P(Generators, ReductionsReadArraysAtAnyAlignment) {
  // A map `x[i]` of the result's type is read 16 bytes at a time on CUDA where x starts on a
  // 16-byte boundary; a buffer that starts between (wrapped memory, here 4 to 12 bytes into
  // an allocation) takes the element-wise loop. Both are exact on integers.
  if (!dev.capabilities().addressable_memory) GTEST_SKIP() << "OpenCL buffers cannot be wrapped at an address";
  const std::size_t n = 70001;
  const auto x = test::random_vector<std::int32_t>(n, 11, -1000, 1000);
  Buffer dx = upload_typed(x);
  ReductionKernel sum(DType::int32, "0", "a + b", "x[i]", "const int *x");
  ReductionKernel sum64(DType::int64, "0", "a + b", "x[i]", "const long *x");
  for (std::size_t skip : {0, 1, 2, 3}) {
    Buffer view = Buffer::wrap(dev, dx.address() + 4 * skip, (n - skip) * 4, std::make_shared<Buffer>(dx));
    for (std::size_t m : {n - skip, std::size_t(5), std::size_t(1)}) {
      const std::int32_t ref = std::accumulate(x.begin() + skip, x.begin() + skip + m, std::int32_t(0));
      EXPECT_EQ(sum.reduce<std::int32_t>(q, m, view).get(), ref) << "skip " << skip << " m " << m;
    }
  }
  const auto y = test::random_vector<std::int64_t>(n, 12, -1000000, 1000000);
  Buffer dy = upload_typed(y);
  Buffer view = Buffer::wrap(dev, dy.address() + 8, (n - 1) * 8, std::make_shared<Buffer>(dy));
  EXPECT_EQ(sum64.reduce<std::int64_t>(q, n - 1, view).get(), std::accumulate(y.begin() + 1, y.end(), std::int64_t(0)));
}

TEST_P(Generators, ChunkedReductionsAreExactForAnyNumberOfLanes) {
  // CPUs reduce each chunk with WEFT_LANES independent accumulators (32 by default); any
  // count, including ones that divide neither the chunk nor n, leaves a tail that must count.
  const std::size_t n = 70001;
  const auto x = test::random_vector<std::int32_t>(n, 14, -1000, 1000);
  Buffer dx = upload_typed(x);
  for (int lanes : {1, 5, 32, 64}) {
    ReductionKernel sum(DType::int32, "0", "a + b", "x[i]", "const int *x", {}, "lanes_sum",
                        "-DWEFT_LANES=" + std::to_string(lanes));
    ReductionKernel top(DType::int32, "-2147483647", "max(a, b)", "x[i]", "const int *x", {}, "lanes_max",
                        "-DWEFT_LANES=" + std::to_string(lanes));
    for (std::size_t m : {n, std::size_t(4096 * 8 + 3), std::size_t(63), std::size_t(1)}) {
      EXPECT_EQ(sum.reduce<std::int32_t>(q, m, dx).get(), std::accumulate(x.begin(), x.begin() + m, std::int32_t(0)))
          << "lanes " << lanes << " m " << m;
      EXPECT_EQ(top.reduce<std::int32_t>(q, m, dx).get(), *std::max_element(x.begin(), x.begin() + m))
          << "lanes " << lanes << " m " << m;
    }
  }
}

TEST_P(Generators, ReductionArgumentsMayShareNamesWithTheTemplatesLocals) {
  // The generated source's own variables are prefixed: arguments named like the loops' and
  // accumulators' usual names (G, acc, k, g, begin, end, width, partial) build and count.
  const std::size_t n = 4099;
  const auto x = test::random_vector<std::int32_t>(n, 13, -50, 50);
  Buffer dx = upload_typed(x);
  ReductionKernel r(DType::int32, "0", "a + b", "x[i] * G + acc + k + g + begin + end + width + partial",
                    "const int *x, int G, int acc, int k, int g, int begin, int end, int width, int partial");
  const std::int32_t extra = 1 + 2 + 3 + 4 + 5 + 6 + 7;
  const std::int32_t ref = 3 * std::accumulate(x.begin(), x.end(), std::int32_t(0)) + extra * static_cast<std::int32_t>(n);
  EXPECT_EQ(r.reduce<std::int32_t>(q, n, dx, 3, 1, 2, 3, 4, 5, 6, 7).get(), ref);
  ReductionKernel direct(DType::int32, "0", "a + b", "x[i]", "const int *x, long G, long acc, long k, long width");
  EXPECT_EQ(direct.reduce<std::int32_t>(q, n, dx, 1, 2, 3, 4).get(), std::accumulate(x.begin(), x.end(), std::int32_t(0)));
}

TEST_P(Generators, FusedReductionWhereWorkGroupsExist) {
  // The one-launch reduction (last work-group combines), forced on any device with work-groups.
  if (!dev.capabilities().has_barriers) GTEST_SKIP() << "the host backend has no work-group barriers";
  detail::ScopedGeneratorChoices chosen(forcing(false, true));
  ReductionKernel sum(DType::int64, "0", "a + b", "x[i]", "const long *x", "// fused");
  ReductionKernel maxk(DType::float32, "-INFINITY", "fmax(a, b)", "x[i]", "const float *x", "// fused");
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{100001}, std::size_t{1} << 20}) {
    const auto x = test::random_vector<std::int64_t>(n, 10, -1000000, 1000000);
    const auto xf = test::random_vector<float>(n, 11, -5.0f, 5.0f);
    Buffer dx = upload_typed(x), dxf = upload_typed(xf);
    // Twice in a row: the kernel must leave its ticket reset for the next launch.
    for (int again = 0; again < 2; ++again) {
      std::int64_t ref = 0;
      for (auto v : x) ref += v;
      EXPECT_EQ(sum.reduce<std::int64_t>(q, n, dx).get(), ref) << "n = " << n;
      EXPECT_EQ(maxk.reduce<float>(q, n, dxf).get(), *std::max_element(xf.begin(), xf.end())) << "n = " << n;
    }
  }
}


}  // namespace
}  // namespace weft
