// NumPy 2's type promotion and the node builders of binary and unary operations. A Python
// number is "weak" (NEP 50): it adopts the other operand's type, and an integer that is not
// one of that type's values is refused rather than wrapped.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "array/codegen.hpp"
#include "array/promotion.hpp"
#include "weft/array.hpp"
#include "weft/error.hpp"

namespace weft {

namespace detail {

namespace {

DType float_for_int(DType t) {
  // The float NumPy gives a function of an integer (sqrt, true division): 64-bit unless the
  // integer is small (we use float32 where NumPy would use float16).
  return size_of(t) <= 2 ? DType::float32 : DType::float64;
}

DType signed_of_size(std::size_t bytes) {
  return bytes <= 1 ? DType::int8 : bytes == 2 ? DType::int16 : bytes == 4 ? DType::int32 : DType::int64;
}

DType promote_weak(const ExprNode& strong, const ExprNode& weak) {
  const bool weak_float = is_floating(weak.dtype);
  if (is_complex(strong.dtype)) return strong.dtype;
  if (is_complex(weak.dtype)) return is_floating(strong.dtype) ? complex_of(strong.dtype) : DType::complex128;
  if (is_floating(strong.dtype)) return strong.dtype;
  if (weak_float) return DType::float64;
  if (weak.dtype == DType::bool_) return strong.dtype;  // a Python bool takes any type
  if (strong.dtype == DType::bool_) return DType::int64;
  return strong.dtype;
}

Shape broadcast(const NodePtr& a, const NodePtr& b) {
  try {
    return broadcast_shapes(a->shape, b->shape);
  } catch (const InvalidArgument&) {
    throw InvalidArgument("operands of shapes " + to_string(a->shape) + " (" + std::string(name(a->dtype)) +
                          ") and " + to_string(b->shape) + " (" + std::string(name(b->dtype)) +
                          ") cannot be broadcast together");
  }
}

std::string int_text(const ExprNode& s) {
  if (s.dtype == DType::uint64) return std::to_string(static_cast<std::uint64_t>(s.ivalue));
  return std::to_string(s.ivalue);
}

// Functions whose result is a float even for integers (NumPy's true division, atan2, hypot ...).
bool gives_float(std::string_view op) {
  using namespace std::string_view_literals;
  return op == "/"sv || op == "atan2"sv || op == "hypot"sv || op == "copysign"sv || op == "nextafter"sv ||
         op == "logaddexp"sv;
}

bool is_shift(std::string_view op) {
  using namespace std::string_view_literals;
  return op == "lshift"sv || op == "rshift"sv;
}

std::string public_name(const std::string& op) {
  return op == "lshift" ? "bitwise_left_shift" : op == "rshift" ? "bitwise_right_shift" : op;
}

}  // namespace

// NumPy 2 (NEP 50): a Python integer takes the other operand's integer type only if its value
// is one of that type's; else the operation is refused, not wrapped.
void check_fits(const ExprNode& s, DType t, const std::string& op) {
  if (s.weak && is_int_scalar(s) && !fits(s, t)) {
    throw ValueOutOfRange("Python integer " + int_text(s) + " out of bounds for " + std::string(name(t)) +
                          " (in '" + op + "'; give the array a wider dtype first)");
  }
}

DType binary_type(const ExprNode& a, const ExprNode& b) {
  if (a.weak && b.weak) {
    if (is_complex(a.dtype) || is_complex(b.dtype)) return DType::complex128;
    if (is_floating(a.dtype) || is_floating(b.dtype)) return DType::float64;
    return a.dtype == DType::bool_ && b.dtype == DType::bool_ ? DType::bool_ : DType::int64;
  }
  if (a.weak) return promote_weak(b, a);
  if (b.weak) return promote_weak(a, b);
  return result_type(a.dtype, b.dtype);
}

bool is_int_scalar(const ExprNode& n) {
  return n.kind == ExprNode::Kind::scalar && is_integer(n.dtype);
}

// Whether an integer scalar's value is one of dtype t's (every value is one of a float's).
bool fits(const ExprNode& s, DType t) {
  if (is_inexact(t)) return true;
  if (s.dtype == DType::uint64 && s.ivalue < 0) return t == DType::uint64;  // above 2**63-1
  const std::int64_t v = s.ivalue;
  switch (t) {
    case DType::bool_: return v == 0 || v == 1;
    case DType::int8: return v >= -128 && v <= 127;
    case DType::uint8: return v >= 0 && v <= 255;
    case DType::int16: return v >= -32768 && v <= 32767;
    case DType::uint16: return v >= 0 && v <= 65535;
    case DType::int32: return v >= INT32_MIN && v <= INT32_MAX;
    case DType::uint32: return v >= 0 && v <= static_cast<std::int64_t>(UINT32_MAX);
    case DType::int64: return true;
    case DType::uint64: return v >= 0;
    default: return true;
  }
}

// Binary operations whose result is bool (operands compared in their promoted type).
// (string_view comparisons: the lengths differ first, without a strlen per literal.)
bool is_predicate(std::string_view op) {
  using namespace std::string_view_literals;
  return op == "<"sv || op == ">"sv || op == "<="sv || op == ">="sv || op == "=="sv || op == "!="sv ||
         op == "logical_and"sv || op == "logical_or"sv || op == "logical_xor"sv;
}
bool is_bitwise(std::string_view op) {
  using namespace std::string_view_literals;
  return op == "&"sv || op == "|"sv || op == "^"sv;
}
bool is_logical(std::string_view op) {
  using namespace std::string_view_literals;
  return op == "logical_and"sv || op == "logical_or"sv || op == "logical_xor"sv;
}

// The types a comparison converts its operands to: both the promoted type, except where that
// would change a value, as NumPy 2 avoids: a signed integer against a uint64 (compared
// exactly, not through float64), and a Python integer outside the other operand's integer
// type (compared by value).
std::pair<DType, DType> comparison_types(const ExprNode& a, const ExprNode& b) {
  const DType p = binary_type(a, b);
  const auto out_of_range = [](const ExprNode& s, const ExprNode& arr) {
    return s.weak && !arr.weak && is_int_scalar(s) && is_integer(arr.dtype) &&
           !fits(s, arr.dtype);
  };
  const auto by_value = [](const ExprNode& s, const ExprNode& arr) -> std::pair<DType, DType> {
    const bool big = s.dtype == DType::uint64;  // above 2**63-1
    if (arr.dtype == DType::uint64) return {big ? DType::uint64 : DType::int64, DType::uint64};
    if (big) return {DType::uint64, is_signed_integer(arr.dtype) ? DType::int64 : DType::uint64};
    return {DType::int64, DType::int64};
  };
  if (out_of_range(a, b)) return by_value(a, b);
  if (out_of_range(b, a)) {
    auto t = by_value(b, a);
    return {t.second, t.first};
  }
  const auto integer = [](const ExprNode& n) { return !n.weak && is_integer(n.dtype); };
  if (integer(a) && integer(b) && is_signed_integer(a.dtype) != is_signed_integer(b.dtype) &&
      (a.dtype == DType::uint64 || b.dtype == DType::uint64)) {
    return {is_signed_integer(a.dtype) ? DType::int64 : DType::uint64,
            is_signed_integer(b.dtype) ? DType::int64 : DType::uint64};
  }
  return {p, p};
}

NodePtr make_binary(const std::string& op_name, const Expr& x, const Expr& y) {
  const std::string_view op = op_name;
  auto n = std::make_shared<ExprNode>();
  n->kind = ExprNode::Kind::binary;
  n->op = op_name;
  const auto& a = x.node();
  const auto& b = y.node();
  n->shape = broadcast(a, b);
  n->kids = {a, b};
  const DType promoted = binary_type(*a, *b);
  if (is_complex(promoted)) check_complex_binary(op_name, a->dtype, b->dtype);
  if (is_bitwise(op) && is_floating(promoted)) {
    throw DTypeError("bitwise '" + op_name + "' needs integer or bool operands, not " + std::string(name(a->dtype)) +
                     " and " + std::string(name(b->dtype)));
  }
  if (is_shift(op) && is_floating(promoted)) {
    // (int64 with uint64 promotes to float64: NumPy has no shift for that pair either.)
    throw DTypeError(public_name(op_name) + " needs integer operands whose promoted type is an integer, not " +
                     std::string(name(a->dtype)) + " and " + std::string(name(b->dtype)));
  }
  if (op == "-" && promoted == DType::bool_) {
    throw DTypeError("subtracting bools is not supported (as in NumPy): use '^' (bitwise xor) or logical_xor");
  }
  // The type the numbers are converted to: true division, atan2 and hypot of integers work in
  // floats (int16 / 40000 is fine in NumPy).
  const DType work = op == "/" || gives_float(op) ? (is_inexact(promoted) ? promoted : DType::float64) : promoted;
  if (!is_predicate(op)) {
    check_fits(*a, work, op_name);
    check_fits(*b, work, op_name);
  }
  if (op == "power" && !is_inexact(work) && b->kind == ExprNode::Kind::scalar && is_integer(b->dtype) &&
      b->ivalue < 0 && b->dtype != DType::uint64) {
    // As NumPy.
    throw InvalidArgument("integers to negative integer powers are not allowed (" + std::to_string(b->ivalue) +
                          "); use a float base or exponent");
  }
  if (op == "power" && !is_inexact(work) && b->kind != ExprNode::Kind::scalar && is_signed_integer(b->dtype) &&
      b->shape.size() > 0) {
    // An exponent array's values too, as NumPy: one reduction over the exponent and a wait,
    // when the power is written (its values then are the ones NumPy would use).
    const Expr exponent(b);
    if (any(exponent < Expr(0), {}).astype(DType::uint8).to_host<std::uint8_t>()[0]) {
      throw InvalidArgument("integers to negative integer powers are not allowed (the exponent array holds a "
                            "negative value); use a float base or exponent");
    }
  }
  n->weak = a->weak && b->weak;
  if (is_predicate(op)) n->dtype = DType::bool_;
  // bool // bool, bool % bool and bool ** bool are int8 in NumPy (+ and * stay bool: or, and).
  else if (promoted == DType::bool_ && (op == "floordiv" || op == "remainder" || op == "power" || is_shift(op))) {
    n->dtype = DType::int8;
  }
  else if (op == "/") n->dtype = is_inexact(promoted) ? promoted : DType::float64;  // true_divide: 'dd'
  else if (gives_float(op)) n->dtype = is_floating(promoted) ? promoted : float_for_int(promoted);
  else n->dtype = promoted;
  return n;
}

NodePtr make_unary(const std::string& op, const Expr& x, UnaryResult result) {
  auto n = std::make_shared<ExprNode>();
  n->kind = ExprNode::Kind::unary;
  n->op = op;
  n->shape = x.node()->shape;
  n->kids = {x.node()};
  n->weak = x.node()->weak && result != UnaryResult::to_bool;
  const DType t = x.node()->dtype;
  if (is_complex(t)) {
    n->dtype = complex_unary_type(op, t);
    n->weak = x.node()->weak && is_complex(n->dtype);
    return n;
  }
  if (op == "invert" && is_floating(t)) {
    throw DTypeError("bitwise '~' needs an integer or bool operand, not " + std::string(name(t)));
  }
  if (op == "neg" && t == DType::bool_) {
    throw DTypeError("negating bools is not supported (as in NumPy): use '~' or logical_not");
  }
  if ((op == "sign" || op == "positive") && t == DType::bool_) {
    throw DTypeError(op + " is not defined for bools (as in NumPy); convert with astype first");
  }
  if (result == UnaryResult::to_bool) n->dtype = DType::bool_;
  else if ((op == "square" || op == "reciprocal") && t == DType::bool_) n->dtype = DType::int8;  // as NumPy's
  else if (result == UnaryResult::to_float && !is_floating(t)) n->dtype = float_for_int(t);
  else if (op == "angle" && !is_floating(t)) n->dtype = float_for_int(t);
  else n->dtype = t;
  return n;
}

}  // namespace detail

DType result_type(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::bool_) return b;
  if (b == DType::bool_) return a;
  // A complex type with another: the complex type of the promoted parts (complex64 with
  // float64 or int32 is complex128, with int16 complex64), as NumPy 2.
  if (is_complex(a) || is_complex(b)) return complex_of(result_type(real_of(a), real_of(b)));
  const bool fa = is_floating(a), fb = is_floating(b);
  if (fa && fb) return size_of(a) >= size_of(b) ? a : b;
  if (fa || fb) {
    const DType f = fa ? a : b, i = fa ? b : a;
    // The smallest float that holds every value of the integer type, as NumPy.
    const DType need = size_of(i) == 1 ? DType::float16 : size_of(i) == 2 ? DType::float32 : DType::float64;
    return size_of(f) >= size_of(need) ? f : need;
  }
  const bool sa = is_signed_integer(a), sb = is_signed_integer(b);
  if (sa == sb) return size_of(a) >= size_of(b) ? a : b;
  const DType s = sa ? a : b, u = sa ? b : a;
  if (size_of(s) > size_of(u)) return s;
  if (size_of(u) == 8) return DType::float64;
  return detail::signed_of_size(size_of(u) * 2);
}

}  // namespace weft
