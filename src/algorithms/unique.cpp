// unique: a stable radix sort of the flattened array, then one scan over the sorted keys that
// numbers the runs of equal keys (src/kernels/cl/search.cl decides where a run starts) and
// writes each run's key, start and first index, and each element's run number (inverse).
#include "weft/unique.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "algorithms/radix_sort.hpp"
#include "algorithms/sort_lines.hpp"
#include "array/array_queue.hpp"
#include "array/auto_device.hpp"
#include "core/lifetime.hpp"
#include "weft/error.hpp"
#include "weft/placement.hpp"
#include "weft/scan.hpp"

namespace weft {

namespace {

// The scan of one dtype. perm, index and inverse are read or written only when asked for
// (has_perm: the sort's indices exist); starts gets one entry per run and then n, total the
// number of runs.
std::unique_ptr<GenericScanKernel> make_runs(DType t) {
  const std::string T = detail::kernel_type(t);
  return std::make_unique<GenericScanKernel>(
      DType::int64,
      "const " + T + " *s, const long *perm, " + T +
          " *values, long *starts, long *index, long *inverse, long *total, int want_index, int want_inverse, "
          "int equal_nan",
      "weft_unique_starts(s, i, equal_nan)", "a + b", "0",
      "if (prev_item != item) { values[item - 1] = s[i]; starts[item - 1] = i; if (want_index) index[item - 1] = "
      "perm[i]; } if (want_inverse) inverse[perm[i]] = item - 1; if (i == n - 1) { starts[item] = n; total[0] = "
      "item; }",
      std::string_view{}, detail::search_source(t), "weft_unique");
}

GenericScanKernel& runs_kernel(DType t) {
  constexpr std::size_t count = std::size(all_dtypes);
  static std::array<std::once_flag, count> once;
  static detail::Immortal<std::array<std::unique_ptr<GenericScanKernel>, count>> made;  // core/lifetime.hpp
  const auto k = static_cast<std::size_t>(t);
  std::call_once(once[k], [&] { (*made)[k] = make_runs(t); });
  return *(*made)[k];
}

}  // namespace

namespace detail {
std::string unique_source(DType t) { return runs_kernel(t).source(); }
}  // namespace detail

namespace {

Unique unique_on(const Array& a, bool return_index, bool return_inverse, bool return_counts, bool equal_nan) {
  const detail::Lines l = detail::lines_of(a, std::nullopt, "unique");
  const Device dev = a.device();
  const std::int64_t n = l.data.size();
  const bool want_perm = return_index || return_inverse;
  Unique u;
  if (n == 0) {
    u.values = Array::empty(Shape{0}, a.dtype(), dev);
    if (return_index) u.index = Array::empty(Shape{0}, DType::int64, dev);
    if (return_inverse) u.inverse = Array::empty(a.shape(), DType::int64, dev);
    if (return_counts) u.counts = Array::empty(Shape{0}, DType::int64, dev);
    return u;
  }
  const detail::SortedLines s = detail::sort_lines(l, false, want_perm, nullptr);
  Array values = Array::empty(Shape{n}, a.dtype(), dev);
  Array starts = Array::empty(Shape{n + 1}, DType::int64, dev);
  Array index = return_index ? Array::empty(Shape{n}, DType::int64, dev) : starts;
  Array inverse = return_inverse ? Array::empty(Shape{n}, DType::int64, dev) : starts;
  Array total = Array::empty(Shape{1}, DType::int64, dev);
  const Array& perm = want_perm ? s.indices : starts;
  const detail::RuntimeArg args[] = {
      detail::RuntimeArg::of(s.keys.buffer()),  detail::RuntimeArg::of(perm.buffer()),
      detail::RuntimeArg::of(values.buffer()),  detail::RuntimeArg::of(starts.buffer()),
      detail::RuntimeArg::of(index.buffer()),   detail::RuntimeArg::of(inverse.buffer()),
      detail::RuntimeArg::of(total.buffer()),   detail::RuntimeArg::of_value(return_index ? 1 : 0),
      detail::RuntimeArg::of_value(return_inverse ? 1 : 0), detail::RuntimeArg::of_value(equal_nan ? 1 : 0)};
  runs_kernel(a.dtype()).run(detail::array_queue(dev), static_cast<std::size_t>(n), args);
  detail::count_launch(dev);
  for (const Array* w : {&values, &starts, &index, &inverse, &total}) w->mark_written();
  const std::int64_t runs = total.to_host<std::int64_t>()[0];
  u.values = values.slice(0, 0, runs).copy();
  if (return_index) u.index = index.slice(0, 0, runs).copy();
  if (return_inverse) u.inverse = inverse.reshape(a.shape().dims());
  if (return_counts) u.counts = eval(Expr(starts.slice(0, 1, runs + 1)) - Expr(starts.slice(0, 0, runs)));
  return u;
}

}  // namespace

Unique unique(const Array& a, bool return_index, bool return_inverse, bool return_counts, bool equal_nan) {
  // Device auto (an automatic array): where the chooser expects its sort to finish first
  // (weft::sort_work, with the device's measured sort rate; the scan over the sorted keys is
  // one pass more), its results automatic too.
  const std::optional<detail::AutoPlacement> placed = detail::place_array(a, "unique", [&](WorkEstimate& w) {
    WorkEstimate s = sort_work(a.size(), size_of(a.dtype()), 1);
    s.result_to_host = w.result_to_host;
    w = s;
  });
  Unique u = unique_on(placed ? placed->array : a, return_index, return_inverse, return_counts, equal_nan);
  if (placed) {
    detail::learn_when_done(*placed);
    if (placed->chosen) {
      std::uint64_t tag = placed->result_tag;  // (the values are the step's result)
      for (const Array* r : {&u.values, &u.index, &u.inverse, &u.counts}) {
        if (*r) detail::mark_automatic(*r, std::exchange(tag, 0));
      }
    }
  }
  return u;
}

}  // namespace weft
