// NumPy 2's type promotion (NEP 50: a Python number adopts the other operand's type) and the
// node builders of binary and unary operations, which apply it and refuse what NumPy refuses.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "array/expr_node.hpp"

namespace weft::detail {

/// The result type of a binary operation on a and b (weak numbers adapt).
DType binary_type(const ExprNode& a, const ExprNode& b);
/// Whether n is an integer number (not an array, not a float, not a bool).
bool is_int_scalar(const ExprNode& n);
/// Whether an integer number's value is one of dtype t's.
bool fits(const ExprNode& s, DType t);
/// ValueOutOfRange (NumPy 2's OverflowError) when s is a plain integer that is not one of t's
/// values; op names the operation in the message.
void check_fits(const ExprNode& s, DType t, const std::string& op);

/// Binary operations whose result is bool; of those, the logical ones; and the bitwise ones.
bool is_predicate(std::string_view op);
bool is_bitwise(std::string_view op);
bool is_logical(std::string_view op);
/// The types a comparison converts its two operands to.
std::pair<DType, DType> comparison_types(const ExprNode& a, const ExprNode& b);

/// A binary operation's node (its result type, shape and checks, as NumPy's).
NodePtr make_binary(const std::string& op_name, const Expr& x, const Expr& y);
// How a unary function's result type follows its operand's.
enum class UnaryResult { same, to_float, to_bool };
NodePtr make_unary(const std::string& op, const Expr& x, UnaryResult result);

}  // namespace weft::detail
