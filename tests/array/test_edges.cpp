// Inputs at the edges of what arrays hold: every one gets the right answer or a clear error,
// never a wrapped size, a rounded integer or a write past a buffer (issue 23's cases).
#include <gtest/gtest.h>

#include "support.hpp"

namespace weft {
namespace {

class Edges : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();
};

TEST(Shapes, AnElementCountThatOverflowsIsRefused) {
  const std::int64_t big = std::int64_t{1} << 32;
  EXPECT_THROW(Shape({big, big}), InvalidArgument);
  EXPECT_THROW(Shape({big, big, 4}), InvalidArgument);
  EXPECT_EQ(Shape({big, big, 0}).size(), 0);  // an empty shape of large extents is fine
  EXPECT_EQ(Shape({big, 1 << 30}).size(), std::int64_t{1} << 62);
}

TEST_P(Edges, AnArrayOfMoreBytesThanAnAddressHoldsIsOutOfMemoryNamingIt) {
  try {
    (void)Array::empty(Shape{std::int64_t{1} << 61}, DType::float64, dev);
    FAIL() << "2**61 float64 elements were accepted";
  } catch (const OutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find("2305843009213693952"), std::string::npos) << e.what();
  }
}

TEST_P(Edges, ArangeRefusesBoundsThatAreNotFinite) {
  const double nan = std::nan("");
  EXPECT_THROW(Array::arange(0, nan, 1, DType::float64, dev), InvalidArgument);
  EXPECT_THROW(Array::arange(0, INFINITY, 1, DType::float64, dev), InvalidArgument);
  EXPECT_THROW(Array::arange(0, 1e300, 1e-300, DType::float64, dev), InvalidArgument);
}

TEST_P(Edges, IntegersAbove2To53AreExact) {
  const std::int64_t base = (std::int64_t{1} << 53) + 1;  // not a double
  const auto r = Array::arange_integers(base, base + 5, 2, DType::int64, dev).to_host<std::int64_t>();
  EXPECT_EQ(r, (std::vector<std::int64_t>{base, base + 2, base + 4}));
  const auto f = Array::full({3}, Expr(static_cast<long long>(base)), DType::int64, dev).to_host<std::int64_t>();
  EXPECT_EQ(f, std::vector<std::int64_t>(3, base));
  const auto down = Array::arange_integers(INT64_MAX, INT64_MAX - 7, -3, DType::int64, dev).to_host<std::int64_t>();
  EXPECT_EQ(down, (std::vector<std::int64_t>{INT64_MAX, INT64_MAX - 3, INT64_MAX - 6}));
  EXPECT_EQ(Array::arange_integers(0, -5, 1, DType::int64, dev).size(), 0);
}

TEST_P(Edges, APlainIntegerOutsideTheDtypeIsRefusedNotWrapped) {
  EXPECT_THROW(Array::full({4}, Expr(300), DType::int8, dev), ValueOutOfRange);
  Array a = Array::zeros({4}, DType::uint8, dev);
  EXPECT_THROW(a.assign(Expr(-1)), ValueOutOfRange);
  EXPECT_THROW(a.assign(Expr(256)), ValueOutOfRange);
  a.assign(Expr(255));
  EXPECT_EQ(a.to_host<std::uint8_t>(), std::vector<std::uint8_t>(4, 255));
  Array b = Array::zeros({2}, DType::bool_, dev);
  b.assign(Expr(5));  // bools take any number, as NumPy's
  EXPECT_EQ(b.astype(DType::uint8).to_host<std::uint8_t>(), std::vector<std::uint8_t>(2, 1));
}

TEST_P(Edges, ElementwiseKernelRefusesAnArrayShorterThanItsRange) {
  ElementwiseKernel axpy("float a, const float *x, float *y", "y[i] = a * x[i] + y[i]", "edges_axpy");
  Queue q(dev);
  Buffer x = Buffer::of<float>(dev, 1000), y = Buffer::of<float>(dev, 10);
  try {
    axpy(q, 1000, 2.0f, x, y);
    FAIL() << "a 10-element y was written for i up to 999";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("'y'"), std::string::npos) << e.what();
  }
  // An array read otherwise than x[i] (a lookup table) may be shorter.
  ElementwiseKernel lut("const float *table, const int *idx, float *out", "out[i] = table[idx[i]]", "edges_lut");
  Buffer table = Buffer::of<float>(dev, 4), idx = Buffer::of<std::int32_t>(dev, 100), out = Buffer::of<float>(dev, 100);
  const std::vector<std::int32_t> zeros(100, 0);
  q.write(idx, zeros.data(), 400);
  const float t[4] = {5, 6, 7, 8};
  q.write(table, t, 16);
  lut(q, 100, table, idx, out).wait();
  EXPECT_EQ(test::download<float>(q, out, 100), std::vector<float>(100, 5.0f));
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Edges, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
