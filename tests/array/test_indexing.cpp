// Advanced indexing's kernels (src/array/indexing.hpp) on every device: gather and scatter
// through hand-made index plans, compress and expand through masks, checked against host
// references; values that are views of the array written; lazy readers; the errors.
#include <gtest/gtest.h>

#include <numeric>

#include "array/indexing.hpp"
#include "support.hpp"
#include "weft/lazy_array.hpp"

namespace weft::detail {
namespace {

class Indexing : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();

  template <class T>
  Array make(const std::vector<T>& v, const Shape& shape) {
    return Array::from_host<T>(std::span<const T>(v), shape, dev);
  }
  Array offsets(const std::vector<std::int64_t>& v) { return make(v, Shape{static_cast<std::int64_t>(v.size())}); }
  Array mask(const std::vector<std::uint8_t>& v, const Shape& shape) {
    return make(v, shape).astype(DType::bool_);
  }
};

std::vector<float> iota_f(std::size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

TEST_P(Indexing, GatherRowsAndColumns) {
  // a is 4 x 5, a[i][j] = 5 i + j.
  const Array a = make(iota_f(20), Shape{4, 5});
  // a[[2, 0]]: two rows; the index positions come first, then the 5 columns (post = 5).
  const Array rows = gather(a, {offsets({10, 0}), offsets({0, 1, 2, 3, 4}), 5, Shape{2, 5}});
  EXPECT_EQ(rows.shape(), (Shape{2, 5}));
  EXPECT_EQ(rows.to_host<float>(), (std::vector<float>{10, 11, 12, 13, 14, 0, 1, 2, 3, 4}));
  // a[:, [3, 1]]: the index positions replace axis 1 (post = 1); roff walks the rows.
  const Array cols = gather(a, {offsets({3, 1}), offsets({0, 5, 10, 15}), 1, Shape{4, 2}});
  EXPECT_EQ(cols.to_host<float>(), (std::vector<float>{3, 1, 8, 6, 13, 11, 18, 16}));
  // Offsets count from the allocation's start, whatever the view: a[1:][[0]] is row 1.
  const Array view = a.slice(0, 1, Array::none);
  const Array row = gather(view, {offsets({5}), offsets({0, 1, 2, 3, 4}), 5, Shape{1, 5}});
  EXPECT_EQ(row.to_host<float>(), (std::vector<float>{5, 6, 7, 8, 9}));
  // An empty result launches nothing.
  EXPECT_EQ(gather(a, {offsets({}), offsets({0}), 1, Shape{0}}).size(), 0);
}

TEST_P(Indexing, GatherKeepsEachDtype) {
  const std::vector<std::int64_t> l = {-5, 1LL << 40, 7};
  EXPECT_EQ(gather(make(l, Shape{3}), {offsets({2, 1, 0}), offsets({0}), 1, Shape{3}}).to_host<std::int64_t>(),
            (std::vector<std::int64_t>{7, 1LL << 40, -5}));
  const Array b = mask({1, 0, 0}, Shape{3});
  const Array picked = gather(b, {offsets({1, 0, 0}), offsets({0}), 1, Shape{3}});
  EXPECT_EQ(picked.dtype(), DType::bool_);
  EXPECT_EQ(picked.astype(DType::uint8).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{0, 1, 1}));
  const std::vector<std::uint8_t> u = {1, 2, 250};
  EXPECT_EQ(gather(make(u, Shape{3}), {offsets({2, 2}), offsets({0}), 1, Shape{2}}).to_host<std::uint8_t>(),
            (std::vector<std::uint8_t>{250, 250}));
}

TEST_P(Indexing, ScatterBroadcastsAndCastsTheValues) {
  Array a = make(iota_f(20), Shape{4, 5});
  const IndexPlan rows{offsets({15, 5}), offsets({0, 1, 2, 3, 4}), 5, Shape{2, 5}};  // a[[3, 1]]
  const std::vector<std::int32_t> row = {-1, -2, -3, -4, -5};
  scatter(a, rows, make(row, Shape{5}));  // one row, broadcast over both; int32 cast to float32
  std::vector<float> want = iota_f(20);
  for (std::size_t k = 0; k < 5; ++k) want[5 + k] = want[15 + k] = -1.0f - static_cast<float>(k);
  EXPECT_EQ(a.to_host<float>(), want);
  EXPECT_THROW(scatter(a, rows, make(std::vector<float>{1, 2, 3}, Shape{3})), InvalidArgument);
}

TEST_P(Indexing, ValuesThatAreViewsOfTheTargetAreReadBeforeTheWrite) {
  // a[[1, 0]] = a[0:2] swaps, as NumPy's: the values are read as they were.
  Array a = make(std::vector<float>{10, 20, 30}, Shape{3});
  scatter(a, {offsets({1, 0}), offsets({0}), 1, Shape{2}}, a.slice(0, 0, 2));
  EXPECT_EQ(a.to_host<float>(), (std::vector<float>{20, 10, 30}));
  // a[[False, True, True]] = a[0:2] shifts.
  Array b = make(std::vector<float>{10, 20, 30}, Shape{3});
  masked_scatter(b, mask({0, 1, 1}, Shape{3}), b.slice(0, 0, 2));
  EXPECT_EQ(b.to_host<float>(), (std::vector<float>{10, 10, 20}));
}

TEST_P(Indexing, CompressTakesTheSelectedRows) {
  const std::vector<std::int32_t> v = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const Array a = make(v, Shape{3, 2, 2});
  const Array rows = masked_select(a, mask({1, 0, 1}, Shape{3}));
  EXPECT_EQ(rows.shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(rows.to_host<std::int32_t>(), (std::vector<std::int32_t>{0, 1, 2, 3, 8, 9, 10, 11}));
  const Array pairs = masked_select(a, mask({0, 1, 1, 0, 0, 0}, Shape{3, 2}));
  EXPECT_EQ(pairs.shape(), (Shape{2, 2}));
  EXPECT_EQ(pairs.to_host<std::int32_t>(), (std::vector<std::int32_t>{2, 3, 4, 5}));
  // Of a strided view (the transpose), in the view's C order.
  const Array t = masked_select(make(v, Shape{3, 4}).transpose(), mask({1, 0, 0, 1}, Shape{4}));
  EXPECT_EQ(t.to_host<std::int32_t>(), (std::vector<std::int32_t>{0, 4, 8, 3, 7, 11}));
  const Array none = masked_select(a, mask({0, 0, 0}, Shape{3}));
  EXPECT_EQ(none.shape(), (Shape{0, 2, 2}));
  // Many rows: the scan spans several work-groups (tiles) on every device.
  std::vector<std::uint8_t> m(100000);
  std::vector<float> big(m.size());
  std::vector<float> want;
  for (std::size_t i = 0; i < m.size(); ++i) {
    m[i] = static_cast<std::uint8_t>(i % 7 == 3);
    big[i] = static_cast<float>(i);
    if (m[i]) want.push_back(big[i]);
  }
  EXPECT_EQ(masked_select(make(big, Shape{100000}), mask(m, Shape{100000})).to_host<float>(), want);
}

TEST_P(Indexing, ExpandWritesTheSelectedRowsInOrder) {
  Array a = make(iota_f(6), Shape{3, 2});
  masked_scatter(a, mask({1, 0, 1}, Shape{3}), make(std::vector<float>{-1, -2, -3, -4}, Shape{2, 2}));
  EXPECT_EQ(a.to_host<float>(), (std::vector<float>{-1, -2, 2, 3, -3, -4}));
  masked_scatter(a, mask({0, 1, 0}, Shape{3}), make(std::vector<double>{7}, Shape{1}));  // broadcast, cast
  EXPECT_EQ(a.to_host<float>(), (std::vector<float>{-1, -2, 7, 7, -3, -4}));
  // Through a strided view (written through a copy, then back).
  Array b = make(iota_f(6), Shape{2, 3});
  masked_scatter(b.transpose(), mask({0, 1, 1}, Shape{3}), make(std::vector<float>{10, 20, 30, 40}, Shape{2, 2}));
  EXPECT_EQ(b.to_host<float>(), (std::vector<float>{0, 10, 30, 3, 20, 40}));
  EXPECT_THROW(masked_scatter(a, mask({1, 1, 0}, Shape{3}), make(std::vector<float>{1, 2, 3}, Shape{3})), InvalidArgument);
}

TEST_P(Indexing, LazyReadersSeeTheValuesFromBeforeTheWrite) {
  Array a = make(std::vector<float>{1, 2, 3}, Shape{3});
  const LazyArray twice = LazyArray::defer(Expr(a) * 2);  // reads a, not evaluated yet
  scatter(a, {offsets({0}), offsets({0}), 1, Shape{1}}, make(std::vector<float>{100}, Shape{1}));
  const LazyArray thrice = LazyArray::defer(Expr(a) * 3);
  masked_scatter(a, mask({0, 1, 0}, Shape{3}), make(std::vector<float>{200}, Shape{1}));
  EXPECT_EQ(twice.array().to_host<float>(), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(thrice.array().to_host<float>(), (std::vector<float>{300, 6, 9}));
  EXPECT_EQ(a.to_host<float>(), (std::vector<float>{100, 200, 3}));
}

TEST_P(Indexing, BadPlansAndMasksAreRefused) {
  const Array a = make(iota_f(6), Shape{3, 2});
  EXPECT_THROW(gather(a, {offsets({0, 2}), offsets({0, 1}), 2, Shape{3, 2}}), InvalidArgument);  // 4 != 6
  EXPECT_THROW(gather(a, {offsets({0, 2}), offsets({0, 1}), 3, Shape{2, 2}}), InvalidArgument);  // post
  EXPECT_THROW(gather(a, {offsets({0}).astype(DType::int32), offsets({0}), 1, Shape{1}}), InvalidArgument);
  EXPECT_THROW(masked_select(a, make(std::vector<float>{1, 0, 1}, Shape{3})), InvalidArgument);  // not bool
  EXPECT_THROW(masked_select(a, mask({1, 0}, Shape{2})), InvalidArgument);                      // not leading
  EXPECT_THROW(masked_select(a, mask({1, 0, 1, 1, 0, 0, 1}, Shape{7})), InvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Indexing, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft::detail
