// order_keys: the sort's order-preserving map (src/kernels/cl/sort_keys.cl) as an elementwise
// kernel, each key's bits read and mapped once. Selection (python/weft/_partition.py) builds
// its histograms and comparisons on these unsigned keys.
#include "weft/order_keys.hpp"

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

DType key_dtype(DType t) {
  switch (size_of(t)) {
    case 1: return DType::uint8;
    case 2: return DType::uint16;
    case 4: return DType::uint32;
    default: return DType::uint64;
  }
}

std::unique_ptr<ElementwiseKernel> make_order(DType t) {
  const std::string T = detail::kernel_type(t);
  const std::string K = detail::kernel_type(key_dtype(t));
  return std::make_unique<ElementwiseKernel>("" + K + " *out, const " + T + " *a, ulong flip",
                                             "out[i] = (" + K + ")(weft_sort_order(weft_sort_bits(a[i])) ^ (" + K +
                                                 ")flip)",
                                             "weft_order_keys", detail::sort_key_source(t));
}

ElementwiseKernel& order_kernel(DType t) {
  constexpr std::size_t count = std::size(all_dtypes);
  static std::array<std::once_flag, count> once;
  static detail::Immortal<std::array<std::unique_ptr<ElementwiseKernel>, count>> made;  // core/lifetime.hpp
  const auto k = static_cast<std::size_t>(t);
  std::call_once(once[k], [&] { (*made)[k] = make_order(t); });
  return *(*made)[k];
}

}  // namespace

Array order_keys(const Array& a, bool descending) {
  if (!a) throw InvalidArgument("order_keys: the array is empty (no allocation)");
  if (is_complex(a.dtype())) {
    throw InvalidArgument("order_keys: a must have an integer, bool or real floating dtype, not " +
                          std::string(name(a.dtype())));
  }
  detail::check_sortable(a.dtype(), "order_keys");
  const Device dev = a.device();
  Array out = Array::empty(a.shape(), key_dtype(a.dtype()), dev);
  if (out.size() == 0) return out;
  const Array x = a.is_contiguous() && a.offset() == 0 ? a : a.copy();
  const std::uint64_t flip = descending ? ~std::uint64_t{0} : 0;
  const detail::RuntimeArg args[] = {detail::RuntimeArg::of(out.buffer()), detail::RuntimeArg::of(x.buffer()),
                                     detail::RuntimeArg::of_value(flip)};
  order_kernel(a.dtype()).run(detail::array_queue(dev), static_cast<std::size_t>(out.size()), args);
  detail::count_launch(dev);
  out.mark_written();
  return out;
}

}  // namespace weft
