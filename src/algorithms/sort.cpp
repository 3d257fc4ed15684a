// sort, argsort and sort_by_key of arrays (the lines along an axis, all in one radix sort),
// and the in-place sorts of raw buffers. The passes are in radix_sort.cpp.
#include "weft/sort.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/radix_sort.hpp"
#include "algorithms/sort_lines.hpp"
#include "array/array_queue.hpp"
#include "array/auto_device.hpp"
#include "array/expr_node.hpp"
#include "runtime/program_waits.hpp"
#include "weft/error.hpp"
#include "weft/indexing.hpp"
#include "weft/lazy_array.hpp"

namespace weft {

namespace detail {

void check_sortable(DType t, const char* who) {
  if (t == DType::float16) throw Unsupported(std::string(who) + ": float16 arrays are not supported");
  if (is_complex(t)) {
    throw DTypeError(std::string(who) + ": " + std::string(name(t)) +
                     " arrays are not supported (weft does not order complex numbers; sort their real parts or "
                     "absolute values)");
  }
}

Lines lines_of(const Array& a, std::optional<int> axis, const char* who) {
  if (!a) throw InvalidArgument(std::string(who) + ": the array is empty (no allocation)");
  check_sortable(a.dtype(), who);
  Lines l;
  l.shape = a.shape();
  if (!axis) {
    const Array flat = a.ravel();
    l.data = flat.is_contiguous() && flat.offset() == 0 ? flat : flat.copy();
    l.flat = true;
    l.length = static_cast<std::size_t>(l.data.size());
    return l;
  }
  const int nd = static_cast<int>(a.ndim());
  if (*axis < -nd || *axis >= nd) {
    throw InvalidArgument(std::string(who) + ": axis " + std::to_string(*axis) + " is out of bounds for an array of " +
                          std::to_string(nd) + " dimension(s)");
  }
  l.axis = static_cast<std::size_t>(*axis < 0 ? *axis + nd : *axis);
  l.length = static_cast<std::size_t>(a.shape()[l.axis]);
  Array lines = a;
  if (l.axis + 1 != a.ndim()) {
    // The axis moved last, as a view; the copy below makes its lines contiguous.
    std::vector<std::int64_t> dims;
    Strides strides;
    for (std::size_t d = 0; d < a.ndim(); ++d) {
      if (d == l.axis) continue;
      dims.push_back(a.shape()[d]);
      strides.push_back(a.strides()[d]);
    }
    dims.push_back(a.shape()[l.axis]);
    strides.push_back(a.strides()[l.axis]);
    lines = a.as_strided(Shape(dims), strides, a.offset());
    l.moved = true;
  }
  l.data = lines.is_contiguous() && lines.offset() == 0 ? lines : lines.copy();
  return l;
}

Array restore(const Array& r, const Lines& l) {
  if (l.flat || !l.moved) return r;
  const Strides s = contiguous_strides(r.shape());
  Strides back;
  for (std::size_t d = 0; d < l.shape.ndim(); ++d) {
    back.push_back(d < l.axis ? s[d] : d == l.axis ? s.back() : s[d - 1]);
  }
  return r.as_strided(l.shape, back, 0).copy();
}

SortedLines sort_lines(const Lines& l, bool descending, bool want_indices, const Array* values) {
  const Array& keys = l.data;
  const Device dev = keys.device();
  SortedLines out;
  out.keys = Array::empty(keys.shape(), keys.dtype(), dev);
  const std::size_t n = static_cast<std::size_t>(keys.size());
  const std::size_t row_len = l.length;
  const bool rows = n > 0 && row_len != n;
  RadixSortJob job;
  job.key_type = keys.dtype();
  job.count = n;
  job.row_len = row_len;
  job.descending = descending;
  job.keys_in = keys.buffer();
  job.keys_out = out.keys.buffer();
  Array vals;
  if (values && !rows) {
    // One line: the values themselves move with the keys.
    vals = values->is_contiguous() && values->offset() == 0 ? *values : values->copy();
    out.values = Array::empty(keys.shape(), vals.dtype(), dev);
    job.payload_size = size_of(vals.dtype());
    job.payload_in = vals.buffer();
    job.payload_out = out.values.buffer();
  } else if (want_indices || values || rows) {
    out.indices = Array::empty(keys.shape(), DType::int64, dev);
    job.payload_index = true;
    job.payload_out = out.indices.buffer();
  }
  if (n > 0 && row_len > 0) {
    std::vector<Array> held;  // pool blocks: their reuse is ordered on the array queue
    const SortScratch scratch = [&](std::size_t bytes) {
      return held.emplace_back(Array::empty(Shape{static_cast<std::int64_t>(bytes)}, DType::uint8, dev)).buffer();
    };
    radix_sort(detail::array_queue(dev), job, scratch);
    count_launch(dev);
    out.keys.mark_written();
    if (out.values) out.values.mark_written();
    if (out.indices) out.indices.mark_written();
  }
  if (values && rows) {
    // Several lines: the values follow the sorted flat indices.
    vals = values->is_contiguous() && values->offset() == 0 ? *values : values->copy();
    const IndexPlan plan{out.indices, Array::zeros(Shape{1}, DType::int64, dev), 1, keys.shape()};
    out.values = gather(vals, plan);
  }
  if (want_indices && rows) {
    // Flat indices to indices within the line.
    out.indices.assign(remainder(Expr(out.indices), Expr(static_cast<long long>(row_len))));
  }
  return out;
}

}  // namespace detail

using detail::Lines;
using detail::lines_of;
using detail::restore;
using detail::sort_lines;

namespace {

// Device auto (an automatic array): where the chooser expects the sort of a's lines to finish
// first (weft::sort_work: a radix sort's passes), or nothing for an array of a fixed device.
std::optional<detail::AutoPlacement> placed_sort(const Array& a, std::optional<int> axis, const char* what) {
  if (!a || !a.is_auto()) return std::nullopt;
  const std::int64_t n = a.size();
  const int nd = static_cast<int>(a.ndim());
  // A bad axis is lines_of's to report: the estimate takes one line then.
  const bool good = axis && *axis >= -nd && *axis < nd;
  const std::int64_t len = good ? a.shape()[static_cast<std::size_t>(*axis < 0 ? *axis + nd : *axis)] : n;
  const std::int64_t rows = len > 0 ? n / len : 1;
  // (One reference captured: the std::function holds it without allocating.)
  const struct {
    std::int64_t n, rows;
    std::size_t item_bytes;
  } job{n, rows, size_of(a.dtype())};
  return detail::place_array(a, what, [&job](WorkEstimate& w) {
    WorkEstimate s = sort_work(job.n, job.item_bytes, job.rows);
    s.result_to_host = w.result_to_host;
    w = s;
  });
}

// What sort and argsort give when a was placed automatically: the result automatic too.
Array placed_result(const std::optional<detail::AutoPlacement>& placed, Array r) {
  if (!placed) return r;
  detail::learn_when_done(*placed);
  if (placed->chosen) detail::mark_automatic(r, placed->result_tag);
  return r;
}

// The array a sort reads: a seen from the device chosen for it, else a.
const Array& sorted_input(const Array& a, const std::optional<detail::AutoPlacement>& placed) {
  return placed ? placed->array : a;
}

}  // namespace

Array sort(const Array& a, std::optional<int> axis, bool descending) {
  const auto placed = placed_sort(a, axis, "sort");
  const Lines l = lines_of(sorted_input(a, placed), axis, "sort");
  return placed_result(placed, restore(sort_lines(l, descending, false, nullptr).keys, l));
}

Array argsort(const Array& a, std::optional<int> axis, bool descending) {
  const auto placed = placed_sort(a, axis, "argsort");
  const Lines l = lines_of(sorted_input(a, placed), axis, "argsort");
  return placed_result(placed, restore(sort_lines(l, descending, true, nullptr).indices, l));
}

std::pair<Array, Array> sort_by_key(const Array& keys, const Array& values, std::optional<int> axis,
                                    bool descending) {
  if (!values) throw InvalidArgument("sort_by_key: the values array is empty (no allocation)");
  if (!(values.shape() == keys.shape())) {
    throw InvalidArgument("sort_by_key: values of shape " + to_string(values.shape()) + " for keys of shape " +
                          to_string(keys.shape()) + "; the shapes must be equal");
  }
  if (!(values.device() == keys.device())) {
    throw InvalidArgument("sort_by_key: the values are on " + values.device().selector() + ", the keys on " +
                          keys.device().selector());
  }
  detail::check_sortable(values.dtype(), "sort_by_key");
  const Lines l = lines_of(keys, axis, "sort_by_key");
  // The values laid out as the keys' lines are.
  const Lines lv = lines_of(values, axis, "sort_by_key");
  const detail::SortedLines s = sort_lines(l, descending, false, &lv.data);
  return {restore(s.keys, l), restore(s.values, l)};
}

void sort_in_place(const Array& a, int axis, bool descending) {
  const Array sorted = sort(a, axis, descending);
  Array target = a;
  target.assign(Expr(sorted));
}

namespace {

// Scratch buffers of a raw-buffer sort, kept until its last command has run.
struct HeldBuffers {
  std::vector<Buffer> buffers;
};

Event enqueue_raw(Queue& queue, detail::RadixSortJob& job, std::span<const Event> wait) {
  prepare_write(job.keys_out);
  if (job.payload_size) prepare_write(job.payload_out);
  auto held = std::make_shared<HeldBuffers>();
  const Device dev = queue.device();
  const detail::SortScratch scratch = [&](std::size_t bytes) {
    return held->buffers.emplace_back(Buffer(dev, std::max<std::size_t>(bytes, 1)));
  };
  const Event done = detail::radix_sort(queue, job, scratch, wait);
  if (!detail::done_within(done)) detail::then_within(done, [held](const Event&) {});  // (a callback costs a wake-up of the completion thread)
  return done;
}

}  // namespace

Event enqueue_sort(Queue& queue, const Buffer& keys, DType key_type, std::size_t count, bool descending,
                   std::span<const Event> wait) {
  detail::RadixSortJob job;
  job.key_type = key_type;
  job.count = count;
  job.descending = descending;
  job.keys_in = keys;
  job.keys_out = keys;
  return enqueue_raw(queue, job, wait);
}

Event enqueue_sort_by_key(Queue& queue, const Buffer& keys, DType key_type, const Buffer& values,
                          std::size_t value_size, std::size_t count, bool descending, std::span<const Event> wait) {
  if (value_size == 0) throw InvalidArgument("sort_by_key: value_size is 0; values of 1, 2, 4 or 8 bytes move");
  detail::RadixSortJob job;
  job.key_type = key_type;
  job.count = count;
  job.descending = descending;
  job.keys_in = keys;
  job.keys_out = keys;
  job.payload_size = value_size;
  job.payload_in = values;
  job.payload_out = values;
  return enqueue_raw(queue, job, wait);
}

}  // namespace weft
