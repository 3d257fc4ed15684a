// Lazy expressions of arrays and their evaluation: each expression becomes one generated
// kernel (an ElementwiseKernel, or the map of a ReductionKernel), cached by the expression's
// structure: the operators, the dtypes, the number of dimensions and which arrays need
// strided indexing. Array offsets, shapes, strides and numbers are kernel arguments, so a
// new value reuses the kernel.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <charconv>
#include <string_view>
#include <unordered_map>

#include "array/array_queue.hpp"
#include "array/lazy_readers.hpp"
#include "kernels/generators/device_style.hpp"
#include "weft/array.hpp"
#include "weft/elementwise.hpp"
#include "weft/error.hpp"
#include "weft/reduction.hpp"
#include "weft/scan.hpp"

namespace weft {

namespace detail {

struct ExprNode {
  enum class Kind { leaf, scalar, unary, binary, where, cast };
  Kind kind = Kind::scalar;
  std::string op;
  DType dtype = DType::float64;
  bool weak = false;  // a plain number: adopts the other operand's type (NumPy 2, NEP 50)
  Shape shape;
  std::vector<std::shared_ptr<const ExprNode>> kids;
  Array array;
  double value = 0;         // a floating-point number
  std::int64_t ivalue = 0;  // an integer or bool (a uint64 above 2**63-1 as its bits)
};

namespace {

using NodePtr = std::shared_ptr<const ExprNode>;

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
  if (is_floating(strong.dtype)) return strong.dtype;
  if (weak_float) return DType::float64;
  if (weak.dtype == DType::bool_) return strong.dtype;  // a Python bool takes any type
  if (strong.dtype == DType::bool_) return DType::int64;
  return strong.dtype;
}

DType binary_type(const ExprNode& a, const ExprNode& b) {
  if (a.weak && b.weak) {
    if (is_floating(a.dtype) || is_floating(b.dtype)) return DType::float64;
    return a.dtype == DType::bool_ && b.dtype == DType::bool_ ? DType::bool_ : DType::int64;
  }
  if (a.weak) return promote_weak(b, a);
  if (b.weak) return promote_weak(a, b);
  return result_type(a.dtype, b.dtype);
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

bool is_int_scalar(const ExprNode& n) {
  return n.kind == ExprNode::Kind::scalar && !is_floating(n.dtype) && n.dtype != DType::bool_;
}

// Whether an integer scalar's value is one of dtype t's (every value is one of a float's).
bool fits(const ExprNode& s, DType t) {
  if (is_floating(t)) return true;
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

std::string int_text(const ExprNode& s) {
  if (s.dtype == DType::uint64) return std::to_string(static_cast<std::uint64_t>(s.ivalue));
  return std::to_string(s.ivalue);
}

// NumPy 2 (NEP 50): a Python integer takes the other operand's integer type only if its value
// is one of that type's; else the operation is refused, not wrapped.
void check_fits(const ExprNode& s, DType t, const std::string& op) {
  if (s.weak && is_int_scalar(s) && !fits(s, t)) {
    throw ValueOutOfRange("Python integer " + int_text(s) + " out of bounds for " + std::string(name(t)) +
                          " (in '" + op + "'; give the array a wider dtype first)");
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
    return s.weak && !arr.weak && is_int_scalar(s) && !is_floating(arr.dtype) && arr.dtype != DType::bool_ &&
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
  const auto integer = [](const ExprNode& n) { return !n.weak && !is_floating(n.dtype) && n.dtype != DType::bool_; };
  if (integer(a) && integer(b) && is_signed_integer(a.dtype) != is_signed_integer(b.dtype) &&
      (a.dtype == DType::uint64 || b.dtype == DType::uint64)) {
    return {is_signed_integer(a.dtype) ? DType::int64 : DType::uint64,
            is_signed_integer(b.dtype) ? DType::int64 : DType::uint64};
  }
  return {p, p};
}
// Functions whose result is a float even for integers (NumPy's true division, atan2, hypot).
bool gives_float(std::string_view op) {
  using namespace std::string_view_literals;
  return op == "/"sv || op == "atan2"sv || op == "hypot"sv;
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
  if (is_bitwise(op) && is_floating(promoted)) {
    throw DTypeError("bitwise '" + op_name + "' needs integer or bool operands, not " + std::string(name(a->dtype)) +
                     " and " + std::string(name(b->dtype)));
  }
  if (op == "-" && promoted == DType::bool_) {
    throw DTypeError("subtracting bools is not supported (as in NumPy): use '^' (bitwise xor) or logical_xor");
  }
  // The type the numbers are converted to: true division, atan2 and hypot of integers work in
  // floats (int16 / 40000 is fine in NumPy).
  const DType work = op == "/" || gives_float(op) ? (is_floating(promoted) ? promoted : DType::float64) : promoted;
  if (!is_predicate(op)) {
    check_fits(*a, work, op_name);
    check_fits(*b, work, op_name);
  }
  if (op == "power" && !is_floating(work) && b->kind == ExprNode::Kind::scalar && !is_floating(b->dtype) &&
      b->ivalue < 0 && b->dtype != DType::uint64) {
    // As NumPy.
    throw InvalidArgument("integers to negative integer powers are not allowed (" + std::to_string(b->ivalue) +
                          "); use a float base or exponent");
  }
  if (op == "power" && !is_floating(work) && b->kind != ExprNode::Kind::scalar && is_signed_integer(b->dtype) &&
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
  else if (promoted == DType::bool_ && (op == "floordiv" || op == "remainder" || op == "power")) n->dtype = DType::int8;
  else if (op == "/") n->dtype = is_floating(promoted) ? promoted : DType::float64;  // true_divide: 'dd'
  else if (gives_float(op)) n->dtype = is_floating(promoted) ? promoted : float_for_int(promoted);
  else n->dtype = promoted;
  return n;
}

// How a unary function's result type follows its operand's.
enum class UnaryResult { same, to_float, to_bool };

NodePtr make_unary(const std::string& op, const Expr& x, UnaryResult result) {
  auto n = std::make_shared<ExprNode>();
  n->kind = ExprNode::Kind::unary;
  n->op = op;
  n->shape = x.node()->shape;
  n->kids = {x.node()};
  n->weak = x.node()->weak && result != UnaryResult::to_bool;
  const DType t = x.node()->dtype;
  if (op == "invert" && is_floating(t)) {
    throw DTypeError("bitwise '~' needs an integer or bool operand, not " + std::string(name(t)));
  }
  if (op == "neg" && t == DType::bool_) {
    throw DTypeError("negating bools is not supported (as in NumPy): use '~' or logical_not");
  }
  if (result == UnaryResult::to_bool) n->dtype = DType::bool_;
  else if ((op == "square" || op == "reciprocal") && t == DType::bool_) n->dtype = DType::int8;  // as NumPy's
  else if (result == UnaryResult::to_float && !is_floating(t)) n->dtype = float_for_int(t);
  else n->dtype = t;
  return n;
}

// ---- code generation --------------------------------------------------------------------

struct Leaf {
  const ExprNode* node;
  bool general;  // needs strided indexing (not contiguous in the output's shape)
};

// Whether two leaves read the same elements the same way (one kernel parameter serves both).
bool same_view(const Array& a, const Array& b) {
  return a.buffer().impl() == b.buffer().impl() && a.dtype() == b.dtype() && a.offset() == b.offset() &&
         a.shape() == b.shape() && a.strides() == b.strides();
}

// The kernel type a number is passed as (numbers of every dtype travel as 64 bits).
std::string scalar_param_type(DType t) {
  if (is_floating(t)) return "double";
  return t == DType::uint64 ? "ulong" : "long";
}

// The unsigned type integer arithmetic on t wraps in: C's signed overflow is undefined (and
// compilers exploit it), and narrow types are promoted to int first.
std::string wrap_type(DType t) { return size_of(t) == 8 ? "ulong" : "uint"; }

// a op b in integer type t, wrapping as NumPy's (two's complement) arithmetic does.
std::string wrapped(DType t, const std::string& a, const char* op, const std::string& b) {
  const std::string W = wrap_type(t);
  return "((" + kernel_type(t) + ")((" + W + ")(" + a + ") " + op + " (" + W + ")(" + b + ")))";
}

// Walks an expression in a fixed order, collecting its arrays (leaves) and numbers. In key
// mode (text = false) it only writes the cache key: the structure, operations and dtypes,
// which decide the kernel's source; that is all a call whose kernel is cached needs. In
// text mode value() returns the expression's source.
class Generator {
 public:
  explicit Generator(const Shape& out_shape, bool text = true) : shape_(out_shape), text_(text) {
    if (!text) key_.reserve(160);
  }

  std::string value(const ExprNode& n) {
    using K = ExprNode::Kind;
    if (!text_) {
      walk_key(n);
      return {};
    }
    switch (n.kind) {
      case K::leaf: {
        const std::string k = std::to_string(add_leaf(n));
        return "((" + kernel_type(n.dtype) + ")weft_a" + k + "[weft_o" + k + "])";
      }
      case K::scalar: {
        const std::string c = "weft_c" + std::to_string(add_scalar(n));
        // A typed number (a NumPy scalar) is of its own dtype; a Python number of the
        // parameter's until an operation converts it.
        if (n.weak || kernel_type(n.dtype) == scalar_param_type(n.dtype)) return c;
        if (n.dtype == DType::bool_) return "((uchar)(" + c + " != 0))";
        return "((" + kernel_type(n.dtype) + ")" + c + ")";
      }
      case K::cast: {
        const std::string in = value(*n.kids[0]);
        if (n.dtype == DType::bool_) return "((uchar)((" + in + ") != 0))";
        return "((" + kernel_type(n.dtype) + ")(" + in + "))";
      }
      case K::unary: {
        // Predicates look at the operand in its own type; the rest work in the result's.
        const DType in_type = n.dtype == DType::bool_ ? n.kids[0]->dtype : n.dtype;
        const std::string in = "((" + kernel_type(in_type) + ")(" + value(*n.kids[0]) + "))";
        const bool fl = is_floating(in_type);
        const std::string T = kernel_type(in_type);
        const std::string W = fl ? T : wrap_type(in_type);
        // Integers negate in their unsigned type and are cast back: -(-128) is -128 in int8,
        // abs(INT_MIN) is INT_MIN, as in NumPy (and nothing undefined for the compiler).
        if (n.op == "neg") return fl ? "(-" + in + ")" : "((" + T + ")(0 - (" + W + ")" + in + "))";
        if (n.op == "abs") {
          if (fl) return "fabs(" + in + ")";
          if (!is_signed_integer(in_type)) return in;
          return "((" + T + ")(" + in + " < 0 ? 0 - (" + W + ")" + in + " : (" + W + ")" + in + "))";
        }
        if (n.op == "square") return fl ? "(" + in + " * " + in + ")" : wrapped(in_type, in, "*", in);
        if (n.op == "reciprocal") {
          if (fl) return "((" + T + ")1 / " + in + ")";
          // 1 / x truncated; for 0, NumPy's values: the smallest int32/int64, else 0.
          const bool wide_signed = is_signed_integer(in_type) && size_of(in_type) >= 4;
          const std::string at_zero = wide_signed ? "(" + T + ")((" + W + ")1 << (" + std::to_string(8 * size_of(in_type) - 1) + "))" : "0";
          return "((" + T + ")(" + in + " == 0 ? " + at_zero + " : 1 / " + in + "))";
        }
        if (n.op == "logical_not") return "((uchar)((" + in + ") == 0))";
        if (n.op == "invert") return in_type == DType::bool_ ? "((uchar)((" + in + ") == 0))" : "((" + kernel_type(in_type) + ")~" + in + ")";
        if (n.op == "isnan" || n.op == "isinf" || n.op == "isfinite") {
          if (!fl) return n.op == "isfinite" ? "((uchar)1)" : "((uchar)0)";
          return "((uchar)(" + n.op + "(" + in + ") != 0))";
        }
        if (n.op == "floor" || n.op == "ceil" || n.op == "trunc" || n.op == "round") {
          if (!fl) return in;  // integers are their own floor (NumPy 2 keeps the dtype)
          return (n.op == "round" ? std::string("rint") : n.op) + "(" + in + ")";  // round half to even
        }
        return n.op + "(" + in + ")";
      }
      case K::where: {
        const std::string c = value(*n.kids[0]);
        const std::string t = kernel_type(n.dtype);
        const std::string a = value(*n.kids[1]);
        const std::string b = value(*n.kids[2]);
        // != 0: OpenCL C takes no floating-point condition in ?: (NaN counts as true).
        return "((" + c + ") != 0 ? (" + t + ")(" + a + ") : (" + t + ")(" + b + "))";
      }
      case K::binary: break;
    }
    if (is_logical(n.op)) {
      // Each operand is true when nonzero in its own type (logical_and(uint8, 256) is true).
      const std::string a = "((" + value(*n.kids[0]) + ") != 0)";
      const std::string b = "((" + value(*n.kids[1]) + ") != 0)";
      const char* op = n.op == "logical_and" ? " && " : n.op == "logical_or" ? " || " : " != ";
      return "((uchar)(" + a + op + b + "))";
    }
    if (is_predicate(n.op)) {
      const auto [ta, tb] = comparison_types(*n.kids[0], *n.kids[1]);
      const std::string a = "((" + kernel_type(ta) + ")(" + value(*n.kids[0]) + "))";
      const std::string b = "((" + kernel_type(tb) + ")(" + value(*n.kids[1]) + "))";
      if (ta == tb) return "((uchar)(" + a + " " + n.op + " " + b + "))";
      // A signed and an unsigned 64-bit operand, compared by value.
      if (ta == DType::int64) return "((uchar)(weft_cmp_lu(" + a + ", " + b + ") " + n.op + " 0))";
      return "((uchar)(0 " + n.op + " weft_cmp_lu(" + b + ", " + a + ")))";
    }
    // Operands are converted to the operation's type.
    const DType work = n.dtype;
    const std::string t = kernel_type(work);
    const std::string a = "((" + t + ")(" + value(*n.kids[0]) + "))";
    const std::string b = "((" + t + ")(" + value(*n.kids[1]) + "))";
    if (work == DType::bool_ && (n.op == "+" || n.op == "*")) {  // NumPy: or, and
      return "((uchar)((" + a + " != 0) " + (n.op == "+" ? "||" : "&&") + " (" + b + " != 0)))";
    }
    if ((n.op == "+" || n.op == "-" || n.op == "*") && !is_floating(work)) return wrapped(work, a, n.op.c_str(), b);
    if (n.op == "+" || n.op == "-" || n.op == "*" || n.op == "/" || is_bitwise(n.op)) {
      return "((" + t + ")(" + a + " " + n.op + " " + b + "))";
    }
    if (n.op == "atan2" || n.op == "hypot") return n.op + "(" + a + ", " + b + ")";
    if (n.op == "fmin" || n.op == "fmax") {
      if (is_floating(work)) return n.op + "(" + a + ", " + b + ")";  // NaN-ignoring
      return std::string(n.op == "fmin" ? "weft_minimum_" : "weft_maximum_") + t + "(" + a + ", " + b + ")";
    }
    return "weft_" + n.op + "_" + t + "(" + a + ", " + b + ")";
  }

  const std::vector<Leaf>& leaves() const { return leaves_; }
  const std::vector<const ExprNode*>& scalars() const { return scalars_; }
  const std::string& key() const { return key_; }
  bool any_general() const {
    return std::any_of(leaves_.begin(), leaves_.end(), [](const Leaf& l) { return l.general; });
  }

 private:
  std::size_t add_leaf(const ExprNode& n) {
    for (std::size_t k = 0; k < leaves_.size(); ++k) {
      if (same_view(leaves_[k].node->array, n.array)) {  // a + a reads a through one parameter
        key_ += 'R';
        append_number(k);
        return k;
      }
    }
    const std::size_t k = leaves_.size();
    const bool general = !(n.array.is_contiguous() && n.array.shape() == shape_);
    leaves_.push_back({&n, general});
    key_ += 'L';
    key_ += name(n.dtype);
    key_ += general ? "g;" : "c;";
    return k;
  }
  std::size_t add_scalar(const ExprNode& n) {
    scalars_.push_back(&n);
    key_ += 'S';
    key_ += name(n.dtype);
    key_ += ';';
    return scalars_.size() - 1;
  }
  // The same order as value(): kids first to last.
  void walk_key(const ExprNode& n) {
    if (n.kind == ExprNode::Kind::leaf) {
      add_leaf(n);
      return;
    }
    if (n.kind == ExprNode::Kind::scalar) {
      add_scalar(n);
      return;
    }
    key_ += static_cast<char>('0' + static_cast<int>(n.kind));
    key_ += n.op;
    key_ += ':';
    key_ += name(n.dtype);
    key_ += '(';
    for (const auto& k : n.kids) walk_key(*k);
    key_ += ')';
  }

  Shape shape_;
  bool text_;
  std::vector<Leaf> leaves_;
  std::vector<const ExprNode*> scalars_;
  // The key is written with appends, not a stream: a stream's construction alone costs more
  // than the rest of a cached call's key.
  void append_number(std::size_t v) {
    char digits[24];
    const auto r = std::to_chars(digits, digits + sizeof digits, v);
    key_.append(digits, r.ptr);
    key_ += ';';
  }
  std::string key_;
};

// Floor division, remainder (Python's sign rules), power, minimum and maximum (NaN-propagating
// for floats) for every arithmetic type; division by zero gives 0 for integers, as NumPy.
std::string helpers() {
  static const std::string text = [] {
    std::string s;
    for (const char* t : {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"}) {
      const std::string T = t;
      const bool is_signed = T[0] != 'u';
      // x / -1 is x negated (wrapping, as NumPy): the CPU's division traps on INT_MIN / -1.
      const std::string minus_one = is_signed ? " if (b == -1) return (" + T + ")(0 - (u" + T + ")a);" : "";
      const std::string minus_one_rem = is_signed ? " if (b == -1) return 0;" : "";
      s += "inline " + T + " weft_floordiv_" + T + "(" + T + " a, " + T + " b) { if (b == 0) return 0;" + minus_one +
           " " + T + " q = a / b; if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1; return q; }\n";
      s += "inline " + T + " weft_remainder_" + T + "(" + T + " a, " + T + " b) { if (b == 0) return 0;" +
           minus_one_rem + " " + T + " r = a % b; if (r != 0 && ((r < 0) != (b < 0))) r += b; return r; }\n";
      // In the unsigned type: the product wraps as NumPy's does, without undefined overflow.
      const std::string W = T == "long" || T == "ulong" ? "ulong" : "uint";
      s += "inline " + T + " weft_power_" + T + "(" + T + " a, " + T + " b) { " + W + " r = 1, x = (" + W +
           ")a; while (b > 0) { if (b & 1) r *= x; x *= x; b >>= 1; } return (" + T + ")r; }\n";
      s += "inline " + T + " weft_minimum_" + T + "(" + T + " a, " + T + " b) { return b < a ? b : a; }\n";
      s += "inline " + T + " weft_maximum_" + T + "(" + T + " a, " + T + " b) { return a < b ? b : a; }\n";
    }
    s += "inline int weft_cmp_lu(long a, ulong b) { return a < 0 ? -1 : ((ulong)a < b ? -1 : ((ulong)a > b ? 1 : 0)); }\n";
    for (const char* t : {"float", "double"}) {
      const std::string T = t;
      // NumPy's divmod: (a - fmod(a, b)) / b is nearly an integer, so an inexact division
      // (OpenCL allows 2.5 ulp in float) still floors to the right value.
      s += "inline " + T + " weft_floordiv_" + T + "(" + T + " a, " + T + " b) { if (b == 0) return a / b; " + T +
           " m = fmod(a, b); " + T + " d = (a - m) / b; if (m != 0 && ((b < 0) != (m < 0))) d -= 1; if (d == 0) return copysign((" +
           T + ")0, a / b); " + T + " f = floor(d); if (d - f > (" + T + ")0.5) f += 1; return f; }\n";
      s += "inline " + T + " weft_remainder_" + T + "(" + T + " a, " + T + " b) { " + T +
           " r = fmod(a, b); if (r != 0 && ((r < 0) != (b < 0))) r += b; else if (r == 0) r = copysign((" + T +
           ")0, b); return r; }\n";
      s += "inline " + T + " weft_power_" + T + "(" + T + " a, " + T + " b) { return pow(a, b); }\n";
      s += "inline " + T + " weft_minimum_" + T + "(" + T + " a, " + T + " b) { return (a < b || a != a) ? a : b; }\n";
      s += "inline " + T + " weft_maximum_" + T + "(" + T + " a, " + T + " b) { return (a > b || a != a) ? a : b; }\n";
    }
    return s;
  }();
  return text;
}

// The arguments of a generated kernel: leaves, numbers, then the index arithmetic's extents,
// offsets and strides. The values are needed on every call; the parameter list and the
// offset statements (text) only to build the kernel.
struct Signature {
  std::string spec;     // ", const float *weft_a0, double weft_c0, long weft_off0, ..."
  std::string names;    // ", weft_a0, weft_c0, weft_off0, ...": the same, to pass them on
  std::vector<RuntimeArg> args;
  std::string offsets;  // statements computing weft_oK from i
};

// Adds a parameter to the text of a signature.
void add_param(Signature& sig, const std::string& type, const std::string& name) {
  sig.spec += ", " + type + " " + name;
  sig.names += ", " + name;
}

void index_arguments(const Generator& g, const Shape& shape, bool text, Signature& sig) {
  const std::size_t nd = shape.ndim();
  if (g.any_general()) {
    for (std::size_t d = 0; d < nd; ++d) {
      sig.args.push_back(RuntimeArg::of_value(static_cast<std::int64_t>(shape[d])));
      if (text) add_param(sig, "long", "weft_s" + std::to_string(d));
    }
    // i as a multi-index, last dimension fastest.
    if (text) sig.offsets += "long weft_r = i;";
    for (std::size_t d = nd; text && d-- > 0;) {
      sig.offsets += " const long weft_i" + std::to_string(d) + " = weft_r % weft_s" + std::to_string(d) +
                     "; weft_r /= weft_s" + std::to_string(d) + ";";
    }
  }
  for (std::size_t k = 0; k < g.leaves().size(); ++k) {
    const Array& a = g.leaves()[k].node->array;
    const std::string K = text ? std::to_string(k) : std::string();
    sig.args.push_back(RuntimeArg::of_value(a.offset()));
    if (text) add_param(sig, "long", "weft_off" + K);
    if (!g.leaves()[k].general) {
      if (text) sig.offsets += " const long weft_o" + K + " = weft_off" + K + " + i;";
      continue;
    }
    // The leaf's strides in the output's dimensions (0 where it is broadcast).
    const Array view = a.broadcast_to(shape);
    std::string sum = "weft_off" + K;
    for (std::size_t d = 0; d < nd; ++d) {
      sig.args.push_back(RuntimeArg::of_value(view.strides()[d]));
      if (!text) continue;
      add_param(sig, "long", "weft_st" + K + "_" + std::to_string(d));
      sum += " + weft_i" + std::to_string(d) + " * weft_st" + K + "_" + std::to_string(d);
    }
    if (text) sig.offsets += " const long weft_o" + K + " = " + sum + ";";
  }
}

Signature signature(const Generator& g, const Shape& shape, bool text) {
  Signature sig;
  // Every argument at once: leaves (buffer and offset, strides when general), numbers, extents.
  sig.args.reserve(g.scalars().size() + g.leaves().size() * (2 + shape.ndim()) + shape.ndim());
  for (std::size_t k = 0; k < g.leaves().size(); ++k) {
    const ExprNode& n = *g.leaves()[k].node;
    sig.args.push_back(RuntimeArg::of(n.array.buffer()));
    // restrict: no two parameters alias memory that the kernel writes (the same view read
    // twice is one parameter, and an assignment reading what it overwrites through another
    // view goes through a temporary), so a work-item's loads may run ahead of its stores.
    if (text) add_param(sig, "const " + kernel_type(n.dtype) + " * restrict", "weft_a" + std::to_string(k));
  }
  for (std::size_t k = 0; k < g.scalars().size(); ++k) {
    const ExprNode& n = *g.scalars()[k];
    if (is_floating(n.dtype)) sig.args.push_back(RuntimeArg::of_value(n.value));
    else if (n.dtype == DType::uint64) sig.args.push_back(RuntimeArg::of_value(static_cast<std::uint64_t>(n.ivalue)));
    else sig.args.push_back(RuntimeArg::of_value(n.ivalue));
    if (text) add_param(sig, scalar_param_type(n.dtype), "weft_c" + std::to_string(k));
  }
  index_arguments(g, shape, text, sig);
  return sig;
}

// An expression (several roots, walked in order; the value is the last one's) in the
// output's shape: the cache key and arguments, which every call needs ...
struct Keyed {
  std::string key;
  std::vector<RuntimeArg> args;
};
Keyed key_and_args(const Shape& shape, std::initializer_list<const ExprNode*> roots) {
  Generator g(shape, false);
  for (const ExprNode* r : roots) g.value(*r);
  std::string key = g.key();
  key += '|';
  key += static_cast<char>('0' + shape.ndim());
  return {std::move(key), signature(g, shape, false).args};
}
// ... and, to build its kernel, its source.
struct Text {
  std::string value;
  Signature sig;
};
Text text_of(const Shape& shape, std::initializer_list<const ExprNode*> roots) {
  Generator g(shape);
  std::string value;
  for (const ExprNode* r : roots) value = g.value(*r);
  return {std::move(value), signature(g, shape, true)};
}

Device device_of(const ExprNode& n) {
  if (n.kind == ExprNode::Kind::leaf) return n.array.device();
  for (const auto& k : n.kids) {
    if (Device d = device_of(*k)) return d;
  }
  return Device();
}

void check_one_device(const ExprNode& n, const Device& d) {
  if (n.kind == ExprNode::Kind::leaf && !(n.array.device() == d)) {
    throw InvalidArgument("an expression mixes arrays on " + d.selector() + " and " + n.array.device().selector() +
                          " (" + n.array.describe() + "); copy one to the other's device first");
  }
  for (const auto& k : n.kids) check_one_device(*k, d);
}

// Whether some array the expression reads shares memory with dest other than element for
// element (the same offset and strides, which is safe: each work-item reads what it writes).
bool reads_overlapping(const ExprNode& n, const Array& dest) {
  if (n.kind == ExprNode::Kind::leaf) {
    const Array& a = n.array;
    if (a.buffer().impl() != dest.buffer().impl()) return false;
    const bool same_view = a.offset() == dest.offset() && a.shape() == dest.shape() && a.strides() == dest.strides();
    return !same_view;
  }
  return std::any_of(n.kids.begin(), n.kids.end(), [&](const auto& k) { return reads_overlapping(*k, dest); });
}

// A generated kernel by its key: each thread keeps the kernels it has used in a table of its
// own, so that a repeat call takes no lock at all; a key new to the thread is looked up (or
// the kernel made) in the table all threads share, under its lock.
struct KeyHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
template <class K>
using KernelTable = std::unordered_map<std::string, std::shared_ptr<K>, KeyHash, std::equal_to<>>;

// Keys of every table of one kernel type start with a prefix of their own ("eval|", "sum|"
// ...): the thread's table serves them all.
template <class K, class Make>
std::shared_ptr<K> cached(KernelTable<K>& table, std::string_view key, const Make& make) {
  thread_local KernelTable<K> mine;
  if (auto it = mine.find(key); it != mine.end()) return it->second;
  static std::mutex mutex;
  std::shared_ptr<K> kernel;
  {
    std::lock_guard lock(mutex);
    auto it = table.find(key);
    if (it == table.end()) it = table.emplace(std::string(key), make()).first;
    kernel = it->second;
  }
  mine.emplace(std::string(key), kernel);
  return kernel;
}

}  // namespace

void assign_into(const Array& out, const Expr& expr);

// ---- cutting very large trees ------------------------------------------------------------
//
// One kernel per expression, up to a size: every distinct array read is a few kernel
// parameters (the host backend takes 64 at most, OpenCL devices may take as little as 1 KiB),
// and a deeply nested expression is a deeply nested C expression (clang refuses brackets
// nested more than 256 deep). Past these limits the costliest subtrees are evaluated into
// temporaries first, bottom-up, so that each kernel stays within them.

namespace {

struct Cost {
  std::vector<const ExprNode*> leaves;  // distinct views (one parameter set each)
  std::size_t numbers = 0;
  std::size_t nodes = 0;
  std::size_t depth = 0;
  std::size_t params(const Shape& out) const {
    std::size_t p = numbers;
    for (const ExprNode* l : leaves) {
      const bool general = !(l->array.is_contiguous() && l->array.shape() == out);
      p += general ? 2 + out.ndim() : 2;  // buffer, offset, strides
    }
    return p;
  }
  void add(const Cost& kid) {
    for (const ExprNode* l : kid.leaves) {
      const bool seen = std::any_of(leaves.begin(), leaves.end(), [&](const ExprNode* m) { return same_view(m->array, l->array); });
      if (!seen) leaves.push_back(l);
    }
    numbers += kid.numbers;
    nodes += kid.nodes;
    depth = std::max(depth, kid.depth);
  }
};

constexpr std::size_t max_params = 40;  // leaves room for a reduction's own parameters
constexpr std::size_t max_nodes = 256;
constexpr std::size_t max_depth = 32;

bool within(const Cost& c, const Shape& out) {
  return c.params(out) + out.ndim() <= max_params && c.nodes <= max_nodes && c.depth <= max_depth;
}

NodePtr evaluated(const NodePtr& n, const Device& dev) {
  Array tmp = Array::empty(n->shape, n->dtype, dev);
  assign_into(tmp, Expr(n));
  auto leaf = std::make_shared<ExprNode>();
  leaf->kind = ExprNode::Kind::leaf;
  leaf->array = tmp;
  leaf->dtype = n->dtype;
  leaf->shape = n->shape;
  leaf->weak = n->weak;  // a subtree of numbers keeps adapting as numbers do
  return leaf;
}

NodePtr bound(const NodePtr& n, const Shape& out, const Device& dev, Cost& cost) {
  const auto leaf_cost = [](const ExprNode* leaf) { return Cost{{leaf}, 0, 1, 1}; };
  if (n->kind == ExprNode::Kind::leaf) {
    cost = leaf_cost(n.get());
    return n;
  }
  if (n->kind == ExprNode::Kind::scalar) {
    cost = {{}, 1, 1, 1};
    return n;
  }
  std::vector<NodePtr> kids;
  std::vector<Cost> costs(n->kids.size());
  for (std::size_t i = 0; i < n->kids.size(); ++i) kids.push_back(bound(n->kids[i], out, dev, costs[i]));
  const auto total = [&] {
    Cost t{{}, 0, 1, 0};
    for (const Cost& c : costs) t.add(c);
    ++t.depth;
    return t;
  };
  for (cost = total(); !within(cost, out); cost = total()) {
    std::optional<std::size_t> costliest;
    for (std::size_t i = 0; i < kids.size(); ++i) {
      const auto k = kids[i]->kind;
      if (k == ExprNode::Kind::leaf || k == ExprNode::Kind::scalar || !device_of(*kids[i])) continue;
      const auto rank = [&](std::size_t j) { return std::make_tuple(costs[j].params(out), costs[j].nodes, costs[j].depth); };
      if (!costliest || rank(i) > rank(*costliest)) costliest = i;
    }
    if (!costliest) break;  // nothing left to evaluate: the kernel is as small as it gets
    kids[*costliest] = evaluated(kids[*costliest], dev);
    costs[*costliest] = leaf_cost(kids[*costliest].get());
  }
  if (std::equal(kids.begin(), kids.end(), n->kids.begin())) return n;
  auto copy = std::make_shared<ExprNode>(*n);
  copy->kids = std::move(kids);
  return copy;
}

}  // namespace

// The expression, with its costliest subtrees evaluated into temporaries where it is too large
// for one kernel writing an output of shape out.
Expr bounded(const Expr& expr, const Shape& out) {
  // The common case first, without allocating: an upper bound of the parameters (every use
  // of an array counted, as if general) and the size and depth, within the limits.
  std::size_t params = out.ndim(), nodes = 0, depth = 0;
  const auto measure = [&](const auto& self, const ExprNode& n, std::size_t level) -> void {
    ++nodes;
    depth = std::max(depth, level);
    if (n.kind == ExprNode::Kind::leaf) params += 2 + out.ndim();
    else if (n.kind == ExprNode::Kind::scalar) params += 1;
    for (const auto& k : n.kids) self(self, *k, level + 1);
  };
  measure(measure, *expr.node(), 1);
  if (params <= max_params && nodes <= max_nodes && depth <= max_depth) return expr;
  const Device dev = device_of(*expr.node());
  if (!dev) return expr;
  Cost cost;
  NodePtr root = bound(expr.node(), out, dev, cost);
  return root == expr.node() ? expr : Expr(std::move(root));
}

namespace {
// The kernel that writes expr into out, from the table of those already made, and its arguments.
std::shared_ptr<ElementwiseKernel> eval_kernel(const Array& out, const ExprNode& root,
                                               std::vector<RuntimeArg>& args) {
  // The destination takes part as leaf 0, so its own strides (a view) are honoured too.
  ExprNode dest;
  dest.kind = ExprNode::Kind::leaf;
  dest.array = out;
  dest.dtype = out.dtype();
  dest.shape = out.shape();
  Keyed k = key_and_args(out.shape(), {&dest, &root});
  args = std::move(k.args);
  static KernelTable<ElementwiseKernel> table;
  return cached<ElementwiseKernel>(table, "eval|" + k.key, [&] {
    Text t = text_of(out.shape(), {&dest, &root});
    t.sig.spec.erase(t.sig.spec.find("const "), 6);  // the destination is written: not const
    return std::make_shared<ElementwiseKernel>(
        t.sig.spec.substr(2),
        t.sig.offsets + " weft_a0[weft_o0] = (" + kernel_type(out.dtype()) + ")(" + t.value + ");", "weft_expr",
        helpers());
  });
}

}  // namespace

std::string eval_source(const Array& out, const Expr& expr) {
  std::vector<RuntimeArg> args;
  return eval_kernel(out, *expr.node(), args)->source();
}

// Writes the value of expr into out (already of the broadcast shape), in one kernel (more when
// the expression is too large for one: see bounded()).
void assign_into(const Array& out, const Expr& whole) {
  const Expr expr = bounded(whole, out.shape());
  const ExprNode& root = *expr.node();
  Device dev = device_of(root);
  if (!dev) dev = out.device();
  check_one_device(root, dev);
  if (!(out.device() == dev)) {
    throw InvalidArgument("the destination " + out.describe() + " is not on the expression's device " + dev.selector());
  }
  const auto n = static_cast<std::size_t>(out.size());
  if (n == 0) return;
  if (reads_overlapping(root, out)) {
    // a.assign(a.transpose() + 1): element i may read what another work-item already wrote.
    // As NumPy does, evaluate into a temporary first, then copy it over.
    Array tmp = Array::empty(out.shape(), out.dtype(), dev);
    assign_into(tmp, expr);
    assign_into(out, Expr(tmp));
    return;
  }
  std::vector<RuntimeArg> args;
  auto kernel = eval_kernel(out, root, args);
  kernel->run(detail::array_queue(dev), n, args);
  count_launch(dev);
  out.mark_written();
}

}  // namespace detail

using detail::ExprNode;

DType result_type(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::bool_) return b;
  if (b == DType::bool_) return a;
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

Expr::Expr(const Array& a) {
  if (!a) throw InvalidArgument("an empty Array in an expression");
  auto n = std::make_shared<ExprNode>();
  n->kind = ExprNode::Kind::leaf;
  n->array = a;
  n->dtype = a.dtype();
  n->shape = a.shape();
  node_ = std::move(n);
}

Expr::Expr(double v) {
  auto n = std::make_shared<ExprNode>();
  n->kind = ExprNode::Kind::scalar;
  n->value = v;
  n->dtype = DType::float64;
  n->weak = true;
  node_ = std::move(n);
}

namespace {
std::shared_ptr<detail::ExprNode> number_node(DType dtype, bool weak) {
  auto n = std::make_shared<ExprNode>();
  n->kind = ExprNode::Kind::scalar;
  n->dtype = dtype;
  n->weak = weak;
  return n;
}
}  // namespace

Expr::Expr(long long v) {
  auto n = number_node(DType::int64, true);
  n->ivalue = v;
  n->value = static_cast<double>(v);
  node_ = std::move(n);
}

Expr::Expr(unsigned long long v) {
  auto n = number_node(v > static_cast<unsigned long long>(INT64_MAX) ? DType::uint64 : DType::int64, true);
  n->ivalue = static_cast<std::int64_t>(v);
  n->value = static_cast<double>(v);
  node_ = std::move(n);
}

Expr::Expr(int v) : Expr(static_cast<long long>(v)) {}

Expr::Expr(bool v) {
  auto n = number_node(DType::bool_, true);
  n->ivalue = v ? 1 : 0;
  n->value = v ? 1 : 0;
  node_ = std::move(n);
}

Expr Expr::typed(double v, DType dtype) {
  if (!is_floating(dtype)) {
    throw InvalidArgument("Expr::typed: " + std::to_string(v) + " given as " + std::string(name(dtype)) +
                          "; give integers as integers");
  }
  detail::kernel_type(dtype);
  auto n = number_node(dtype, false);
  n->value = dtype == DType::float32 ? static_cast<double>(static_cast<float>(v)) : v;
  return Expr(std::shared_ptr<const ExprNode>(std::move(n)));
}

Expr Expr::typed(long long v, DType dtype) {
  if (is_floating(dtype)) return typed(static_cast<double>(v), dtype);
  auto n = number_node(dtype, false);
  n->ivalue = v;
  n->value = static_cast<double>(v);
  ExprNode probe = *n;
  probe.dtype = DType::int64;
  if (!detail::fits(probe, dtype)) {
    throw ValueOutOfRange(std::to_string(v) + " is out of bounds for " + std::string(name(dtype)));
  }
  return Expr(std::shared_ptr<const ExprNode>(std::move(n)));
}

Expr Expr::typed(unsigned long long v, DType dtype) {
  if (v <= static_cast<unsigned long long>(INT64_MAX)) return typed(static_cast<long long>(v), dtype);
  if (is_floating(dtype)) return typed(static_cast<double>(v), dtype);
  if (dtype != DType::uint64) {
    throw ValueOutOfRange(std::to_string(v) + " is out of bounds for " + std::string(name(dtype)));
  }
  auto n = number_node(dtype, false);
  n->ivalue = static_cast<std::int64_t>(v);
  n->value = static_cast<double>(v);
  return Expr(std::shared_ptr<const ExprNode>(std::move(n)));
}

DType Expr::dtype() const { return node_->dtype; }
const Shape& Expr::shape() const { return node_->shape; }

std::size_t Expr::node_count() const {
  std::size_t count = 0;
  std::vector<const ExprNode*> stack{node_.get()};
  while (!stack.empty()) {
    const ExprNode* n = stack.back();
    stack.pop_back();
    ++count;
    for (const auto& k : n->kids) stack.push_back(k.get());
  }
  return count;
}

std::vector<Array> Expr::arrays() const {
  std::vector<Array> out;
  std::vector<const ExprNode*> stack{node_.get()};
  while (!stack.empty()) {
    const ExprNode* n = stack.back();
    stack.pop_back();
    if (n->kind == ExprNode::Kind::leaf) {
      const bool seen = std::any_of(out.begin(), out.end(), [&](const Array& a) {
        return a.buffer().impl() == n->array.buffer().impl() && a.offset() == n->array.offset() &&
               a.strides() == n->array.strides() && a.shape() == n->array.shape() && a.dtype() == n->array.dtype();
      });
      if (!seen) out.push_back(n->array);
    }
    for (auto k = n->kids.rbegin(); k != n->kids.rend(); ++k) stack.push_back(k->get());
  }
  return out;
}

const Array* Expr::as_array() const { return node_->kind == ExprNode::Kind::leaf ? &node_->array : nullptr; }

Expr operator+(const Expr& a, const Expr& b) { return Expr(detail::make_binary("+", a, b)); }
Expr operator-(const Expr& a, const Expr& b) { return Expr(detail::make_binary("-", a, b)); }
Expr operator*(const Expr& a, const Expr& b) { return Expr(detail::make_binary("*", a, b)); }
Expr operator/(const Expr& a, const Expr& b) { return Expr(detail::make_binary("/", a, b)); }
Expr operator<(const Expr& a, const Expr& b) { return Expr(detail::make_binary("<", a, b)); }
Expr operator>(const Expr& a, const Expr& b) { return Expr(detail::make_binary(">", a, b)); }
Expr operator<=(const Expr& a, const Expr& b) { return Expr(detail::make_binary("<=", a, b)); }
Expr operator>=(const Expr& a, const Expr& b) { return Expr(detail::make_binary(">=", a, b)); }
Expr operator==(const Expr& a, const Expr& b) { return Expr(detail::make_binary("==", a, b)); }
Expr operator!=(const Expr& a, const Expr& b) { return Expr(detail::make_binary("!=", a, b)); }
Expr operator&(const Expr& a, const Expr& b) { return Expr(detail::make_binary("&", a, b)); }
Expr operator|(const Expr& a, const Expr& b) { return Expr(detail::make_binary("|", a, b)); }
Expr operator^(const Expr& a, const Expr& b) { return Expr(detail::make_binary("^", a, b)); }
Expr logical_and(const Expr& a, const Expr& b) { return Expr(detail::make_binary("logical_and", a, b)); }
Expr logical_or(const Expr& a, const Expr& b) { return Expr(detail::make_binary("logical_or", a, b)); }
Expr logical_xor(const Expr& a, const Expr& b) { return Expr(detail::make_binary("logical_xor", a, b)); }
Expr floor_divide(const Expr& a, const Expr& b) { return Expr(detail::make_binary("floordiv", a, b)); }
Expr remainder(const Expr& a, const Expr& b) { return Expr(detail::make_binary("remainder", a, b)); }
Expr power(const Expr& a, const Expr& b) { return Expr(detail::make_binary("power", a, b)); }
Expr minimum(const Expr& a, const Expr& b) { return Expr(detail::make_binary("minimum", a, b)); }
Expr maximum(const Expr& a, const Expr& b) { return Expr(detail::make_binary("maximum", a, b)); }
Expr fmin(const Expr& a, const Expr& b) { return Expr(detail::make_binary("fmin", a, b)); }
Expr fmax(const Expr& a, const Expr& b) { return Expr(detail::make_binary("fmax", a, b)); }
Expr atan2(const Expr& a, const Expr& b) { return Expr(detail::make_binary("atan2", a, b)); }
Expr hypot(const Expr& a, const Expr& b) { return Expr(detail::make_binary("hypot", a, b)); }
Expr clip(const Expr& a, const Expr& lo, const Expr& hi) {
  // NumPy clips in the common type of all three (np.clip(int8, -2**63, 0.0) is float64), so
  // a bound is not first converted to a's type.
  ExprNode with_lo = *a.node();
  with_lo.dtype = detail::binary_type(*a.node(), *lo.node());
  with_lo.weak = a.node()->weak && lo.node()->weak;
  const DType t = detail::binary_type(with_lo, *hi.node());
  const Expr x = a.node()->weak || a.dtype() == t ? a : astype(a, t);
  // A Python integer bound beyond the type's range on its own side clips nothing (NumPy
  // drops it); on the other side it is refused (make_binary's range check).
  const auto beyond = [&](const Expr& bound, bool lower) {
    const ExprNode& b = *bound.node();
    if (!b.weak || !detail::is_int_scalar(b) || detail::fits(b, t) || is_floating(t)) return false;
    const bool big = b.dtype == DType::uint64;  // above 2**63-1
    const bool below = !big && b.ivalue < 0;  // else above: it fits nowhere in between
    return lower == below;
  };
  const Expr low = beyond(lo, true) ? x : maximum(x, lo);
  return beyond(hi, false) ? low : minimum(low, hi);
}

namespace {
using detail::UnaryResult;
Expr unary(const char* op, const Expr& a, UnaryResult r) { return Expr(detail::make_unary(op, a, r)); }
}  // namespace

Expr operator-(const Expr& a) { return unary("neg", a, UnaryResult::same); }
Expr operator~(const Expr& a) { return unary("invert", a, UnaryResult::same); }
Expr logical_not(const Expr& a) { return unary("logical_not", a, UnaryResult::to_bool); }
Expr isnan(const Expr& a) { return unary("isnan", a, UnaryResult::to_bool); }
Expr isinf(const Expr& a) { return unary("isinf", a, UnaryResult::to_bool); }
Expr isfinite(const Expr& a) { return unary("isfinite", a, UnaryResult::to_bool); }
Expr floor(const Expr& a) { return unary("floor", a, UnaryResult::same); }
Expr ceil(const Expr& a) { return unary("ceil", a, UnaryResult::same); }
Expr trunc(const Expr& a) { return unary("trunc", a, UnaryResult::same); }
Expr round(const Expr& a) { return unary("round", a, UnaryResult::same); }
Expr sqrt(const Expr& a) { return unary("sqrt", a, UnaryResult::to_float); }
Expr cbrt(const Expr& a) { return unary("cbrt", a, UnaryResult::to_float); }
Expr exp(const Expr& a) { return unary("exp", a, UnaryResult::to_float); }
Expr exp2(const Expr& a) { return unary("exp2", a, UnaryResult::to_float); }
Expr expm1(const Expr& a) { return unary("expm1", a, UnaryResult::to_float); }
Expr log(const Expr& a) { return unary("log", a, UnaryResult::to_float); }
Expr log2(const Expr& a) { return unary("log2", a, UnaryResult::to_float); }
Expr log10(const Expr& a) { return unary("log10", a, UnaryResult::to_float); }
Expr log1p(const Expr& a) { return unary("log1p", a, UnaryResult::to_float); }
Expr sin(const Expr& a) { return unary("sin", a, UnaryResult::to_float); }
Expr cos(const Expr& a) { return unary("cos", a, UnaryResult::to_float); }
Expr tan(const Expr& a) { return unary("tan", a, UnaryResult::to_float); }
Expr asin(const Expr& a) { return unary("asin", a, UnaryResult::to_float); }
Expr acos(const Expr& a) { return unary("acos", a, UnaryResult::to_float); }
Expr atan(const Expr& a) { return unary("atan", a, UnaryResult::to_float); }
Expr sinh(const Expr& a) { return unary("sinh", a, UnaryResult::to_float); }
Expr cosh(const Expr& a) { return unary("cosh", a, UnaryResult::to_float); }
Expr tanh(const Expr& a) { return unary("tanh", a, UnaryResult::to_float); }
Expr abs(const Expr& a) { return unary("abs", a, UnaryResult::same); }
Expr fabs(const Expr& a) { return unary("fabs", a, UnaryResult::to_float); }
Expr rint(const Expr& a) { return unary("rint", a, UnaryResult::to_float); }
Expr square(const Expr& a) { return unary("square", a, UnaryResult::same); }
Expr reciprocal(const Expr& a) { return unary("reciprocal", a, UnaryResult::same); }

Expr astype(const Expr& a, DType dtype) {
  detail::kernel_type(dtype);
  auto n = std::make_shared<ExprNode>();
  n->kind = ExprNode::Kind::cast;
  n->dtype = dtype;
  n->shape = a.node()->shape;
  n->kids = {a.node()};
  return Expr(std::move(n));
}

Expr where(const Expr& condition, const Expr& a, const Expr& b) {
  auto n = std::make_shared<ExprNode>();
  n->kind = ExprNode::Kind::where;
  n->kids = {condition.node(), a.node(), b.node()};
  n->shape = broadcast_shapes(broadcast_shapes(condition.shape(), a.shape()), b.shape());
  n->dtype = detail::binary_type(*a.node(), *b.node());
  // (NumPy's where converts a Python integer to the result type, wrapping: no range check.)
  // where(c, 3, 4) is an int64 array in NumPy, not a number: it no longer adapts.
  n->weak = false;
  return Expr(std::move(n));
}

Array eval(const Expr& expr) {
  const Device dev = detail::device_of(*expr.node());
  if (!dev) throw InvalidArgument("eval: the expression holds no array, so it has no device");
  Array out = Array::empty(expr.shape(), expr.dtype(), dev);
  detail::assign_into(out, expr);
  return out;
}

void Array::assign(const Expr& expr) {
  if (expr.shape() != shape_) {
    try {
      if (broadcast_shapes(expr.shape(), shape_) != shape_) throw InvalidArgument("");
    } catch (const InvalidArgument&) {
      throw InvalidArgument("cannot assign an expression of shape " + to_string(expr.shape()) + " to " + describe());
    }
  }
  // A plain integer written as it is must be one of the destination's values: NumPy 2 raises
  // for a[...] = 300 into int8 (OverflowError), it does not wrap (bools take any number).
  if (dtype_ != DType::bool_) detail::check_fits(*expr.node(), dtype_, "assignment");
  // Lazy arrays that read this memory see its values from before the write (NumPy's order).
  detail::evaluate_readers(*this);
  detail::assign_into(*this, expr);
}

namespace {
struct Reduction {
  const char* what;
  const char* neutral;
  const char* op;
};
const Reduction sum_op{"sum", "0", "a + b"};
const Reduction min_op{"min", "INFINITY", "(a < b || a != a) ? a : b"};
const Reduction max_op{"max", "-INFINITY", "(a > b || a != a) ? a : b"};

// The expression's element as a function of its flat index i in the expression's shape:
// "T weft_element(long i, <params>)" in a preamble, and the argument names to call it with.
struct ElementFunction {
  std::string params;    // the kernel's parameter list
  std::string names;     // ", a0, a1, ..." to follow i in a call
  std::string preamble;  // the helpers and the function
};

ElementFunction element_function(const detail::Signature& sig, const std::string& value, const std::string& type) {
  ElementFunction f;
  f.params = sig.spec.substr(2);
  f.names = sig.names;
  std::string params_global = f.params;
  for (std::size_t pos = 0; (pos = params_global.find("const ", pos)) != std::string::npos; pos += 15) {
    params_global.replace(pos, 6, "__global const ");
  }
  f.preamble = detail::helpers() + type + " weft_element(long i, " + params_global + ") { " + sig.offsets +
               " return (" + type + ")(" + value + "); }\n";
  return f;
}

// The reduction of expr's elements (each converted to double), from the table of those made.
std::shared_ptr<ReductionKernel> reduce_kernel(const Expr& expr, const Reduction& r,
                                               std::vector<detail::RuntimeArg>& args) {
  detail::Keyed k = detail::key_and_args(expr.shape(), {expr.node().get()});
  args = std::move(k.args);
  static detail::KernelTable<ReductionKernel> table;
  return detail::cached<ReductionKernel>(table, std::string(r.what) + "|" + k.key, [&] {
    const detail::Text t = detail::text_of(expr.shape(), {expr.node().get()});
    const ElementFunction f = element_function(t.sig, t.value, "double");
    return std::make_shared<ReductionKernel>(DType::float64, r.neutral, r.op, "weft_element(i" + f.names + ")",
                                             f.params, f.preamble, "weft_array_reduce");
  });
}

Future<double> reduce(const Expr& whole, const Reduction& r) {
  const Expr expr = detail::bounded(whole, whole.shape());
  const detail::ExprNode& root = *expr.node();
  const Device dev = detail::device_of(root);
  if (!dev) throw InvalidArgument(std::string(r.what) + ": the expression holds no array");
  detail::check_one_device(root, dev);
  const auto n = static_cast<std::size_t>(expr.shape().size());
  if (n == 0 && std::string(r.what) != "sum") {
    throw InvalidArgument(std::string(r.what) + " of an empty array: the operation has no identity");
  }
  std::vector<detail::RuntimeArg> args;
  auto kernel = reduce_kernel(expr, r, args);
  return kernel->reduce_args<double>(detail::array_queue(dev), n, args);
}

// ---- reductions along axes -----------------------------------------------------------------

struct AxisReduction {
  const char* what;
  const char* neutral;  // in the accumulator's type
  const char* op;       // combines acc and x
};

const AxisReduction axis_ops[] = {
    {"sum", "0", "acc + x"},
    {"prod", "1", "acc * x"},
    {"min", "", "(x < acc || x != x) ? x : acc"},
    {"max", "", "(x > acc || x != x) ? x : acc"},
    {"mean", "0", "acc + x"},
    {"any", "0", "(uchar)(acc || x != 0)"},
    {"all", "1", "(uchar)(acc && x != 0)"},
    // The first extreme along the axis; a NaN is the first extreme once met, as NumPy's.
    {"argmin", "", "(acc == acc && (x != x || x < acc))"},
    {"argmax", "", "(acc == acc && (x != x || x > acc))"},
};

bool is_arg(const std::string& what) { return what == "argmin" || what == "argmax"; }

const AxisReduction& axis_op(const std::string& what) {
  for (const auto& r : axis_ops) {
    if (what == r.what) return r;
  }
  throw InvalidArgument("unknown reduction " + what);
}

// NumPy's result type of each reduction, and the type it accumulates in.
DType axis_result_type(const std::string& what, DType t) {
  if (what == "any" || what == "all") return DType::bool_;
  if (is_arg(what)) return DType::int64;
  if (what == "min" || what == "max") return t;
  if (what == "mean") return is_floating(t) ? t : DType::float64;
  // sum and prod: small integers widen to the platform integer, as NumPy's.
  if (t == DType::bool_ || is_signed_integer(t)) return DType::int64;
  if (!is_floating(t)) return DType::uint64;
  return t;
}
DType accumulator_type(const std::string& what, DType result, DType t) {
  if (what == "min" || what == "max" || is_arg(what)) return t == DType::bool_ ? DType::uint8 : t;
  if (what == "any" || what == "all") return DType::uint8;
  // Float sums in double (more exact than NumPy's pairwise float32 sums, within its error);
  // float products in their own type, as NumPy's: a float32 product overflows to inf (and
  // inf * 0 to NaN) where NumPy's does.
  if (what == "prod") return result;
  return is_floating(result) ? DType::float64 : result;
}

std::vector<std::size_t> normalize_axes(const std::vector<int>& axes, std::size_t ndim, const char* what) {
  std::vector<std::size_t> out;
  for (int a : axes) {
    const int n = static_cast<int>(ndim);
    if (a < -n || a >= n) {
      throw InvalidArgument(std::string(what) + ": axis " + std::to_string(a) + " is out of range for " +
                            std::to_string(ndim) + " dimension(s)");
    }
    const auto u = static_cast<std::size_t>(a < 0 ? a + n : a);
    if (std::find(out.begin(), out.end(), u) != out.end()) {
      throw InvalidArgument(std::string(what) + ": axis " + std::to_string(a) + " is named twice");
    }
    out.push_back(u);
  }
  if (axes.empty()) {
    for (std::size_t d = 0; d < ndim; ++d) out.push_back(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The output array, the kernel and its arguments of a reduction along axes (no kernel when
// the output is empty).
struct AxisPlan {
  Array out;
  std::shared_ptr<ElementwiseKernel> kernel;
  std::vector<detail::RuntimeArg> args;
};

// How a split reduction's first stage cuts each reduced range (piece 0: no split).
// Blocked: pieces of `piece` consecutive positions (the last may be shorter, none is empty);
// work-item i reduces piece i / outputs of output i % outputs (adjacent work-items read
// adjacent outputs' elements: the coalesced order when the reduced range is strided), into
// an array of shape (pieces, outputs). Interleaved (a reduced range that is contiguous):
// `piece` parts, part p holding positions p, p + parts, p + 2 parts ...; work-item i reduces
// part i % parts of output i / parts (adjacent work-items read adjacent elements of one
// output), into an array of shape (outputs, parts). Either way in the accumulator type, with
// no mean division.
struct AxisSplit {
  std::int64_t piece = 0;
  bool interleaved = false;
};

AxisPlan plan_axes(const Expr& whole, const std::string& what, const std::vector<int>& axes, bool keepdims,
                   AxisSplit split = {}) {
  const std::int64_t piece = split.piece;
  const Expr expr = detail::bounded(whole, whole.shape());
  const detail::ExprNode& root = *expr.node();
  const Device dev = detail::device_of(root);
  if (!dev) throw InvalidArgument(what + ": the expression holds no array");
  detail::check_one_device(root, dev);
  const AxisReduction& r = axis_op(what);
  const Shape& in = expr.shape();
  const std::size_t nd = in.ndim();
  const auto reduced = normalize_axes(axes, nd, what.c_str());
  std::vector<bool> is_reduced(nd, false);
  for (auto d : reduced) is_reduced[d] = true;
  std::vector<std::int64_t> out_dims;
  std::int64_t count = 1;
  for (std::size_t d = 0; d < nd; ++d) {
    if (is_reduced[d]) {
      count *= in[d];
      if (keepdims) out_dims.push_back(1);
    } else {
      out_dims.push_back(in[d]);
    }
  }
  if (count == 0 && (what == "min" || what == "max" || is_arg(what))) {
    throw InvalidArgument(what + " over an empty axis of " + to_string(in) + ": the operation has no identity");
  }
  const bool partial = piece > 0;
  const bool interleaved = partial && split.interleaved;
  const std::int64_t parts = !partial ? 1 : interleaved ? piece : (count + piece - 1) / piece;
  const DType result = partial ? accumulator_type(what, axis_result_type(what, expr.dtype()), expr.dtype())
                               : axis_result_type(what, expr.dtype());
  const DType acc = accumulator_type(what, axis_result_type(what, expr.dtype()), expr.dtype());
  std::int64_t outputs = 1;
  for (std::size_t d = 0; d < nd; ++d) outputs *= is_reduced[d] ? 1 : in[d];
  Array out = !partial      ? Array::empty(Shape(out_dims), result, dev)
              : interleaved ? Array::empty(Shape{outputs, parts}, result, dev)
                            : Array::empty(Shape{parts, outputs}, result, dev);
  if (out.size() == 0) return {out, nullptr, {}};

  // Arguments: the output, the expression's, then each dimension's extent and its flat
  // stride in the expression's (contiguous, row-major) index, then the reduced count.
  detail::Keyed k = detail::key_and_args(in, {&root});
  std::vector<detail::RuntimeArg> args{detail::RuntimeArg::of(out.buffer())};
  args.insert(args.end(), k.args.begin(), k.args.end());
  const Strides flat = contiguous_strides(in);
  std::string mask;
  for (std::size_t d = nd; d-- > 0;) {
    args.push_back(detail::RuntimeArg::of_value(static_cast<std::int64_t>(in[d])));
    args.push_back(detail::RuntimeArg::of_value(flat[d]));
    mask += is_reduced[d] ? 'r' : 'k';
  }
  args.push_back(detail::RuntimeArg::of_value(count));
  if (partial) {
    args.push_back(detail::RuntimeArg::of_value(outputs));
    args.push_back(detail::RuntimeArg::of_value(piece));
  }
  static detail::KernelTable<ElementwiseKernel> table;
  const std::string key = what + "|" + std::string(name(result)) + "|" + mask +
                          (interleaved ? "|interleaved|" : partial ? "|parts|" : "|") + k.key;
  auto kernel = detail::cached<ElementwiseKernel>(table, key, [&] {
    const detail::Text t = detail::text_of(in, {&root});
    const std::string A = detail::kernel_type(acc);
    // any and all look at whether each element is nonzero (0.5 must count, not truncate to 0).
    const bool logical = what == "any" || what == "all";
    const ElementFunction f = element_function(t.sig, logical ? "((" + t.value + ") != 0)" : t.value, A);
    std::string params = detail::kernel_type(result) + " *weft_out, " + f.params;
    std::string kept_index = interleaved ? "long weft_q = i / weft_piece; long weft_base = 0;"
                             : partial   ? "long weft_q = i % weft_outputs; long weft_base = 0;"
                                         : "long weft_q = i; long weft_base = 0;";
    for (std::size_t d = nd; d-- > 0;) {
      const std::string D = std::to_string(d);
      params += ", long weft_e" + D + ", long weft_f" + D;
      if (!is_reduced[d]) kept_index += " weft_base += (weft_q % weft_e" + D + ") * weft_f" + D + "; weft_q /= weft_e" + D + ";";
    }
    // weft_in, the flat index of reduced position `r` (a variable's name) of this output. One
    // reduced dimension: the position itself times its stride (no division per element).
    const auto red_index = [&](const std::string& pos) {
      if (reduced.size() == 1) return "long weft_in = weft_base + " + pos + " * weft_f" + std::to_string(reduced[0]) + ";";
      std::string index = "long weft_t = " + pos + "; long weft_in = weft_base;";
      for (std::size_t d = nd; d-- > 0;) {
        const std::string D = std::to_string(d);
        if (is_reduced[d]) index += " weft_in += (weft_t % weft_e" + D + ") * weft_f" + D + "; weft_t /= weft_e" + D + ";";
      }
      return index;
    };
    params += ", long weft_count";
    std::string body = kept_index;
    // This work-item's positions of the reduced range: weft_begin, + weft_step ... < weft_end.
    if (interleaved) {
      params += ", long weft_outputs, long weft_piece";
      body += " const long weft_begin = i % weft_piece; const long weft_step = weft_piece;"
              " const long weft_end = weft_count;";
    } else if (partial) {
      params += ", long weft_outputs, long weft_piece";
      body += " const long weft_begin = (i / weft_outputs) * weft_piece; const long weft_step = 1;"
              " const long weft_end = min(weft_begin + weft_piece, weft_count);";
    } else {
      body += " const long weft_begin = 0; const long weft_step = 1; const long weft_end = weft_count;";
    }
    body += " " + A + " acc = ";
    const bool seeded = std::string(r.neutral).empty();  // min/max start from the first element
    if (seeded) {
      body += "(" + A + ")0; long weft_r = weft_begin; { " + red_index("weft_r") + " acc = weft_element(weft_in" +
              f.names + "); } weft_r += weft_step;";
    } else {
      body += "(" + A + ")" + r.neutral + "; long weft_r = weft_begin;";
    }
    // Commutative reductions (not prod: a float product's overflow depends on the order, and
    // NumPy's order is kept) run four independent accumulators: no chain of dependent adds.
    std::string preamble = f.preamble;
    if (!is_arg(what) && what != "prod") {
      preamble += "\n" + A + " weft_combine(" + A + " acc, " + A + " x) { return (" + A + ")(" + r.op + "); }\n";
      body += " " + A + " acc1 = acc, acc2 = acc, acc3 = acc;"
              " for (; weft_r + 3 * weft_step < weft_end; weft_r += 4 * weft_step) {";
      const char* accs[] = {"acc", "acc1", "acc2", "acc3"};
      for (int u = 0; u < 4; ++u) {
        const std::string ru = "weft_r" + std::to_string(u);
        body += " { const long " + ru + " = weft_r + " + std::to_string(u) + " * weft_step; " + red_index(ru) + " " + accs[u] +
                " = weft_combine(" + accs[u] + ", weft_element(weft_in" + f.names + ")); }";
      }
      body += " } acc = weft_combine(weft_combine(acc, acc1), weft_combine(acc2, acc3));";
    }
    if (is_arg(what)) body += " long weft_best = 0;";
    body += " for (; weft_r < weft_end; weft_r += weft_step) { " + red_index("weft_r") + " const " + A +
            " x = weft_element(weft_in" + f.names + "); ";
    if (is_arg(what)) body += std::string("if ") + r.op + " { acc = x; weft_best = weft_r; } }";
    else body += std::string("acc = ") + r.op + "; }";
    if (what == "mean" && !partial) body += " acc = acc / (" + A + ")weft_count;";
    body += " weft_out[i] = (" + detail::kernel_type(result) + ")" + (is_arg(what) ? "weft_best" : "acc") + ";";
    auto made = std::make_shared<ElementwiseKernel>(params, body, "weft_axis_reduce", preamble);
    made->one_index_per_work_item();  // each index loops over a reduced range
    return made;
  });
  return {out, kernel, std::move(args)};
}

// ---- reductions over every element, in parallel ------------------------------------------

// The type a full reduction accumulates in: double for floats, 64-bit integers for the rest
// (exact, and wrapping as NumPy's 64-bit sums do).
DType full_accumulator(DType t) {
  if (is_floating(t)) return DType::float64;
  return is_unsigned_integer(t) ? DType::uint64 : DType::int64;
}

std::string extreme_literal(DType acc, bool largest) {
  if (acc == DType::float64) return largest ? "INFINITY" : "-INFINITY";
  if (acc == DType::uint64) return largest ? "18446744073709551615UL" : "0UL";
  return largest ? "9223372036854775807L" : "(-9223372036854775807L - 1L)";
}

struct FullOp {
  std::string neutral, reduce;
};
FullOp full_op(const std::string& what, DType acc) {
  // 64-bit accumulators add and multiply as signed integers: wrapping them through ulong, as
  // the elementwise operators do, makes GCC 12's vectorizer (-O3 -march=native) miscompile
  // the host backend's sum of sign-extended int8/int16 elements.
  if (what == "sum" || what == "mean") return {"0", "a + b"};
  if (what == "prod") return {"1", "a * b"};
  if (what == "min" || what == "argmin") return {extreme_literal(acc, true), "(a < b || a != a) ? a : b"};
  if (what == "max" || what == "argmax") return {extreme_literal(acc, false), "(a > b || a != a) ? a : b"};
  if (what == "any") return {"0", "(a || b)"};
  if (what == "all") return {"1", "(a && b)"};
  throw InvalidArgument("unknown reduction " + what);
}

template <class F>
decltype(auto) with_accumulator(DType acc, F&& f) {
  if (acc == DType::float64) return f(double{});
  if (acc == DType::float32) return f(float{});
  if (acc == DType::uint64) return f(std::uint64_t{});
  return f(std::int64_t{});
}

// One parallel reduction of the expression's elements (map: the element, or whether it is
// nonzero for any/all) into a one-element buffer of the accumulator's type.
std::shared_ptr<ReductionKernel> full_kernel(const Expr& expr, const std::string& what, DType acc, detail::Keyed& k) {
  k = detail::key_and_args(expr.shape(), {expr.node().get()});
  const FullOp op = full_op(what, acc);
  static detail::KernelTable<ReductionKernel> table;
  return detail::cached<ReductionKernel>(
      table, "all|" + what + "|" + std::string(name(acc)) + "|" + k.key, [&] {
        const detail::Text t = detail::text_of(expr.shape(), {expr.node().get()});
        const bool logical = what == "any" || what == "all";
        const ElementFunction f = element_function(t.sig, logical ? "((" + t.value + ") != 0)" : t.value,
                                                   detail::kernel_type(acc));
        return std::make_shared<ReductionKernel>(acc, op.neutral, op.reduce, "weft_element(i" + f.names + ")",
                                                 f.params, f.preamble, "weft_reduce_all");
      });
}

Buffer reduce_all_elements(const Expr& expr, const std::string& what, DType acc, const Device& dev) {
  detail::Keyed k;
  auto kernel = full_kernel(expr, what, acc, k);
  const auto n = static_cast<std::size_t>(expr.shape().size());
  return with_accumulator(acc, [&](auto type) {
    return kernel->template reduce_args<decltype(type)>(detail::array_queue(dev), n, k.args).device_value();
  });
}

// The flat index of the first element equal to the extreme held in extreme (a NaN matches
// a NaN), by a second parallel reduction: argmin and argmax over every element.
std::shared_ptr<ReductionKernel> index_kernel(const Expr& expr, DType acc, detail::Keyed& k) {
  k = detail::key_and_args(expr.shape(), {expr.node().get()});
  static detail::KernelTable<ReductionKernel> table;
  return detail::cached<ReductionKernel>(table, "index|" + std::string(name(acc)) + "|" + k.key, [&] {
    const detail::Text t = detail::text_of(expr.shape(), {expr.node().get()});
    const std::string A = detail::kernel_type(acc);
    const ElementFunction f = element_function(t.sig, t.value, A);
    const std::string preamble = f.preamble + "long weft_pick(" + A + " v, " + A +
                                 " m, long i) { return (v == m || (m != m && v != v)) ? i : 9223372036854775807L; }\n";
    return std::make_shared<ReductionKernel>(DType::int64, "9223372036854775807L", "a < b ? a : b",
                                             "weft_pick(weft_element(i" + f.names + "), weft_extreme[0], i)",
                                             f.params + ", const " + A + " *weft_extreme", preamble,
                                             "weft_first_index");
  });
}

Buffer first_index_of(const Expr& expr, DType acc, const Buffer& extreme, const Device& dev) {
  detail::Keyed k;
  auto kernel = index_kernel(expr, acc, k);
  k.args.push_back(detail::RuntimeArg::of(extreme));
  const auto n = static_cast<std::size_t>(expr.shape().size());
  return kernel->reduce_args<std::int64_t>(detail::array_queue(dev), n, k.args).device_value();
}

Array reduce_every_element(const Expr& whole, const std::string& what, bool keepdims) {
  const Expr expr = detail::bounded(whole, whole.shape());
  const detail::ExprNode& root = *expr.node();
  const Device dev = detail::device_of(root);
  if (!dev) throw InvalidArgument(what + ": the expression holds no array");
  detail::check_one_device(root, dev);
  const std::int64_t count = expr.shape().size();
  if (count == 0 && (what == "min" || what == "max" || is_arg(what))) {
    throw InvalidArgument(what + " of an empty array of shape " + to_string(expr.shape()) +
                          ": the operation has no identity");
  }
  const DType result = axis_result_type(what, expr.dtype());
  // A mean accumulates in double, as NumPy's (a 64-bit integer sum could wrap).
  const DType acc = what == "mean"                              ? DType::float64
                    : what == "prod" && expr.dtype() == DType::float32 ? DType::float32
                                                                       : full_accumulator(expr.dtype());
  const Shape shape(std::vector<std::int64_t>(keepdims ? expr.shape().ndim() : 0, 1));
  Buffer value = reduce_all_elements(expr, is_arg(what) ? (what == "argmin" ? "min" : "max") : what, acc, dev);
  if (is_arg(what)) return Array::wrap(first_index_of(expr, acc, value, dev), DType::int64, shape);
  const Array r = Array::wrap(std::move(value), acc, shape);
  if (what == "mean") return eval(astype(Expr(r) / static_cast<double>(count), result));
  if (result == acc) return r;
  return eval(astype(Expr(r), result));
}

// Whether and how to split the reduced ranges of a reduction over some axes (AxisSplit).
// GPUs want about as many work-items as their streaming reductions run and adjacent
// work-items reading adjacent elements; CPUs are busy with one work-item per output.
// - A contiguous reduced range (the reduced axes are the last ones) of 1024 or more: parts
//   interleaved, at least a warp's 32 (so a warp reads consecutive elements) and enough to
//   fill the device, each of at least 16 positions (the partials stay a sixteenth of the
//   input or less).
// - A strided one, with too few outputs to fill the device: pieces of at least 64 positions.
// WEFT_REDUCE_SPLIT=always|never overrides the choice (tests run the splits on CPUs with it).
AxisSplit split_of(const Device& dev, std::int64_t outputs, std::int64_t count, bool contiguous) {
  if (outputs <= 0) return {};
  const auto& style = detail::device_style(dev);
  const char* mode = std::getenv("WEFT_REDUCE_SPLIT");
  const std::string_view m = mode ? mode : "";
  const bool always = m == "always";
  if (m == "never" || (!always && style.chunked)) return {};  // CPUs: one work-item streams fine
  const auto units = static_cast<std::int64_t>(std::max(1u, dev.info().compute_units));
  const std::int64_t busy = style.chunked ? units * 4 : units * static_cast<std::int64_t>(style.groups_per_unit * style.group);
  if (contiguous) {
    if (count < (always ? 64 : 1024)) return {};
    const std::int64_t parts = std::min(std::max<std::int64_t>(32, busy / outputs), count / 16);
    if (parts < 2) return {};
    return {parts, true};
  }
  constexpr std::int64_t min_piece = 64;
  if (count < 2 * min_piece || outputs * 2 > busy) return {};
  const std::int64_t parts = std::min(busy / outputs, count / min_piece);
  if (parts < 2) return {};
  return {(count + parts - 1) / parts, false};
}

Array reduce_axes(const Expr& expr, const std::string& what, const std::vector<int>& axes, bool keepdims) {
  const auto reduced = normalize_axes(axes, expr.shape().ndim(), what.c_str());
  if (reduced.size() == expr.shape().ndim()) return reduce_every_element(expr, what, keepdims);
  // Few outputs, long reduced ranges: two stages. The pieces' partials (accumulator type), then
  // the same reduction over the pieces (split again if still long), then mean's division and
  // NumPy's result type. argmin and argmax keep one stage.
  std::int64_t count = 1;
  for (auto d : reduced) count *= expr.shape()[d];
  const std::int64_t outputs = count ? expr.shape().size() / count : 0;
  if (!is_arg(what) && count > 0) {
    const Device dev = detail::device_of(*expr.node());
    // The reduced axes are the last ones: each output's range is contiguous.
    bool contiguous = true;
    for (std::size_t j = 0; j < reduced.size(); ++j) {
      contiguous = contiguous && reduced[j] == expr.shape().ndim() - reduced.size() + j;
    }
    if (const AxisSplit split = dev ? split_of(dev, outputs, count, contiguous) : AxisSplit{}; split.piece) {
      AxisPlan p = plan_axes(expr, what, axes, false, split);
      p.kernel->run(detail::array_queue(dev), static_cast<std::size_t>(p.out.size()), p.args);
      detail::count_launch(dev);
      const std::string second = what == "mean" ? "sum" : what;
      Array r = reduce_axes(Expr(p.out), second, {split.interleaved ? 1 : 0}, false);
      const DType result = axis_result_type(what, expr.dtype());
      if (what == "mean") r = eval(astype(Expr(r) / static_cast<double>(count), result));
      else if (r.dtype() != result) r = eval(astype(Expr(r), result));
      std::vector<std::int64_t> dims;
      for (std::size_t d = 0; d < expr.shape().ndim(); ++d) {
        const bool gone = std::find(reduced.begin(), reduced.end(), d) != reduced.end();
        if (!gone) dims.push_back(expr.shape()[d]);
        else if (keepdims) dims.push_back(1);
      }
      return r.reshape(dims);
    }
  }
  AxisPlan p = plan_axes(expr, what, axes, keepdims);
  if (!p.kernel) return p.out;
  const Device dev = p.out.device();
  p.kernel->run(detail::array_queue(dev), static_cast<std::size_t>(p.out.size()), p.args);
  detail::count_launch(dev);
  return p.out;
}
}  // namespace

Future<double> sum(const Expr& expr) { return reduce(expr, sum_op); }
Future<double> min(const Expr& expr) { return reduce(expr, min_op); }
Future<double> max(const Expr& expr) { return reduce(expr, max_op); }

Array sum(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes(expr, "sum", axes, keepdims); }
Array prod(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes(expr, "prod", axes, keepdims); }
Array min(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes(expr, "min", axes, keepdims); }
Array max(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes(expr, "max", axes, keepdims); }
Array mean(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes(expr, "mean", axes, keepdims); }
Array any(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes(expr, "any", axes, keepdims); }
Array all(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes(expr, "all", axes, keepdims); }

Array argmin(const Expr& expr) { return reduce_every_element(expr, "argmin", false); }
Array argmax(const Expr& expr) { return reduce_every_element(expr, "argmax", false); }
Array argmin(const Expr& expr, int axis, bool keepdims) { return reduce_axes(expr, "argmin", {axis}, keepdims); }
Array argmax(const Expr& expr, int axis, bool keepdims) { return reduce_axes(expr, "argmax", {axis}, keepdims); }

Array var(const Expr& expr, const std::vector<int>& axes, bool keepdims, int ddof) {
  // Two passes, as NumPy's: the mean, then the mean square deviation from it.
  const auto reduced = normalize_axes(axes, expr.shape().ndim(), "var");
  std::int64_t count = 1;
  for (auto d : reduced) count *= expr.shape()[d];
  const Array m = mean(expr, axes, true);
  const Expr centered = astype(expr, m.dtype()) - Expr(m);
  const Array squares = sum(centered * centered, axes, keepdims);
  const double divisor = static_cast<double>(std::max<std::int64_t>(count - ddof, 0));
  return eval(astype(Expr(squares) / divisor, m.dtype()));
}

Array std(const Expr& expr, const std::vector<int>& axes, bool keepdims, int ddof) {
  return eval(sqrt(var(expr, axes, keepdims, ddof)));
}

namespace {
std::shared_ptr<GenericScanKernel> scan_kernel(const Expr& expr, const std::string& what, DType result, bool lines,
                                               std::vector<detail::RuntimeArg>& args);

// cumsum and cumprod: NumPy's result type (sum's), the expression scanned in one generated
// scan kernel, along one axis as a segmented scan over its lines.
Array scan_along(const Expr& whole, const std::string& what, std::optional<int> axis) {
  const Expr expr = detail::bounded(whole, whole.shape());
  const detail::ExprNode& root = *expr.node();
  const Device dev = detail::device_of(root);
  if (!dev) throw InvalidArgument(what + ": the expression holds no array");
  detail::check_one_device(root, dev);
  // Without an axis NumPy scans the elements in C order: the expression's own flat index,
  // one line (no copy of a strided operand, no evaluation of the expression first).
  const Shape& in = expr.shape();
  std::int64_t inner = 1;
  std::int64_t length = in.size();
  if (axis) {
    const std::size_t d = normalize_axes({*axis}, in.ndim(), what.c_str()).front();
    for (std::size_t k = d + 1; k < in.ndim(); ++k) inner *= in[k];
    length = in[d];
  }
  const DType result = axis_result_type("sum", expr.dtype());
  Array out = Array::empty(axis ? in : Shape{in.size()}, result, dev);
  if (out.size() == 0) return out;
  const bool lines = out.size() != length;  // more than one line: a segmented scan

  std::vector<detail::RuntimeArg> args{detail::RuntimeArg::of(out.buffer())};
  auto kernel = scan_kernel(expr, what, result, lines, args);
  args.push_back(detail::RuntimeArg::of_value(length));
  args.push_back(detail::RuntimeArg::of_value(inner));
  kernel->run(detail::array_queue(dev), static_cast<std::size_t>(out.size()), args);
  detail::count_launch(dev);
  out.mark_written();
  return out;
}

// The scan kernel of cumsum/cumprod (lines: segmented, one scan per line along the axis);
// appends the expression's arguments to args.
std::shared_ptr<GenericScanKernel> scan_kernel(const Expr& expr, const std::string& what, DType result, bool lines,
                                               std::vector<detail::RuntimeArg>& args) {
  const Shape& in = expr.shape();
  const detail::ExprNode& root = *expr.node();
  detail::Keyed k = detail::key_and_args(in, {&root});
  args.insert(args.end(), k.args.begin(), k.args.end());
  static detail::KernelTable<GenericScanKernel> table;
  const std::string key = what + "|" + std::string(name(result)) + (lines ? "|lines|" : "|one|") + k.key;
  return detail::cached<GenericScanKernel>(table, key, [&] {
    const detail::Text t = detail::text_of(in, {&root});
    const std::string R = detail::kernel_type(result);
    const ElementFunction f = element_function(t.sig, t.value, R);
    // Scan position j runs along the lines one after another; weft_flat gives the element's
    // place in C order (line = (outer, inner) pair, pos along the axis).
    const std::string preamble =
        f.preamble +
        "long weft_flat(long j, long len, long inner) { const long line = j / len; const long pos = j - line * len; "
        "const long o = line / inner; const long r = line - o * inner; return (o * len + pos) * inner + r; }\n";
    const std::string at = lines ? "weft_flat(i, weft_len, weft_inner)" : "i";
    return std::make_shared<GenericScanKernel>(
        result, R + " *weft_out, " + f.params + ", long weft_len, long weft_inner",
        "weft_element(" + at + f.names + ")", what == "cumsum" ? "a + b" : "a * b", what == "cumsum" ? "0" : "1",
        "weft_out[" + at + "] = item;", lines ? "i % weft_len == 0" : "", preamble, "weft_" + what);
  });
}
}  // namespace

Array cumsum(const Expr& expr) { return scan_along(expr, "cumsum", std::nullopt); }
Array cumprod(const Expr& expr) { return scan_along(expr, "cumprod", std::nullopt); }
Array cumsum(const Expr& expr, int axis) { return scan_along(expr, "cumsum", axis); }
Array cumprod(const Expr& expr, int axis) { return scan_along(expr, "cumprod", axis); }

Array dot(const Expr& a_expr, const Expr& b_expr) {
  // NumPy's dot: 1-D . 1-D is the inner product; otherwise the sum over a's last axis and
  // b's second-to-last (its only one when 1-D). Both operands become broadcast views of one
  // product expression, reduced in one kernel without a temporary.
  const Array a = a_expr.as_array() ? *a_expr.as_array() : eval(a_expr);
  const Array b = b_expr.as_array() ? *b_expr.as_array() : eval(b_expr);
  if (a.ndim() == 0 || b.ndim() == 0) return eval(Expr(a) * Expr(b));
  const std::int64_t k = a.shape()[a.ndim() - 1];
  const std::size_t bk_axis = b.ndim() == 1 ? 0 : b.ndim() - 2;
  if (b.shape()[bk_axis] != k) {
    throw InvalidArgument("dot: shapes " + to_string(a.shape()) + " and " + to_string(b.shape()) +
                          " are not aligned: " + std::to_string(k) + " (a's last axis) != " +
                          std::to_string(b.shape()[bk_axis]) + " (b's " +
                          (b.ndim() == 1 ? "only axis)" : "second-to-last axis)"));
  }
  if (b.ndim() == 1) return sum(Expr(a) * Expr(b), {-1}, false);
  // a: (..., k) -> (..., 1 x (b.ndim - 2), k, 1); b: (..., k, m) -> (1 x (a.ndim - 1), ..., k, m).
  std::vector<std::int64_t> ad(a.shape().dims().begin(), a.shape().dims().end() - 1);
  Strides as(a.strides().begin(), a.strides().end() - 1);
  for (std::size_t i = 0; i + 2 < b.ndim(); ++i) {
    ad.push_back(1);
    as.push_back(0);
  }
  ad.push_back(k);
  as.push_back(a.strides().back());
  ad.push_back(1);
  as.push_back(0);
  std::vector<std::int64_t> bd(a.ndim() - 1, 1);
  Strides bs(a.ndim() - 1, 0);
  bd.insert(bd.end(), b.shape().dims().begin(), b.shape().dims().end());
  bs.insert(bs.end(), b.strides().begin(), b.strides().end());
  const Array av = a.as_strided(Shape(ad), as, a.offset());
  const Array bv = b.as_strided(Shape(bd), bs, b.offset());
  const DType t = result_type(a.dtype(), b.dtype());
  const Array s = sum(Expr(av) * Expr(bv), {-2}, false);
  return s.dtype() == t ? s : eval(astype(Expr(s), t));
}

std::string detail::axis_reduce_source(const Expr& expr, const std::string& what, const std::vector<int>& axes,
                                       std::int64_t piece, bool interleaved) {
  return plan_axes(expr, what, axes, false, AxisSplit{piece, interleaved}).kernel->source();
}

std::string detail::full_reduce_source(const Expr& expr, const std::string& what) {
  detail::Keyed k;
  return full_kernel(expr, what, full_accumulator(expr.dtype()), k)->source();
}

std::string detail::first_index_source(const Expr& expr) {
  detail::Keyed k;
  return index_kernel(expr, full_accumulator(expr.dtype()), k)->source();
}

std::string detail::scan_source(const Expr& expr, const std::string& what, bool lines) {
  std::vector<detail::RuntimeArg> args;
  return scan_kernel(expr, what, axis_result_type("sum", expr.dtype()), lines, args)->source();
}

std::string detail::sum_source(const Expr& expr) {
  std::vector<detail::RuntimeArg> args;
  return reduce_kernel(expr, sum_op, args)->source();
}

}  // namespace weft
