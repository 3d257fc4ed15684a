// cumsum and cumprod of an expression: one generated scan kernel reading the expression, of
// the flattened elements or along an axis (a segmented scan over its lines).
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/lifetime.hpp"
#include "algorithms/reduction_kernels.hpp"
#include "array/array_queue.hpp"
#include "array/auto_device.hpp"
#include "array/codegen.hpp"
#include "array/expr_node.hpp"
#include "array/kernel_cache.hpp"
#include "array/tree_cutting.hpp"
#include "weft/array.hpp"
#include "weft/error.hpp"
#include "weft/scan.hpp"
#include "weft/statistics.hpp"

namespace weft {

namespace {
using detail::axis_result_type;
using detail::element_function;
using detail::ElementFunction;
using detail::normalize_axes;

std::shared_ptr<GenericScanKernel> scan_kernel(const Expr& expr, const std::string& what, DType result, bool lines,
                                               bool initial, std::vector<detail::RuntimeArg>& args);

// cumsum and cumprod: NumPy's result type (sum's) unless given, the expression scanned in one
// generated scan kernel, along one axis as a segmented scan over its lines. initial: each line
// of the result starts with the operation's identity (the Array API's include_initial).
Array scan_along(const Expr& whole, const std::string& what, std::optional<int> axis,
                 std::optional<DType> type = std::nullopt, bool initial = false) {
  if (is_complex(whole.dtype()) || (type && is_complex(*type))) {
    // A cumulative sum of complex numbers: its parts' cumulative sums (in double for float
    // parts, as every float scan), put together.
    const DType t = type ? *type : whole.dtype();
    if (what != "cumsum" || !is_complex(t)) {
      throw DTypeError(what + " of " + std::string(name(whole.dtype())) + " into " + std::string(name(t)) +
                       " is not supported (cumulative sums of complex numbers are)");
    }
    const Array re = scan_along(real(whole), what, axis, real_of(t), initial);
    const Array im = scan_along(imag(whole), what, axis, real_of(t), initial);
    return eval(detail::make_complex(re, im, t));
  }
  // Device auto: where the chooser expects the scan to finish first (the expression read twice,
  // three launches: weft::scan_work); the result is automatic too.
  // (The expression moved to a device keeps its dtype: the result's type is known here.)
  const DType result = type ? *type : axis_result_type("sum", whole.dtype());
  const auto placed = detail::place_automatically(whole, what.c_str(), false, [result](WorkEstimate& w) {
    const double per = w.elements > 0 ? w.ops / static_cast<double>(w.elements) : 1.0;
    // Float scans accumulate in double.
    const Arithmetic a = w.arithmetic == Arithmetic::float32 ? Arithmetic::float64 : w.arithmetic;
    WorkEstimate s = scan_work(w.elements, w.bytes_read, per, size_of(result), a);
    s.result_to_host = w.result_to_host;
    w = s;
  });
  const auto done = [&](Array out) -> Array {
    if (!placed) return out;
    detail::learn_when_done(*placed);
    if (placed->chosen) detail::mark_automatic(out, placed->result_tag);
    return out;
  };
  const Expr expr = detail::bounded(placed ? placed->expr : whole, whole.shape());
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
  std::vector<std::int64_t> dims = axis ? in.dims() : std::vector<std::int64_t>{in.size()};
  const std::size_t d = axis ? normalize_axes({*axis}, in.ndim(), what.c_str()).front() : 0;
  if (initial) ++dims[d];
  Array out = Array::empty(Shape(dims), result, dev);
  if (initial && out.size() > 0) out.slice(d, 0, 1).assign(Expr(what == "cumsum" ? 0 : 1));
  if (in.size() == 0) return done(std::move(out));
  const bool lines = in.size() != length;  // more than one line: a segmented scan

  std::vector<detail::RuntimeArg> args{detail::RuntimeArg::of(out.buffer())};
  auto kernel = scan_kernel(type ? astype(expr, *type) : expr, what, result, lines, initial, args);
  args.push_back(detail::RuntimeArg::of_value(length));
  args.push_back(detail::RuntimeArg::of_value(inner));
  kernel->run(detail::array_queue(dev), static_cast<std::size_t>(in.size()), args);
  detail::count_launch(dev);
  out.mark_written();
  return done(std::move(out));
}

// The scan kernel of cumsum/cumprod (lines: segmented, one scan per line along the axis);
// appends the expression's arguments to args.
std::shared_ptr<GenericScanKernel> scan_kernel(const Expr& expr, const std::string& what, DType result, bool lines,
                                               bool initial, std::vector<detail::RuntimeArg>& args) {
  const Shape& in = expr.shape();
  const detail::ExprNode& root = *expr.node();
  detail::CallKey call;
  call << what << "|" << name(result) << (lines ? "|lines|" : "|one|") << (initial ? "initial|" : "");
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
        "long weft_flat(long j, long len, long inner, long extra) { const long line = j / len; "
        "const long pos = j - line * len; const long o = line / inner; const long r = line - o * inner; "
        "return (o * (len + extra) + pos + extra) * inner + r; }\n";
    // extra: the result's lines are one longer, the scan written after their first element.
    const std::string at = lines ? "weft_flat(i, weft_len, weft_inner, 0)" : "i";
    const std::string to = !initial ? at : lines ? "weft_flat(i, weft_len, weft_inner, 1)" : "i + 1";
    return std::make_shared<GenericScanKernel>(
        result, R + " *weft_out, " + f.params + ", long weft_len, long weft_inner",
        "weft_element(" + at + f.names + ")", what == "cumsum" ? "a + b" : "a * b", what == "cumsum" ? "0" : "1",
        "weft_out[" + to + "] = item;", lines ? "i % weft_len == 0" : "", preamble, "weft_" + what);
  });
}
}  // namespace

Array cumsum(const Expr& expr) { return scan_along(expr, "cumsum", std::nullopt); }
Array cumprod(const Expr& expr) { return scan_along(expr, "cumprod", std::nullopt); }
Array cumsum(const Expr& expr, int axis) { return scan_along(expr, "cumsum", axis); }
Array cumprod(const Expr& expr, int axis) { return scan_along(expr, "cumprod", axis); }

namespace {
Array cumulative(const Expr& x, const std::string& what, std::optional<int> axis, std::optional<DType> dtype,
                 bool include_initial) {
  const std::string who = what == "cumsum" ? "cumulative_sum" : "cumulative_prod";
  if (!axis && x.shape().ndim() > 1) {
    throw InvalidArgument(who + ": axis is required for an array of more than one dimension (x has " +
                          std::to_string(x.shape().ndim()) + ")");
  }
  if (axis) normalize_axes({*axis}, x.shape().ndim(), who.c_str());
  return scan_along(x, what, axis, dtype, include_initial);
}
}  // namespace

Array cumulative_sum(const Expr& x, std::optional<int> axis, std::optional<DType> dtype, bool include_initial) {
  return cumulative(x, "cumsum", axis, dtype, include_initial);
}
Array cumulative_prod(const Expr& x, std::optional<int> axis, std::optional<DType> dtype, bool include_initial) {
  return cumulative(x, "cumprod", axis, dtype, include_initial);
}

std::string detail::scan_source(const Expr& expr, const std::string& what, bool lines) {
  std::vector<detail::RuntimeArg> args;
  return scan_kernel(expr, what, axis_result_type("sum", expr.dtype()), lines, false, args)->source();
}

}  // namespace weft
