// Evaluation: eval, Array::assign and the kernel that writes an expression into an array,
// through a temporary where the expression reads memory the destination overwrites.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/lifetime.hpp"
#include "array/array_queue.hpp"
#include "array/auto_device.hpp"
#include "array/codegen.hpp"
#include "array/evaluate.hpp"
#include "array/promotion.hpp"
#include "array/stepwise.hpp"
#include "array/kernel_cache.hpp"
#include "array/lazy_readers.hpp"
#include "array/tree_cutting.hpp"
#include "weft/array.hpp"
#include "weft/elementwise.hpp"
#include "weft/error.hpp"

namespace weft {

namespace detail {

namespace {

// Whether some array the expression reads shares memory with dest other than element for
// element (the same offset and strides, which is safe: each work-item reads what it writes).
bool reads_overlapping(const ExprNode& n, const Array& dest) {
  if (n.kind == ExprNode::Kind::leaf) {
    const Array& a = n.array;
    if (a.buffer_handle().impl() != dest.buffer_handle().impl()) return false;  // (identity: nothing copied)
    const bool same_view = a.offset() == dest.offset() && a.shape() == dest.shape() && a.strides() == dest.strides();
    return !same_view;
  }
  return std::any_of(n.kids.begin(), n.kids.end(), [&](const auto& k) { return reads_overlapping(*k, dest); });
}

// The kernel that writes expr into out, from the table of those already made; call holds
// its key and arguments.
// target: automatic arrays of other devices read as seen from there (CallKey::walk).
std::shared_ptr<ElementwiseKernel> eval_kernel(const Array& out, const ExprNode& root, CallKey& call,
                                               const Device* target = nullptr) {
  // The destination takes part as leaf 0, so its own strides (a view) are honoured too.
  call << "eval|";
  call.walk(out.shape(), &out, {&root}, target);
  static Immortal<KernelTable<ElementwiseKernel>> tables;  // never destroyed: core/lifetime.hpp
  auto& table = *tables;
  return cached<ElementwiseKernel>(table, call.key(), [&] {
    Text t = text_of(out.shape(), &out, {&root}, target);
    t.sig.spec.erase(t.sig.spec.find("const "), 6);  // the destination is written: not const
    // A bool holds 0 or 1 whatever is written into it (5 is True, as NumPy's); the root's dtype
    // is in the key, so a bool root (already 0 or 1) keeps the plain store.
    const bool to_bool = out.dtype() == DType::bool_ && root.dtype != DType::bool_;
    const std::string value = to_bool ? "((" + truth(t.value, root.dtype) + "))" : t.value;
    // (A complex value is converted by the helpers: a C cast would splat a real one.)
    const std::string stored = is_complex(out.dtype()) || is_complex(root.dtype)
                                   ? convert(value, to_bool ? DType::bool_ : root.dtype, out.dtype())
                                   : "(" + kernel_type(out.dtype()) + ")(" + value + ")";
    return std::make_shared<ElementwiseKernel>(
        t.sig.spec.substr(2),
        t.sig.offsets + " weft_a0[weft_o0] = " + stored + ";", "weft_expr",
        helpers() + t.sig.functions);
  });
}

}  // namespace

std::string eval_source(const Array& out, const Expr& expr) {
  CallKey call;
  return eval_kernel(out, *expr.node(), call)->source();
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
  CallKey call;
  auto kernel = eval_kernel(out, root, call);
  // A new expression on the host runs on prebuilt operations while its kernel compiles.
  if (assign_stepwise(out, root, *kernel)) return;
  kernel->run(detail::array_queue(dev), n, call.args());
  count_launch(dev);
  out.mark_written();
}

// Writes expr, every array of it automatic, into out (new, on the device auto chose) as
// assign_into(out, seen_from(expr, out.device())) does, without copying the tree: the arrays
// on other devices are bound as their copies there (CallKey::walk's target). The tree's copy
// was most of device auto's own cost where the data is elsewhere: on the 2-core VM,
// sin/exp/cos of 100 floats resident on PoCL evaluated on the host, 18.4K instructions more
// than the fixed host's path, 13.6K of them seen_from and the copy's release. A first call on
// the host while the kernel compiles (stepwise) goes through seen_from.
void assign_seen_from(const Array& out, const Expr& whole) {
  const Device dev = out.device();
  const Expr expr = bounded(whole, out.shape(), &dev);
  const ExprNode& root = *expr.node();
  const auto n = static_cast<std::size_t>(out.size());
  if (n == 0) return;
  {
    CallKey call;
    auto kernel = eval_kernel(out, root, call, &dev);
    if (!stepwise_may(out, root, *kernel)) {
      kernel->run(detail::array_queue(dev), n, call.args());
      count_launch(dev);
      out.mark_written();
      return;
    }
  }
  assign_into(out, seen_from(expr, dev));
}

}  // namespace detail

Array eval(const Expr& expr) {
  if (auto placed = detail::place_automatically(expr, "eval", false, {}, false)) {
    Array out = Array::empty(placed->expr.shape(), placed->expr.dtype(), placed->device);
    if (placed->moves) detail::assign_seen_from(out, placed->expr);
    else detail::assign_into(out, placed->expr);
    detail::learn_when_done(*placed);
    if (placed->chosen) detail::mark_automatic(out, placed->result_tag);
    return out;
  }
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
  // The destination fixes the device: automatic arrays the assignment reads are seen from there.
  detail::assign_into(*this, detail::reads_automatic(expr) ? detail::seen_from(expr, device()) : expr);
}

}  // namespace weft
