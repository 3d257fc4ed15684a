// Arrays on every device, checked against a host reference written out here: creation and
// copies, views (reshape, transpose, slices with steps, broadcast_to), the errors a user can
// make, and expressions fused into one kernel. Arithmetic and promotion: test_arithmetic.cpp;
// reductions: tests/algorithms/test_reductions.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "arrays_fixture.hpp"
#include "support.hpp"

namespace weft {
namespace {

TEST_P(Arrays, CreationAndRoundTrip) {
  const auto v = iota_f(12);
  Array a = make(v, Shape{3, 4});
  EXPECT_EQ(a.shape(), (Shape{3, 4}));
  EXPECT_EQ(a.dtype(), DType::float32);
  EXPECT_TRUE(a.is_contiguous());
  EXPECT_EQ(a.to_host<float>(), v);

  EXPECT_EQ(Array::full({5}, 2.5, DType::float64, dev).to_host<double>(), std::vector<double>(5, 2.5));
  EXPECT_EQ(Array::zeros({2, 2}, DType::int32, dev).to_host<std::int32_t>(), std::vector<std::int32_t>(4, 0));
  EXPECT_EQ(Array::ones({3}, DType::uint8, dev).to_host<std::uint8_t>(), std::vector<std::uint8_t>(3, 1));
  EXPECT_EQ(Array::arange(2, 11, 3, DType::int64, dev).to_host<std::int64_t>(), (std::vector<std::int64_t>{2, 5, 8}));
  EXPECT_EQ(Array::arange(1, 0, -0.25, DType::float32, dev).to_host<float>(),
            (std::vector<float>{1.0f, 0.75f, 0.5f, 0.25f}));
  EXPECT_EQ(Array::arange(5, 5, 1, DType::float32, dev).size(), 0);
  // Long ranges: the indices are made on the device (a kernel) rather than uploaded.
  const std::vector<std::int64_t> wide = Array::arange_integers(-7, 200000 * 3 - 7, 3, DType::int64, dev).to_host<std::int64_t>();
  ASSERT_EQ(wide.size(), 200000u);
  EXPECT_EQ(wide[0], -7);
  EXPECT_EQ(wide[123457], -7 + 3 * 123457);
  EXPECT_EQ(wide.back(), -7 + 3 * 199999);
  const std::vector<std::int8_t> wraps = Array::arange_integers(0, 70000, 1, DType::int8, dev).to_host<std::int8_t>();
  EXPECT_EQ(wraps[300], static_cast<std::int8_t>(300 - 256));
  const std::vector<float> down = Array::arange(1e5, -1e5, -2.5, DType::float32, dev).to_host<float>();
  ASSERT_EQ(down.size(), 80000u);
  EXPECT_EQ(down[79999], static_cast<float>(1e5 - 2.5 * 79999));
  EXPECT_EQ(a.describe(), "float32 array of shape (3, 4) on " + dev.selector());
}

TEST_P(Arrays, ViewsShareMemoryAndIndexCorrectly) {
  const auto v = iota_f(24);
  Array a = make(v, Shape{4, 6});
  Array t = a.transpose();
  EXPECT_EQ(t.shape(), (Shape{6, 4}));
  EXPECT_FALSE(t.is_contiguous());
  const auto th = t.to_host<float>();
  for (std::size_t r = 0; r < 6; ++r) {
    for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(th[r * 4 + k], v[k * 6 + r]);
  }
  // Every other column, backwards: a[:, ::-2] -> columns 5, 3, 1.
  Array s = a.slice(1, Array::none, Array::none, -2);
  EXPECT_EQ(a.slice(1, 5, -1, -2).shape(), (Shape{4, 0}));  // as NumPy's a[:, 5:-1:-2]
  EXPECT_EQ(s.shape(), (Shape{4, 3}));
  const auto sh = s.to_host<float>();
  for (std::size_t r = 0; r < 4; ++r) {
    for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(sh[r * 3 + k], v[r * 6 + 5 - 2 * k]);
  }
  // Rows 1..3 then reshape of a contiguous copy.
  Array rows = a.slice(0, 1, 3);
  EXPECT_EQ(rows.to_host<float>(), std::vector<float>(v.begin() + 6, v.begin() + 18));
  EXPECT_EQ(rows.copy().reshape({-1}).shape(), (Shape{12}));
  EXPECT_EQ(a.reshape({2, -1, 3}).shape(), (Shape{2, 4, 3}));
  EXPECT_EQ(t.reshape({24}).to_host<float>(), th);  // not contiguous: reshape copies
  EXPECT_EQ(a.reshape({24}).buffer().impl(), a.buffer().impl());  // contiguous: a view
  // Arithmetic on a transposed view and a sliced view together.
  Array sum = eval(t + t);
  const auto sumh = sum.to_host<float>();
  for (std::size_t i = 0; i < 24; ++i) EXPECT_EQ(sumh[i], 2 * th[i]);
  // broadcast_to repeats with stride 0.
  Array row = make(std::vector<float>{1, 2, 3}, Shape{3});
  Array bc = row.broadcast_to({2, 3});
  EXPECT_EQ(bc.strides(), (Strides{0, 1}));
  EXPECT_EQ(bc.to_host<float>(), (std::vector<float>{1, 2, 3, 1, 2, 3}));
  // Writing through a view changes the base array.
  a.slice(1, 0, 6, 5).assign(Expr(-1.0));
  const auto after = a.to_host<float>();
  for (std::size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(after[r * 6 + 0], -1.0f);
    EXPECT_EQ(after[r * 6 + 5], -1.0f);
    EXPECT_EQ(after[r * 6 + 2], v[r * 6 + 2]);
  }
}

TEST_P(Arrays, AssignmentFromAnOverlappingViewReadsTheOldValues) {
  const auto v = iota_f(9);
  Array a = make(v, Shape{3, 3});
  a.assign(a.transpose() + 0.0);  // in place: a = a.T
  const auto h = a.to_host<float>();
  for (std::size_t r = 0; r < 3; ++r) {
    for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(h[r * 3 + k], v[k * 3 + r]);
  }
  Array b = make(iota_f(6), Shape{6});
  b.slice(0, 1, 6).assign(b.slice(0, 0, 5));  // shift right by one, as NumPy's b[1:] = b[:-1]
  EXPECT_EQ(b.to_host<float>(), (std::vector<float>{0, 0, 1, 2, 3, 4}));
}

TEST_P(Arrays, ErrorsNameWhatWasWrong) {
  Array a = Array::zeros({3, 4}, DType::float32, dev);
  Array b = Array::zeros({3}, DType::float32, dev);
  try {
    eval(a + b);
    FAIL() << "shapes (3, 4) and (3,) do not broadcast";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("(3, 4)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot be broadcast"), std::string::npos) << e.what();
  }
  EXPECT_THROW(a.to_host<double>(), InvalidArgument);
  EXPECT_THROW(a.reshape({5, -1}), InvalidArgument);
  EXPECT_THROW(a.assign(Array::zeros({2, 4}, DType::float32, dev)), InvalidArgument);
  EXPECT_THROW(a.slice(2, 0, 1), InvalidArgument);
  const std::vector<float> five(5);
  EXPECT_THROW(Array::from_host<float>(std::span<const float>(five), Shape{2, 3}, dev), InvalidArgument);
  EXPECT_THROW(Array::empty({2}, DType::float16, dev), Unsupported);
}

TEST_P(Arrays, LinspaceAndRavel) {
  EXPECT_EQ(Array::linspace(0, 1, 5, DType::float32, dev).to_host<float>(), (std::vector<float>{0, 0.25f, 0.5f, 0.75f, 1}));
  EXPECT_EQ(Array::linspace(0, 1, 4, DType::float64, dev, false).to_host<double>(), (std::vector<double>{0, 0.25, 0.5, 0.75}));
  EXPECT_EQ(Array::linspace(2, 3, 1, DType::float64, dev).to_host<double>(), (std::vector<double>{2}));
  EXPECT_EQ(Array::linspace(0, 1, 0, DType::float64, dev).size(), 0);
  const auto last = Array::linspace(0.1, 0.7, 7, DType::float64, dev).to_host<double>();
  EXPECT_EQ(last.back(), 0.7);  // exactly stop
  Array a = make(iota_f(6), Shape{2, 3});
  EXPECT_EQ(a.ravel().shape(), (Shape{6}));
  EXPECT_EQ(a.transpose().ravel().to_host<float>(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST_P(Arrays, AnExpressionIsOneKernel) {
  Array a = make(iota_f(1000), Shape{10, 100});
  Array b = make(iota_f(100, 1), Shape{100});
  Array c = Array::empty({10, 100}, DType::float32, dev);
  c.assign(a * b + sin(a));  // warm: the kernel is built once
  const auto before = elementwise_launches(dev);
  c.assign(a * b + sin(a));
  Array d = eval(where(a > 500, sqrt(a) * b - 1, exp(-a / 100)) + maximum(a, b) / 3);
  synchronize(dev);
  EXPECT_EQ(elementwise_launches(dev) - before, 2u);
  EXPECT_EQ(d.shape(), (Shape{10, 100}));
}

TEST_P(Arrays, OneKernelCountedFromTheQueuesEvents) {
  Array a = make(iota_f(1000), Shape{10, 100});
  Array b = make(iota_f(100, 1), Shape{100});
  Array c = Array::empty({10, 100}, DType::float32, dev);
  c.assign(a * b + sin(a));  // warm: the build is not a launch, but keep the count clean
  synchronize(dev);
  LaunchLog log(array_queue(dev));
  c.assign(a * b + sin(a));
  synchronize(dev);
  const auto entries = log.entries();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].kernel, "weft_expr");
  EXPECT_TRUE(entries[0].event.done());
  // The array queue does not profile (QueueOptions): its events say how to get times.
  EXPECT_FALSE(array_queue(dev).profiling());
  try {
    (void)entries[0].event.profile();
    ADD_FAILURE() << "profile() of an event of a queue without profiling returned";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("QueueOptions{.profiling = true}"), std::string::npos) << e.what();
  }
}

TEST_P(Arrays, TheSameViewIsOneParameterAndLargeTreesAreCut) {
  // Twelve uses of one strided 3-d view: one kernel parameter set, one kernel.
  std::vector<double> ones(24, 1.0);
  Array v = make(ones, Shape{4, 2, 3}).transpose();
  Expr x = v;
  for (int k = 0; k < 11; ++k) x = x + v;
  auto before = elementwise_launches(dev);
  EXPECT_EQ(eval(x).to_host<double>(), std::vector<double>(24, 12.0));
  EXPECT_EQ(elementwise_launches(dev) - before, 1u);

  // Twenty distinct strided views (more parameters than the host backend's 64) and a chain
  // 100 deep (deeper than compilers nest brackets): cut into several kernels, still exact.
  std::vector<double> base(24 * 3 * 5);
  std::iota(base.begin(), base.end(), 0.0);
  Array w = make(base, Shape{24, 3, 5});
  Expr total = w.slice(0, 0, 4).transpose();
  for (int k = 1; k < 20; ++k) total = total + w.slice(0, k, k + 4).transpose() * static_cast<double>(k + 1);
  before = elementwise_launches(dev);
  const auto got = eval(total).to_host<double>();
  EXPECT_GT(elementwise_launches(dev) - before, 1u);
  ASSERT_EQ(got.size(), 5u * 3 * 4);
  for (std::int64_t i = 0; i < 5; ++i) {
    for (std::int64_t j = 0; j < 3; ++j) {
      for (std::int64_t m = 0; m < 4; ++m) {
        double want = 0;
        for (int k = 0; k < 20; ++k) want += base[static_cast<std::size_t>(((m + k) * 3 + j) * 5 + i)] * (k + 1);
        EXPECT_EQ(got[static_cast<std::size_t>((i * 3 + j) * 4 + m)], want) << i << "," << j << "," << m;
      }
    }
  }
  Array one = make(std::vector<std::int32_t>{1, 2, 3}, Shape{3});
  Expr chain = one;
  for (int k = 0; k < 100; ++k) chain = (chain + 1) * 1;
  EXPECT_EQ(eval(chain).to_host<std::int32_t>(), (std::vector<std::int32_t>{101, 102, 103}));
  EXPECT_EQ(sum(chain, {}, false).to_host<std::int64_t>(), (std::vector<std::int64_t>{306}));
}

// Every file's TEST_P(Arrays, ...) runs on these devices.
INSTANTIATE_TEST_SUITE_P(AllDevices, Arrays, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
