#include "algorithms/fft_checks.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "weft/error.hpp"

namespace weft::detail {

namespace {

std::string shape_text(const std::vector<std::size_t>& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

// Element strides (given, or C order when empty) as byte strides.
std::vector<std::ptrdiff_t> byte_strides(const Strides& given, const std::vector<std::size_t>& shape, std::size_t elem,
                                         const char* what) {
  std::vector<std::ptrdiff_t> out(shape.size());
  if (given.empty()) {
    std::ptrdiff_t s = static_cast<std::ptrdiff_t>(elem);
    for (std::size_t d = shape.size(); d-- > 0;) {
      out[d] = s;
      s *= static_cast<std::ptrdiff_t>(std::max<std::size_t>(shape[d], 1));
    }
    return out;
  }
  if (given.size() != shape.size()) {
    throw InvalidArgument(std::string("fft::execute: ") + what + " has " + std::to_string(given.size()) +
                          " strides for " + std::to_string(shape.size()) + " dimensions");
  }
  for (std::size_t d = 0; d < shape.size(); ++d) out[d] = static_cast<std::ptrdiff_t>(given[d] * static_cast<std::int64_t>(elem));
  return out;
}

// Checks that the layout stays inside the buffer.
void check_reach(const std::vector<std::size_t>& shape, const std::vector<std::ptrdiff_t>& strides,
                 std::int64_t offset_elems, std::size_t elem, const Buffer& buffer, const char* what) {
  if (offset_elems < 0) throw InvalidArgument(std::string("fft::execute: ") + what + "_offset is negative");
  std::int64_t lo = offset_elems * static_cast<std::int64_t>(elem), hi = lo;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const auto ext = static_cast<std::int64_t>(shape[d]) - 1;
    if (strides[d] < 0) lo += ext * strides[d];
    else hi += ext * strides[d];
  }
  hi += static_cast<std::int64_t>(elem);
  if (lo < 0 || static_cast<std::uint64_t>(hi) > buffer.size()) {
    throw InvalidArgument(std::string("fft::execute: the ") + what + " layout of shape " + shape_text(shape) +
                          " reaches bytes [" + std::to_string(lo) + ", " + std::to_string(hi) + ") of a " +
                          std::to_string(buffer.size()) + "-byte buffer");
  }
}

std::atomic<bool> batched_for_tests{false};

}  // namespace

void fft_batched_layout_for_tests(bool on) { batched_for_tests = on; }
bool fft_batched_layout_for_tests() { return batched_for_tests; }

FftDesc checked_desc(const fft::Transform& t, const Buffer& in, const Buffer& out) {
  if (!in || !out) throw InvalidArgument("fft::execute: in and out must be allocated buffers");
  if (t.precision != DType::float32 && t.precision != DType::float64) {
    throw DTypeError("fft::execute: precision must be float32 or float64, not " + std::string(name(t.precision)));
  }
  FftDesc d;
  d.kind = t.kind;
  d.double_precision = t.precision == DType::float64;
  d.forward = t.forward;
  d.scale = t.scale;
  const std::size_t ndim = t.shape.ndim();
  if (ndim == 0) throw InvalidArgument("fft::execute: shape must have at least one dimension");
  for (std::size_t i = 0; i < ndim; ++i) {
    if (t.shape[i] < 0) throw InvalidArgument("fft::execute: shape has a negative extent");
    d.shape.push_back(static_cast<std::size_t>(t.shape[i]));
  }
  if (t.axes.empty()) throw InvalidArgument("fft::execute: axes must name at least one axis");
  for (int a : t.axes) {
    if (a < 0 || static_cast<std::size_t>(a) >= ndim) {
      throw InvalidArgument("fft::execute: axis " + std::to_string(a) + " is out of range for " +
                            std::to_string(ndim) + " dimensions");
    }
    if (std::count(t.axes.begin(), t.axes.end(), a) > 1) {
      throw InvalidArgument("fft::execute: axis " + std::to_string(a) + " is repeated in axes");
    }
    d.axes.push_back(static_cast<std::size_t>(a));
  }
  std::size_t total = 1;
  for (std::size_t e : d.shape) total *= e;
  if (total != 0) {
    for (std::size_t a : d.axes) {
      if (d.shape[a] == 0) throw InvalidArgument("fft::execute: a transformed axis has extent 0");
    }
  }
  const std::size_t rs = d.real_size(), cs = 2 * rs;
  const bool real_in = t.kind == fft::Kind::r2c, real_out = t.kind == fft::Kind::c2r;
  const std::vector<std::size_t> cshape = d.complex_shape();
  const auto& in_shape = real_in ? d.shape : cshape;
  const auto& out_shape = real_out ? d.shape : cshape;
  d.in_strides = byte_strides(t.in_strides, in_shape, real_in ? rs : cs, "in_strides");
  d.out_strides = byte_strides(t.out_strides, out_shape, real_out ? rs : cs, "out_strides");
  d.in_offset = static_cast<std::size_t>(std::max<std::int64_t>(t.in_offset, 0)) * (real_in ? rs : cs);
  d.out_offset = static_cast<std::size_t>(std::max<std::int64_t>(t.out_offset, 0)) * (real_out ? rs : cs);
  if (total == 0) return d;
  check_reach(in_shape, d.in_strides, t.in_offset, real_in ? rs : cs, in, "in");
  check_reach(out_shape, d.out_strides, t.out_offset, real_out ? rs : cs, out, "out");
  if (in.impl() == out.impl()) {
    if (t.kind != fft::Kind::c2c || d.in_strides != d.out_strides || d.in_offset != d.out_offset) {
      throw InvalidArgument(
          "fft::execute: in and out are one buffer: only a c2c transform with the same strides and offset may run in "
          "place");
    }
  }
  return d;
}

void check_library_layout(const FftDesc& d, const std::string& library) {
  const std::size_t ndim = d.shape.size(), rank = d.axes.size();
  bool ok = rank <= 3;
  for (std::size_t i = 0; ok && i < rank; ++i) ok = d.axes[i] == ndim - rank + i;
  const std::size_t rs = d.real_size();
  const auto contiguous = [](const std::vector<std::size_t>& shape, const std::vector<std::ptrdiff_t>& strides,
                             std::size_t elem) {
    auto s = static_cast<std::ptrdiff_t>(elem);
    for (std::size_t k = shape.size(); k-- > 0;) {
      if (shape[k] != 1 && strides[k] != s) return false;
      s *= static_cast<std::ptrdiff_t>(shape[k]);
    }
    return true;
  };
  const std::vector<std::size_t> cshape = d.complex_shape();
  const bool real_in = d.kind == fft::Kind::r2c, real_out = d.kind == fft::Kind::c2r;
  ok = ok && contiguous(real_in ? d.shape : cshape, d.in_strides, real_in ? rs : 2 * rs) &&
       contiguous(real_out ? d.shape : cshape, d.out_strides, real_out ? rs : 2 * rs);
  ok = ok && d.in_offset % (2 * rs) == 0 && d.out_offset % (2 * rs) == 0;
  if (!ok) {
    throw InvalidArgument("fft::execute: " + library +
                          " takes contiguous buffers with the transformed axes last, in order, and at most three of "
                          "them, at offsets of whole complex numbers (the weft::fft Array functions reorder any "
                          "other layout)");
  }
}

}  // namespace weft::detail
