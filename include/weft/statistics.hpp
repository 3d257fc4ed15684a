// The Array API's cumulative and counting statistics, with NumPy's results and dtypes, on the
// arrays' own device.
//
//   weft::Array c = weft::cumulative_sum(a, 1, std::nullopt, true);  // lines start with 0
//   weft::Array p = weft::cumulative_prod(a, 0, weft::DType::float64);
//   weft::Array n = weft::count_nonzero(a > 0.5, {0});                  // int64 per column
//   weft::Array d = weft::diff(a, -1, 2);                               // second differences
//
// cumulative_sum/prod run the one generated scan kernel of cumsum (array.hpp) reading the
// expression; count_nonzero is a sum of x != 0; diff is one fused subtraction per order.
#pragma once

#include <optional>
#include <vector>

#include "weft/array.hpp"
#include "weft/export.hpp"

namespace weft {

/// Running sums (products) along axis, which may be left out for an array of at most one
/// dimension. dtype: the result's and the accumulation's type (default: NumPy's, small
/// integers widen to 64 bits). include_initial: each line of the result starts with 0 (1),
/// one element longer.
WEFT_API Array cumulative_sum(const Expr& x, std::optional<int> axis = std::nullopt,
                              std::optional<DType> dtype = std::nullopt, bool include_initial = false);
WEFT_API Array cumulative_prod(const Expr& x, std::optional<int> axis = std::nullopt,
                               std::optional<DType> dtype = std::nullopt, bool include_initial = false);
/// How many elements are not zero (a NaN is not zero), as int64, along axes (empty: all).
WEFT_API Array count_nonzero(const Expr& x, const std::vector<int>& axes = {}, bool keepdims = false);
/// The n-th differences along axis (out[i] = x[i + 1] - x[i], n times; != for bool), after
/// joining prepend before x and append after it along axis (0-d ones broadcast to one slice;
/// an empty Array is none). n = 0 gives x itself.
WEFT_API Array diff(const Array& x, int axis = -1, int n = 1, const Array& prepend = Array(),
                    const Array& append = Array());

}  // namespace weft
