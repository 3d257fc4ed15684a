// The Array API's rearranging functions (weft/manipulation.hpp) and statistics
// (weft/statistics.hpp) on every device, against results worked out by hand (NumPy's):
// views that share memory, copies of strided inputs, empty arrays, and the errors.
#include <gtest/gtest.h>

#include <numeric>

#include "support.hpp"
#include "weft/manipulation.hpp"
#include "weft/statistics.hpp"

namespace weft {
namespace {

class Manipulation : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();

  template <class T>
  Array make(const std::vector<T>& v, const Shape& shape) {
    return Array::from_host<T>(std::span<const T>(v), shape, dev);
  }
  Array iota(const Shape& shape) {
    std::vector<std::int64_t> v(static_cast<std::size_t>(shape.size()));
    std::iota(v.begin(), v.end(), 0);
    return make(v, shape);
  }
  static std::vector<std::int64_t> ints(const Array& a) { return a.to_host<std::int64_t>(); }
};

using V = std::vector<std::int64_t>;

TEST_P(Manipulation, EyeAndTriangles) {
  const Array e = eye(3, 4, -1, DType::int8, dev);
  EXPECT_EQ(e.shape(), (Shape{3, 4}));
  EXPECT_EQ(e.to_host<std::int8_t>(), (std::vector<std::int8_t>{0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(eye(2, std::nullopt, 5, DType::float32, dev).to_host<float>(), (std::vector<float>(4, 0.0f)));
  const Array a = eval(Expr(iota(Shape{2, 3})) + 1);
  EXPECT_EQ(ints(tril(a)), (V{1, 0, 0, 4, 5, 0}));
  EXPECT_EQ(ints(triu(a, 1)), (V{0, 2, 3, 0, 0, 6}));
  EXPECT_EQ(ints(tril(iota(Shape{3}))), (V{0, 0, 0, 0, 1, 0, 0, 1, 2}));  // 1-D: rows repeated, as NumPy
  EXPECT_THROW(tril(make<std::int64_t>({5}, Shape{})), InvalidArgument);
  EXPECT_THROW(eye(-1, std::nullopt, 0, DType::float32, dev), InvalidArgument);
}

TEST_P(Manipulation, Meshgrid) {
  const auto g = meshgrid({iota(Shape{2}), make<float>({5, 6, 7}, Shape{3})});
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].shape(), (Shape{3, 2}));
  EXPECT_EQ(ints(g[0]), (V{0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(g[1].to_host<float>(), (std::vector<float>{5, 5, 6, 6, 7, 7}));
  const auto ij = meshgrid({iota(Shape{2}), iota(Shape{3})}, MeshIndexing::ij);
  EXPECT_EQ(ij[1].shape(), (Shape{2, 3}));
  EXPECT_EQ(ints(ij[1]), (V{0, 1, 2, 0, 1, 2}));
}

TEST_P(Manipulation, ConcatStackUnstack) {
  const Array a = iota(Shape{2, 2});
  const Array b = make<std::int8_t>({7, 8}, Shape{2, 1});
  const Array c = concat({a, b}, 1);
  EXPECT_EQ(c.dtype(), DType::int64);
  EXPECT_EQ(ints(c), (V{0, 1, 7, 2, 3, 8}));
  EXPECT_EQ(ints(concat({a.transpose(), b}, std::nullopt)), (V{0, 2, 1, 3, 7, 8}));  // strided, flattened
  EXPECT_EQ(ints(concat({a, iota(Shape{0, 2})}, 0)), (V{0, 1, 2, 3}));
  EXPECT_EQ(concat({make<float>({1}, Shape{1}), make<std::uint8_t>({2}, Shape{1})}).dtype(), DType::float32);
  EXPECT_THROW(concat({}), InvalidArgument);
  EXPECT_THROW(concat({a, b}, 0), InvalidArgument);
  EXPECT_THROW(concat({make<float>({1}, Shape{})}), InvalidArgument);
  const Array s = stack({a, a.transpose()}, -1);
  EXPECT_EQ(s.shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(ints(s), (V{0, 0, 1, 2, 2, 1, 3, 3}));
  EXPECT_THROW(stack({a, b}), InvalidArgument);
  const auto parts = unstack(a, 1);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_TRUE(parts[1].shares_allocation(a));
  EXPECT_EQ(ints(parts[1]), (V{1, 3}));
}

TEST_P(Manipulation, Views) {
  const Array a = iota(Shape{2, 3});
  EXPECT_EQ(expand_dims(a, {0, -1}).shape(), (Shape{1, 2, 3, 1}));
  EXPECT_EQ(squeeze(expand_dims(a, {1})).shape(), (Shape{2, 3}));
  EXPECT_THROW(squeeze(a, std::vector<int>{0}), InvalidArgument);
  const Array f = flip(a);
  EXPECT_TRUE(f.shares_allocation(a));
  EXPECT_EQ(ints(f), (V{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(ints(flip(a, std::vector<int>{-1})), (V{2, 1, 0, 5, 4, 3}));
  const Array m = moveaxis(iota(Shape{2, 3, 4}), {0}, {-1});
  EXPECT_EQ(m.shape(), (Shape{3, 4, 2}));
  EXPECT_EQ(permute_dims(iota(Shape{2, 3, 4}), {2, 0, 1}).shape(), (Shape{4, 2, 3}));
  EXPECT_THROW(permute_dims(a, {0, 0}), InvalidArgument);
  EXPECT_THROW(moveaxis(a, {0}, {2}), InvalidArgument);
  const auto br = broadcast_arrays({a, iota(Shape{1, 3}), iota(Shape{})});
  EXPECT_EQ(br[2].shape(), (Shape{2, 3}));
  EXPECT_EQ(ints(br[1]), (V{0, 1, 2, 0, 1, 2}));
}

TEST_P(Manipulation, RepeatRollTile) {
  const Array a = iota(Shape{2, 2});
  EXPECT_EQ(ints(repeat(a, 2)), (V{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(ints(repeat(a, 2, 1)), (V{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(ints(repeat(a, make<std::int32_t>({0, 3}, Shape{2}), 0)), (V{2, 3, 2, 3, 2, 3}));
  EXPECT_EQ(repeat(a, 0, 0).shape(), (Shape{0, 2}));
  EXPECT_THROW(repeat(a, -1), InvalidArgument);
  EXPECT_THROW(repeat(a, make<std::int64_t>({1, -1}, Shape{2}), 0), InvalidArgument);
  EXPECT_THROW(repeat(a, make<float>({1, 1}, Shape{2}), 0), DTypeError);
  const Array r = iota(Shape{2, 3});
  EXPECT_EQ(ints(roll(r, {1})), (V{5, 0, 1, 2, 3, 4}));
  EXPECT_EQ(ints(roll(r, {1, -1}, std::vector<int>{0, 1})), (V{4, 5, 3, 1, 2, 0}));
  EXPECT_EQ(ints(roll(r, {1, 2}, std::vector<int>{1})), (V{0, 1, 2, 3, 4, 5}));  // 1 + 2 along a 3-axis
  EXPECT_EQ(ints(tile(iota(Shape{2}), {2, 2})), (V{0, 1, 0, 1, 0, 1, 0, 1}));
  const Array t = tile(iota(Shape{2, 3}), {2});
  EXPECT_EQ(t.shape(), (Shape{2, 6}));
  EXPECT_EQ(ints(t), (V{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}));
  EXPECT_THROW(tile(a, {-1}), InvalidArgument);
}

TEST_P(Manipulation, TakeAndTakeAlongAxis) {
  const Array a = iota(Shape{3, 4});
  const Array i = make<std::int32_t>({2, -1, 0}, Shape{3});
  EXPECT_EQ(ints(take(a, i, 1)), (V{2, 3, 0, 6, 7, 4, 10, 11, 8}));
  EXPECT_EQ(ints(take(a.transpose(), i, 0)), (V{2, 6, 10, 3, 7, 11, 0, 4, 8}));  // strided source
  EXPECT_EQ(ints(take(a, i)), (V{2, 11, 0}));
  EXPECT_EQ(take(a, make<std::int64_t>({}, Shape{0}), 0).shape(), (Shape{0, 4}));
  EXPECT_THROW(take(a, make<std::int64_t>({4}, Shape{1}), 1), IndexOutOfRange);
  EXPECT_THROW(take(a, make<float>({0}, Shape{1}), 1), DTypeError);
  const Array idx = make<std::int64_t>({3, 0, 1}, Shape{3, 1});
  EXPECT_EQ(ints(take_along_axis(a, idx, 1)), (V{3, 4, 9}));
  const Array col = make<std::int64_t>({2, 0, 1, 1}, Shape{1, 4});
  EXPECT_EQ(ints(take_along_axis(a, col, 0)), (V{8, 1, 6, 7}));
  EXPECT_THROW(take_along_axis(a, make<std::int64_t>({0}, Shape{1}), 0), InvalidArgument);
  EXPECT_THROW(take_along_axis(a, make<std::int64_t>({-5}, Shape{1, 1}), 0), IndexOutOfRange);
}

TEST_P(Manipulation, Statistics) {
  const Array a = make<std::int8_t>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  const Array s = cumulative_sum(a, 1, std::nullopt, true);
  EXPECT_EQ(s.dtype(), DType::int64);
  EXPECT_EQ(s.shape(), (Shape{2, 4}));
  EXPECT_EQ(ints(s), (V{0, 1, 3, 6, 0, 4, 9, 15}));
  EXPECT_EQ(ints(cumulative_prod(a, 0, std::nullopt, true)), (V{1, 1, 1, 1, 2, 3, 4, 10, 18}));
  EXPECT_EQ(cumulative_sum(a, 0, DType::float32).to_host<float>(), (std::vector<float>{1, 2, 3, 5, 7, 9}));
  EXPECT_EQ(ints(cumulative_sum(iota(Shape{0}), std::nullopt, std::nullopt, true)), (V{0}));
  EXPECT_THROW(cumulative_sum(a), InvalidArgument);
  EXPECT_EQ(ints(count_nonzero(a - 1)), (V{5}));
  EXPECT_EQ(ints(count_nonzero(a > 2, {0})), (V{1, 1, 2}));
  const Array d = diff(a.astype(DType::int64), 1, 1, make<std::int64_t>({0}, Shape{}));
  EXPECT_EQ(ints(d), (V{1, 1, 1, 4, 1, 1}));
  EXPECT_EQ(diff(a, -1, 5).shape(), (Shape{2, 0}));
  EXPECT_EQ(diff(a, -1, 2).astype(DType::int64).to_host<std::int64_t>(), (V{0, 0}));  // (waits for the work)
  EXPECT_THROW(diff(a, 0, -1), InvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Manipulation, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
