#include "array/stepwise.hpp"

#include <memory>
#include <unordered_set>

#include "array/evaluate.hpp"
#include "kernels/generators/device_style.hpp"
#include "runtime/backend.hpp"
#include "runtime/program_builder.hpp"
#include "weft/config.hpp"

namespace weft::detail {

namespace {

bool is_operation(const ExprNode& n) { return n.kind != ExprNode::Kind::leaf && n.kind != ExprNode::Kind::scalar; }

bool holdable(const ExprNode& n) {
  if (n.dtype == DType::float16 || n.kind == ExprNode::Kind::call) return false;
  if (is_operation(n) && n.weak) return false;  // 2.0 * 3.0: a number, typed by what it meets
  for (const auto& k : n.kids) {
    if (!holdable(*k)) return false;
  }
  return true;
}

// root with each operand that is an operation replaced by a temporary holding its value.
NodePtr step(const ExprNode& n, const Device& dev) {
  auto copy = std::make_shared<ExprNode>(n);
  for (auto& kid : copy->kids) {
    if (!is_operation(*kid)) continue;
    const NodePtr inner = step(*kid, dev);
    Array tmp = Array::empty(kid->shape, kid->dtype, dev);
    assign_into(tmp, Expr(inner));  // one operation on arrays and numbers: not stepped again
    kid = Expr(tmp).node();
  }
  return copy;
}

// Whether the program of source is still to be compiled on dev; if so its compile is started
// in the background. Once a program is built it stays built: a repeat call asks the builder
// no more (no hashing of the source). The array layer's kernels are never destroyed
// (kernel_cache.hpp), so their addresses are not reused.
bool compile_pending(const void* kernel, const std::string& source, const std::string& options, const Device& dev) {
  thread_local std::unordered_set<const void*> built;
  if (built.count(kernel)) return false;
  ProgramBuilder& builder = dev.impl()->program_builder();
  if (builder.ready(source, options)) {
    built.insert(kernel);
    return false;
  }
  builder.build_in_background(source, options);
  return true;
}

}  // namespace

bool steppable(const ExprNode& root) {
  bool nested = false;
  for (const auto& k : root.kids) nested |= is_operation(*k);
  return nested && holdable(root);
}

bool assign_stepwise(const Array& out, const ExprNode& root, ElementwiseKernel& fused) {
  if (!config().host_prebuilt) return false;
  const Device dev = out.device();
  const DeviceStyle& style = device_style(dev);
  if (!style.host || !steppable(root)) return false;
  if (!compile_pending(&fused, fused.source(), style.options, dev)) return false;
  assign_into(out, Expr(step(root, dev)));
  return true;
}

std::optional<Array> reduce_stepwise(const Expr& expr, const ReductionKernel& fused) {
  if (!config().host_prebuilt) return std::nullopt;
  const ExprNode& root = *expr.node();
  if (!is_operation(root) || !holdable(root)) return std::nullopt;
  const Device dev = device_of(root);
  const DeviceStyle& style = device_style(dev);
  if (!style.host) return std::nullopt;
  if (!compile_pending(&fused, fused.host_source(), fused.options() + style.options, dev)) return std::nullopt;
  Array value = Array::empty(expr.shape(), expr.dtype(), dev);  // the expression is placed already
  assign_into(value, expr);
  return value;
}

}  // namespace weft::detail
