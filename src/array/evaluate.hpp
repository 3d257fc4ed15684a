// Evaluating an expression into an array: one generated kernel (more when the tree is cut).
#pragma once

#include <string>

#include "array/expr_node.hpp"

namespace weft::detail {

/// Writes the value of expr into out (already of the broadcast shape).
void assign_into(const Array& out, const Expr& expr);
/// assign_into(out, seen_from(expr, out.device())) for out new and every array of expr
/// automatic (device auto's eval), without copying the tree (src/array/evaluate.cpp).
void assign_seen_from(const Array& out, const Expr& expr);
/// The source of the kernel that writes expr into out (NVRTC compiles it in the tests).
std::string eval_source(const Array& out, const Expr& expr);

}  // namespace weft::detail
