// Reductions along axes: one work-item per output element, looping over its reduced range
// with four accumulators; on GPUs a long reduced range with few outputs is cut into pieces
// reduced in two stages. Reducing every axis goes to the parallel reduction (reduce_all.cpp).
// var and std are two of these reductions.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/lifetime.hpp"
#include "kernels/generators/choices.hpp"
#include "algorithms/reduction_kernels.hpp"
#include "array/array_queue.hpp"
#include "array/auto_device.hpp"
#include "array/codegen.hpp"
#include "array/expr_node.hpp"
#include "array/kernel_cache.hpp"
#include "array/tree_cutting.hpp"
#include "kernels/generators/device_style.hpp"
#include "weft/array.hpp"
#include "weft/elementwise.hpp"
#include "weft/error.hpp"
#include "weft/placement.hpp"

namespace weft {

namespace {
using detail::accumulator_type;
using detail::axis_result_type;
using detail::element_function;
using detail::ElementFunction;
using detail::is_arg;
using detail::normalize_axes;
using detail::reduce_every_element;

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

const AxisReduction& axis_op(const std::string& what) {
  for (const auto& r : axis_ops) {
    if (what == r.what) return r;
  }
  throw InvalidArgument("unknown reduction " + what);
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
  detail::CallKey call;
  std::vector<detail::RuntimeArg> args{detail::RuntimeArg::of(out.buffer())};
  call.walk(in, nullptr, {&root});
  args.insert(args.end(), call.args().begin(), call.args().end());
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
  static detail::Immortal<detail::KernelTable<ElementwiseKernel>> tables;  // never destroyed: core/lifetime.hpp
  auto& table = *tables;
  const std::string key = what + "|" + std::string(name(result)) + "|" + mask +
                          (interleaved ? "|interleaved|" : partial ? "|parts|" : "|") + std::string(call.key());
  auto kernel = detail::cached<ElementwiseKernel>(table, key, [&] {
    const detail::Text t = detail::text_of(in, nullptr, {&root});
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
    // A complex accumulator (prod, sum): the helpers' arithmetic (a cast would splat 1 to 1+1j).
    const bool cplx = is_complex(acc);
    const std::string op = !cplx ? std::string(r.op) : A + (what == "prod" ? "_mul(acc, x)" : "_add(acc, x)");
    if (seeded) {
      body += "(" + A + ")0; long weft_r = weft_begin; { " + red_index("weft_r") + " acc = weft_element(weft_in" +
              f.names + "); } weft_r += weft_step;";
    } else {
      body += (cplx ? A + "_new(" + r.neutral + ", 0)" : "(" + A + ")" + r.neutral) + "; long weft_r = weft_begin;";
    }
    // Commutative reductions (not prod: a float product's overflow depends on the order, and
    // NumPy's order is kept) run four independent accumulators: no chain of dependent adds.
    std::string preamble = f.preamble;
    if (!is_arg(what) && what != "prod") {
      preamble += "\n" + A + " weft_combine(" + A + " acc, " + A + " x) { return (" + A + ")(" + op + "); }\n";
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
    else body += "acc = " + op + "; }";
    if (what == "mean" && !partial) body += " acc = acc / (" + A + ")weft_count;";
    body += " weft_out[i] = (" + detail::kernel_type(result) + ")" + (is_arg(what) ? "weft_best" : "acc") + ";";
    auto made = std::make_shared<ElementwiseKernel>(params, body, "weft_axis_reduce", preamble);
    made->one_index_per_work_item();  // each index loops over a reduced range
    return made;
  });
  return {out, kernel, std::move(args)};
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
  using Split = detail::GeneratorChoices::ReduceSplit;
  const Split chosen = detail::generator_choices().reduce_split;
  const bool always = chosen == Split::always;
  if (chosen == Split::never || (!always && style.chunked)) return {};  // CPUs: one work-item streams fine
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

Array reduce_axes(const Expr& expr, const std::string& what, const std::vector<int>& axes, bool keepdims);

// Reductions of complex numbers: any and all of `z != 0`; sum and mean of the real and the
// imaginary parts, each in double (two reductions, the same results as one over pairs); prod
// with a complex accumulator, every axis as one line of the evaluated elements. Ordering
// reductions are refused, as the Array API leaves them unspecified.
Array reduce_complex(const Expr& expr, const std::string& what, const std::vector<int>& axes, bool keepdims) {
  const DType t = expr.dtype();
  if (what == "any" || what == "all") return reduce_axes(expr != Expr(0), what, axes, keepdims);
  if (what == "sum" || what == "mean") {
    const Array re = reduce_axes(real(expr), what, axes, keepdims);
    const Array im = reduce_axes(imag(expr), what, axes, keepdims);
    return eval(detail::make_complex(re, im, t));
  }
  if (what != "prod") {
    throw DTypeError(what + " is not defined for " + std::string(name(t)) +
                     " (complex numbers have no order); reduce their real parts or absolute values instead");
  }
  const auto reduced = normalize_axes(axes, expr.shape().ndim(), what.c_str());
  if (reduced.size() < expr.shape().ndim()) return reduce_axes(expr, what, axes, keepdims);
  // Every axis: one line.
  const Array line = eval(expr).reshape({1, expr.shape().size()});
  Array r = reduce_axes(Expr(line), what, {1}, false);
  return r.reshape(std::vector<std::int64_t>(keepdims ? expr.shape().ndim() : 0, 1));
}

Array reduce_axes(const Expr& expr, const std::string& what, const std::vector<int>& axes, bool keepdims) {
  const auto reduced = normalize_axes(axes, expr.shape().ndim(), what.c_str());
  if (is_complex(expr.dtype()) && (what != "prod" || reduced.size() == expr.shape().ndim())) {
    return reduce_complex(expr, what, axes, keepdims);  // (prod along some axes: below)
  }
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

// Device auto (every array of expr automatic): a reduction along some axes runs where the
// chooser expects it to finish first, its result automatic too; with arrays of a fixed device
// as well, the automatic ones follow the first of those. Reducing every axis decides in
// reduce_every_element. The work: the expression's, an accumulation more per element, the
// outputs written (docs/PLACEMENT.md).
Array reduce_axes_placed(const Expr& expr, const std::string& what, const std::vector<int>& axes, bool keepdims) {
  if (!expr.node() || !detail::reads_automatic(expr)) return reduce_axes(expr, what, axes, keepdims);
  const auto reduced = normalize_axes(axes, expr.shape().ndim(), what.c_str());
  if (reduced.size() == expr.shape().ndim()) return reduce_axes(expr, what, axes, keepdims);
  std::int64_t count = 1;
  for (auto d : reduced) count *= expr.shape()[d];
  const double n = static_cast<double>(expr.shape().size());
  const double outputs = count ? n / static_cast<double>(count) : 0;
  // (Its own signature: a decision is not shared with the full reduction of the same expression.)
  const std::string kind = what + " along axes";
  const double written = outputs * static_cast<double>(size_of(axis_result_type(what, expr.dtype())));
  // (Two numbers captured: the std::function holds them without allocating.)
  const auto placed = detail::place_automatically(expr, kind.c_str(), false, [n, written](WorkEstimate& w) {
    w.ops += n;
    w.bytes_written = written;
    w.result_bytes = w.bytes_written;
  });
  if (!placed) return reduce_axes(expr, what, axes, keepdims);
  Array r = reduce_axes(placed->expr, what, axes, keepdims);
  detail::learn_when_done(*placed);
  if (placed->chosen) detail::mark_automatic(r, placed->result_tag);
  return r;
}
}  // namespace

Array sum(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes_placed(expr, "sum", axes, keepdims); }
Array prod(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes_placed(expr, "prod", axes, keepdims); }
Array min(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes_placed(expr, "min", axes, keepdims); }
Array max(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes_placed(expr, "max", axes, keepdims); }
Array mean(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes_placed(expr, "mean", axes, keepdims); }
Array any(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes_placed(expr, "any", axes, keepdims); }
Array all(const Expr& expr, const std::vector<int>& axes, bool keepdims) { return reduce_axes_placed(expr, "all", axes, keepdims); }

Array argmin(const Expr& expr, int axis, bool keepdims) { return reduce_axes_placed(expr, "argmin", {axis}, keepdims); }
Array argmax(const Expr& expr, int axis, bool keepdims) { return reduce_axes_placed(expr, "argmax", {axis}, keepdims); }

Array var(const Expr& expr, const std::vector<int>& axes, bool keepdims, int ddof) {
  // Two passes, as NumPy's: the mean, then the mean square deviation from it.
  const auto reduced = normalize_axes(axes, expr.shape().ndim(), "var");
  std::int64_t count = 1;
  for (auto d : reduced) count *= expr.shape()[d];
  const Array m = mean(expr, axes, true);
  const Expr centered = astype(expr, m.dtype()) - Expr(m);
  // Complex numbers: the mean of |z - mean|^2, real, as NumPy's.
  const Expr square = is_complex(m.dtype()) ? real(centered) * real(centered) + imag(centered) * imag(centered)
                                            : centered * centered;
  const Array squares = sum(square, axes, keepdims);
  const double divisor = static_cast<double>(std::max<std::int64_t>(count - ddof, 0));
  return eval(astype(Expr(squares) / divisor, real_of(m.dtype())));
}

Array std(const Expr& expr, const std::vector<int>& axes, bool keepdims, int ddof) {
  return eval(sqrt(var(expr, axes, keepdims, ddof)));
}

std::string detail::axis_reduce_source(const Expr& expr, const std::string& what, const std::vector<int>& axes,
                                       std::int64_t piece, bool interleaved) {
  return plan_axes(expr, what, axes, false, AxisSplit{piece, interleaved}).kernel->source();
}

}  // namespace weft
