// unique and searchsorted on every device against plain C++ answers with NumPy's semantics
// (NaNs equal and last, -0.0 equal to 0.0, first occurrences, inverse of the input's shape).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "support.hpp"
#include "weft/search.hpp"
#include "weft/sort.hpp"
#include "weft/unique.hpp"

namespace weft {
namespace {

template <class T>
bool numpy_less(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

template <class T>
bool numpy_equal(T a, T b, bool equal_nan) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a) && std::isnan(b)) return equal_nan;
  }
  return !numpy_less(a, b) && !numpy_less(b, a);
}

template <class T>
std::vector<T> host(const Array& a) {
  std::vector<T> out(static_cast<std::size_t>(a.size()));
  if (!out.empty()) a.to_host_bytes(out.data(), a.dtype());
  return out;
}

class UniqueSearch : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();

  template <class T>
  void expect_unique(const std::vector<T>& v, const Shape& shape, bool equal_nan) {
    const Array a = Array::from_host_bytes(v.data(), v.size(), dtype_of<T>, shape, dev);
    // The reference: runs of equal elements in a stable sort.
    std::vector<std::int64_t> order(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) order[i] = static_cast<std::int64_t>(i);
    std::stable_sort(order.begin(), order.end(), [&](auto x, auto y) { return numpy_less(v[x], v[y]); });
    std::vector<T> values;
    std::vector<std::int64_t> index, counts, inverse(v.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
      const T x = v[order[k]];
      if (k == 0 || !numpy_equal(values.back(), x, equal_nan)) {
        values.push_back(x);
        index.push_back(order[k]);
        counts.push_back(0);
      }
      ++counts.back();
      inverse[order[k]] = static_cast<std::int64_t>(values.size()) - 1;
    }
    const Unique u = unique(a, true, true, true, equal_nan);
    const auto got = host<T>(u.values);
    ASSERT_EQ(got.size(), values.size()) << name(dtype_of<T>) << " n=" << v.size();
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_TRUE(numpy_equal(got[k], values[k], true)) << k;
      if constexpr (std::is_floating_point_v<T>) {
        EXPECT_EQ(std::signbit(got[k]), std::signbit(values[k])) << k;
      }
    }
    EXPECT_EQ(host<std::int64_t>(u.index), index);
    EXPECT_EQ(host<std::int64_t>(u.counts), counts);
    EXPECT_EQ(u.inverse.shape(), shape);
    EXPECT_EQ(host<std::int64_t>(u.inverse), inverse);
    // Values alone (keys-only sort): the same values.
    EXPECT_EQ(unique(a, false, false, false, equal_nan).values.size(), static_cast<std::int64_t>(values.size()));
    EXPECT_FALSE(unique(a).index);
  }
};

TEST_P(UniqueSearch, UniqueMatchesNumPysRules) {
  std::mt19937 rng(3);
  for (std::size_t n : {0, 1, 2, 100, 5000}) {
    std::vector<std::int32_t> ints(n);
    for (auto& x : ints) x = static_cast<std::int32_t>(rng() % 37) - 18;
    expect_unique(ints, Shape{static_cast<std::int64_t>(n)}, true);
    std::vector<double> d(n);
    const double specials[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.5, -1.5};
    for (auto& x : d) x = specials[rng() % 8];
    expect_unique(d, Shape{static_cast<std::int64_t>(n)}, true);
    expect_unique(d, Shape{static_cast<std::int64_t>(n)}, false);
  }
  std::vector<std::uint8_t> bytes(6 * 7);
  for (auto& x : bytes) x = static_cast<std::uint8_t>(rng() % 5 * 60);
  expect_unique(bytes, Shape{6, 7}, true);
  expect_unique(std::vector<float>{2.5f}, Shape{}, true);
}

TEST_P(UniqueSearch, SearchsortedLeftAndRight) {
  const std::vector<float> sorted{-INFINITY, -1, 0, 0, 0, 2, 2, 7, INFINITY, NAN, NAN};
  const std::vector<float> needles{-INFINITY, -2, -0.0f, 0, 1, 2, 7.5f, INFINITY, NAN, -NAN};
  const Array a = Array::from_host<float>(sorted, Shape{static_cast<std::int64_t>(sorted.size())}, dev);
  const Array v = Array::from_host<float>(needles, Shape{2, 5}, dev);
  const auto place = [&](float x, bool right) {
    std::int64_t k = 0;
    for (float s : sorted) k += right ? !numpy_less(x, s) : numpy_less(s, x);
    return k;
  };
  for (bool right : {false, true}) {
    std::vector<std::int64_t> want;
    for (float x : needles) want.push_back(place(x, right));
    const Array got = searchsorted(a, v, right);
    EXPECT_EQ(got.shape(), (Shape{2, 5}));
    EXPECT_EQ(host<std::int64_t>(got), want) << (right ? "right" : "left");
  }
  // Through a sorter, with needles of another dtype (compared in the common one, float64).
  const std::vector<std::int32_t> shuffled{5, -3, 9, 0, 5, 2};
  const Array s = Array::from_host<std::int32_t>(shuffled, Shape{6}, dev);
  const Array needles_f = Array::from_host<double>(std::vector<double>{5, 4.5, -10, 100}, Shape{4}, dev);
  EXPECT_EQ(host<std::int64_t>(searchsorted(s, needles_f, false, argsort(s))), (std::vector<std::int64_t>{3, 3, 0, 6}));
  EXPECT_EQ(host<std::int64_t>(searchsorted(s, needles_f, true, argsort(s))), (std::vector<std::int64_t>{5, 3, 0, 6}));
  // Empty arrays either side.
  EXPECT_EQ(host<std::int64_t>(searchsorted(Array::empty(Shape{0}, DType::float32, dev), v)),
            std::vector<std::int64_t>(10, 0));
  EXPECT_EQ(searchsorted(a, Array::empty(Shape{0}, DType::float32, dev)).size(), 0);
}

TEST_P(UniqueSearch, BadArgumentsAreRefused) {
  const Array a = Array::zeros({2, 3}, DType::float32, dev);
  const Array v = Array::zeros({3}, DType::float32, dev);
  EXPECT_THROW(searchsorted(a, v), InvalidArgument);
  EXPECT_THROW(searchsorted(v, v, false, Array::zeros({3}, DType::int32, dev)), InvalidArgument);
  const Array bad = Array::from_host<std::int64_t>(std::vector<std::int64_t>{0, 3, 1}, Shape{3}, dev);
  EXPECT_THROW(searchsorted(v, v, false, bad), InvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(AllDevices, UniqueSearch, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
