// cumsum and cumprod of an expression: one generated scan kernel reading the expression, of
// the flattened elements or along an axis (a segmented scan over its lines).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/lifetime.hpp"
#include "algorithms/reduction_kernels.hpp"
#include "array/array_queue.hpp"
#include "array/codegen.hpp"
#include "array/expr_node.hpp"
#include "array/kernel_cache.hpp"
#include "array/tree_cutting.hpp"
#include "weft/array.hpp"
#include "weft/error.hpp"
#include "weft/scan.hpp"

namespace weft {

namespace {
using detail::axis_result_type;
using detail::element_function;
using detail::ElementFunction;
using detail::normalize_axes;

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
  detail::CallKey call;
  call << what << "|" << name(result) << (lines ? "|lines|" : "|one|");
  call.walk(in, nullptr, {&root});
  args.insert(args.end(), call.args().begin(), call.args().end());
  static detail::Immortal<detail::KernelTable<GenericScanKernel>> tables;  // never destroyed: core/lifetime.hpp
  auto& table = *tables;
  return detail::cached<GenericScanKernel>(table, call.key(), [&] {
    const detail::Text t = detail::text_of(in, nullptr, {&root});
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

std::string detail::scan_source(const Expr& expr, const std::string& what, bool lines) {
  std::vector<detail::RuntimeArg> args;
  return scan_kernel(expr, what, axis_result_type("sum", expr.dtype()), lines, args)->source();
}

}  // namespace weft
