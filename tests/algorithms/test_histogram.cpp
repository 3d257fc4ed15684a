// histogram, bincount and histogram2d on every device against a plain reference of NumPy's
// rule (bins [e[k], e[k+1]), the last closed), on sizes around the launch's chunking, with
// NaN, infinities and values outside the range; each kernel variant (private histograms on the
// host backend, local memory and global atomics where work-groups exist) is reached.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "algorithms/histogram_kernel.hpp"
#include "support.hpp"
#include "weft/histogram.hpp"

namespace weft {
namespace {

// NumPy's bin of x among edges e, or -1.
long reference_bin(double x, const std::vector<double>& e) {
  const long nb = static_cast<long>(e.size()) - 1;
  if (!(x >= e.front() && x <= e.back())) return -1;
  if (x == e.back()) return nb - 1;
  long k = 0;
  while (k + 1 < nb && e[static_cast<std::size_t>(k + 1)] <= x) ++k;
  return k;
}

std::vector<double> reference_counts(const std::vector<double>& x, const std::vector<double>& e,
                                     const std::vector<double>* w = nullptr) {
  std::vector<double> c(e.size() - 1, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const long b = reference_bin(x[i], e);
    if (b >= 0) c[static_cast<std::size_t>(b)] += w ? (*w)[i] : 1.0;
  }
  return c;
}

std::vector<double> as_doubles(const Array& a) { return eval(astype(Expr(a), DType::float64)).to_host<double>(); }

// Floats in [-1, 11) with some NaN, infinities and exact edges mixed in.
std::vector<double> awkward(std::size_t n, unsigned seed) {
  std::vector<double> v = test::random_vector<double>(n, seed, -1.0, 11.0);
  for (std::size_t i = 0; i < n; i += 7) v[i] = static_cast<double>(i % 11);  // on edges
  if (n > 3) {
    v[1] = std::numeric_limits<double>::quiet_NaN();
    v[2] = std::numeric_limits<double>::infinity();
    v[3] = -std::numeric_limits<double>::infinity();
  }
  return v;
}

class Histograms : public ::testing::TestWithParam<Device> {
 protected:
  Device dev = GetParam();

  Array array_of(const std::vector<double>& v, DType t) {
    return eval(astype(Expr(Array::from_host<double>(v, Shape({static_cast<std::int64_t>(v.size())}), dev)), t));
  }
};

TEST_P(Histograms, EqualBinsOverARangeMatchTheReference) {
  for (std::size_t n : {0u, 1u, 2u, 7u, 1000u, 4097u, 70001u}) {
    for (DType t : {DType::float32, DType::float64}) {
      const std::vector<double> v = awkward(n, static_cast<unsigned>(n) + 3);
      const Array a = array_of(v, t);
      const Histogram h = histogram(a, 10, {.range = {{0.0, 10.0}}});
      ASSERT_EQ(h.edges.dtype(), t);
      ASSERT_EQ(h.counts.dtype(), DType::int64);
      const std::vector<double> e = as_doubles(h.edges);
      ASSERT_EQ(e.size(), 11u);
      for (std::size_t k = 0; k < e.size(); ++k) EXPECT_EQ(e[k], static_cast<double>(k));
      const std::vector<double> x = as_doubles(a);  // as the device holds them (float32 rounded)
      EXPECT_EQ(as_doubles(h.counts), reference_counts(x, e)) << "n=" << n << " " << name(t);
    }
  }
}

TEST_P(Histograms, IntegerDataFindItsOwnRange) {
  for (DType t : {DType::int8, DType::uint8, DType::int32, DType::uint64, DType::bool_}) {
    std::vector<double> v = test::random_vector<double>(5003, 9, 0.0, 100.0);
    for (auto& x : v) x = t == DType::bool_ ? static_cast<double>(static_cast<int>(x) % 2) : std::floor(x);
    const Array a = array_of(v, t);
    const Histogram h = histogram(a, 7);
    ASSERT_EQ(h.edges.dtype(), DType::float64);
    const std::vector<double> e = as_doubles(h.edges);
    EXPECT_EQ(e.front(), t == DType::bool_ ? 0.0 : *std::min_element(v.begin(), v.end()));
    EXPECT_EQ(e.back(), *std::max_element(v.begin(), v.end()));
    EXPECT_EQ(as_doubles(h.counts), reference_counts(v, e)) << name(t);
  }
}

TEST_P(Histograms, ExplicitEdgesSearch) {
  const std::vector<double> edges{-2.0, 0.0, 0.5, 0.5, 3.0, 7.25, 10.0};
  const std::vector<double> v = awkward(3001, 5);
  for (DType t : {DType::float32, DType::float64, DType::int16}) {
    std::vector<double> data = v;
    if (t == DType::int16) {
      for (auto& x : data) x = std::isfinite(x) ? std::floor(x) : 4.0;
    }
    const Array a = array_of(data, t);
    const Histogram h = histogram(a, Bins(array_of(edges, DType::float64)));
    EXPECT_EQ(as_doubles(h.counts), reference_counts(as_doubles(a), edges)) << name(t);
    EXPECT_EQ(as_doubles(h.edges), edges);
  }
  EXPECT_THROW(histogram(array_of(v, DType::float64), Bins(array_of({1.0, 0.0}, DType::float64))), InvalidArgument);
}

TEST_P(Histograms, WeightsAndDensity) {
  const std::vector<double> v = test::random_vector<double>(2049, 4, 0.0, 1.0);
  const std::vector<double> wi = test::random_vector<double>(2049, 5, -3.0, 9.0);
  std::vector<double> w(wi.size());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::floor(wi[i]);
  const Array a = array_of(v, DType::float64);
  for (DType wt : {DType::int32, DType::float64, DType::float32}) {
    const Array warr = array_of(w, wt);
    const Histogram h = histogram(a, 16, {.weights = Expr(warr)});
    ASSERT_EQ(h.counts.dtype(), wt);
    EXPECT_EQ(as_doubles(h.counts), reference_counts(v, as_doubles(h.edges), &w)) << name(wt);
  }
  const Histogram d = histogram(a, 8, {.range = {{0.0, 2.0}}, .density = true});
  ASSERT_EQ(d.counts.dtype(), DType::float64);
  const std::vector<double> c = as_doubles(d.counts);
  double integral = 0;
  for (double x : c) integral += x * 0.25;
  EXPECT_NEAR(integral, 1.0, 1e-12);
}

TEST_P(Histograms, AnExpressionIsReadInTheCountingKernel) {
  const std::vector<double> v = test::random_vector<double>(1000, 6, -2.0, 2.0);
  const Array a = array_of(v, DType::float64), b = array_of(v, DType::float64);
  const Array product = eval(Expr(a) * Expr(b));
  const auto before_plain = elementwise_launches(dev);
  const Histogram plain = histogram(product, 12, {.range = {{0.0, 3.0}}});
  const auto plain_launches = elementwise_launches(dev) - before_plain;
  const auto before_fused = elementwise_launches(dev);
  const Histogram fused = histogram(Expr(a) * Expr(b), 12, {.range = {{0.0, 3.0}}});
  EXPECT_EQ(elementwise_launches(dev) - before_fused, plain_launches);  // no temporary for a*b
  EXPECT_EQ(as_doubles(fused.counts), as_doubles(plain.counts));
}

TEST_P(Histograms, RangesAndBinsAreChecked) {
  std::vector<double> v{1.0, 2.0, std::numeric_limits<double>::quiet_NaN()};
  const Array a = array_of(v, DType::float64);
  EXPECT_THROW(histogram(a), InvalidArgument);  // autodetected range with NaN
  EXPECT_THROW(histogram(a, 0, {.range = {{0.0, 1.0}}}), InvalidArgument);
  EXPECT_THROW(histogram(a, 4, {.range = {{1.0, 0.0}}}), InvalidArgument);
  EXPECT_THROW(histogram(a, 4, {.range = {{0.0, INFINITY}}}), InvalidArgument);
  EXPECT_EQ(as_doubles(histogram(a, 4, {.range = {{0.0, 4.0}}}).counts), (std::vector<double>{0, 1, 1, 0}));
  const Histogram empty = histogram(array_of({}, DType::float32), 3);
  EXPECT_EQ(as_doubles(empty.counts), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(as_doubles(empty.edges).back(), 1.0);
}

TEST_P(Histograms, BincountCountsEachValue) {
  for (std::int64_t minlength : {0, 5, 300000}) {  // 300000 bins: the global variant on OpenCL CPUs
    std::vector<double> v = test::random_vector<double>(4099, 7, 0.0, 40.0);
    for (auto& x : v) x = std::floor(x);
    const Array x = array_of(v, DType::int32);
    std::vector<double> expect(static_cast<std::size_t>(std::max<std::int64_t>(40, minlength)), 0.0);
    for (double y : v) expect[static_cast<std::size_t>(y)] += 1;
    while (minlength < 40 && expect.back() == 0) expect.pop_back();
    const Array c = bincount(x, std::nullopt, minlength);
    ASSERT_EQ(c.dtype(), DType::int64);
    EXPECT_EQ(as_doubles(c), expect) << minlength;
    std::vector<double> weighted(expect.size(), 0.0);
    for (double y : v) weighted[static_cast<std::size_t>(y)] += y * 0.5;
    const Array cw = bincount(x, Expr(x) * 0.5, minlength);
    ASSERT_EQ(cw.dtype(), DType::float64);
    EXPECT_EQ(as_doubles(cw), weighted) << minlength;
  }
  EXPECT_EQ(bincount(array_of({}, DType::int64), std::nullopt, 3).size(), 3);
  EXPECT_THROW(bincount(array_of({1.0, -1.0}, DType::int64)), InvalidArgument);
  // 2^62 bins: refused, not a size that wraps around.
  EXPECT_THROW(bincount(array_of({4611686018427387904.0}, DType::int64)), InvalidArgument);
  EXPECT_THROW(bincount(array_of({1.0}, DType::float32)), InvalidArgument);
  EXPECT_THROW(bincount(array_of({1.0}, DType::int8), std::nullopt, -1), InvalidArgument);
}

TEST_P(Histograms, TwoDimensions) {
  const std::vector<double> x = awkward(3001, 11), y = test::random_vector<double>(3001, 12, 0.0, 5.0);
  const Array ax = array_of(x, DType::float64), ay = array_of(y, DType::float32);
  const std::vector<double> ey{0.0, 1.0, 2.5, 5.0};
  const Histogram2d h = histogram2d(ax, ay, 5, Bins(array_of(ey, DType::float64)), {.x_range = {{0.0, 10.0}}});
  ASSERT_EQ(h.counts.shape(), Shape({5, 3}));
  ASSERT_EQ(h.counts.dtype(), DType::float64);
  const std::vector<double> ex = as_doubles(h.x_edges);
  const std::vector<double> yd = as_doubles(ay);
  std::vector<double> expect(15, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const long bx = reference_bin(x[i], ex), by = reference_bin(yd[i], ey);
    if (bx >= 0 && by >= 0) expect[static_cast<std::size_t>(bx * 3 + by)] += 1;
  }
  EXPECT_EQ(as_doubles(h.counts), expect);
}

// Each kernel variant where the device can run it: private histograms, local memory (devices
// with work-groups), global atomics; counts, integer and floating weights, one and two axes.
TEST_P(Histograms, EveryVariantCountsAlike) {
  const std::vector<double> v = awkward(5001, 21);
  std::vector<double> w(v.size());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<double>(i % 5) - 1.0;
  const Array a = array_of(v, DType::float32), wi = array_of(w, DType::int32), wf = array_of(w, DType::float64);
  const std::vector<double> edges{-1.0, 0.0, 2.5, 3.0, 11.0};
  const std::vector<double> x = as_doubles(a);
  for (auto variant : {detail::HistogramVariant::private_, detail::HistogramVariant::local,
                       detail::HistogramVariant::global}) {
    const detail::ScopedHistogramVariant chosen(variant);
    const Histogram plain = histogram(a, 13, {.range = {{0.0, 10.0}}});
    EXPECT_EQ(as_doubles(plain.counts), reference_counts(x, as_doubles(plain.edges)));
    const Histogram ints = histogram(a, Bins(array_of(edges, DType::float64)), {.weights = Expr(wi)});
    EXPECT_EQ(as_doubles(ints.counts), reference_counts(x, edges, &w));
    const Histogram floats = histogram(a, 13, {.range = {{0.0, 10.0}}, .weights = Expr(wf)});
    EXPECT_EQ(as_doubles(floats.counts), reference_counts(x, as_doubles(floats.edges), &w));
    const Histogram2d two = histogram2d(a, a, 3, Bins(array_of(edges, DType::float64)), {.x_range = {{0.0, 10.0}}});
    std::vector<double> expect(12, 0.0);
    const std::vector<double> ex = as_doubles(two.x_edges);
    for (double y : x) {
      const long bx = reference_bin(y, ex), by = reference_bin(y, edges);
      if (bx >= 0 && by >= 0) expect[static_cast<std::size_t>(bx * 4 + by)] += 1;
    }
    EXPECT_EQ(as_doubles(two.counts), expect);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, Histograms, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
