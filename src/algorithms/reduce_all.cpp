// Reductions over every element of an expression, in parallel: sum/min/max as futures, the
// array-valued ones (NumPy's types; integers accumulate exactly in 64 bits), and argmin/argmax
// over everything (a second pass finds the first index of the extreme).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "array/memory_pool.hpp"
#include "core/lifetime.hpp"
#include "algorithms/reduction_kernels.hpp"
#include "array/array_queue.hpp"
#include "array/auto_device.hpp"
#include "array/codegen.hpp"
#include "array/expr_node.hpp"
#include "array/kernel_cache.hpp"
#include "array/stepwise.hpp"
#include "array/tree_cutting.hpp"
#include "weft/array.hpp"
#include "weft/error.hpp"
#include "weft/reduction.hpp"

namespace weft {

namespace {
using detail::axis_result_type;
using detail::element_function;
using detail::ElementFunction;
using detail::is_arg;
using detail::reduce_every_element;

struct Reduction {
  const char* what;
  const char* neutral;
  const char* op;
};
const Reduction sum_op{"sum", "0", "a + b"};
const Reduction min_op{"min", "INFINITY", "(a < b || a != a) ? a : b"};
const Reduction max_op{"max", "-INFINITY", "(a > b || a != a) ? a : b"};

// The reduction of expr's elements (each converted to double), from the table of those made.
// target: automatic arrays of other devices read as seen from there (CallKey::walk).
std::shared_ptr<ReductionKernel> reduce_kernel(const Expr& expr, const Reduction& r, detail::CallKey& call,
                                               const Device* target = nullptr) {
  call << r.what << "|";
  call.walk(expr.shape(), nullptr, {expr.node().get()}, target);
  static detail::Immortal<detail::KernelTable<ReductionKernel>> tables;  // never destroyed: core/lifetime.hpp
  auto& table = *tables;
  return detail::cached<ReductionKernel>(table, call.key(), [&] {
    const detail::Text t = detail::text_of(expr.shape(), nullptr, {expr.node().get()}, target);
    const ElementFunction f = element_function(t.sig, t.value, "double");
    return std::make_shared<ReductionKernel>(DType::float64, r.neutral, r.op, "weft_element(i" + f.names + ")",
                                             f.params, f.preamble, "weft_array_reduce");
  });
}

// A reduction into a block of the device's memory pool: no driver allocation per call (on
// CUDA, freeing memory synchronizes the device), and the block goes back to the pool, in the
// array queue's order, when the result is dropped.
template <class T>
Future<T> pooled_reduce(ReductionKernel& kernel, const Device& dev, std::size_t n,
                        std::span<const detail::RuntimeArg> args) {
  Buffer result = detail::memory_pool(dev).allocate(sizeof(T), dtype_of<T>, [] { return std::string("a reduction's result"); });
  Queue& q = detail::array_queue(dev);
  Event done = kernel.reduce_into(q, n, result, args);
  return Future<T>(q, std::move(result), std::move(done));
}

Future<double> reduce(const Expr& given, const Reduction& r) {
  if (is_complex(given.dtype())) {
    throw DTypeError(std::string(r.what) + " of " + std::string(name(given.dtype())) +
                     " as one double: use the reductions along axes (sum(expr, {})), which give a complex array");
  }
  // Device auto: the expression as it is, its arrays on other devices read as their copies on
  // the device chosen (target), as eval does (detail::assign_seen_from), the tree not copied.
  const auto placed = detail::place_automatically(given, r.what, true, {}, false);
  const Expr& whole = placed ? placed->expr : given;
  const Device* target = placed && placed->moves ? &placed->device : nullptr;
  const Expr expr = detail::bounded(whole, whole.shape(), target);
  const detail::ExprNode& root = *expr.node();
  const Device dev = target ? *target : detail::device_of(root);
  if (!dev) throw InvalidArgument(std::string(r.what) + ": the expression holds no array");
  if (!target) detail::check_one_device(root, dev);
  const auto n = static_cast<std::size_t>(expr.shape().size());
  if (n == 0 && std::string(r.what) != "sum") {
    throw InvalidArgument(std::string(r.what) + " of an empty array: the operation has no identity");
  }
  detail::CallKey call;
  auto kernel = reduce_kernel(expr, r, call, target);
  // A new expression on the host: its value on prebuilt operations, reduced by prebuilt code
  // (the tree seen from the target for that, the first calls only).
  const auto stepwise = [&]() -> std::optional<Array> {
    if (!target) return detail::reduce_stepwise(expr, *kernel);
    if (!detail::reduce_stepwise_may(*kernel, dev)) return std::nullopt;
    return detail::reduce_stepwise(detail::seen_from(expr, dev), *kernel);
  };
  if (auto value = stepwise()) {
    Future<double> stepped = reduce(Expr(*value), r);
    if (placed) detail::learn_when_done(*placed, &stepped);
    return stepped;
  }
  Future<double> result = pooled_reduce<double>(*kernel, dev, n, call.args());
  if (placed) detail::learn_when_done(*placed, &result);
  return result;
}

// ---- reductions over every element, in parallel ------------------------------------------

// The type a full reduction accumulates in: double for floats, 64-bit integers for the rest
// (exact, and wrapping as NumPy's 64-bit sums do).
DType full_accumulator(DType t) {
  if (is_floating(t)) return DType::float64;
  return is_unsigned_integer(t) ? DType::uint64 : DType::int64;
}

std::string extreme_literal(DType acc, bool largest) {
  if (acc == DType::float64) return largest ? "INFINITY" : "-INFINITY";
  if (acc == DType::uint64) return largest ? "18446744073709551615UL" : "0UL";
  return largest ? "9223372036854775807L" : "(-9223372036854775807L - 1L)";
}

struct FullOp {
  std::string neutral, reduce;
};
FullOp full_op(const std::string& what, DType acc) {
  // 64-bit accumulators add and multiply as signed integers: wrapping them through ulong, as
  // the elementwise operators do, makes GCC 12's vectorizer (-O3 -march=native) miscompile
  // the host backend's sum of sign-extended int8/int16 elements.
  if (what == "sum" || what == "mean") return {"0", "a + b"};
  if (what == "prod") return {"1", "a * b"};
  if (what == "min" || what == "argmin") return {extreme_literal(acc, true), "(a < b || a != a) ? a : b"};
  if (what == "max" || what == "argmax") return {extreme_literal(acc, false), "(a > b || a != a) ? a : b"};
  if (what == "any") return {"0", "(a || b)"};
  if (what == "all") return {"1", "(a && b)"};
  throw InvalidArgument("unknown reduction " + what);
}

template <class F>
decltype(auto) with_accumulator(DType acc, F&& f) {
  if (acc == DType::float64) return f(double{});
  if (acc == DType::float32) return f(float{});
  if (acc == DType::uint64) return f(std::uint64_t{});
  return f(std::int64_t{});
}

// One parallel reduction of the expression's elements (map: the element, or whether it is
// nonzero for any/all) into a one-element buffer of the accumulator's type.
std::shared_ptr<ReductionKernel> full_kernel(const Expr& expr, const std::string& what, DType acc,
                                             detail::CallKey& call) {
  call << "all|" << what << "|" << name(acc) << "|";
  call.walk(expr.shape(), nullptr, {expr.node().get()});
  static detail::Immortal<detail::KernelTable<ReductionKernel>> tables;  // never destroyed: core/lifetime.hpp
  auto& table = *tables;
  return detail::cached<ReductionKernel>(
      table, call.key(), [&] {
        const FullOp op = full_op(what, acc);
        const detail::Text t = detail::text_of(expr.shape(), nullptr, {expr.node().get()});
        const bool logical = what == "any" || what == "all";
        const ElementFunction f = element_function(t.sig, logical ? "((" + t.value + ") != 0)" : t.value,
                                                   detail::kernel_type(acc));
        return std::make_shared<ReductionKernel>(acc, op.neutral, op.reduce, "weft_element(i" + f.names + ")",
                                                 f.params, f.preamble, "weft_reduce_all");
      });
}

Buffer reduce_all_elements(const Expr& expr, const std::string& what, DType acc, const Device& dev) {
  detail::CallKey call;
  auto kernel = full_kernel(expr, what, acc, call);
  if (auto value = detail::reduce_stepwise(expr, *kernel)) return reduce_all_elements(Expr(*value), what, acc, dev);
  const auto n = static_cast<std::size_t>(expr.shape().size());
  return with_accumulator(acc, [&](auto type) {
    return pooled_reduce<decltype(type)>(*kernel, dev, n, call.args()).device_value();
  });
}

// The flat index of the first element equal to the extreme held in extreme (a NaN matches
// a NaN), by a second parallel reduction: argmin and argmax over every element.
std::shared_ptr<ReductionKernel> index_kernel(const Expr& expr, DType acc, detail::CallKey& call) {
  call << "index|" << name(acc) << "|";
  call.walk(expr.shape(), nullptr, {expr.node().get()});
  static detail::Immortal<detail::KernelTable<ReductionKernel>> tables;  // never destroyed: core/lifetime.hpp
  auto& table = *tables;
  return detail::cached<ReductionKernel>(table, call.key(), [&] {
    const detail::Text t = detail::text_of(expr.shape(), nullptr, {expr.node().get()});
    const std::string A = detail::kernel_type(acc);
    const ElementFunction f = element_function(t.sig, t.value, A);
    const std::string preamble = f.preamble + "long weft_pick(" + A + " v, " + A +
                                 " m, long i) { return (v == m || (m != m && v != v)) ? i : 9223372036854775807L; }\n";
    return std::make_shared<ReductionKernel>(DType::int64, "9223372036854775807L", "a < b ? a : b",
                                             "weft_pick(weft_element(i" + f.names + "), weft_extreme[0], i)",
                                             f.params + ", const " + A + " *weft_extreme", preamble,
                                             "weft_first_index");
  });
}

Buffer first_index_of(const Expr& expr, DType acc, const Buffer& extreme, const Device& dev) {
  detail::CallKey call;
  auto kernel = index_kernel(expr, acc, call);
  call.args().push_back(detail::RuntimeArg::of(extreme));
  const auto n = static_cast<std::size_t>(expr.shape().size());
  return pooled_reduce<std::int64_t>(*kernel, dev, n, call.args()).device_value();
}
}  // namespace

namespace {
// The reduction on the device of expr's arrays.
Array reduce_where_placed(const Expr& whole, const std::string& what, bool keepdims) {
  const Expr expr = detail::bounded(whole, whole.shape());
  const detail::ExprNode& root = *expr.node();
  const Device dev = detail::device_of(root);
  if (!dev) throw InvalidArgument(what + ": the expression holds no array");
  detail::check_one_device(root, dev);
  const std::int64_t count = expr.shape().size();
  if (count == 0 && (what == "min" || what == "max" || is_arg(what))) {
    throw InvalidArgument(what + " of an empty array of shape " + to_string(expr.shape()) +
                          ": the operation has no identity");
  }
  const DType result = axis_result_type(what, expr.dtype());
  // A mean accumulates in double, as NumPy's (a 64-bit integer sum could wrap).
  const DType acc = what == "mean"                              ? DType::float64
                    : what == "prod" && expr.dtype() == DType::float32 ? DType::float32
                                                                       : full_accumulator(expr.dtype());
  const Shape shape(std::vector<std::int64_t>(keepdims ? expr.shape().ndim() : 0, 1));
  Buffer value = reduce_all_elements(expr, is_arg(what) ? (what == "argmin" ? "min" : "max") : what, acc, dev);
  if (is_arg(what)) return Array::wrap(first_index_of(expr, acc, value, dev), DType::int64, shape);
  const Array r = Array::wrap(std::move(value), acc, shape);
  if (what == "mean") return eval(astype(Expr(r) / static_cast<double>(count), result));
  if (result == acc) return r;
  return eval(astype(Expr(r), result));
}
}  // namespace

Array detail::reduce_every_element(const Expr& given, const std::string& what, bool keepdims) {
  if (is_complex(given.dtype()) && is_arg(what)) {
    throw DTypeError(what + " is not defined for " + std::string(name(given.dtype())) + " (complex numbers have no order)");
  }
  if (const auto placed = detail::place_automatically(given, what.c_str(), true)) {
    Array r = reduce_where_placed(placed->expr, what, keepdims);
    detail::learn_when_done(*placed);
    if (placed->chosen) detail::mark_automatic(r, placed->result_tag);
    return r;
  }
  return reduce_where_placed(given, what, keepdims);
}

Future<double> sum(const Expr& expr) { return reduce(expr, sum_op); }
Future<double> min(const Expr& expr) { return reduce(expr, min_op); }
Future<double> max(const Expr& expr) { return reduce(expr, max_op); }

Array argmin(const Expr& expr) { return reduce_every_element(expr, "argmin", false); }
Array argmax(const Expr& expr) { return reduce_every_element(expr, "argmax", false); }

std::string detail::full_reduce_source(const Expr& expr, const std::string& what) {
  detail::CallKey call;
  return full_kernel(expr, what, full_accumulator(expr.dtype()), call)->source();
}

std::string detail::first_index_source(const Expr& expr) {
  detail::CallKey call;
  return index_kernel(expr, full_accumulator(expr.dtype()), call)->source();
}

std::string detail::sum_source(const Expr& expr) {
  detail::CallKey call;
  return reduce_kernel(expr, sum_op, call)->source();
}

}  // namespace weft
