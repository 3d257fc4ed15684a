// Cutting expression trees too large for one kernel (see tree_cutting.cpp).
#pragma once

#include "array/expr_node.hpp"

namespace weft::detail {

/// The expression, with its costliest subtrees evaluated into temporaries where it is too
/// large for one kernel writing an output of shape out: on target when given (device auto's
/// eval: the automatic arrays of a part cut are seen from there), else on the tree's device.
Expr bounded(const Expr& expr, const Shape& out, const Device* target = nullptr);

}  // namespace weft::detail
