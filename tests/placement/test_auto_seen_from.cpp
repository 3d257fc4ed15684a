// Device auto's eval reads automatic arrays of other devices as their copies on the device it
// chose without copying the expression's tree (assign_seen_from, src/array/evaluate.cpp): the
// values are those of the same expression on arrays copied there by hand, for views, arrays
// read twice, trees cut into several kernels and both directions between the host and PoCL.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "support.hpp"
#include "weft/placement.hpp"
#include "weft/weft.hpp"

namespace weft {
namespace {

using test::opencl_device;

std::vector<float> values(std::size_t n, float scale) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 0.5f + scale * static_cast<float>((i * 7919) % 1000) / 1000.0f;
  return v;
}

// f on arrays made on from (automatic) with device auto pinned to to, against f on the same
// arrays copied to to by hand (a fixed device): equal element for element, the result on to.
void expect_as_by_hand(const Device& from, const Device& to, std::size_t count, const Shape& shape,
                       const std::function<Expr(const std::vector<Array>&)>& f) {
  std::vector<Array> automatic, by_hand;
  for (std::size_t i = 0; i < count; ++i) {
    const float scale = 0.1f * static_cast<float>(i + 1);
    const Array a = Array::from_host<float>(values(static_cast<std::size_t>(shape.size()), scale), shape, from);
    automatic.push_back(a.to_auto());
    by_hand.push_back(Array::from_host<float>(a.to_host<float>(), shape, to));
  }
  // Twice: a first call on the host may run stepwise while the kernel compiles (through
  // seen_from), the second runs the kernel with the arrays bound as their copies.
  Array got[2];
  for (Array& g : got) {
    PlacementPin pin(to);
    g = eval(f(automatic));
  }
  const Array want = eval(f(by_hand));
  for (const Array& g : got) {
    EXPECT_EQ(g.device().selector(), to.selector());
    EXPECT_TRUE(g.is_auto());
    EXPECT_EQ(g.to_host<float>(), want.to_host<float>());
  }
  // The inputs still hold their values where they live.
  for (std::size_t i = 0; i < count; ++i) EXPECT_EQ(automatic[i].to_host<float>(), by_hand[i].to_host<float>());
}

TEST(AutoSeenFrom, ArraysReadTwiceOnPoclEvaluatedOnTheHost) {
  const Device cl = opencl_device();
  if (!cl) GTEST_SKIP() << "no OpenCL device";
  expect_as_by_hand(cl, device("host"), 3, Shape{300}, [](const std::vector<Array>& x) {
    return sin(x[0]) * exp(x[1]) + cos(x[2]) * sin(x[1]) + exp(sin(x[0] * x[2]));
  });
}

TEST(AutoSeenFrom, HostArraysEvaluatedOnPocl) {
  const Device cl = opencl_device();
  if (!cl) GTEST_SKIP() << "no OpenCL device";
  expect_as_by_hand(device("host"), cl, 3, Shape{257}, [](const std::vector<Array>& x) { return x[0] * x[1] + x[2]; });
}

TEST(AutoSeenFrom, ViewsKeepTheirOffsetsAndStrides) {
  const Device cl = opencl_device();
  if (!cl) GTEST_SKIP() << "no OpenCL device";
  // A transposed view, columns reversed (a negative stride), one row broadcast (an offset),
  // of arrays living on PoCL; the same view of one array twice is one parameter.
  expect_as_by_hand(cl, device("host"), 3, Shape{12, 12}, [](const std::vector<Array>& x) {
    const Array t = x[0].transpose();
    return t * 2 + x[1].slice(1, Array::none, Array::none, -1) - x[2].slice(0, 3, 4) * t;
  });
}

TEST(AutoSeenFrom, ATreeTooLargeForOneKernelIsCutOnTheDeviceChosen) {
  const Device cl = opencl_device();
  if (!cl) GTEST_SKIP() << "no OpenCL device";
  // 30 arrays: more parameters than one kernel takes (tree_cutting.cpp), so parts of the tree
  // are evaluated into temporaries first, on the host, their arrays seen from there too.
  expect_as_by_hand(cl, device("host"), 30, Shape{64}, [](const std::vector<Array>& x) {
    Expr e = x[0] * 1.5;
    for (std::size_t i = 1; i < x.size(); ++i) e = e + x[i] * static_cast<double>(i);
    return e;
  });
}

TEST(AutoSeenFrom, AFullReductionOfArraysOnPoclOnTheHost) {
  const Device cl = opencl_device();
  if (!cl) GTEST_SKIP() << "no OpenCL device";
  const Device host = device("host");
  const Shape shape{1000};
  std::vector<Array> automatic, by_hand;
  for (int i = 0; i < 3; ++i) {
    const Array a = Array::from_host<float>(values(1000, 0.2f * static_cast<float>(i + 1)), shape, cl);
    automatic.push_back(a.to_auto());
    by_hand.push_back(Array::from_host<float>(a.to_host<float>(), shape, host));
  }
  const auto f = [](const std::vector<Array>& x) { return sqrt(x[0] * x[1] + x[2]) * 2; };
  const double want = sum(f(by_hand)).get();
  // Twice: the first call may step on prebuilt operations while the kernel compiles.
  for (int k = 0; k < 2; ++k) {
    PlacementPin pin(host);
    EXPECT_NEAR(sum(f(automatic)).get(), want, 1e-9 * want);
  }
  // And through a tree cut into kernels (more arrays than one kernel takes).
  std::vector<Array> many, many_by_hand;
  for (int i = 0; i < 30; ++i) {
    many.push_back(automatic[static_cast<std::size_t>(i) % 3].copy().to_auto());
    many_by_hand.push_back(by_hand[static_cast<std::size_t>(i) % 3]);
  }
  const auto g = [](const std::vector<Array>& x) {
    Expr e = x[0] * 1.0;
    for (std::size_t i = 1; i < x.size(); ++i) e = e + x[i] * static_cast<double>(i);
    return e;
  };
  const double want_many = sum(g(many_by_hand)).get();
  PlacementPin pin(host);
  EXPECT_NEAR(sum(g(many)).get(), want_many, 1e-9 * want_many);
}

}  // namespace
}  // namespace weft
