// weft::fft's Array functions: the Array API's fft, ifft, rfft, irfft, hfft, ihfft and their
// n-dimensional forms, on weft::fft::execute (fft.cpp). Input is cropped or zero-padded to
// the requested lengths, converted to the complex type where the transform reads complex
// numbers, and handed to the device's library as it lies (pocketfft takes any strides) or,
// for libraries that take contiguous batches with the transformed axes last (cuFFT), as a
// contiguous copy in that order, the result then seen through the inverse permutation.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "algorithms/fft_checks.hpp"
#include "array/array_queue.hpp"
#include "runtime/fft_engine.hpp"
#include "weft/error.hpp"
#include "weft/fft.hpp"
#include "weft/manipulation.hpp"

namespace weft::fft {

namespace {

// Whether x's device's library takes only contiguous batches (cuFFT), or the tests ask for
// that path on a device whose library takes any layout.
bool batched_only(const detail::FftEngine* engine) {
  return (engine && !engine->general_layout()) || detail::fft_batched_layout_for_tests();
}

// One of the six transforms: what it computes and which direction its norm scales as.
struct Op {
  const char* name;
  Kind kind;
  bool sign_forward;  // Transform::forward
  bool norm_forward;  // norm_scale's forward_transform (hfft and ihfft scale as their mirror)
};
constexpr Op kFft{"fft", Kind::c2c, true, true};
constexpr Op kIfft{"ifft", Kind::c2c, false, false};
constexpr Op kRfft{"rfft", Kind::r2c, true, true};
constexpr Op kIrfft{"irfft", Kind::c2r, false, false};
// hfft(x) = irfft(conj(x)) with the norm's direction swapped; ihfft(x) = conj(rfft(x)), the same.
constexpr Op kHfft{"hfft", Kind::c2r, true, true};
constexpr Op kIhfft{"ihfft", Kind::r2c, false, false};

std::string named(const Op& op, const std::string& what) { return std::string("fft::") + op.name + ": " + what; }

// x converted to what op reads: complex for c2c and c2r, real floating for r2c.
Array typed_input(const Op& op, const Array& x) {
  const DType t = x.dtype();
  const bool real = t == DType::float32 || t == DType::float64;
  if (op.kind == Kind::r2c) {
    if (!real) {
      throw DTypeError(named(op, "x must be a real floating-point array (float32 or float64), not " +
                                     std::string(name(t))));
    }
    return x;
  }
  if (!real && !is_complex(t)) {
    throw DTypeError(named(op, "x must be a floating-point array (float32, float64, complex64 or complex128), not " +
                                   std::string(name(t))));
  }
  return real ? x.astype(complex_of(t)) : x;
}

// x cropped or zero-padded to length along axis.
Array resized(const Array& x, std::size_t axis, std::int64_t length) {
  const std::int64_t have = x.shape()[axis];
  if (length == have) return x;
  if (length < have) return x.slice(axis, 0, length);
  std::vector<std::int64_t> dims = x.shape().dims();
  dims[axis] = length;
  Array out = Array::zeros(Shape(dims), x.dtype(), x.device());
  if (have > 0) out.slice(axis, 0, have).assign(x);
  return out;
}

// The transform of x (already typed and resized) over axes, whose real-side lengths are n.
Array run(const Op& op, const Array& x, const std::vector<int>& axes, const std::vector<std::int64_t>& n, Norm norm) {
  const Device dev = x.device();
  const std::size_t ndim = x.ndim();
  const DType precision = real_of(x.dtype());
  std::int64_t points = 1;
  for (std::int64_t k : n) points *= k;
  const std::size_t last = static_cast<std::size_t>(axes.back());

  // The real side's shape (Transform::shape) and the output's.
  std::vector<std::int64_t> logical = x.shape().dims();
  if (op.kind == Kind::c2r) logical[last] = n.back();
  std::vector<std::int64_t> out_dims = logical;
  if (op.kind == Kind::r2c) out_dims[last] = logical[last] / 2 + 1;
  const DType out_type = op.kind == Kind::c2r ? precision : complex_of(precision);

  Transform t;
  t.kind = op.kind;
  t.precision = precision;
  t.forward = op.sign_forward;
  t.scale = norm_scale(norm, op.norm_forward, points);

  detail::FftEngine* engine = detail::fft_engine(*dev.impl());
  Queue& queue = detail::array_queue(dev);
  if (!batched_only(engine)) {
    t.shape = Shape(logical);
    t.axes = axes;
    t.in_strides = x.strides();
    t.in_offset = x.offset();
    Array out = Array::empty(Shape(out_dims), out_type, dev);
    execute(queue, t, x.buffer(), out.buffer());
    out.mark_written();
    return out;
  }
  // A batched library: the other axes first, then the transformed ones, in a contiguous copy
  // (also what cuFFT's c2r may overwrite).
  std::vector<int> perm;
  for (std::size_t d = 0; d < ndim; ++d) {
    if (std::find(axes.begin(), axes.end(), static_cast<int>(d)) == axes.end()) perm.push_back(static_cast<int>(d));
  }
  const std::size_t batch_axes = perm.size();
  perm.insert(perm.end(), axes.begin(), axes.end());
  const Array xp = permute_dims(x, perm).copy();
  std::vector<std::int64_t> plogical(ndim), pout(ndim);
  for (std::size_t d = 0; d < ndim; ++d) {
    plogical[d] = logical[static_cast<std::size_t>(perm[d])];
    pout[d] = out_dims[static_cast<std::size_t>(perm[d])];
  }
  t.shape = Shape(plogical);
  t.axes.resize(axes.size());
  std::iota(t.axes.begin(), t.axes.end(), static_cast<int>(batch_axes));
  Array outp = Array::empty(Shape(pout), out_type, dev);
  execute(queue, t, xp.buffer(), outp.buffer());
  outp.mark_written();
  std::vector<int> inverse(ndim);
  for (std::size_t d = 0; d < ndim; ++d) inverse[static_cast<std::size_t>(perm[d])] = static_cast<int>(d);
  return permute_dims(outp, inverse);
}

// Checks and normalizes axes; fills the lengths (s, its -1 entries, or the defaults).
Array transform(const Op& op, const Array& x_in, std::vector<std::int64_t> s, std::vector<int> axes, Norm norm) {
  const auto nd = static_cast<int>(x_in.ndim());
  if (nd == 0) throw InvalidArgument(named(op, "x must have at least one dimension"));
  if (axes.empty()) {
    const std::size_t count = s.empty() ? static_cast<std::size_t>(nd) : s.size();
    if (count > static_cast<std::size_t>(nd)) {
      throw InvalidArgument(named(op, "s has " + std::to_string(s.size()) + " lengths for " + std::to_string(nd) +
                                          " dimensions"));
    }
    for (std::size_t i = 0; i < count; ++i) axes.push_back(nd - static_cast<int>(count) + static_cast<int>(i));
  }
  if (!s.empty() && s.size() != axes.size()) {
    throw InvalidArgument(named(op, "s and axes must have the same length"));
  }
  for (int& a : axes) {
    if (a < -nd || a >= nd) {
      throw InvalidArgument(named(op, "axis " + std::to_string(a) + " is out of range for " + std::to_string(nd) +
                                          " dimensions"));
    }
    if (a < 0) a += nd;
  }
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (std::count(axes.begin(), axes.end(), axes[i]) > 1) {
      throw InvalidArgument(named(op, "axis " + std::to_string(axes[i]) + " is repeated in axes"));
    }
  }
  Array x = typed_input(op, x_in);
  // Lengths: of the real side (c2r's output), per transformed axis.
  std::vector<std::int64_t> n(axes.size());
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::int64_t have = x.shape()[static_cast<std::size_t>(axes[i])];
    const bool halved = op.kind == Kind::c2r && i + 1 == axes.size();
    n[i] = (s.empty() || s[i] == -1) ? (halved ? 2 * (have - 1) : have) : s[i];
    if (n[i] < 1) {
      throw InvalidArgument(named(op, "the transform along axis " + std::to_string(axes[i]) + " would have " +
                                          std::to_string(n[i]) + " points; it needs at least 1"));
    }
    const std::int64_t input_length = halved ? n[i] / 2 + 1 : n[i];
    x = resized(x, static_cast<std::size_t>(axes[i]), input_length);
  }
  detail::FftEngine* engine = detail::fft_engine(*x.device().impl());
  if (batched_only(engine) && axes.size() > 3) {
    // More axes than the library plans at once: the transform is separable, and each part's
    // norm scales by its own points (the factors multiply to the whole's). c2c and r2c: the
    // last three axes first (r2c's halved axis among them), then the others as c2c; c2r: the
    // others first, as c2c, then the last three.
    const std::size_t split = axes.size() - 3;
    const std::vector<int> head(axes.begin(), axes.begin() + static_cast<std::ptrdiff_t>(split));
    const std::vector<int> tail(axes.begin() + static_cast<std::ptrdiff_t>(split), axes.end());
    const std::vector<std::int64_t> nhead(n.begin(), n.begin() + static_cast<std::ptrdiff_t>(split));
    const std::vector<std::int64_t> ntail(n.begin() + static_cast<std::ptrdiff_t>(split), n.end());
    const Op c2c = op.sign_forward ? kFft : kIfft;
    const Op c2c_norm{c2c.name, Kind::c2c, op.sign_forward, op.norm_forward};
    if (op.kind == Kind::c2r) return run(op, run(c2c_norm, x, head, nhead, norm), tail, ntail, norm);
    return run(c2c_norm, run(op, x, tail, ntail, norm), head, nhead, norm);
  }
  return run(op, x, axes, n, norm);
}

std::vector<std::int64_t> one_length(std::optional<std::int64_t> n) {
  return n ? std::vector<std::int64_t>{*n} : std::vector<std::int64_t>{};
}

}  // namespace

Array fft(const Array& x, std::optional<std::int64_t> n, int axis, Norm norm) {
  return transform(kFft, x, one_length(n), {axis}, norm);
}
Array ifft(const Array& x, std::optional<std::int64_t> n, int axis, Norm norm) {
  return transform(kIfft, x, one_length(n), {axis}, norm);
}
Array rfft(const Array& x, std::optional<std::int64_t> n, int axis, Norm norm) {
  return transform(kRfft, x, one_length(n), {axis}, norm);
}
Array irfft(const Array& x, std::optional<std::int64_t> n, int axis, Norm norm) {
  return transform(kIrfft, x, one_length(n), {axis}, norm);
}
Array hfft(const Array& x, std::optional<std::int64_t> n, int axis, Norm norm) {
  return transform(kHfft, x, one_length(n), {axis}, norm);
}
Array ihfft(const Array& x, std::optional<std::int64_t> n, int axis, Norm norm) {
  return transform(kIhfft, x, one_length(n), {axis}, norm);
}
Array fftn(const Array& x, const std::vector<std::int64_t>& s, const std::vector<int>& axes, Norm norm) {
  return transform(kFft, x, s, axes, norm);
}
Array ifftn(const Array& x, const std::vector<std::int64_t>& s, const std::vector<int>& axes, Norm norm) {
  return transform(kIfft, x, s, axes, norm);
}
Array rfftn(const Array& x, const std::vector<std::int64_t>& s, const std::vector<int>& axes, Norm norm) {
  return transform(kRfft, x, s, axes, norm);
}
Array irfftn(const Array& x, const std::vector<std::int64_t>& s, const std::vector<int>& axes, Norm norm) {
  return transform(kIrfft, x, s, axes, norm);
}

}  // namespace weft::fft
