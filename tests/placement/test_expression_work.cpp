// The work device auto estimates for an expression tree (src/placement/auto_placement.cpp,
// node_ops), as weft::explain reports it: a math-library function counts 16 operations an
// element and one call; a square root, a division and their like 4; every other operator 1;
// arrays and numbers nothing.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "weft/weft.hpp"

namespace weft {
namespace {

constexpr std::int64_t n = 100;

// n float32 elements on the host, automatic (as weft.asarray(x, device="auto") makes them).
Array automatic(float value) {
  const std::vector<float> v(static_cast<std::size_t>(n), value);
  return Array::from_host<float>(v, Shape{n}, device("host")).to_auto();
}

// The estimate's operations and math calls per element.
std::pair<double, double> per_element(const Expr& e) {
  const PlacementExplanation why = explain(e);
  EXPECT_TRUE(why.automatic) << why.text;
  EXPECT_EQ(why.work.elements, n);
  return {why.work.ops / n, why.work.math_calls / n};
}

TEST(ExpressionWork, EachOperatorCountsItsOperations) {
  const Array a = automatic(0.5f), b = automatic(0.25f);
  using Unary = Expr (*)(const Expr&);
  const std::vector<std::pair<std::string, Unary>> math = {
      {"cbrt", cbrt}, {"exp", exp},     {"exp2", exp2},   {"expm1", expm1}, {"log", log},     {"log2", log2},
      {"log10", log10}, {"log1p", log1p}, {"sin", sin},   {"cos", cos},     {"tan", tan},     {"asin", asin},
      {"acos", acos}, {"atan", atan},   {"sinh", sinh},   {"cosh", cosh},   {"tanh", tanh},   {"asinh", asinh},
      {"acosh", acosh}, {"atanh", atanh}};
  for (const auto& [name, f] : math) {
    EXPECT_EQ(per_element(f(a)), std::make_pair(16.0, 1.0)) << name;
  }
  using Binary = std::function<Expr(const Expr&, const Expr&)>;
  const std::vector<std::pair<std::string, Binary>> math2 = {{"power", power}, {"atan2", atan2}, {"hypot", hypot}};
  for (const auto& [name, f] : math2) {
    EXPECT_EQ(per_element(f(a, b)), std::make_pair(16.0, 1.0)) << name;
  }
  // One instruction of lower throughput than a multiply-add, or a few.
  const std::vector<std::pair<std::string, Binary>> four = {
      {"/", [](const Expr& x, const Expr& y) { return x / y; }},
      {"floor_divide", floor_divide},
      {"remainder", remainder},
      {"logaddexp", logaddexp}};
  for (const auto& [name, f] : four) {
    EXPECT_EQ(per_element(f(a, b)), std::make_pair(4.0, 0.0)) << name;
  }
  EXPECT_EQ(per_element(sqrt(a)), std::make_pair(4.0, 0.0));
  // Any other operator, whatever its name's length (a longer name is no math function's).
  EXPECT_EQ(per_element(a * b), std::make_pair(1.0, 0.0));
  EXPECT_EQ(per_element(maximum(a, b)), std::make_pair(1.0, 0.0));
  EXPECT_EQ(per_element(minimum(a, b)), std::make_pair(1.0, 0.0));
  EXPECT_EQ(per_element(square(a)), std::make_pair(1.0, 0.0));
  // A tree sums its nodes: the bench's heavy expression, six calls and five operators.
  EXPECT_EQ(per_element(sin(a) * exp(b) + cos(a) * sin(b) + exp(sin(a * b))),
            std::make_pair(6 * 16.0 + 5, 6.0));
  EXPECT_EQ(per_element(sqrt(a * b + a) * 2), std::make_pair(4.0 + 3, 0.0));
}

}  // namespace
}  // namespace weft
