// Dialect kernels on every device: the slides' vector add, vector types, built-ins,
// work-item functions, atomics, by-value structs, and the errors users hit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "backends/host/host_compiler.hpp"
#include "embedded/weft_test_kernels.hpp"
#include "support.hpp"

namespace weft {
namespace {

using test::download;
using test::upload;

class Kernels : public ::testing::TestWithParam<Device> {
 protected:
  Device dev = GetParam();
  Queue q{dev};
};

TEST_P(Kernels, SeedVectorAddMatchesCxxExactly) {
  Kernel k = Program::build(dev, test_kernels::seed_vadd_cl).kernel("vadd");
  for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{10000000}}) {
    const auto a = test::random_vector<float>(n, 11, -100.0f, 100.0f);
    const auto b = test::random_vector<float>(n, 12, -100.0f, 100.0f);
    Buffer da = upload(q, a), db = upload(q, b), dc = test::poisoned<float>(q, n);
    k.set_args(da, db, dc);
    q.launch(k, n);
    const auto c = download<float>(q, dc, n);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < n; ++i) mismatches += c[i] != a[i] + b[i];
    EXPECT_EQ(mismatches, 0u) << "n = " << n;
  }
}

TEST_P(Kernels, VectorLiteralsAndSwizzles) {
  Program p = Program::build(dev, test_kernels::vector_types_cl);
  {
    Buffer out = test::poisoned<float>(q, 2 * 16);
    Kernel k = p.kernel("literals");
    k.set_args(out, 3.0f);
    q.launch(k, 2);
    const auto o = download<float>(q, out, 16);
    EXPECT_EQ(std::vector<float>(o.begin(), o.begin() + 4), (std::vector<float>{1, 2, 3, 4}));
    EXPECT_EQ(std::vector<float>(o.begin() + 4, o.begin() + 8), (std::vector<float>{3, 6, 6, 3}));
    EXPECT_EQ(std::vector<float>(o.begin() + 8, o.begin() + 12), (std::vector<float>{3, 3, 3, 3}));
    EXPECT_EQ(std::vector<float>(o.begin() + 12, o.begin() + 16), (std::vector<float>{3, 5, 6, 6}));
  }
  {
    const std::vector<float> in{1, 2, 3, 4};
    Buffer din = upload(q, in), out = test::poisoned<float>(q, 12);
    Kernel k = p.kernel("swizzles");
    k.set_args(din, out);
    q.launch(k, 1);
    const auto o = download<float>(q, out, 12);
    // w = wzyx = (4,3,2,1); w.xy = zw -> (3,4,2,1); w.s3 = 1+2 -> (3,4,2,3); w.lo += (10,20)
    EXPECT_EQ(std::vector<float>(o.begin(), o.begin() + 4), (std::vector<float>{13, 24, 2, 3}));
    EXPECT_EQ(std::vector<float>(o.begin() + 4, o.begin() + 8), (std::vector<float>{1, 3, 2, 4}));
    EXPECT_EQ(std::vector<float>(o.begin() + 8, o.begin() + 12), (std::vector<float>{5, 7, 1, 3}));
  }
}

TEST_P(Kernels, VectorComparisonsConversionsAndLoads) {
  Program p = Program::build(dev, test_kernels::vector_types_cl);
  const std::size_t n = 64;
  const auto a = test::random_vector<float>(4 * n, 3, -2.0f, 300.0f);
  const auto b = test::random_vector<float>(4 * n, 4, -2.0f, 300.0f);
  Buffer da = upload(q, a), db = upload(q, b);
  {
    Buffer out = test::poisoned<float>(q, 4 * n), mask = test::poisoned<int>(q, 4 * n);
    Kernel k = p.kernel("compare_select");
    k.set_args(da, db, out, mask);
    q.launch(k, n);
    const auto o = download<float>(q, out, 4 * n);
    const auto m = download<int>(q, mask, 4 * n);
    for (std::size_t i = 0; i < 4 * n; ++i) {
      EXPECT_EQ(m[i], a[i] > b[i] ? -1 : 0) << i;
      EXPECT_EQ(o[i], a[i] > b[i] ? a[i] : b[i]) << i;
    }
  }
  {
    Buffer sat = test::poisoned<int>(q, 4 * n), bits = test::poisoned<unsigned>(q, n),
           bytes = test::poisoned<unsigned char>(q, 4 * n);
    Kernel k = p.kernel("conversions");
    k.set_args(da, sat, bits, bytes);
    q.launch(k, n);
    const auto s = download<int>(q, sat, 4 * n);
    const auto bi = download<unsigned>(q, bits, n);
    const auto by = download<unsigned char>(q, bytes, 4 * n);
    for (std::size_t i = 0; i < 4 * n; ++i) {
      const double big = static_cast<double>(a[i] * 1e10f);
      const int expect = big >= 2147483647.0 ? 2147483647 : big <= -2147483648.0 ? -2147483647 - 1 : static_cast<int>(a[i] * 1e10f);
      EXPECT_EQ(s[i], expect) << i;
      const unsigned char eb = a[i] <= 0 ? 0 : a[i] >= 255 ? 255 : static_cast<unsigned char>(a[i]);
      EXPECT_EQ(by[i], eb) << a[i];
    }
    for (std::size_t i = 0; i < n; ++i) {
      unsigned expect;
      std::memcpy(&expect, &a[4 * i], 4);
      EXPECT_EQ(bi[i], expect);
    }
  }
  {
    Buffer out = test::poisoned<float>(q, 4 * n);
    Kernel k = p.kernel("load_store");
    k.set_args(da, out);
    q.launch(k, n);
    const auto o = download<float>(q, out, 4 * n);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t c = 0; c < 4; ++c) EXPECT_EQ(o[4 * i + c], a[4 * i + 3 - c] + static_cast<float>(c + 1));
    }
  }
}

TEST_P(Kernels, IntegerAndThreeWideVectors) {
  Program p = Program::build(dev, test_kernels::vector_types_cl);
  const std::size_t n = 32;
  const auto a = test::random_vector<int>(4 * n, 5, -1000, 1000);
  Buffer da = upload(q, a), out = test::poisoned<int>(q, 8 * n);
  Kernel k = p.kernel("int_vectors");
  k.set_args(da, out);
  q.launch(k, n);
  const auto o = download<int>(q, out, 8 * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t c = 0; c < 4; ++c) {
      const int v = a[4 * i + c];
      EXPECT_EQ(o[8 * i + c], ((v << 2) ^ (v >> 1)) | (v & 7));
      EXPECT_EQ(o[8 * i + 4 + c], std::abs(v - 100) + std::max(v, 3) + std::clamp(v, -5, 5));
    }
  }
  // float3 occupies four floats per element, as in OpenCL.
  std::vector<float> v3(4 * n);
  for (std::size_t i = 0; i < v3.size(); ++i) v3[i] = static_cast<float>(i % 7) - 3.0f;
  Buffer d3 = upload(q, v3), o3 = test::poisoned<float>(q, 4 * n);
  Kernel k3 = p.kernel("three_wide");
  k3.set_args(d3, o3);
  q.launch(k3, n);
  const auto r = download<float>(q, o3, 4 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const float x = v3[4 * i], y = v3[4 * i + 1], z = v3[4 * i + 2];
    const float d = x * x + y * y + z * z;
    EXPECT_EQ(r[4 * i + 0], y * 1.0f - z * 0.0f + d);
    EXPECT_EQ(r[4 * i + 1], z * 0.0f - x * 1.0f + d);
    EXPECT_EQ(r[4 * i + 2], x * 0.0f - y * 0.0f + d);
  }
}

TEST_P(Kernels, MathBuiltinsMatchTheCLibrary) {
  Program p = Program::build(dev, test_kernels::builtins_cl);
  const std::size_t n = 257;
  auto x = test::random_vector<float>(n, 6, -3.0f, 3.0f);
  x[0] = 0.0f;
  Buffer dx = upload(q, x), out = test::poisoned<float>(q, 16 * n);
  Kernel k = p.kernel("float_math");
  k.set_args(dx, out);
  q.launch(k, n);
  const auto o = download<float>(q, out, 16 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const double v = x[i], a = std::fabs(v) + 0.5;
    const double ref[16] = {std::sqrt(a), std::exp(v), std::log(a), std::sin(v), std::cos(v),
                            std::pow(a, 1.5), std::atan2(v, a), std::fmin(v, 0.25), std::fmax(v, 0.25),
                            std::floor(x[i] * 3.0f), std::ceil(x[i] * 3.0f), std::round(x[i] * 3.0f),
                            v * 2 + 1, std::clamp(v, -0.5, 0.5), (x[i] == 0.0f ? 1.0 : 0.0) + 2.0,
                            1 / std::sqrt(a)};
    for (int c = 0; c < 16; ++c) {
      // OpenCL's accuracy bounds are a few ulp (4 for exp and pow); 1e-5 relative covers them.
      EXPECT_NEAR(o[16 * i + static_cast<std::size_t>(c)], ref[c], 1e-5 * std::max(1.0, std::fabs(ref[c])))
          << "column " << c << " x = " << x[i];
    }
  }
  if (dev.info().fp64) {
    const auto xd = test::random_vector<double>(n, 7, -3.0, 3.0);
    Buffer ddx = upload(q, xd), dout = test::poisoned<double>(q, 2 * n);
    Kernel kd = p.kernel("double_math");
    kd.set_args(ddx, dout);
    q.launch(kd, n);
    const auto od = download<double>(q, dout, 2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      const double a = std::fabs(xd[i]) + 0.5;
      EXPECT_NEAR(od[2 * i], std::sqrt(a) + std::exp(xd[i]), 1e-12 * (1 + std::exp(xd[i])));
      EXPECT_NEAR(od[2 * i + 1], std::hypot(xd[i], a), 1e-12 * a * 4);
    }
  }
}

TEST_P(Kernels, WorkItemFunctionsIn3DWithOffsetsAndGroups) {
  Kernel k = Program::build(dev, test_kernels::work_items_cl).kernel("ids");
  const NDRange global(8, 6, 4), local(4, 3, 2), offset(1, 2, 3);
  const std::size_t n = global.total();
  Buffer out = test::poisoned<unsigned>(q, 8 * n);
  k.set_args(out);
  q.launch(k, global, local, offset);
  const auto o = download<unsigned>(q, out, 8 * n);
  for (std::size_t z = 0; z < 4; ++z) {
    for (std::size_t y = 0; y < 6; ++y) {
      for (std::size_t x = 0; x < 8; ++x) {
        const std::size_t li = x + 8 * (y + 6 * z);
        const unsigned* r = &o[8 * li];
        EXPECT_EQ(r[0], x + 1);
        EXPECT_EQ(r[1], y + 2);
        EXPECT_EQ(r[2], z + 3);
        EXPECT_EQ(r[3], x % 4 + 100 * (y % 3) + 10000 * (z % 2));
        EXPECT_EQ(r[4], x / 4 + 100 * (y / 3) + 10000 * (z / 2));
        EXPECT_EQ(r[5], 2u * 2u * 2u);
        EXPECT_EQ(r[6], 3u);
        // linear_id() uses the global ids (offset included) from a helper function.
        EXPECT_EQ(r[7], (x + 1) + 8 * ((y + 2) + 6 * (z + 3)));
      }
    }
  }
}

TEST_P(Kernels, AtomicsStructsAndScalarArguments) {
  Program p = Program::build(dev, test_kernels::misc_cl);
  {
    const std::size_t n = 100000;
    const auto values = test::random_vector<unsigned>(n, 8, 0, 1000000);
    Buffer dv = upload(q, values), bins(dev, 16 * 4);
    const int zero = 0;
    q.fill(bins, &zero, 4, 0, bins.size());
    Kernel k = p.kernel("histogram");
    k.set_args(dv, bins, 16u);
    q.launch(k, n);
    const auto h = download<int>(q, bins, 16);
    std::vector<int> ref(16);
    for (auto v : values) ref[v % 16]++;
    EXPECT_EQ(h, ref);
  }
  {
    struct Params {
      float scale;
      int shift;
      float pad[2];
    } params{2.0f, 5, {0, 0}};
    const auto in = test::random_vector<float>(100, 9, -1.0f, 1.0f);
    Buffer din = upload(q, in), dout = test::poisoned<float>(q, 100);
    Kernel k = p.kernel("apply");
    k.set_args(din, dout, params);
    q.launch(k, 100);
    const auto o = download<float>(q, dout, 100);
    for (std::size_t i = 0; i < 100; ++i) EXPECT_EQ(o[i], in[i] * 2.0f + 5.0f);
    struct Wrong {
      double x;
    };
    EXPECT_THROW(k.set_arg(2, Wrong{1.0}), InvalidArgument);
  }
  {
    Buffer out = test::poisoned<double>(q, 10);
    Kernel k = p.kernel("scalars");
    k.set_args(out, std::int8_t{-3}, std::uint8_t{250}, std::int16_t{-300}, std::uint16_t{60000}, -70000,
               4000000000u, std::int64_t{-5000000000}, std::uint64_t{9000000000}, 1.5f, 2.25);
    q.launch(k, 1);
    const auto o = download<double>(q, out, 10);
    EXPECT_EQ(o, (std::vector<double>{-3, 250, -300, 60000, -70000, 4000000000.0, -5000000000.0,
                                      9000000000.0, 1.5, 2.25}));
  }
}

TEST_P(Kernels, WrongArgumentsFailClearlyAndTheProcessGoesOn) {
  Kernel k = Program::build(dev, test_kernels::misc_cl).kernel("guarded");
  Buffer x(dev, 64 * 4);
  try {
    k.set_arg(1, 2.0f);  // int n
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("guarded"), std::string::npos) << m;
    EXPECT_NE(m.find("'int n'"), std::string::npos) << m;
    EXPECT_NE(m.find("float32"), std::string::npos) << m;
  }
  EXPECT_THROW(k.set_arg(0, 5), InvalidArgument);   // a value for a pointer
  EXPECT_THROW(k.set_arg(1, x), InvalidArgument);   // a buffer for a value
  EXPECT_THROW(k.set_arg(2, 1), InvalidArgument);   // no such argument
  EXPECT_THROW(k.set_args(x), InvalidArgument);     // too few
  k.set_arg(0, x);
  EXPECT_THROW(q.launch(k, 64), InvalidArgument);   // n never set
  k.set_arg(1, 64);
  EXPECT_THROW(q.launch(k, 64, 7), InvalidArgument);  // 64 is no multiple of 7
  EXPECT_THROW(q.launch(k, 64, NDRange(8, 8)), InvalidArgument);
  EXPECT_THROW(q.launch(k, NDRange()), InvalidArgument);
  const std::size_t too_big = dev.info().max_work_group_size * 2;
  EXPECT_THROW(q.launch(k, too_big, too_big), InvalidArgument);
  EXPECT_THROW(Program::build(dev, test_kernels::misc_cl).kernel("nope"), InvalidArgument);
  // Everything still works.
  std::vector<float> ones(64, 1.0f);
  q.write(x, ones.data(), 256);
  q.launch(k, 64, 16);
  EXPECT_EQ(download<float>(q, x, 64), std::vector<float>(64, 3.0f));
}

TEST_P(Kernels, SyntaxErrorRaisesBuildErrorWithTheLine) {
  const std::string src =
      "__kernel void broken(__global float *x)\n"
      "{\n"
      "    int i = get_global_id(0);\n"
      "    x[i] = undefined_thing + 1.0f;\n"
      "}\n";
  try {
    Program::build(dev, src);
    FAIL() << "expected BuildError";
  } catch (const BuildError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("undefined_thing"), std::string::npos) << m;
    EXPECT_NE(m.find("4 |"), std::string::npos) << m;  // the offending line, numbered
    EXPECT_FALSE(e.log().empty());
    EXPECT_EQ(e.source(), src);
  }
  // A later good build on the same device still works.
  EXPECT_NO_THROW(Program::build(dev, test_kernels::seed_vadd_cl).kernel("vadd"));
}

TEST_P(Kernels, BuildOptionsDefineMacros) {
  const std::string src =
      "__kernel void k(__global int *x) { x[get_global_id(0)] = SCALE * (int)get_global_id(0); }";
  Kernel k = Program::build(dev, src, "-D SCALE=7 -cl-mad-enable").kernel("k");
  Buffer x = test::poisoned<int>(q, 10);
  k.set_args(x);
  q.launch(k, 10);
  const auto o = download<int>(q, x, 10);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(o[static_cast<std::size_t>(i)], 7 * i);
  EXPECT_THROW(Program::build(dev, src, "--frobnicate"), InvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Kernels, ::testing::ValuesIn(test::test_devices()), test::device_name);

TEST(HostBackend, RunsWorkGroupKernelsAndRefusesBarriersInHelpers) {
  Device dev = device("host");
  Queue q(dev);
  Program p = Program::build(dev, test_kernels::group_features_cl);
  {
    std::vector<float> in(256);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 7);
    Buffer x = upload(q, in);
    Buffer out = Buffer::of<float>(dev, 4);
    Kernel sum = p.kernel("block_sum");
    sum.set_args(x, out);
    q.launch(sum, NDRange(256), NDRange(64));
    const auto got = download<float>(q, out, 4);
    for (std::size_t g = 0; g < 4; ++g) {
      float want = 0;
      for (std::size_t i = 0; i < 64; ++i) want += in[g * 64 + i];
      EXPECT_EQ(got[g], want) << g;
    }
  }
  try {
    p.kernel("via_helper");
    FAIL() << "expected Unsupported";
  } catch (const Unsupported& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("via_helper"), std::string::npos) << m;
    EXPECT_NE(m.find("sync_group()"), std::string::npos) << m;
    EXPECT_NE(m.find("opencl:cpu"), std::string::npos) << m;
  }
  Kernel k = p.kernel("scale");
  std::vector<float> v(100, 2.0f);
  Buffer x = upload(q, v);
  k.set_args(x, 1.5f);
  q.launch(k, 100);
  EXPECT_EQ(download<float>(q, x, 100), std::vector<float>(100, 3.0f));
}

TEST(HostBackend, BuffersAreHostAddressable) {
  Buffer b(device("host"), 4096);
  ASSERT_NE(b.host_ptr(), nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.host_ptr()) % 64, 0u);
}

TEST(HostBackend, TinyLaunchesOnAnIdleQueueRunOnTheCallersThreadLongOnesDoNot) {
  const Device dev = device("host");
  Kernel k = Program::build(dev, R"(
      __kernel void spin(__global double *x, long n) {
          double s = x[get_global_id(0)];
          for (long i = 0; i < n; ++i) s = s * 0.999999 + 1e-9;
          x[get_global_id(0)] = s;
      })").kernel("spin");
  Queue q(dev, QueueOptions{.profiling = true});
  Buffer x = Buffer::of<double>(dev, 16);
  const double zero = 0;
  q.fill(x, &zero, sizeof zero, 0, x.size());
  // A short kernel: once a run of it has been measured short, a launch on the idle queue is
  // done on return. (A run can be measured long when the machine is busy: try a few times.)
  k.set_args(x, static_cast<long long>(10));
  bool done_on_return = false;
  for (int attempt = 0; attempt < 50 && !done_on_return; ++attempt) {
    const Event tiny = q.launch(k, 16);
    done_on_return = tiny.done();
    tiny.wait();
    EXPECT_GE(tiny.profile().end, tiny.profile().start);
  }
  EXPECT_TRUE(done_on_return);
  // A long run (tens of ms) makes the next launch of that kernel asynchronous again.
  k.set_args(x, static_cast<long long>(20'000'000));
  q.launch(k, 1).wait();
  const Event slow = q.launch(k, 1);
  EXPECT_FALSE(slow.done());
  slow.wait();
  // Commands queued behind a running one keep their order.
  k.set_args(x, static_cast<long long>(10));
  const Event after = q.launch(k, 16);
  after.wait();
  EXPECT_TRUE(slow.done());
}

TEST(HostBackend, AKernelMadeAnewFromItsProgramKnowsItsLastRunTime) {
  // polygon_mask and other calls make their kernel object anew on every call: the run time
  // that lets a short kernel run on the caller's thread belongs to the program's entry point.
  const Device dev = device("host");
  const Program p = Program::build(dev, R"(
      __kernel void twice(__global float *x) { x[get_global_id(0)] *= 2.0f; })");
  Queue q(dev);
  Buffer x = Buffer::of<float>(dev, 16);
  const float one = 1;
  q.fill(x, &one, sizeof one, 0, x.size());
  Kernel first = p.kernel("twice");
  const Kernel second = p.kernel("twice");
  const auto& later = static_cast<const detail::HostKernel&>(*second.impl());
  EXPECT_EQ(later.last_run_ns(), ~std::uint64_t{0});  // nothing has run
  first.set_args(x);
  q.launch(first, 16).wait();
  EXPECT_LT(later.last_run_ns(), ~std::uint64_t{0});  // another object of the same entry point knows the run
  // And a kernel made afresh after a short run is done on return (when the run was measured
  // short: a busy machine can make it long, so a few tries).
  bool done_on_return = false;
  for (int attempt = 0; attempt < 50 && !done_on_return; ++attempt) {
    Kernel k = p.kernel("twice");
    k.set_args(x);
    const Event e = q.launch(k, 16);
    done_on_return = e.done();
    e.wait();
  }
  EXPECT_TRUE(done_on_return);
}

}  // namespace
}  // namespace weft
