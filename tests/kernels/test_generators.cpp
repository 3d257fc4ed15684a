// ElementwiseKernel and ReductionKernel on every device: sizes around powers of two, the
// dtypes the issue names, preambles, and the errors a user can make.
#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <limits>
#include <numeric>

#include "kernels/generators/choices.hpp"
#include "kernels/generators/device_style.hpp"
#include "support.hpp"

namespace weft {
namespace {

using test::download;
using Choices = detail::GeneratorChoices;

// The choices of one test: the single-pass scan and the fused reduction where asked.
Choices forcing(bool single_pass, bool fused = false) {
  Choices c;
  if (single_pass) c.scan_algorithm = Choices::ScanAlgorithm::single_pass;
  if (fused) c.reduce_algorithm = Choices::ReduceAlgorithm::fused;
  return c;
}

const std::size_t sizes[] = {0, 1, 2, 1023, 1024, 1025, 65535, 65536, 65537, (1u << 20) + 1};

class Generators : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();
  Queue q{dev};
  template <class T>
  Buffer upload_typed(const std::vector<T>& v) {
    Buffer b = Buffer::of<T>(dev, std::max<std::size_t>(v.size(), 1));
    if (!v.empty()) q.write(b, v.data(), v.size() * sizeof(T));
    return b;
  }
};

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

template <class T>
void check_scans(Generators& g, Device& dev, Queue& q) {
  InclusiveScanKernel inclusive(dtype_of<T>, "a + b", "0");
  ExclusiveScanKernel exclusive(dtype_of<T>, "a + b", "0");
  for (std::size_t n : sizes) {
    const auto x = test::random_vector<T>(n, 7, T(0), T(10));
    Buffer dx = g.upload_typed(x), din = Buffer::of<T>(dev, std::max<std::size_t>(n, 1)),
           dex = Buffer::of<T>(dev, std::max<std::size_t>(n, 1));
    inclusive(q, n, dx, din);
    exclusive(q, n, dx, dex);
    const auto in = download<T>(q, din, n), ex = download<T>(q, dex, n);
    // Against a reference in long double (floats) or exact arithmetic (integers).
    long double run = 0, abs_run = 0;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const long double before = run;
      run += static_cast<long double>(x[i]);
      abs_run += std::fabs(static_cast<long double>(x[i]));
      if constexpr (std::is_floating_point_v<T>) {
        const long double tol = std::numeric_limits<T>::epsilon() * abs_run * (4.0L + 2.0L * std::sqrt(static_cast<long double>(i + 1)));
        bad += std::fabs(static_cast<long double>(in[i]) - run) > tol;
        bad += std::fabs(static_cast<long double>(ex[i]) - before) > tol;
      } else {
        bad += in[i] != static_cast<T>(run);
        bad += ex[i] != static_cast<T>(before);
      }
    }
    EXPECT_EQ(bad, 0u) << name(dtype_of<T>) << " n = " << n << " on " << dev.selector();
  }
}

TEST_P(Generators, InclusiveAndExclusiveScans) {
  check_scans<float>(*this, dev, q);
  check_scans<double>(*this, dev, q);
  check_scans<std::int32_t>(*this, dev, q);
  check_scans<std::int64_t>(*this, dev, q);
  check_scans<std::uint32_t>(*this, dev, q);
}

TEST_P(Generators, SinglePassScanWhereWorkGroupsExist) {
  // The GPU algorithm (decoupled look-back), forced on any device with work-groups.
  if (!dev.capabilities().has_barriers) GTEST_SKIP() << "the host backend has no work-group barriers";
  detail::ScopedGeneratorChoices chosen(forcing(true));
  InclusiveScanKernel inclusive(DType::int32, "a + b", "0", "// single pass");
  ExclusiveScanKernel exclusive(DType::float64, "a + b", "0", "// single pass");
  // A mapped input (not an array read as it is: no asynchronous tile copies on CUDA).
  GenericScanKernel mapped(DType::int32, "const int *x, int *y", "2 * x[i]", "a + b", "0", "y[i] = item", "",
                           "// single pass", "mapped");
  for (std::size_t n : {std::size_t{1}, std::size_t{2047}, std::size_t{2048}, std::size_t{100001}}) {
    const auto x = test::random_vector<std::int32_t>(n, 9, -50, 50);
    std::vector<double> xd(x.begin(), x.end());
    Buffer dx = upload_typed(x), dxd = upload_typed(xd), out = Buffer::of<std::int32_t>(dev, n),
           outd = Buffer::of<double>(dev, n), outm = Buffer::of<std::int32_t>(dev, n);
    inclusive(q, n, dx, out);
    exclusive(q, n, dxd, outd);
    mapped(q, n, dx, outm);
    const auto o = download<std::int32_t>(q, out, n);
    const auto od = download<double>(q, outd, n);
    const auto om = download<std::int32_t>(q, outm, n);
    std::int32_t run = 0;
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(od[i], static_cast<double>(run)) << "exclusive, n = " << n << " i = " << i;
      run += x[i];
      ASSERT_EQ(o[i], run) << "inclusive, n = " << n << " i = " << i;
      ASSERT_EQ(om[i], 2 * run) << "mapped, n = " << n << " i = " << i;
    }
  }
}

namespace {
// Composition of affine maps x -> m*x + c (mod 2^h, h = half the bits of U), packed as
// m << h | c: associative, not commutative, so a tile's carry folded in the wrong order
// shows. Three calls of different sizes in a row on one queue (the single pass numbers its
// calls and tiles instead of clearing its status words), on the device's own algorithm and,
// where work-groups exist, on the single pass. 64-bit values travel beside the single pass's
// status words, 32-bit ones inside them.
template <class U>
void check_affine_scans(Generators& g, const Device& dev, Queue& q) {
  constexpr int h = sizeof(U) * 4;
  const std::string t = sizeof(U) == 8 ? "ulong" : "uint", sfx = sizeof(U) == 8 ? "UL" : "u";
  const std::string lo = "((1" + sfx + " << " + std::to_string(h) + ") - 1)", hb = std::to_string(h);
  const std::string compose = "((((a >> " + hb + ") * (b >> " + hb + ")) & " + lo + ") << " + hb + ") | (((b >> " + hb +
                              ") * (a & " + lo + ") + (b & " + lo + ")) & " + lo + ")";
  const std::string args = "const " + t + " *x, " + t + " *y, " + t + " *z", neutral = "(1" + sfx + " << " + hb + ")";
  const DType dtype = dtype_of<U>;
  // The algorithm is chosen at a kernel's first launch on a device: each kernel has its first
  // launch under its mode's choices.
  using Toggle = Choices::Toggle;
  constexpr Toggle on = Toggle::on, off = Toggle::off, automatic = Toggle::automatic;
  struct Mode {
    bool single_pass;
    Toggle aggregates_only;
    const char* label;
    Toggle tickets = Toggle::automatic;
    Toggle lookback_warp = Toggle::automatic;
    Toggle status16 = Toggle::automatic;
  };
  std::vector<Mode> modes{{false, automatic, ""}};
  // Where work-groups exist: the single pass, and the single pass with aggregates only (every
  // look-back folds back to the first tile through long windows); on NVIDIA GPUs (tiles in
  // work-group order, a warp of its own looking back) also with tiles handed out by the
  // atomic counter, as elsewhere, with the first data warp looking back after the copy, and
  // with 8-byte values published before their status words (behind a fence) instead of
  // beside them.
  if (dev.capabilities().has_barriers) {
    modes.push_back({true, automatic, " (single pass)"});
    modes.push_back({true, on, " (single pass, aggregates only)"});
  }
  // NVIDIA GPUs run the same kernel through CUDA and through NVIDIA's OpenCL (inline PTX).
  const bool ptx = dev.info().nvidia_arch >= 70;
  if (ptx) {
    modes.push_back({true, automatic, " (single pass, tickets)", on});
    modes.push_back({true, on, " (single pass, aggregates only, tickets)", on});
    modes.push_back({true, automatic, " (single pass, the first warp looks back)", automatic, off});
    if (sizeof(U) == 8) {
      modes.push_back({true, on, " (single pass, aggregates only, fenced)", automatic, automatic, off});
      modes.push_back({true, automatic, " (single pass, a look-back warp)", automatic, on});
    }
  }
  const U mask = static_cast<U>((U{1} << h) - 1);
  for (const Mode& mode : modes) {
    GenericScanKernel scan(dtype, args, "x[i]", compose, neutral, "y[i] = item; z[i] = prev_item", "",
                           std::string("// ") + mode.label, "affine");
    Choices c = forcing(mode.single_pass);
    c.scan_aggregates_only = mode.aggregates_only;
    c.scan_tickets = mode.tickets;
    c.scan_lookback_warp = mode.lookback_warp;
    c.scan_status16 = mode.status16;
    detail::ScopedGeneratorChoices chosen(c);
    // On GPUs also a size of over a hundred tiles (look-backs of several rounds).
    std::vector<std::size_t> sizes{200001, 1, 4097, 65536};
    if (ptx) sizes.push_back((std::size_t{1} << 20) + 3);
    for (std::size_t n : sizes) {
      auto x = test::random_vector<U>(n, static_cast<unsigned>(n), 0, sizeof(U) == 8 ? 0x7fffffffffffffffULL : 0xffffffffULL);
      for (auto& v : x) v |= U{1} << h;  // odd multipliers: the composition never collapses to 0
      Buffer dx = g.upload_typed(x), dy = Buffer::of<U>(dev, n), dz = Buffer::of<U>(dev, n);
      scan(q, n, dx, dy, dz);
      const auto y = download<U>(q, dy, n);
      const auto z = download<U>(q, dz, n);
      U rm = 1, rc = 0;  // the composition so far
      std::size_t bad = 0;
      for (std::size_t i = 0; i < n; ++i) {
        bad += z[i] != static_cast<U>((rm << h) | rc);
        const U xm = static_cast<U>(x[i] >> h), xc = static_cast<U>(x[i] & mask);
        rc = static_cast<U>((xm * rc + xc) & mask);
        rm = static_cast<U>((rm * xm) & mask);
        bad += y[i] != static_cast<U>((rm << h) | rc);
      }
      EXPECT_EQ(bad, 0u) << name(dtype) << " n = " << n << " on " << dev.selector() << mode.label;
    }
  }
}
}  // namespace

TEST_P(Generators, ScansPrefetchingTilesAheadAtAnyAlignment) {
  // Tiles asked of L2 one ticket ahead (on NVIDIA GPUs of compute capability 9.0; elsewhere
  // the choice changes nothing), copied in and stored 16 bytes at a time where the arrays start
  // on a 16-byte boundary, 4 bytes at a time where one starts between (wrapped memory 4 bytes
  // into an allocation; the prefetch is skipped there too).
  if (!dev.capabilities().has_barriers) GTEST_SKIP() << "the host backend has no work-group barriers";
  Choices c = forcing(true);
  c.scan_prefetch = 1;
  detail::ScopedGeneratorChoices chosen(c);
  InclusiveScanKernel inclusive(DType::int32, "a + b", "0", "// prefetch");
  const std::size_t n = 200003;
  const auto x = test::random_vector<std::int32_t>(n, 14, -50, 50);
  Buffer dx = upload_typed(x), out = Buffer::of<std::int32_t>(dev, n);
  for (const auto& [src_skip, dst_skip] : {std::pair<std::size_t, std::size_t>{0, 0}, {1, 0}, {0, 1}}) {
    if ((src_skip || dst_skip) && !dev.capabilities().addressable_memory) continue;  // OpenCL buffers cannot be wrapped
    auto view = [&](Buffer& b, std::size_t skip) {
      return skip ? Buffer::wrap(dev, b.address() + 4 * skip, (n - skip) * 4, std::make_shared<Buffer>(b)) : b;
    };
    Buffer src = view(dx, src_skip), dst = view(out, dst_skip);
    const std::size_t m = n - src_skip - dst_skip;
    inclusive(q, m, src, dst);
    const auto o = download<std::int32_t>(q, out, m + dst_skip);
    std::int32_t run = 0;
    for (std::size_t i = 0; i < m; ++i) {
      run += x[i + src_skip];
      ASSERT_EQ(o[i + dst_skip], run) << "source +" << src_skip << ", destination +" << dst_skip << ", i = " << i;
    }
  }
}

TEST_P(Generators, ScanArgumentsMayShareNamesWithTheTemplatesLocals) {
  // The scan templates' own variables are prefixed: arguments named like them (total, base,
  // tile, carry, window, state, value, acc, k) build and scan, in both algorithms.
  const std::size_t n = 70001;
  const auto x = test::random_vector<std::int32_t>(n, 15, -50, 50);
  Buffer dx = upload_typed(x), out = Buffer::of<std::int32_t>(dev, n);
  std::vector<bool> algorithms{false};
  if (dev.capabilities().has_barriers) algorithms.push_back(true);
  for (const bool algorithm : algorithms) {
    detail::ScopedGeneratorChoices chosen(forcing(algorithm));
    GenericScanKernel scan(DType::int32,
                           "const int *total, int *base, int tile, int carry, int window, int state, int value, "
                           "int acc, int k",
                           "total[i] * tile", "a + b", "0", "base[i] = item + carry + window + state + value + acc + k",
                           "", algorithm ? "// single pass" : "", "named");
    scan(q, n, dx, out, 2, 1, 2, 3, 4, 5, 6);
    const auto o = download<std::int32_t>(q, out, n);
    std::int32_t run = 0;
    for (std::size_t i = 0; i < n; ++i) {
      run += 2 * x[i];
      ASSERT_EQ(o[i], run + 21) << "i = " << i << (algorithm ? " (single pass)" : "");
    }
  }
}

TEST_P(Generators, ScansKeepTheOrderAcrossTilesAndCalls) {
  check_affine_scans<std::uint64_t>(*this, dev, q);
  check_affine_scans<std::uint32_t>(*this, dev, q);
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

TEST_P(Generators, SegmentedScanAndStreamCompaction) {
  const std::size_t n = 70001;
  const auto x = test::random_vector<float>(n, 8, -1.0f, 1.0f);
  std::vector<std::int32_t> starts(n);
  for (std::size_t i = 0; i < n; ++i) starts[i] = (i % 997 == 0 || i % 1301 == 5) ? 1 : 0;
  Buffer dx = upload_typed(x), dstarts = upload_typed(starts);
  {
    std::vector<std::int32_t> ones(n, 1);
    Buffer d1 = upload_typed(ones), out = Buffer::of<std::int32_t>(dev, n);
    GenericScanKernel seg(DType::int32, "const int *v, const int *start, int *out", "v[i]", "a + b", "0",
                          "out[i] = item", "start[i] != 0", {}, "segmented_count");
    seg(q, n, d1, dstarts, out);
    const auto o = download<std::int32_t>(q, out, n);
    std::int32_t run = 0;
    for (std::size_t i = 0; i < n; ++i) {
      run = starts[i] ? 1 : run + 1;
      ASSERT_EQ(o[i], run) << i;
    }
  }
  {
    Buffer kept = Buffer::of<float>(dev, n), count = Buffer::of<std::int32_t>(dev, 1);
    GenericScanKernel compact(DType::int32, "const float *x, float *kept, int *count", "x[i] > 0 ? 1 : 0", "a + b",
                              "0", "if (prev_item != item) kept[item - 1] = x[i]; if (i == n - 1) *count = item;", {},
                              {}, "compact");
    compact(q, n, dx, kept, count);
    std::vector<float> ref;
    for (float v : x) {
      if (v > 0) ref.push_back(v);
    }
    const auto c = download<std::int32_t>(q, count, 1);
    ASSERT_EQ(static_cast<std::size_t>(c[0]), ref.size());
    EXPECT_EQ(download<float>(q, kept, ref.size()), ref);
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

INSTANTIATE_TEST_SUITE_P(AllDevices, Generators, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
