// Advanced indexing's kernels: gather and scatter through a planned index (IndexPlan), and
// compress and expand through a boolean mask (a scan numbers the selected rows).
//
// The kernels are generators (an ElementwiseKernel each for gather and scatter, a
// GenericScanKernel each for compress and expand), made once per dtype, whose device code is
// src/kernels/cl/indexing.cl. Generators rather than raw kernels: a scan needs the generators'
// scan (single pass with look-back on GPUs, chunked elsewhere), and the elementwise ones get
// the same launch shapes, per-device builds and thread-safe argument binding as every other
// array kernel, for free.
#include "array/indexing.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <string>

#include "array/array_queue.hpp"
#include "core/lifetime.hpp"
#include "embedded/weft_embedded.hpp"
#include "weft/elementwise.hpp"
#include "weft/error.hpp"
#include "weft/lazy_array.hpp"
#include "weft/scan.hpp"

namespace weft::detail {

namespace {

struct Kernels {
  // The arguments name the element type itself (the generators check buffers against it);
  // the functions of indexing.cl know it as weft_elem.
  explicit Kernels(DType t)
      : type(kernel_type(t)),
        preamble("typedef " + type + " weft_elem;\n" + std::string(embedded::indexing_cl)),
        gather(type + " *out, const " + type + " *src, const long *off, const long *roff, long nb, long post",
               "out[i] = src[weft_indexed_offset(i, off, roff, nb, post)]", "weft_gather", preamble),
        scatter(type + " *dst, const " + type + " *v, const long *off, const long *roff, long nb, long post",
                "dst[weft_indexed_offset(i, off, roff, nb, post)] = v[i]", "weft_scatter", preamble),
        compress(DType::int64, "const uchar *mask, const " + type + " *src, " + type + " *dst, long inner",
                 "mask[i] ? 1 : 0", "a + b", "0",
                 "if (prev_item != item) weft_move_row(dst, item - 1, src, i, inner);", {}, preamble,
                 "weft_compress"),
        expand(DType::int64, "const uchar *mask, const " + type + " *src, " + type + " *dst, long inner",
               "mask[i] ? 1 : 0", "a + b", "0",
               "if (prev_item != item) weft_move_row(dst, i, src, item - 1, inner);", {}, preamble,
               "weft_expand") {}

  std::string type;
  std::string preamble;
  ElementwiseKernel gather;
  ElementwiseKernel scatter;
  GenericScanKernel compress;  // the selected rows of src to consecutive rows of dst
  GenericScanKernel expand;    // consecutive rows of src to the selected rows of dst
};

// Made on first use of each dtype, then found without a lock.
Kernels& kernels(DType t) {
  constexpr std::size_t n = std::size(all_dtypes);
  static std::array<std::once_flag, n> once;
  static Immortal<std::array<std::unique_ptr<Kernels>, n>> made;  // never destroyed: core/lifetime.hpp
  const auto k = static_cast<std::size_t>(t);
  std::call_once(once[k], [&] { (*made)[k] = std::make_unique<Kernels>(t); });
  return *(*made)[k];
}

void same_device(const Array& a, const Array& b, const char* who, const char* what) {
  if (!(a.device() == b.device())) {
    throw InvalidArgument(std::string(who) + ": the " + what + " are on " + b.device().selector() + ", the array on " +
                          a.device().selector());
  }
}

// x as the generated kernels take it, a whole buffer from its first element, in memory of its
// own when it shares an allocation with `written` (which the kernel writes while reading x:
// a[[1, 0]] = a[0:2] must read the values from before the write, as NumPy's).
Array operand(const Array& x, const Array& written) {
  if (x.is_contiguous() && x.offset() == 0 && !x.shares_allocation(written)) return x;
  return x.copy();
}

Array index_table(const Array& table, const char* who, const char* what) {
  if (table.dtype() != DType::int64) {
    throw InvalidArgument(std::string(who) + ": " + what + " must be int64, not " + std::string(name(table.dtype())));
  }
  return table;
}

// InvalidArgument unless plan describes plan.shape.size() elements over src's device.
void check_plan(const Array& src, const IndexPlan& plan, const char* who) {
  index_table(plan.off, who, "off");
  index_table(plan.roff, who, "roff");
  same_device(src, plan.off, who, "offsets");
  same_device(src, plan.roff, who, "offsets");
  const std::int64_t n = plan.shape.size(), nb = plan.off.size(), rest = plan.roff.size();
  const bool sized = nb == 0 || rest == 0 ? n == 0 : n % nb == 0 && n / nb == rest;
  if (!sized) {
    throw InvalidArgument(std::string(who) + ": a result of shape " + to_string(plan.shape) + " from " +
                          std::to_string(nb) + " index offsets and " + std::to_string(rest) + " others");
  }
  if (n > 0 && (plan.post < 1 || rest % plan.post != 0)) {
    throw InvalidArgument(std::string(who) + ": post " + std::to_string(plan.post) + " does not divide the " +
                          std::to_string(rest) + " offsets of the dimensions not indexed");
  }
}

// values as dst's elements of the given shape (NumPy's broadcasting and cast), ready to read.
Array values_for(const Array& dst, const Array& values, const Shape& shape, const char* who) {
  same_device(dst, values, who, "values");
  Array v;
  try {
    v = values.broadcast_to(shape);
  } catch (const InvalidArgument&) {
    throw InvalidArgument("shape mismatch: value array of shape " + to_string(values.shape()) +
                          " could not be broadcast to indexing result of shape " + to_string(shape));
  }
  if (v.dtype() != dst.dtype()) return eval(astype(Expr(v), dst.dtype()));  // a new array: independent
  return operand(v, dst);
}

// The rows a boolean mask over src's leading dimensions selects: (elements per row, count).
std::pair<std::int64_t, std::int64_t> mask_rows(const Array& src, const Array& mask, const char* who) {
  if (mask.dtype() != DType::bool_) {
    throw InvalidArgument(std::string(who) + ": the mask must be of dtype bool, not " +
                          std::string(name(mask.dtype())));
  }
  same_device(src, mask, who, "mask");
  bool leading = mask.ndim() <= src.ndim();
  for (std::size_t d = 0; leading && d < mask.ndim(); ++d) leading = mask.shape()[d] == src.shape()[d];
  if (!leading) {
    throw InvalidArgument(std::string(who) + ": a mask of shape " + to_string(mask.shape()) +
                          " does not match the leading dimensions of " + src.describe());
  }
  std::int64_t inner = 1;
  for (std::size_t d = mask.ndim(); d < src.ndim(); ++d) inner *= src.shape()[d];
  const Array count = sum(Expr(mask), {}, false);  // int64
  return {inner, count.to_host<std::int64_t>()[0]};
}

// The shape of src[mask]: (count,) + src's dimensions after the mask's.
Shape selected_shape(const Array& src, const Array& mask, std::int64_t count) {
  std::vector<std::int64_t> dims{count};
  for (std::size_t d = mask.ndim(); d < src.ndim(); ++d) dims.push_back(src.shape()[d]);
  return Shape(dims);
}

// Runs write(target) on a contiguous target that holds dst's elements from its buffer's start
// (dst itself when it is one, else a copy written back after), with NumPy's order of effects:
// lazy arrays that read dst are evaluated first.
template <class Write>
void write_through(const Array& dst, const Write& write) {
  if (dst.is_contiguous() && dst.offset() == 0) {
    const Buffer& b = dst.buffer();  // current here: the rows not written keep their values
    prepare_write(dst);
    write(b);
    dst.mark_written();
    return;
  }
  Array t = dst.copy();
  write(t.buffer());
  t.mark_written();
  Array target = dst;
  target.assign(Expr(t));
}

}  // namespace

}  // namespace weft::detail

namespace weft {

using namespace detail;  // the helpers above

Array gather(const Array& src, const IndexPlan& plan) {
  check_plan(src, plan, "gather");
  Array out = Array::empty(plan.shape, src.dtype(), src.device());
  if (out.size() == 0) return out;
  const Array off = operand(plan.off, out), roff = operand(plan.roff, out);
  const RuntimeArg args[] = {RuntimeArg::of(out.buffer()),      RuntimeArg::of(src.buffer()),
                             RuntimeArg::of(off.buffer()),      RuntimeArg::of(roff.buffer()),
                             RuntimeArg::of_value(off.size()), RuntimeArg::of_value(plan.post)};
  kernels(src.dtype()).gather.run(detail::array_queue(src.device()), static_cast<std::size_t>(out.size()), args);
  out.mark_written();
  return out;
}

void scatter(const Array& dst, const IndexPlan& plan, const Array& values) {
  check_plan(dst, plan, "scatter");
  const Array v = values_for(dst, values, plan.shape, "scatter");  // NumPy checks the shapes even when empty
  if (v.size() == 0) return;
  const Array off = operand(plan.off, dst), roff = operand(plan.roff, dst);
  // The offsets reach the whole allocation, not just dst's view: write through its buffer.
  const Buffer& b = dst.buffer();
  prepare_write(dst);
  const RuntimeArg args[] = {RuntimeArg::of(b),                 RuntimeArg::of(v.buffer()),
                             RuntimeArg::of(off.buffer()),      RuntimeArg::of(roff.buffer()),
                             RuntimeArg::of_value(off.size()), RuntimeArg::of_value(plan.post)};
  kernels(dst.dtype()).scatter.run(detail::array_queue(dst.device()), static_cast<std::size_t>(v.size()), args);
  dst.mark_written();
}

Array masked_select(const Array& src, const Array& mask) {
  const auto [inner, count] = mask_rows(src, mask, "compress");
  Array out = Array::empty(selected_shape(src, mask, count), src.dtype(), src.device());
  if (out.size() == 0) return out;
  const Array m = operand(mask, out), s = operand(src, out);
  const RuntimeArg args[] = {RuntimeArg::of(m.buffer()), RuntimeArg::of(s.buffer()), RuntimeArg::of(out.buffer()),
                             RuntimeArg::of_value(inner)};
  kernels(src.dtype()).compress.run(detail::array_queue(src.device()), static_cast<std::size_t>(m.size()), args);
  out.mark_written();
  return out;
}

void masked_scatter(const Array& dst, const Array& mask, const Array& values) {
  const auto [inner, count] = mask_rows(dst, mask, "expand");
  const Array v = values_for(dst, values, selected_shape(dst, mask, count), "expand");
  if (v.size() == 0) return;
  const Array m = operand(mask, dst);
  write_through(dst, [&](const Buffer& target) {
    const RuntimeArg args[] = {RuntimeArg::of(m.buffer()), RuntimeArg::of(v.buffer()), RuntimeArg::of(target),
                               RuntimeArg::of_value(inner)};
    kernels(dst.dtype()).expand.run(detail::array_queue(dst.device()), static_cast<std::size_t>(m.size()), args);
  });
}

}  // namespace weft

namespace weft::detail {

std::vector<std::pair<const char*, std::string_view>> indexing_sources(DType dtype) {
  const Kernels& k = kernels(dtype);
  return {{"array/gather", k.gather.source()},
          {"array/scatter", k.scatter.source()},
          {"array/compress", k.compress.source()},
          {"array/expand", k.expand.source()}};
}

}  // namespace weft::detail
