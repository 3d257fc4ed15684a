#include "array/stepwise.hpp"

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

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

// The steps of root: each operation that is an operand of another, innermost first, with a
// temporary to hold its value; the last is root itself, reading the temporaries. Ready when
// every step's kernel is built, on disk or prebuilt: an operation the pack lacks (acosh, int8,
// ...) would be a compile of its own, slower than the fused kernel's one, so then no step is
// taken. (The temporaries are allocated while planning; nothing runs.)
struct Step {
  Array into;
  NodePtr node;
};

NodePtr plan(const ExprNode& n, const Device& dev, const std::string& options, std::vector<Step>& steps, bool& ready) {
  auto copy = std::make_shared<ExprNode>(n);
  for (auto& kid : copy->kids) {
    if (!ready) break;
    if (!is_operation(*kid)) continue;
    const NodePtr inner = plan(*kid, dev, options, steps, ready);
    Array tmp = Array::empty(kid->shape, kid->dtype, dev);
    ready = ready && dev.impl()->program_builder().ready(eval_source(tmp, Expr(inner)), options);
    steps.push_back({tmp, inner});
    kid = Expr(tmp).node();
  }
  return copy;
}

// Whether the program of source is still to be compiled on dev (the caller starts that
// compile in the background when it steps). Once a program is built it stays built: a repeat call asks the builder
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
  return true;
}

// Whether the value of root can be written into out by ready kernels only: root's own kernel
// when it is one operation, else its steps (plan).
bool value_ready(const Array& out, const Expr& expr, const std::string& options) {
  const Device dev = out.device();
  const ExprNode& root = *expr.node();
  bool nested = false;
  for (const auto& k : root.kids) nested |= is_operation(*k);
  if (!nested) return dev.impl()->program_builder().ready(eval_source(out, expr), options);
  std::vector<Step> steps;
  bool ready = true;
  const NodePtr last = plan(root, dev, options, steps, ready);
  return ready && dev.impl()->program_builder().ready(eval_source(out, Expr(last)), options);
}

}  // namespace

bool steppable(const ExprNode& root) {
  bool nested = false;
  for (const auto& k : root.kids) nested |= is_operation(*k);
  return nested && holdable(root) && plain(root, root.shape);
}

bool stepwise_may(const Array& out, const ExprNode& root, ElementwiseKernel& fused) {
  if (!config().host_prebuilt) return false;
  const Device dev = out.device();
  const DeviceStyle& style = device_style(dev);
  if (!style.host || !steppable(root)) return false;
  return !built.count(&fused) && compile_pending(&fused, fused.source(), style.options, dev);
}

bool assign_stepwise(const Array& out, const ExprNode& root, ElementwiseKernel& fused) {
  if (!stepwise_may(out, root, fused)) return false;
  const Device dev = out.device();
  const DeviceStyle& style = device_style(dev);
  std::vector<Step> steps;
  bool ready = true;
  const NodePtr last = plan(root, dev, style.options, steps, ready);
  if (!ready || !dev.impl()->program_builder().ready(eval_source(out, Expr(last)), style.options)) return false;
  dev.impl()->program_builder().build_in_background(fused.source(), style.options);
  for (const Step& s : steps) assign_into(s.into, Expr(s.node));  // one operation each: not stepped again
  assign_into(out, Expr(last));
  return true;
}

bool reduce_stepwise_may(const ReductionKernel& fused, const Device& dev) {
  return config().host_prebuilt && device_style(dev).host && !built.count(&fused);
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
  const std::string options = fused.options() + style.options;
  if (built.count(&fused) || !compile_pending(&fused, fused.host_source(), options, dev)) {
    return std::nullopt;
  }
  Array value = Array::empty(expr.shape(), expr.dtype(), dev);  // the expression is placed already
  // The value's kernels must be ready too, or the compile is only moved (the reduction of a
  // temporary of the pack's dtypes is prebuilt).
  if (!value_ready(value, expr, style.options)) return std::nullopt;
  dev.impl()->program_builder().build_in_background(fused.host_source(), options);
  assign_into(value, expr);
  return value;
}

}  // namespace weft::detail
