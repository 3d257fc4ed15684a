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
  // Once its program is built, a kernel stays built: a repeat call asks the builder no more
  // (no hashing of the source). The eval kernels are never destroyed (kernel_cache.hpp), so
  // their addresses are not reused.
  thread_local std::unordered_set<const ElementwiseKernel*> built;
  if (built.count(&fused)) return false;
  ProgramBuilder& builder = dev.impl()->program_builder();
  if (builder.ready(fused.source(), style.options)) {
    built.insert(&fused);
    return false;
  }
  builder.build_in_background(fused.source(), style.options);
  assign_into(out, Expr(step(root, dev)));
  return true;
}

}  // namespace weft::detail
