// sort, argsort and sort_by_key on every device, against std::stable_sort with NumPy's order
// (NaNs last and equal to each other, -0.0 equal to 0.0), bit for bit: every dtype, sizes
// around the passes' chunking, special floats, duplicates, sorted and reversed input, lines
// of 2-D arrays along either axis, and the raw-buffer sorts.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "algorithms/sort_reference.hpp"
#include "support.hpp"
#include "weft/sort.hpp"

namespace weft {
namespace {

using test::apply;
using test::host_values;
using test::random_keys;
using test::reference_argsort;
using test::same_bits;
using test::show;

class Sort : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();

  template <class T>
  Array upload(const std::vector<T>& v, const Shape& shape, DType t = dtype_of<T>) {
    return Array::from_host_bytes(v.data(), v.size(), t, shape, dev);
  }

  // sort and argsort of the lines of v (rows x cols, along the last axis), both orders; t:
  // the dtype of v's elements (bool as uint8 zeros and ones).
  template <class T>
  void expect_sorted(const std::vector<T>& v, std::size_t rows, std::size_t cols, const std::string& what,
                     DType t = dtype_of<T>) {
    const Shape shape = rows == 1 ? Shape{static_cast<std::int64_t>(cols)}
                                  : Shape{static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols)};
    const Array a = upload(v, shape, t);
    for (bool descending : {false, true}) {
      const auto idx = reference_argsort(v, cols, descending);
      const auto want = apply(v, idx, cols);
      const Array s = sort(a, -1, descending);
      EXPECT_EQ(s.shape(), shape);
      const auto got = host_values<T>(s);
      EXPECT_TRUE(same_bits(got, want)) << what << (descending ? " descending" : "") << "\n got  " << show(got)
                                        << "\n want " << show(want);
      const Array i = argsort(a, -1, descending);
      EXPECT_EQ(i.dtype(), DType::int64);
      EXPECT_EQ(host_values<std::int64_t>(i), idx) << what << (descending ? " descending" : "") << " argsort";
    }
  }
};

template <class T>
void every_size(Sort& t, int distinct, DType dtype = dtype_of<T>) {
  for (std::size_t n : {0, 1, 2, 3, 17, 255, 256, 257, 1000, 4095, 4097, 3 * 4096 + 5, 40000}) {
    auto v = random_keys<T>(n, static_cast<unsigned>(n) + 7, distinct);
    if constexpr (std::is_integral_v<T>) {
      if (dtype == DType::bool_) {
        for (auto& x : v) x = static_cast<T>(x & 1);
      }
    }
    t.expect_sorted(v, 1, n, std::string(name(dtype)) + " n=" + std::to_string(n), dtype);
  }
}

TEST_P(Sort, EveryDtypeAndSizeMatchesAStableSort) {
  every_size<std::uint8_t>(*this, 2, DType::bool_);
  every_size<std::int8_t>(*this, 40);
  every_size<std::uint8_t>(*this, 40);
  every_size<std::int16_t>(*this, 300);
  every_size<std::uint16_t>(*this, 300);
  every_size<std::int32_t>(*this, 1000000);
  every_size<std::uint32_t>(*this, 50);
  every_size<std::int64_t>(*this, 1000000);
  every_size<std::uint64_t>(*this, 1000000);
  every_size<float>(*this, 100);
  every_size<double>(*this, 1000);
}

TEST_P(Sort, SortedAndReversedInput) {
  std::vector<std::int32_t> up(5000);
  std::iota(up.begin(), up.end(), -2500);
  std::vector<std::int32_t> down(up.rbegin(), up.rend());
  expect_sorted(up, 1, up.size(), "ascending input");
  expect_sorted(down, 1, down.size(), "descending input");
  std::vector<float> same(3000, 1.5f);
  expect_sorted(same, 1, same.size(), "equal keys");
}

TEST_P(Sort, LinesAlongTheLastAxis) {
  const std::pair<std::size_t, std::size_t> shapes[] = {{7, 13}, {300, 3}, {2, 5000}, {1000, 1}, {4, 0}, {0, 5},
                                                        {257, 300}};
  for (const auto& [r, c] : shapes) {
    const std::string what = "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
    expect_sorted(random_keys<float>(r * c, 3, 10), r, c, "float32 " + what);
    expect_sorted(random_keys<std::int16_t>(r * c, 4, 300), r, c, "int16 " + what);
    expect_sorted(random_keys<std::uint64_t>(r * c, 5, 1000000), r, c, "uint64 " + what);
  }
}

TEST_P(Sort, OtherAxesAndTheFlattenedArray) {
  const std::size_t rows = 37, cols = 11;
  const auto v = random_keys<double>(rows * cols, 9, 20);
  const Array a = upload(v, Shape{static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols)});
  // Along axis 0: the columns, as the transposed array's rows.
  std::vector<double> t(v.size());
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) t[c * rows + r] = v[r * cols + c];
  }
  const auto idx_t = reference_argsort(t, rows, false);
  const auto sorted_t = apply(t, idx_t, rows);
  const auto s = host_values<double>(sort(a, 0));
  const auto i = host_values<std::int64_t>(argsort(a, -2));
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(s[r * cols + c]), std::bit_cast<std::uint64_t>(sorted_t[c * rows + r]));
      EXPECT_EQ(i[r * cols + c], idx_t[c * rows + r]);
    }
  }
  // axis None: the flattened elements, one line.
  const Array flat = sort(a, std::nullopt);
  EXPECT_EQ(flat.shape(), Shape{static_cast<std::int64_t>(v.size())});
  EXPECT_TRUE(same_bits(host_values<double>(flat), apply(v, reference_argsort(v, v.size(), false), v.size())));
  // A strided view sorts as its own elements.
  const Array every_other = a.slice(1, 0, Array::none, 2);
  const Array copy = every_other.copy();
  EXPECT_TRUE(same_bits(host_values<double>(sort(every_other)), host_values<double>(sort(copy))));
}

TEST_P(Sort, AxisOutOfBoundsIsRefused) {
  const Array a = Array::zeros({3, 4}, DType::float32, dev);
  EXPECT_THROW(sort(a, 2), InvalidArgument);
  EXPECT_THROW(argsort(a, -3), InvalidArgument);
  const Array scalar = Array::zeros(Shape{}, DType::int32, dev);
  EXPECT_THROW(sort(scalar, -1), InvalidArgument);
  EXPECT_EQ(sort(scalar, std::nullopt).shape(), Shape{1});
  EXPECT_THROW(sort_by_key(a, Array::zeros({4}, DType::float32, dev)), InvalidArgument);
}

TEST_P(Sort, ValuesFollowTheirKeys) {
  for (const auto& [rows, cols] : {std::pair<std::size_t, std::size_t>{1, 5000}, {50, 77}}) {
    const auto keys = random_keys<std::uint16_t>(rows * cols, 11, 30);
    std::vector<double> values(keys.size());
    std::vector<std::int8_t> small(keys.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = static_cast<double>(i) * 0.5;
      small[i] = static_cast<std::int8_t>(i * 7);
    }
    const Shape shape{static_cast<std::int64_t>(rows), static_cast<std::int64_t>(cols)};
    for (bool descending : {false, true}) {
      const auto idx = reference_argsort(keys, cols, descending);
      const auto [k, v] = sort_by_key(upload(keys, shape), upload(values, shape), -1, descending);
      EXPECT_TRUE(same_bits(host_values<std::uint16_t>(k), apply(keys, idx, cols)));
      EXPECT_TRUE(same_bits(host_values<double>(v), apply(values, idx, cols)));
      const auto [k8, v8] = sort_by_key(upload(keys, shape), upload(small, shape), -1, descending);
      EXPECT_TRUE(same_bits(host_values<std::int8_t>(v8), apply(small, idx, cols)));
    }
  }
}

TEST_P(Sort, InPlaceOnAView) {
  const auto v = random_keys<std::int32_t>(6 * 10, 13, 1000000);
  Array a = upload(v, Shape{6, 10});
  const Array right = a.slice(1, 5, 10);  // the right half of every row
  sort_in_place(right, -1, true);
  const auto got = host_values<std::int32_t>(a);
  for (std::size_t r = 0; r < 6; ++r) {
    std::vector<std::int32_t> want(v.begin() + static_cast<std::ptrdiff_t>(r * 10 + 5),
                                   v.begin() + static_cast<std::ptrdiff_t>(r * 10 + 10));
    std::stable_sort(want.begin(), want.end(), std::greater<>());
    for (std::size_t c = 0; c < 5; ++c) {
      EXPECT_EQ(got[r * 10 + c], v[r * 10 + c]);  // the left half untouched
      EXPECT_EQ(got[r * 10 + 5 + c], want[c]);
    }
  }
}

TEST_P(Sort, LargeArrayOnce) {
  const std::size_t n = (std::size_t{1} << 17) + 3;
  const auto v = random_keys<std::uint32_t>(n, 17, 1000000);
  const Array a = upload(v, Shape{static_cast<std::int64_t>(n)});
  auto want = v;
  std::stable_sort(want.begin(), want.end());
  EXPECT_TRUE(same_bits(host_values<std::uint32_t>(sort(a)), want));
}

// The raw-buffer sorts, in place: one pass (odd: the input is copied aside first), two, four,
// eight; float16 keys, which arrays do not have.
TEST_P(Sort, RawBuffersInPlace) {
  Queue q(dev);
  auto check = [&](auto tag, DType t, std::size_t n) {
    using T = decltype(tag);
    auto v = random_keys<T>(n, 21, 100);
    const Buffer keys = test::upload(q, v);
    std::vector<std::uint32_t> vals(n);
    std::iota(vals.begin(), vals.end(), 0u);
    const Buffer values = test::upload(q, vals);
    enqueue_sort_by_key(q, keys, t, values, sizeof(std::uint32_t), n).wait();
    const auto idx = reference_argsort(v, n, false);
    EXPECT_TRUE(same_bits(test::download<T>(q, keys, n), apply(v, idx, n))) << name(t);
    std::vector<std::uint32_t> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = static_cast<std::uint32_t>(idx[i]);
    EXPECT_EQ(test::download<std::uint32_t>(q, values, n), want) << name(t);
    const Buffer again = test::upload(q, v);
    enqueue_sort(q, again, t, n, true).wait();
    EXPECT_TRUE(same_bits(test::download<T>(q, again, n), apply(v, reference_argsort(v, n, true), n))) << name(t);
  };
  check(std::uint8_t{}, DType::uint8, 3000);
  check(std::int16_t{}, DType::int16, 5000);
  check(float{}, DType::float32, 9000);
  check(std::int64_t{}, DType::int64, 700);
  // float16 as its bits: -2, NaN, 1, -0, 0.5, +0, -inf, -NaN, inf.
  const std::vector<std::uint16_t> half{0xc000, 0x7e00, 0x3c00, 0x8000, 0x3800, 0x0000, 0xfc00, 0xfe00, 0x7c00};
  const Buffer h = test::upload(q, half);
  enqueue_sort(q, h, DType::float16, half.size()).wait();
  const std::vector<std::uint16_t> want{0xfc00, 0xc000, 0x8000, 0x0000, 0x3800, 0x3c00, 0x7c00, 0x7e00, 0xfe00};
  EXPECT_EQ(test::download<std::uint16_t>(q, h, half.size()), want);
  EXPECT_THROW(enqueue_sort_by_key(q, h, DType::float16, h, 3, 3), InvalidArgument);
  EXPECT_THROW(enqueue_sort(q, h, DType::float32, half.size()), InvalidArgument);  // too small
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Sort, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
