// ElementwiseKernel on every device: sizes around powers of two, the dtypes the issue names,
// preambles; the generators' choices and the forms they recognize; the order the generators
// keep on out-of-order queues, and the errors a user can make. ReductionKernel:
// test_reduction_kernels.cpp; the scans: test_scan_kernels.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "generators_fixture.hpp"
#include "kernels/generators/choices.hpp"
#include "kernels/generators/device_style.hpp"
#include "support.hpp"

namespace weft {
namespace {

using test::download;

template <class T>
void check_elementwise(Generators& g, Device& dev, Queue& q, const char* type) {
  const std::string t = type;
  ElementwiseKernel k(t + " a, const " + t + " *x, const " + t + " *y, " + t + " *z", "z[i] = a * x[i] + y[i]",
                      std::string("axpy_") + type);
  for (std::size_t n : sizes) {
    const auto x = test::random_vector<T>(n, 1, T(0), T(100));
    const auto y = test::random_vector<T>(n, 2, T(0), T(100));
    Buffer dx = g.upload_typed(x), dy = g.upload_typed(y), dz = Buffer::of<T>(dev, std::max<std::size_t>(n, 1));
    k(q, n, 3, dx, dy, dz);
    const auto z = download<T>(q, dz, n);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const T ref = static_cast<T>(T(3) * x[i] + y[i]);
      if constexpr (std::is_floating_point_v<T>) {
        // OpenCL C (and CUDA) may contract a * x + y into one fused multiply-add: one
        // rounding instead of two, so allow a rounding's difference.
        bad += std::fabs(z[i] - ref) > std::numeric_limits<T>::epsilon() * 4 * std::fabs(ref);
      } else {
        bad += z[i] != ref;
      }
    }
    EXPECT_EQ(bad, 0u) << type << " n = " << n << " on " << dev.selector();
  }
}

TEST(GeneratorChoices, SetByNameValidatedAndRestoredByScope) {
  // What the Python tests call (weft._weft._set_generator_choice), and the C++ tests' scope.
  EXPECT_EQ(detail::generator_choices(), Choices{});
  {
    Choices c;
    c.scan_tickets = Choices::Toggle::on;
    detail::ScopedGeneratorChoices scoped(c);
    detail::set_generator_choice("reduce_split", "always");
    detail::set_generator_choice("scan_prefetch", "7");
    detail::set_generator_choice("scan_algorithm", "chunked");
    const Choices now = detail::generator_choices();
    EXPECT_EQ(now.scan_tickets, Choices::Toggle::on);  // the others are kept
    EXPECT_EQ(now.reduce_split, Choices::ReduceSplit::always);
    EXPECT_EQ(now.scan_prefetch, 7);
    EXPECT_EQ(now.scan_algorithm, Choices::ScanAlgorithm::chunked);
    auto error_of = [](const char* name, const char* value) -> std::string {
      try {
        detail::set_generator_choice(name, value);
      } catch (const InvalidArgument& e) {
        return e.what();
      }
      return "";
    };
    EXPECT_NE(error_of("reduce_split", "sometimes").find("auto, always, never"), std::string::npos);
    EXPECT_NE(error_of("scan_status16", "1").find("auto, on, off"), std::string::npos);
    EXPECT_NE(error_of("scan_prefetch", "5000").find("0 to 4096"), std::string::npos);
    EXPECT_NE(error_of("scan_speed", "fast").find("scan_algorithm"), std::string::npos);
    EXPECT_EQ(detail::generator_choices(), now) << "a refused value changes nothing";
  }
  EXPECT_EQ(detail::generator_choices(), Choices{}) << "the scope restores the choices before it";
}

TEST(GeneratorForms, ArraysReadAndStoredAsTheyAreAreRecognized) {
  // The forms that let GPU kernels copy, load or store 16 bytes at a time; anything else
  // takes the general path.
  const auto specs = parse_arguments("const float *x, float *y, const double *d, const float *c, float a");
  EXPECT_EQ(detail::direct_array("x[i]", specs, DType::float32), "x");
  EXPECT_EQ(detail::direct_array(" x [ i ] ", specs, DType::float32), "x");
  EXPECT_EQ(detail::direct_array("d[i]", specs, DType::float64), "d");
  EXPECT_EQ(detail::direct_array("d[i]", specs, DType::float32), "");  // another type
  EXPECT_EQ(detail::direct_array("2 * x[i]", specs, DType::float32), "");
  EXPECT_EQ(detail::direct_array("x[i + 1]", specs, DType::float32), "");
  EXPECT_EQ(detail::direct_array("a[i]", specs, DType::float32), "");  // not an array
  EXPECT_EQ(detail::direct_store("y[i] = item", specs, DType::float32), "y");
  EXPECT_EQ(detail::direct_store(" y [i]=item ; ", specs, DType::float32), "y");
  EXPECT_EQ(detail::direct_store("c[i] = item", specs, DType::float32), "");  // const
  EXPECT_EQ(detail::direct_store("y[i] = prev_item", specs, DType::float32), "");
  EXPECT_EQ(detail::direct_store("y[i] += item", specs, DType::float32), "");
  EXPECT_EQ(detail::direct_store("y[i] = item; x[i] = item", specs, DType::float32), "");
  EXPECT_EQ(detail::direct_store("y[i] = item", specs, DType::int32), "");  // another type
}

TEST_P(Generators, ElementwiseOverDtypesAndSizes) {
  check_elementwise<float>(*this, dev, q, "float");
  check_elementwise<double>(*this, dev, q, "double");
  check_elementwise<std::int32_t>(*this, dev, q, "int");
  check_elementwise<std::int64_t>(*this, dev, q, "long");
  check_elementwise<std::uint32_t>(*this, dev, q, "uint");
}

TEST_P(Generators, RegisterCapsThatMakeAKernelSpillAreDropped) {
  // 32 values loaded before the first is used: all live at once, more than a cap of 16
  // registers holds. On NVIDIA GPUs the capped build spills; the generators' builder then
  // keeps the uncapped one, unless the cap was asked for. Elsewhere the cap is ignored.
  detail::GeneratedSource src(R"(
__kernel void live32(__global const float *x, __global float *y) {
  const size_t i = get_global_id(0);
  float v[32];
  for (int k = 0; k < 32; ++k) v[k] = x[i * 32 + k];
  float s = 0.0f;
  for (int k = 0; k < 32; ++k) s += v[k] * v[31 - k];
  for (int k = 0; k < 32; ++k) y[i * 32 + k] = v[k] * s + v[(k + 1) & 31];
}
)");
  detail::GeneratedSource forced_src(src.source());
  const std::size_t items = 64;
  std::vector<float> x(items * 32);
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = static_cast<float>(k % 17) * 0.25f - 1.0f;
  std::vector<float> want(x.size());
  for (std::size_t i = 0; i < items; ++i) {
    float s = 0.0f;
    for (int k = 0; k < 32; ++k) s += x[i * 32 + k] * x[i * 32 + 31 - k];
    for (int k = 0; k < 32; ++k) want[i * 32 + k] = x[i * 32 + k] * s + x[i * 32 + ((k + 1) & 31)];
  }
  Buffer dx = upload_typed(x);
  for (const bool forced : {false, true}) {
    Kernel k = (forced ? forced_src : src).program_within_cap(dev, "", 16, "live32", forced).kernel("live32");
    Buffer dy = Buffer::of<float>(dev, x.size());
    k.set_args(dx, dy);
    q.launch(k, items);
    const auto y = download<float>(q, dy, x.size());
    for (std::size_t e = 0; e < y.size(); ++e) ASSERT_NEAR(y[e], want[e], 1e-3f * (1.0f + std::fabs(want[e]))) << "element " << e;
    if (dev.info().nvidia_arch == 0) continue;
    ASSERT_TRUE(k.private_bytes_per_item().has_value());
    if (forced) {
      EXPECT_GT(*k.private_bytes_per_item(), 0u) << "a cap of 16 registers asked for stays, and spills, on " << dev.selector();
    } else {
      EXPECT_EQ(*k.private_bytes_per_item(), 0u) << "the spilling cap is dropped on " << dev.selector();
    }
  }
}

TEST_P(Generators, ElementwisePreambleAndIndexArithmetic) {
  ElementwiseKernel k("const float *x, float *y", "y[i] = twice(x[n - 1 - i])", "reverse_twice",
                      "float twice(float v) { return 2.0f * v; }");
  const std::size_t n = 5000;
  const auto x = test::random_vector<float>(n, 3, -1.0f, 1.0f);
  Buffer dx = upload_typed(x), dy = Buffer::of<float>(dev, n);
  k(q, n, dx, dy);
  const auto y = download<float>(q, dy, n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(y[i], 2.0f * x[n - 1 - i]) << i;
}

TEST_P(Generators, OutOfOrderQueuesKeepTheGeneratorsInOrder) {
  // On an out-of-order queue a generator's passes and its calls' shared scratch stay in order,
  // and each call runs after what was enqueued before it: the device's own algorithms and,
  // where work-groups exist, the single-pass scan and the fused reduction.
  Queue ooo(dev, QueueOptions{.out_of_order = true});
  const std::size_t n = 300001;
  const auto x = test::random_vector<std::int32_t>(n, 12, -100, 100);
  std::int64_t total = 0;
  std::vector<std::int32_t> prefix(n);
  for (std::size_t i = 0; i < n; ++i) prefix[i] = static_cast<std::int32_t>(total += x[i]);
  const bool groups = dev.capabilities().has_barriers;
  for (int forced = 0; forced < (groups ? 2 : 1); ++forced) {
    detail::ScopedGeneratorChoices chosen(forcing(forced != 0, forced != 0));
    InclusiveScanKernel scan(DType::int32, "a + b", "0", forced ? "// forced" : "");
    ReductionKernel sum(DType::int64, "0", "a + b", "x[i]", "const int *x", forced ? "// forced" : "");
    ElementwiseKernel twice("const int *x, int *y", "y[i] = 2 * x[i]", "twice");
    Buffer dx = Buffer::of<std::int32_t>(dev, n), dy = Buffer::of<std::int32_t>(dev, n),
           dz = Buffer::of<std::int32_t>(dev, n);
    for (int round = 0; round < 3; ++round) {
      ooo.write(dx, x.data(), n * 4, 0, Blocking::no);  // what the calls below read
      twice(ooo, n, dx, dz);
      scan(ooo, n, dx, dy);
      Future<std::int64_t> s = sum.reduce<std::int64_t>(ooo, n, dx);
      EXPECT_EQ(s.get(), total) << "round " << round << (forced ? " (single pass, fused)" : "");
      ooo.finish();
      const auto y = download<std::int32_t>(q, dy, n);
      const auto z = download<std::int32_t>(q, dz, n);
      std::size_t bad = 0;
      for (std::size_t i = 0; i < n; ++i) bad += (y[i] != prefix[i]) + (z[i] != 2 * x[i]);
      EXPECT_EQ(bad, 0u) << "round " << round << (forced ? " (single pass, fused)" : "");
    }
  }
}

TEST_P(Generators, BadInputNamesWhatIsWrong) {
  try {
    ElementwiseKernel k("float *x, floot y", "x[i] = y");
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("argument 2 'floot y'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("unknown type 'floot'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ElementwiseKernel("float *", "x[i] = 1"), InvalidArgument);
  EXPECT_THROW(ElementwiseKernel("float *x, int x", "x[i] = 1"), InvalidArgument);
  ElementwiseKernel k("const float *x, float *y", "y[i] = x[i]", "copy_f");
  Buffer ints = Buffer::of<std::int32_t>(dev, 10), floats = Buffer::of<float>(dev, 10);
  try {
    k(q, 10, ints, floats);
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("'x'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("int32"), std::string::npos) << e.what();
  }
  EXPECT_THROW(k(q, 10, floats), InvalidArgument);          // too few
  EXPECT_THROW(k(q, 10, 1.0f, floats), InvalidArgument);    // a number for a pointer
  ElementwiseKernel broken("float *x", "x[i] = no_such_function(x[i])", "broken");
  try {
    broken(q, 10, floats);
    FAIL();
  } catch (const BuildError& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_function"), std::string::npos) << e.what();
  }
  ReductionKernel r(DType::float32, "0", "a + b", "x[i]", "const float *x");
  EXPECT_THROW(r.reduce<double>(q, 10, floats), InvalidArgument);
  EXPECT_THROW(ReductionKernel(DType::float32, "", "a + b", "x[i]", "const float *x"), InvalidArgument);
  // Still usable after all that.
  k(q, 10, floats, floats);
  q.finish();
}

// Every file's TEST_P(Generators, ...) runs on these devices.
INSTANTIATE_TEST_SUITE_P(AllDevices, Generators, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
