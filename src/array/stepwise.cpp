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

// A floating-point product the compiler may fuse with the sum or difference it feeds (GCC
// contracts a*b + c into one FMA by default, -ffp-contract=fast, where the CPU has it): the
// fused kernel then rounds once where temporaries round twice.
bool product(const ExprNode& n) {
  return is_operation(n) && is_floating(n.dtype) && (n.op == "*" || n.op == "square");
}
bool contractible(const ExprNode& n) {
  if (!is_floating(n.dtype) || !(n.op == "+" || n.op == "-" || n.op == "neg")) return false;
  for (const auto& k : n.kids) {
    if (product(*k) || (k->op == "neg" && !k->kids.empty() && product(*k->kids[0]))) return true;
  }
  return false;
}

// Whether every array the expression reads is contiguous in the output's shape and no
// operation broadcasts: then each step is a kernel of plain indexing, the form the pack holds
// (a strided or broadcast operand makes kernels of their own, which would each be compiled).
bool plain(const ExprNode& n, const Shape& shape) {
  if (n.kind == ExprNode::Kind::scalar) return true;
  if (!(n.shape == shape)) return false;
  if (n.kind == ExprNode::Kind::leaf) return n.array.is_contiguous();
  for (const auto& k : n.kids) {
    if (!plain(*k, shape)) return false;
  }
  return true;
}

bool holdable(const ExprNode& n) {
  if (n.dtype == DType::float16 || n.kind == ExprNode::Kind::call) return false;
  if (is_operation(n) && n.weak) return false;  // 2.0 * 3.0: a number, typed by what it meets
  if (is_operation(n) && contractible(n)) return false;
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
thread_local std::unordered_set<const void*> built;

bool compile_pending(const void* kernel, const std::string& source, const std::string& options, const Device& dev) {
  ProgramBuilder& builder = dev.impl()->program_builder();
  // Without prebuilt operations (a library built for another CPU or compiler) each step
  // would be a compile of its own.
  if (builder.ready(source, options) || !builder.prebuilt_available()) {
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
  return nested && holdable(root) && plain(root, root.shape);
}

bool assign_stepwise(const Array& out, const ExprNode& root, ElementwiseKernel& fused) {
  if (!config().host_prebuilt) return false;
  const Device dev = out.device();
  const DeviceStyle& style = device_style(dev);
  if (!style.host || !steppable(root)) return false;
  if (built.count(&fused) || !compile_pending(&fused, fused.source(), style.options, dev)) return false;
  assign_into(out, Expr(step(root, dev)));
  return true;
}

std::optional<Array> reduce_stepwise(const Expr& expr, const ReductionKernel& fused) {
  if (!config().host_prebuilt) return std::nullopt;
  const ExprNode& root = *expr.node();
  // The reduction adds each element: a product there may be contracted into an FMA too.
  if (!is_operation(root) || !holdable(root) || !plain(root, root.shape) || product(root) ||
      (root.op == "neg" && !root.kids.empty() && product(*root.kids[0]))) {
    return std::nullopt;
  }
  const Device dev = device_of(root);
  const DeviceStyle& style = device_style(dev);
  if (!style.host) return std::nullopt;
  // (The set first: a repeat call allocates nothing, not even the options' string.)
  if (built.count(&fused) || !compile_pending(&fused, fused.host_source(), fused.options() + style.options, dev)) {
    return std::nullopt;
  }
  Array value = Array::empty(expr.shape(), expr.dtype(), dev);  // the expression is placed already
  assign_into(value, expr);
  return value;
}

}  // namespace weft::detail
