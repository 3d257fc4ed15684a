// What the reductions and scans of expressions share: the element function their kernels
// read the expression through, NumPy's result and accumulator types, the axes named; and the
// sources of their kernels, which the tests compile with NVRTC.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "array/codegen.hpp"
#include "weft/array.hpp"

namespace weft::detail {

// The expression's element as a function of its flat index i in the expression's shape:
// "T weft_element(long i, <params>)" in a preamble, and the argument names to call it with.
struct ElementFunction {
  std::string params;    // the kernel's parameter list
  std::string names;     // ", a0, a1, ..." to follow i in a call
  std::string preamble;  // the helpers and the function
};

ElementFunction element_function(const Signature& sig, const std::string& value, const std::string& type);

/// argmin or argmax.
bool is_arg(const std::string& what);
/// NumPy's result type of reduction `what` of elements of type t, and the type it
/// accumulates in.
DType axis_result_type(const std::string& what, DType t);
DType accumulator_type(const std::string& what, DType result, DType t);
/// The axes named (negative ones from the end; none: every axis), checked and sorted.
std::vector<std::size_t> normalize_axes(const std::vector<int>& axes, std::size_t ndim, const char* what);

/// A reduction (what: sum, prod, min, max, mean, any, all, argmin, argmax) over every element.
Array reduce_every_element(const Expr& whole, const std::string& what, bool keepdims);

/// The sources of the kernels the reductions and scans become.
std::string sum_source(const Expr& expr);
/// piece > 0: the first stage of a split reduction, pieces of piece consecutive elements, or
/// with interleaved, piece interleaved parts (see plan_axes in reduce_axes.cpp).
std::string axis_reduce_source(const Expr& expr, const std::string& what, const std::vector<int>& axes,
                               std::int64_t piece = 0, bool interleaved = false);
/// The parallel reduction over every element (what: sum, prod, min, max, any, all), the
/// first-index pass of argmin/argmax, and the cumsum/cumprod scan (lines: segmented).
std::string full_reduce_source(const Expr& expr, const std::string& what);
std::string first_index_source(const Expr& expr);
std::string scan_source(const Expr& expr, const std::string& what, bool lines);

}  // namespace weft::detail
