// Stepwise evaluation on the host backend: the first result of a new expression without
// waiting for its kernel's compile (issue 29, first-use latency).
//
// A new expression's kernel on the host is a C++ compile of 60 to 150 ms. When the library
// ships each of the expression's operations prebuilt (backends/host/host_prebuilt.hpp), the
// expression is evaluated one operation at a time into temporaries, each a prebuilt kernel,
// while its own fused kernel compiles in the background; once that is built, the expression
// runs as one kernel again. The value is the same bit for bit: each operation of the fused
// kernel rounds to its node's dtype exactly as a temporary of that dtype holds it; what does
// not is left to the fused kernel: float16 (whose fused arithmetic runs in float), numbers
// not yet given a dtype, and a floating product feeding a sum or difference (which the
// compiler contracts into an FMA, rounding once). tests/backends/host/test_host_prebuilt.cpp
// and tests/python/test_host_prebuilt.py compare both paths.
//
//   auto kernel = eval_kernel(out, root, call);
//   if (assign_stepwise(out, root, *kernel)) return;   // else run kernel
//   if (auto t = reduce_stepwise(expr, *reduction)) return sum(Expr(*t));
#pragma once

#include <optional>

#include "array/expr_node.hpp"
#include "weft/elementwise.hpp"
#include "weft/reduction.hpp"

namespace weft::detail {

/// Writes the value of root into out one operation at a time when that is quicker than
/// waiting for fused's compile (which then starts in the background); false, with nothing
/// written, when it is not: not the host backend, WEFT_HOST_PREBUILT=0, a single operation,
/// fused's program already built (or on disk), a node stepping cannot hold exactly, or a
/// step whose kernel is not ready either (an operation or dtype the pack lacks: it would be a
/// compile of its own).
bool assign_stepwise(const Array& out, const ExprNode& root, ElementwiseKernel& fused);
/// Whether assign_stepwise might step (its first checks: the host backend, prebuilt operations
/// on, a tree it can hold, fused's program not yet built).
bool stepwise_may(const Array& out, const ExprNode& root, ElementwiseKernel& fused);

/// For a reduction of an expression whose kernel (fused, the reduction's) is still to be
/// compiled on the host: starts that compile in the background and returns the expression's
/// value in a temporary (stepwise where it applies), which the caller reduces instead, on
/// prebuilt code. Null when that does not apply (as assign_stepwise, the value's kernels
/// included; a plain array too).
std::optional<Array> reduce_stepwise(const Expr& expr, const ReductionKernel& fused);
/// Whether reduce_stepwise might step for fused on dev (its first checks: prebuilt operations
/// on, the host backend, fused's program not yet found built).
bool reduce_stepwise_may(const ReductionKernel& fused, const Device& dev);

/// Whether root has an operation whose operand is another operation, every node can be held
/// in a temporary of its dtype without changing the value (no float16, no weak number
/// computed from numbers, no user device function, no floating product fed into a sum) and
/// every array it reads is contiguous in its shape (the steps are then prebuilt).
bool steppable(const ExprNode& root);

}  // namespace weft::detail
