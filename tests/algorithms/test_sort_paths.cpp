// The sort's size and layout paths on every device (on the host: insertion sort up to 24
// keys, merge sort below 512, the radix sort above, split over threads from 2^16, buckets
// split again or sorted by byte or 11-bit digit passes), checked
// against std::stable_sort with NumPy's order: keys, argsort and values, both orders, keys
// whose high digits are all equal (passes skipped, an odd number left), all-equal keys, and
// in-place raw buffers of those; on the host, keys alone by Highway's vqsort (libweft_vqsort)
// and by the radix sort.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "algorithms/sort_reference.hpp"
#include "backends/host/host_vqsort.hpp"
#include "support.hpp"
#include "weft/sort.hpp"

namespace weft {
namespace {

using test::host_values;
using test::same_bits;

// Keys below 2^bits (a few with the sign of zero and NaNs for floats).
template <class T>
std::vector<T> keys(std::size_t n, unsigned seed, int bits) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    const auto r = rng();
    if constexpr (std::is_floating_point_v<T>) {
      const T specials[] = {T(0), -T(0), static_cast<T>(std::nan("")), static_cast<T>(-std::nan(""))};
      x = r % 11 == 0 ? specials[(r >> 8) % 4] : static_cast<T>(static_cast<double>(r % (1u << bits)) - 100.0);
    } else {
      x = static_cast<T>(r & ((std::uint64_t{1} << bits) - 1));
    }
  }
  return v;
}

class SortPaths : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();

  template <class T>
  void expect(const std::vector<T>& v, std::size_t rows, std::size_t cols, const std::string& what) {
    const Shape shape = rows == 1 ? Shape{static_cast<std::int64_t>(cols)}
                                  : Shape{static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols)};
    const Array a = Array::from_host_bytes(v.data(), v.size(), dtype_of<T>, shape, dev);
    std::vector<std::uint8_t> small(v.size());
    for (std::size_t i = 0; i < small.size(); ++i) small[i] = static_cast<std::uint8_t>(i * 5 + 1);
    const Array payload = Array::from_host_bytes(small.data(), small.size(), DType::uint8, shape, dev);
    for (bool descending : {false, true}) {
      const std::string label = what + (descending ? " descending" : "");
      const auto idx = test::reference_argsort(v, cols, descending);
      EXPECT_TRUE(same_bits(host_values<T>(sort(a, -1, descending)), test::apply(v, idx, cols))) << label;
      EXPECT_EQ(host_values<std::int64_t>(argsort(a, -1, descending)), idx) << label;
      const auto [k, p] = sort_by_key(a, payload, -1, descending);
      EXPECT_TRUE(same_bits(host_values<T>(k), test::apply(v, idx, cols))) << label;
      EXPECT_EQ(host_values<std::uint8_t>(p), test::apply(small, idx, cols)) << label;
    }
  }
};

TEST_P(SortPaths, SizesAroundEachPath) {
  for (std::size_t n : {24, 25, 511, 512, 65535, 65536 + 7, 150001}) {
    expect(keys<float>(n, static_cast<unsigned>(n), 20), 1, n, "float32 n=" + std::to_string(n));
    expect(keys<std::int64_t>(n, static_cast<unsigned>(n) + 1, 40), 1, n, "int64 n=" + std::to_string(n));
  }
}

TEST_P(SortPaths, ConstantDigitsAreSkipped) {
  // Only the lowest digit varies (one pass), the two lowest (two), and no digit at all.
  for (int bits : {9, 20}) {
    expect(keys<std::uint32_t>(70000, 3, bits), 1, 70000, "uint32 < 2^" + std::to_string(bits));
    expect(keys<std::uint64_t>(3000, 4, bits), 1, 3000, "uint64 < 2^" + std::to_string(bits));
  }
  expect(std::vector<std::uint32_t>(70000, 7u), 1, 70000, "equal uint32");
  expect(std::vector<double>(1000, -0.0), 1, 1000, "equal -0.0");
}

TEST_P(SortPaths, LargeAndSmallBucketsOfTheSplitSort) {
  // The host's sort of 2^16 keys or more splits by its highest varying digit: here one bucket
  // of 250000 keys (split again, into buckets of about 120: each sorted by byte passes) and a
  // few keys in buckets of their own. Then floats in [1, 1.5), whose highest digit is
  // constant: buckets of about 100 keys by the next one.
  std::mt19937 rng(9);
  std::vector<std::uint32_t> v(250010);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto low = static_cast<std::uint32_t>(rng() & 0x3fffffu);
    v[i] = i % 25001 == 7 ? static_cast<std::uint32_t>(rng() | 0x80000000u) : (5u << 22) | low;
  }
  expect(v, 1, v.size(), "uint32, one large bucket");
  std::vector<float> f(200003);
  for (float& x : f) x = 1.0f + 0.5f * std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);
  expect(f, 1, f.size(), "float32 in [1, 1.5)");
}

TEST_P(SortPaths, RowsOfEveryPath) {
  const std::pair<std::size_t, std::size_t> shapes[] = {{500, 20}, {40, 600}, {3, 70000}, {9, 3000}};
  for (const auto& [r, c] : shapes) {
    const std::string what = "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
    expect(keys<float>(r * c, 5, 12), r, c, "float32 " + what);
    expect(keys<std::uint16_t>(r * c, 6, 16), r, c, "uint16 " + what);
  }
}

TEST_P(SortPaths, RawBuffersInPlaceWithSkippedPasses) {
  Queue q(dev);
  for (int bits : {9, 20, 32}) {
    const std::size_t n = 70001;
    const auto v = keys<std::uint32_t>(n, 8, bits);
    std::vector<std::uint32_t> vals(n);
    std::iota(vals.begin(), vals.end(), 0u);
    const Buffer k = test::upload(q, v);
    const Buffer p = test::upload(q, vals);
    enqueue_sort_by_key(q, k, DType::uint32, p, sizeof(std::uint32_t), n).wait();
    const auto idx = test::reference_argsort(v, n, false);
    EXPECT_TRUE(same_bits(test::download<std::uint32_t>(q, k, n), test::apply(v, idx, n))) << bits;
    std::vector<std::uint32_t> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = static_cast<std::uint32_t>(idx[i]);
    EXPECT_EQ(test::download<std::uint32_t>(q, p, n), want) << bits;
  }
}

// The host's keys alone go to vqsort where libweft_vqsort loads (the build's copy lies beside
// the tests), else to the radix sort, which must give the same bits: NaNs of either sign in
// input order after the numbers (before them, descending), the two zeros in input order,
// infinities; on the caller's thread, on a worker, and in place.
TEST_P(SortPaths, KeysAloneByVqsortAndByTheRadixSort) {
#ifdef WEFT_TEST_VQSORT
  if (dev.selector() == "host") {
    ASSERT_NE(detail::host_vqsort(), nullptr) << "libweft_vqsort was built and is not loaded";
  }
#endif
  struct Restore {
    bool was;
    ~Restore() { detail::set_host_vqsort(was); }
  };
  for (const bool vqsort : {true, false}) {
    const Restore restore{detail::set_host_vqsort(vqsort)};
    const std::string by = vqsort ? " (vqsort where loaded)" : " (radix)";
    for (const std::size_t n : {33, 4097, 20000, 70001}) {
      const std::string size = " n=" + std::to_string(n) + by;
      auto f = keys<float>(n, static_cast<unsigned>(n) + 2, 24);
      f[n / 2] = std::numeric_limits<float>::infinity();
      f[n / 3] = -std::numeric_limits<float>::infinity();
      expect(f, 1, n, "float32" + size);
      expect(keys<double>(n, static_cast<unsigned>(n) + 3, 30), 1, n, "float64" + size);
      expect(keys<std::int32_t>(n, static_cast<unsigned>(n) + 4, 31), 1, n, "int32" + size);
      expect(keys<std::uint16_t>(n, static_cast<unsigned>(n) + 5, 16), 1, n, "uint16" + size);
      // Zeros of both signs and no NaN; NaNs and no zero.
      std::vector<float> zeros(n);
      for (std::size_t i = 0; i < n; ++i) zeros[i] = i % 7 == 0 ? (i % 3 ? 0.0f : -0.0f) : static_cast<float>(i % 13) - 6.0f;
      expect(zeros, 1, n, "float32 zeros" + size);
      std::vector<double> nans(n);
      for (std::size_t i = 0; i < n; ++i) nans[i] = i % 5 == 0 ? std::copysign(std::nan(""), i % 2 ? 1.0 : -1.0) : 1.0 + static_cast<double>(i % 17);
      expect(nans, 1, n, "float64 NaNs" + size);
      // In place: keys alone in a raw buffer.
      Queue q(dev);
      const Buffer k = test::upload(q, f);
      enqueue_sort(q, k, DType::float32, n).wait();
      EXPECT_TRUE(same_bits(test::download<float>(q, k, n), test::apply(f, test::reference_argsort(f, n, false), n)))
          << "in place" << size;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllDevices, SortPaths, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
