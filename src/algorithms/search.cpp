// searchsorted: one work-item per needle, a binary search (src/kernels/cl/search.cl) in the
// two arrays' common dtype.
#include "weft/search.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <string>

#include "algorithms/radix_sort.hpp"
#include "algorithms/sort_lines.hpp"
#include "array/array_queue.hpp"
#include "core/lifetime.hpp"
#include "weft/elementwise.hpp"
#include "weft/error.hpp"

namespace weft {

namespace {

std::unique_ptr<ElementwiseKernel> make_search(DType t) {
  const std::string T = detail::kernel_type(t);
  auto k = std::make_unique<ElementwiseKernel>(
      "long *out, const " + T + " *a, const long *sorter, const " + T + " *v, long na, int has_sorter, int right",
      "out[i] = weft_search(a, sorter, na, has_sorter, right, v[i])", "weft_searchsorted", detail::search_source(t));
  // Each work-item runs a whole binary search: many in flight hide the loads' latency.
  k->one_index_per_work_item();
  return k;
}

ElementwiseKernel& search_kernel(DType t) {
  constexpr std::size_t count = std::size(all_dtypes);
  static std::array<std::once_flag, count> once;
  static detail::Immortal<std::array<std::unique_ptr<ElementwiseKernel>, count>> made;  // core/lifetime.hpp
  const auto k = static_cast<std::size_t>(t);
  std::call_once(once[k], [&] { (*made)[k] = make_search(t); });
  return *(*made)[k];
}

// x in dtype t, contiguous from its buffer's start.
Array operand(const Array& x, DType t) {
  if (x.dtype() != t) return eval(astype(Expr(x), t));
  return x.is_contiguous() && x.offset() == 0 ? x : x.copy();
}

}  // namespace

namespace detail {
std::string searchsorted_source(DType t) { return search_kernel(t).source(); }
}  // namespace detail

Array searchsorted(const Array& a, const Array& v, bool right, const Array& sorter) {
  if (!a || !v) throw InvalidArgument("searchsorted: an array is empty (no allocation)");
  if (a.ndim() != 1) {
    throw InvalidArgument("searchsorted: the sorted array must be 1-D, not of shape " + to_string(a.shape()));
  }
  const Device dev = a.device();
  if (!(v.device() == dev)) {
    throw InvalidArgument("searchsorted: the values are on " + v.device().selector() + ", the sorted array on " +
                          dev.selector());
  }
  detail::check_sortable(a.dtype(), "searchsorted");
  detail::check_sortable(v.dtype(), "searchsorted");
  const std::int64_t na = a.size();
  Array order;
  if (sorter) {
    if (sorter.dtype() != DType::int64 || !(sorter.shape() == a.shape()) || !(sorter.device() == dev)) {
      throw InvalidArgument("searchsorted: sorter must be an int64 array of the sorted array's shape " +
                            to_string(a.shape()) + " on its device, not " + sorter.describe());
    }
    if (na > 0) {
      const double lo = weft::min(Expr(sorter)).get(), hi = weft::max(Expr(sorter)).get();
      if (lo < 0 || hi >= static_cast<double>(na)) {
        throw InvalidArgument("searchsorted: sorter holds indices out of range for an array of " +
                              std::to_string(na) + " elements");
      }
    }
    order = operand(sorter, DType::int64);
  }
  const DType t = result_type(a.dtype(), v.dtype());
  Array out = Array::empty(v.shape(), DType::int64, dev);
  if (out.size() == 0) return out;
  const Array sorted = na > 0 ? operand(a, t) : Array::zeros(Shape{1}, t, dev);
  const Array needles = operand(v, t);
  if (!order) order = out;  // not read: has_sorter is 0
  const detail::RuntimeArg args[] = {
      detail::RuntimeArg::of(out.buffer()),     detail::RuntimeArg::of(sorted.buffer()),
      detail::RuntimeArg::of(order.buffer()),   detail::RuntimeArg::of(needles.buffer()),
      detail::RuntimeArg::of_value(na),         detail::RuntimeArg::of_value(sorter ? 1 : 0),
      detail::RuntimeArg::of_value(right ? 1 : 0)};
  search_kernel(t).run(detail::array_queue(dev), static_cast<std::size_t>(out.size()), args);
  detail::count_launch(dev);
  out.mark_written();
  return out;
}

}  // namespace weft
