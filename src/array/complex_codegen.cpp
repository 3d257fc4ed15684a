// The complex half of code generation: complex64 and complex128 are the dialect's cfloat and
// cdouble (float2 / double2, real part in .x), computed with the helpers of
// src/kernels/cl/complex.cl. OpenCL C would read a cast of a real number to a vector type as
// a splat ((float2)x is (x, x)), so every conversion to or from a complex type goes through
// convert() here, never a C cast.
#include <memory>
#include <string>
#include <string_view>

#include "array/array_queue.hpp"
#include "array/codegen.hpp"
#include "weft/error.hpp"

namespace weft::detail {

namespace {

// The functions complex.cl defines under the operation's own name (cfloat_sin ...).
bool is_complex_function(std::string_view op) {
  for (std::string_view f : {"exp", "log", "log2", "log10", "sqrt", "expm1", "log1p", "sin", "cos", "tan", "sinh",
                             "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "round"}) {
    if (op == f) return true;
  }
  return false;
}

std::string unsupported(std::string_view what, DType t) {
  return std::string(what) + " is not defined for " + std::string(name(t)) +
         " (complex numbers take + - * / ** == != abs real imag conj angle sign sqrt exp expm1 log log1p log2 "
         "log10 square reciprocal the trigonometric and hyperbolic functions and their inverses isnan isinf "
         "isfinite round and the logical operations)";
}

}  // namespace

bool has_complex(const ExprNode& n) {
  if (is_complex(n.dtype)) return true;
  for (const auto& k : n.kids) {
    if (has_complex(*k)) return true;
  }
  return false;
}

std::string convert(const std::string& text, DType from, DType to) {
  const std::string T = kernel_type(to);
  if (!is_complex(from) && !is_complex(to)) {
    if (to == DType::bool_) return "((uchar)((" + text + ") != 0))";
    return "((" + T + ")(" + text + "))";
  }
  if (from == to) return text;
  if (is_complex(from) && is_complex(to)) return T + "_from" + kernel_type(from) + "(" + text + ")";
  if (is_complex(to)) return T + "_fromreal((" + kernel_type(real_of(to)) + ")(" + text + "))";
  // Complex to real: the real part, as NumPy's astype; to bool: nonzero.
  if (to == DType::bool_) return "((uchar)" + kernel_type(from) + "_nonzero(" + text + "))";
  return "((" + T + ")((" + text + ").x))";
}

std::string truth(const std::string& text, DType t) {
  if (is_complex(t)) return "(" + kernel_type(t) + "_nonzero(" + text + ") != 0)";
  return "((" + text + ") != 0)";
}

DType complex_unary_type(const std::string& op, DType t) {
  if (op == "abs" || op == "real" || op == "imag" || op == "angle") return real_of(t);
  if (op == "isnan" || op == "isinf" || op == "isfinite" || op == "logical_not") return DType::bool_;
  if (op == "neg" || op == "positive" || op == "square" || op == "reciprocal" || op == "sign" || op == "conj" ||
      is_complex_function(op)) {
    return t;
  }
  const std::string shown = op == "neg" ? "negation" : op == "invert" ? "bitwise '~'" : "'" + op + "'";
  throw DTypeError(unsupported(shown, t));
}

std::string complex_unary(const std::string& op, const std::string& in, DType t) {
  const std::string C = kernel_type(t);
  const std::string R = kernel_type(real_of(t));
  if (op == "abs") return C + "_abs(" + in + ")";
  if (op == "real") return "((" + in + ").x)";
  if (op == "imag") return "((" + in + ").y)";
  if (op == "angle") return C + "_arg(" + in + ")";
  if (op == "positive") return in;
  if (op == "neg") return C + "_neg(" + in + ")";
  if (op == "square") return C + "_mul(" + in + ", " + in + ")";
  if (op == "reciprocal") return C + "_rcp(" + in + ")";
  if (op == "logical_not") return "((uchar)(" + C + "_nonzero(" + in + ") == 0))";
  if (op == "isnan" || op == "isinf" || op == "isfinite") return "((uchar)" + C + "_" + op + "(" + in + "))";
  if (op == "conj" || op == "sign" || is_complex_function(op)) return C + "_" + op + "(" + in + ")";
  throw DTypeError(unsupported("'" + op + "'", t));
}

void check_complex_binary(const std::string& op, DType a, DType b) {
  if (op == "+" || op == "-" || op == "*" || op == "/" || op == "power" || op == "==" || op == "!=" ||
      op == "logical_and" || op == "logical_or" || op == "logical_xor") {
    return;
  }
  const std::string both = std::string(name(a)) + " and " + std::string(name(b));
  if (op == "<" || op == ">" || op == "<=" || op == ">=") {
    throw DTypeError("the ordering comparison '" + op + "' is not defined for complex numbers (operands " + both +
                     "); compare their real parts or absolute values instead");
  }
  const std::string shown = op == "floordiv" ? "floor_divide" : op == "lshift" ? "bitwise_left_shift"
                            : op == "rshift" ? "bitwise_right_shift" : op;
  throw DTypeError("'" + shown + "' is not defined for complex numbers (operands " + both +
                   "); complex numbers take + - * / ** == != and the logical operations");
}

std::string complex_binary(const std::string& op, const std::string& a, const std::string& b, DType work) {
  const std::string C = kernel_type(work);
  if (op == "+") return C + "_add(" + a + ", " + b + ")";
  if (op == "-") return C + "_sub(" + a + ", " + b + ")";
  if (op == "*") return C + "_mul(" + a + ", " + b + ")";
  if (op == "/") return C + "_div(" + a + ", " + b + ")";
  if (op == "power") return C + "_pow(" + a + ", " + b + ")";
  if (op == "==") return "((uchar)" + C + "_eq(" + a + ", " + b + "))";
  if (op == "!=") return "((uchar)(" + C + "_eq(" + a + ", " + b + ") == 0))";
  throw DTypeError(unsupported("'" + op + "'", work));
}

Expr make_complex(const Expr& re, const Expr& im, DType t) {
  auto n = std::make_shared<ExprNode>();
  n->kind = ExprNode::Kind::binary;
  n->op = "complex";
  n->dtype = t;
  n->shape = re.shape();
  n->kids = {re.node(), im.node()};
  return Expr(std::shared_ptr<const ExprNode>(std::move(n)));
}

}  // namespace weft::detail
