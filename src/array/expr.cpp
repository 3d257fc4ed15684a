// weft::Expr: the leaves (arrays, numbers), the operators and functions that build a tree
// (their types: promotion.cpp), and what a tree is asked about as a whole.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "array/array_queue.hpp"
#include "array/expr_node.hpp"
#include "array/promotion.hpp"
#include "weft/array.hpp"
#include "weft/error.hpp"

namespace weft {

namespace detail {

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

}  // namespace detail

using detail::ExprNode;

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

Expr::Expr(std::complex<double> v) {
  auto n = number_node(DType::complex128, true);
  n->value = v.real();
  n->imag = v.imag();
  node_ = std::move(n);
}

Expr Expr::typed(std::complex<double> v, DType dtype) {
  if (!is_complex(dtype)) {
    throw InvalidArgument("Expr::typed: a complex number given as " + std::string(name(dtype)) +
                          "; give it as complex64 or complex128");
  }
  auto n = number_node(dtype, false);
  const bool single = dtype == DType::complex64;
  n->value = single ? static_cast<double>(static_cast<float>(v.real())) : v.real();
  n->imag = single ? static_cast<double>(static_cast<float>(v.imag())) : v.imag();
  return Expr(std::shared_ptr<const ExprNode>(std::move(n)));
}

Expr Expr::typed(double v, DType dtype) {
  if (is_complex(dtype)) return typed(std::complex<double>(v, 0.0), dtype);
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
  if (is_inexact(dtype)) return typed(static_cast<double>(v), dtype);
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
  if (is_inexact(dtype)) return typed(static_cast<double>(v), dtype);
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
        return a.buffer_handle().impl() == n->array.buffer_handle().impl() && a.offset() == n->array.offset() &&
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
Expr copysign(const Expr& a, const Expr& b) { return Expr(detail::make_binary("copysign", a, b)); }
Expr nextafter(const Expr& a, const Expr& b) { return Expr(detail::make_binary("nextafter", a, b)); }
Expr logaddexp(const Expr& a, const Expr& b) { return Expr(detail::make_binary("logaddexp", a, b)); }
Expr bitwise_left_shift(const Expr& a, const Expr& b) { return Expr(detail::make_binary("lshift", a, b)); }
Expr bitwise_right_shift(const Expr& a, const Expr& b) { return Expr(detail::make_binary("rshift", a, b)); }
Expr operator<<(const Expr& a, const Expr& b) { return bitwise_left_shift(a, b); }
Expr operator>>(const Expr& a, const Expr& b) { return bitwise_right_shift(a, b); }
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
    if (!b.weak || !detail::is_int_scalar(b) || detail::fits(b, t) || is_inexact(t)) return false;
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
Expr asinh(const Expr& a) { return unary("asinh", a, UnaryResult::to_float); }
Expr acosh(const Expr& a) { return unary("acosh", a, UnaryResult::to_float); }
Expr atanh(const Expr& a) { return unary("atanh", a, UnaryResult::to_float); }
Expr sign(const Expr& a) { return unary("sign", a, UnaryResult::same); }
Expr positive(const Expr& a) { return unary("positive", a, UnaryResult::same); }
Expr real(const Expr& a) { return unary("real", a, UnaryResult::same); }
Expr imag(const Expr& a) { return unary("imag", a, UnaryResult::same); }
Expr conj(const Expr& a) { return unary("conj", a, UnaryResult::same); }
Expr angle(const Expr& a) { return unary("angle", a, UnaryResult::to_float); }
Expr signbit(const Expr& a) { return unary("signbit", a, UnaryResult::to_bool); }
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

}  // namespace weft
