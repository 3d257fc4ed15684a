// weft::DeviceFunction: a user's dialect function called inside lazy expressions, fused with
// the operations around it (one kernel for f(a, b) * 2, one reduction for sum(f(a, b))), with
// NumPy's broadcasting, conversions to its parameters' types and the errors a user can make.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "array/codegen.hpp"
#include "array/evaluate.hpp"
#include "arrays_fixture.hpp"
#include "support.hpp"
#include "weft/device_function.hpp"
#include "weft/launch_log.hpp"

namespace weft {
namespace {

using Def = DeviceFunction::Definition;

const Def square_def{"sq", "float sq(float x) { return x * x; }"};

// f(x, y) = x*x - y, through a helper.
DeviceFunction sq_minus() {
  return DeviceFunction("sq_minus", {DType::float32, DType::float32}, DType::float32,
                        {square_def, {"sq_minus", "float sq_minus(float x, float y) { return sq(x) - y; }"}});
}

TEST_P(Arrays, DeviceFunctionFusesIntoOneKernel) {
  const auto va = iota_f(12), vb = iota_f(12, 0.5f);
  Array a = make(va, Shape{3, 4}), b = make(vb, Shape{3, 4});
  const DeviceFunction f = sq_minus();
  const Expr e = f({a, b}) * 2.0f;
  EXPECT_EQ(e.dtype(), DType::float32);
  eval(e);  // built once before counting
  std::vector<float> got;
  {
    LaunchLog log(array_queue(dev));
    got = eval(e).to_host<float>();
    log.stop();
    ASSERT_EQ(log.entries().size(), 1u);
    EXPECT_EQ(log.entries()[0].kernel, "weft_expr");
  }
  for (std::size_t i = 0; i < 12; ++i) EXPECT_FLOAT_EQ(got[i], 2 * (va[i] * va[i] - vb[i])) << i;
  // Its source: the helper and the function once each before the kernel, a call inside it.
  const std::string src = detail::eval_source(Array::empty({3, 4}, DType::float32, dev), e);
  EXPECT_NE(src.find("float sq(float x)"), std::string::npos) << src;
  EXPECT_NE(src.find("sq_minus(((float)("), std::string::npos) << src;
}

TEST_P(Arrays, DeviceFunctionInReductionsAndBroadcast) {
  const auto va = iota_f(3), vb = iota_f(4, 1);
  Array a = make(va, Shape{3, 1}), b = make(vb, Shape{4});
  const Expr e = sq_minus()({a, b});
  EXPECT_EQ(e.shape(), (Shape{3, 4}));
  double expected = 0;
  std::vector<double> by_row(3, 0);
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      expected += va[i] * va[i] - vb[j];
      by_row[i] += va[i] * va[i] - vb[j];
    }
  }
  EXPECT_DOUBLE_EQ(sum(e).get(), expected);
  const auto rows = sum(e, {1}).to_host<float>();
  for (std::size_t i = 0; i < 3; ++i) EXPECT_FLOAT_EQ(rows[i], static_cast<float>(by_row[i]));
  const Array scan = cumsum(e);  // a scan reads it through the same element function
  ASSERT_EQ(scan.dtype(), DType::float32);
  const auto got = scan.to_host<float>();
  double running = 0;
  for (std::size_t k = 0; k < 12; ++k) {
    running += va[k / 4] * va[k / 4] - vb[k % 4];
    EXPECT_FLOAT_EQ(got[k], static_cast<float>(running)) << k;
  }
}

TEST_P(Arrays, DeviceFunctionConvertsArgumentsAndResults) {
  // An int parameter takes a float array truncated; a bool parameter "nonzero"; a bool result.
  const DeviceFunction pick("pick", {DType::bool_, DType::int32, DType::int32}, DType::int32,
                            {{"pick", "int pick(bool c, int x, int y) { return c ? x : y; }"}});
  const DeviceFunction odd("is_odd", {DType::int64}, DType::bool_,
                           {{"is_odd", "bool is_odd(long x) { return (x & 1) != 0; }"}});
  Array c = make(std::vector<float>{0.0f, 0.5f, 2.0f, 0.0f}, Shape{4});
  Array x = make(std::vector<float>{1.9f, 2.9f, -3.9f, 4.0f}, Shape{4});
  const Expr p = pick({c, x, Expr(-1)});
  EXPECT_EQ(p.dtype(), DType::int32);
  EXPECT_EQ(eval(p).to_host<std::int32_t>(), (std::vector<std::int32_t>{-1, 2, -3, -1}));
  const Expr o = odd({p});
  EXPECT_EQ(o.dtype(), DType::bool_);
  EXPECT_EQ(eval(astype(o, DType::uint8)).to_host<std::uint8_t>(), (std::vector<std::uint8_t>{1, 0, 1, 1}));
  // Two functions sharing a helper (the same definition): emitted once.
  const DeviceFunction plus_sq("plus_sq", {DType::float32}, DType::float32,
                               {square_def, {"plus_sq", "float plus_sq(float x) { return sq(x) + 1; }"}});
  EXPECT_EQ(eval(plus_sq({x}) + sq_minus()({x, x})).to_host<float>()[3], 17.0f + 12.0f);
}

TEST_P(Arrays, DeviceFunctionCacheKeyHoldsItsText) {
  // Two functions of one name and one signature, different bodies: different kernels.
  Array a = make(iota_f(4), Shape{4});
  const DeviceFunction plus1("bump", {DType::float32}, DType::float32, {{"bump", "float bump(float x) { return x + 1; }"}});
  const DeviceFunction plus2("bump", {DType::float32}, DType::float32, {{"bump", "float bump(float x) { return x + 2; }"}});
  EXPECT_EQ(eval(plus1({a})).to_host<float>(), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(eval(plus2({a})).to_host<float>(), (std::vector<float>{2, 3, 4, 5}));
  detail::CallKey k1, k2;
  k1.walk(a.shape(), nullptr, {plus1({a}).node().get()});
  k2.walk(a.shape(), nullptr, {plus2({a}).node().get()});
  EXPECT_NE(k1.key(), k2.key());
}

TEST_P(Arrays, DeviceFunctionRefusesWhatItCannotDo) {
  Array a = make(iota_f(4), Shape{4});
  const Def d{"f", "float f(float x) { return x; }"};
  EXPECT_THROW(DeviceFunction("2f", {DType::float32}, DType::float32, {d}), InvalidArgument);
  EXPECT_THROW(DeviceFunction("weft_f", {DType::float32}, DType::float32, {{"weft_f", "float weft_f(float x) { return x; }"}}),
               InvalidArgument);
  EXPECT_THROW(DeviceFunction("f", {}, DType::float32, {d}), InvalidArgument);
  EXPECT_THROW(DeviceFunction("g", {DType::float32}, DType::float32, {d}), InvalidArgument);
  EXPECT_THROW(DeviceFunction("f", {DType::float16}, DType::float32, {d}), Unsupported);
  const DeviceFunction f("f", {DType::float32}, DType::float32, {d});
  EXPECT_THROW(f({a, a}), InvalidArgument);
  const DeviceFunction g("g2", {DType::float32, DType::int8}, DType::float32,
                         {{"g2", "float g2(float x, char k) { return x * k; }"}});
  EXPECT_THROW(g({a, make(iota_f(3), Shape{3})}), InvalidArgument);  // shapes (4,) and (3,)
  EXPECT_THROW(g({a, Expr(300)}), ValueOutOfRange);                   // 300 is no int8
  // One name defined two ways in one kernel.
  const DeviceFunction h("h", {DType::float32}, DType::float32,
                         {{"sq", "float sq(float x) { return -x; }"}, {"h", "float h(float x) { return sq(x); }"}});
  EXPECT_THROW(eval(h({a}) + sq_minus()({a, a})), InvalidArgument);
}

}  // namespace
}  // namespace weft
