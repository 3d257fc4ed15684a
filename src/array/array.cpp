#include "weft/array.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>
#include <optional>

#include "array/array_queue.hpp"
#include "array/memory_pool.hpp"
#include "array/host_regions.hpp"
#include "runtime/backend.hpp"
#include "runtime/device_local.hpp"
#include "weft/error.hpp"
#include "core/lifetime.hpp"
#include "weft/elementwise.hpp"

namespace weft {

namespace detail {
namespace {
struct DeviceState {
  // The array queue: ordered with the device's other queues (runtime/queue_order.hpp).
  explicit DeviceState(const Device& d) : queue(d) { d.impl()->order().set_array_queue(queue.impl()); }
  Queue queue;
  std::atomic<std::uint64_t> launches{0};
};
DeviceState& state(const Device& device) {
  // Never destroyed (core/lifetime.hpp): queued array work may still be running at exit.
  static Immortal<DeviceLocal<DeviceState>> states;
  return states->get(device);
}
}  // namespace

Queue& array_queue(const Device& device) { return state(device).queue; }
void count_launch(const Device& device) { ++state(device).launches; }

void check_array_dtype(DType t) {
  if (t == DType::float16) throw Unsupported("arrays of float16 are not supported yet");
}

std::string kernel_type(DType t) {
  if (t == DType::bool_) return "uchar";
  check_array_dtype(t);
  return std::string(c_name(t));
}
}  // namespace detail

Queue& array_queue(const Device& device) { return detail::array_queue(device); }
void synchronize(const Device& device) { detail::array_queue(device).finish(); }

std::uint64_t elementwise_launches(const Device& device) { return detail::state(device).launches.load(); }

class ArrayFactory {
 public:
  static Array make(Buffer b, std::shared_ptr<detail::Residence> r, DType t, Shape s, Strides st, std::int64_t off) {
    Array a;
    a.buffer_ = std::move(b);
    a.res_ = std::move(r);
    a.dtype_ = t;
    a.shape_ = std::move(s);
    a.strides_ = std::move(st);
    a.offset_ = off;
    return a;
  }
  /// An array that is the whole of a new allocation: the buffer and a residence record of its own.
  static Array allocation(Buffer b, DType t, Shape s, Strides st, std::int64_t off) {
    auto r = std::make_shared<detail::Residence>(b);
    return make(std::move(b), std::move(r), t, std::move(s), std::move(st), off);
  }
};

Array Array::empty(const Shape& shape, DType dtype, const Device& device) {
  detail::check_array_dtype(dtype);  // refuses float16 up front
  if (!device) throw InvalidArgument("empty: no device given");
  const auto n = static_cast<std::size_t>(shape.size());
  if (n > SIZE_MAX / size_of(dtype)) {
    // The byte count would wrap (to a small number, or 0): refuse the request as it is.
    throw OutOfMemory("cannot allocate a " + std::string(name(dtype)) + " array of shape " + to_string(shape) + " (" +
                          std::to_string(n) + " elements of " + std::to_string(size_of(dtype)) +
                          " bytes: more bytes than an address holds) on " + device.selector(),
                      SIZE_MAX, device.selector(), "Array::empty");
  }
  Buffer b = detail::memory_pool(device).allocate(std::max<std::size_t>(n, 1) * size_of(dtype), dtype, [&] {
    return "a " + std::string(name(dtype)) + " array of shape " + to_string(shape);
  });
  Array a = ArrayFactory::allocation(std::move(b), dtype, shape, contiguous_strides(shape), 0);
  a.res_->made_at.store(device.impl()->order().array_work(), std::memory_order_relaxed);
  return a;
}

namespace {
// Throws unless every element of the view lies within elements of memory.
void check_reach(const char* what, const Shape& shape, const Strides& strides, std::int64_t offset,
                 std::int64_t elements) {
  if (strides.size() != shape.ndim()) {
    throw InvalidArgument(std::string(what) + ": " + std::to_string(strides.size()) + " strides for shape " +
                          to_string(shape));
  }
  if (offset < 0) throw InvalidArgument(std::string(what) + ": negative offset " + std::to_string(offset));
  if (shape.size() == 0) return;
  std::int64_t lo = offset, hi = offset;
  for (std::size_t d = 0; d < shape.ndim(); ++d) {
    const std::int64_t reach = (shape[d] - 1) * strides[d];
    (reach < 0 ? lo : hi) += reach;
  }
  if (lo < 0 || hi >= elements) {
    throw InvalidArgument(std::string(what) + ": shape " + to_string(shape) + " with these strides and offset " +
                          std::to_string(offset) + " reaches elements " + std::to_string(lo) + ".." +
                          std::to_string(hi) + " of memory holding " + std::to_string(elements));
  }
}

// out[k] = k on out's device: arange's indices. Made on the host and uploaded they took 0.7 s
// for 2^27 elements on an H200 (a 1 GiB vector filled, faulted in and copied), most of each
// chunk of `weft bench dask`'s chain case; the kernel writes them at the device's bandwidth.
ElementwiseKernel& index_kernel() {
  static detail::Immortal<ElementwiseKernel> k("long *out", "out[i] = (long)i", "weft_arange_index");
  return *k;
}
// From this many elements, on a device other than the host, the indices are made there (below
// it the upload costs about a launch, and no kernel is compiled for small ranges).
constexpr std::int64_t kIndicesOnDevice = std::int64_t{1} << 16;
}  // namespace

const Buffer& Array::buffer() const {
  if (res_ && res_->spread.load(std::memory_order_acquire)) detail::make_current(*res_, buffer_);
  return buffer_;
}

void Array::mark_written() const {
  if (res_ && (res_->spread.load(std::memory_order_acquire) || res_->overlapped.load(std::memory_order_acquire))) {
    detail::note_written(*res_, buffer_);
  }
}

Array Array::to(const Device& device) const {
  if (!buffer_) throw InvalidArgument("to: an empty array");
  if (device == buffer_.device()) return *this;
  Buffer b = detail::copy_on(*res_, device, dtype_);
  if (res_->borrowed.load(std::memory_order_relaxed)) detail::refresh_from_borrowed(*res_);
  return ArrayFactory::make(std::move(b), res_, dtype_, shape_, strides_, offset_);
}

Array Array::to_auto() const {
  if (!buffer_) throw InvalidArgument("to_auto: an empty array");
  res_->automatic.store(true, std::memory_order_relaxed);
  return *this;
}

bool Array::is_auto() const noexcept { return res_ && res_->automatic.load(std::memory_order_relaxed); }

Array Array::as_strided(const Shape& shape, Strides strides, std::int64_t offset) const {
  if (!buffer_) throw InvalidArgument("as_strided: an empty array");
  if (strides.empty() && shape.ndim() > 0) strides = contiguous_strides(shape);
  check_reach("as_strided", shape, strides, offset, static_cast<std::int64_t>(buffer_.size() / size_of(dtype_)));
  return ArrayFactory::make(buffer_, res_, dtype_, shape, std::move(strides), offset);
}

Array Array::full(const Shape& shape, double value, DType dtype, const Device& device) {
  Array a = empty(shape, dtype, device);
  a.assign(Expr(value));
  return a;
}

Array Array::full(const Shape& shape, const Expr& value, DType dtype, const Device& device) {
  if (!value.node() || !value.arrays().empty() || value.shape().ndim() != 0) {
    throw InvalidArgument("full: the fill value must be one number");
  }
  Array a = empty(shape, dtype, device);
  a.assign(value);
  return a;
}

Array Array::arange(double start, double stop, double step, DType dtype, const Device& device) {
  if (!std::isfinite(start) || !std::isfinite(stop) || !std::isfinite(step)) {
    throw InvalidArgument("arange: start, stop and step must be finite numbers (got " + std::to_string(start) + ", " +
                          std::to_string(stop) + ", " + std::to_string(step) + ")");
  }
  if (step == 0) throw InvalidArgument("arange: step must not be zero");
  const double count = std::ceil((stop - start) / step);
  if (count > 9.0e18) {
    throw InvalidArgument("arange: " + std::to_string(count) + " elements (from " + std::to_string(start) + " to " +
                          std::to_string(stop) + " by " + std::to_string(step) + ") is more than an array holds");
  }
  const auto n = static_cast<std::int64_t>(std::max(0.0, count));
  // start + i * step, computed in double and converted, as NumPy does for float ranges.
  const Array idx = arange_integers(0, n, 1, DType::int64, device);
  return eval(weft::astype(Expr(start) + weft::astype(idx, DType::float64) * Expr(step), dtype));
}

Array Array::arange_integers(std::int64_t start, std::int64_t stop, std::int64_t step, DType dtype,
                             const Device& device) {
  if (step == 0) throw InvalidArgument("arange: step must not be zero");
  // The count, in unsigned arithmetic: stop - start may not fit an int64, but it fits a uint64
  // once the range is known to go the step's way.
  std::uint64_t count = 0;
  if ((step > 0 && stop > start) || (step < 0 && stop < start)) {
    const std::uint64_t span = step > 0 ? static_cast<std::uint64_t>(stop) - static_cast<std::uint64_t>(start)
                                        : static_cast<std::uint64_t>(start) - static_cast<std::uint64_t>(stop);
    const std::uint64_t by = step > 0 ? static_cast<std::uint64_t>(step) : 0 - static_cast<std::uint64_t>(step);
    count = span / by + (span % by != 0 ? 1 : 0);
  }
  if (count > static_cast<std::uint64_t>(INT64_MAX)) throw InvalidArgument("arange: more elements than an array holds");
  const auto n = static_cast<std::int64_t>(count);
  Array out = empty(Shape{n}, dtype, device);
  if (n == 0) return out;
  // start + i * step exactly in 64-bit integers (wrapping as NumPy's int64 arithmetic), then
  // converted: exact for every int64 and uint64 value, above 2**53 too.
  Array i = empty(Shape{n}, DType::int64, device);
  if (n >= kIndicesOnDevice && device.selector() != "host") {
    const detail::RuntimeArg args[] = {detail::RuntimeArg::of(i.buffer_)};
    index_kernel().run(detail::array_queue(device), static_cast<std::size_t>(n), args);
    detail::count_launch(device);
    i.mark_written();
  } else {
    std::vector<std::int64_t> host(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k) host[static_cast<std::size_t>(k)] = k;
    detail::array_queue(device).write(i.buffer_, host.data(), host.size() * 8);
  }
  out.assign(weft::astype(Expr::typed(static_cast<long long>(start), DType::int64) +
                              Expr(i) * Expr::typed(static_cast<long long>(step), DType::int64),
                          dtype));
  return out;
}

Array Array::linspace(double start, double stop, std::int64_t num, DType dtype, const Device& device, bool endpoint) {
  if (num < 0) throw InvalidArgument("linspace: num must not be negative, got " + std::to_string(num));
  const std::int64_t div = endpoint ? num - 1 : num;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  // start + i * step in double, the last one exactly stop, as NumPy's linspace.
  const Array idx = arange(0, static_cast<double>(num), 1, DType::float64, device);
  const Expr value = Expr(start) + Expr(idx) * step;
  if (endpoint && num > 1) return eval(weft::astype(where(Expr(idx) == static_cast<double>(num - 1), stop, value), dtype));
  return eval(weft::astype(value, dtype));
}

Array Array::ravel() const { return reshape({-1}); }

Array Array::from_host_bytes(const void* data, std::size_t count, DType dtype, const Shape& shape,
                             const Device& device) {
  if (static_cast<std::int64_t>(count) != shape.size()) {
    throw InvalidArgument("from_host: " + std::to_string(count) + " elements given for shape " + to_string(shape) +
                          " (" + std::to_string(shape.size()) + " elements)");
  }
  Array a = empty(shape, dtype, device);
  if (count) {
    detail::array_queue(device).write(a.buffer_, data, count * size_of(dtype));
    detail::count_transfer(detail::Transfer::to_device, count * size_of(dtype));
  }
  return a;
}

Array Array::wrap(Buffer buffer, DType dtype, const Shape& shape, Strides strides, std::int64_t offset) {
  if (!buffer) throw InvalidArgument("Array::wrap: an empty Buffer");
  detail::check_array_dtype(dtype);
  if (buffer.dtype() && *buffer.dtype() != dtype && !(dtype == DType::bool_ && *buffer.dtype() == DType::uint8)) {
    throw InvalidArgument("Array::wrap: a buffer of " + std::string(name(*buffer.dtype())) + " seen as " +
                          std::string(name(dtype)));
  }
  if (strides.empty()) strides = contiguous_strides(shape);
  check_reach("Array::wrap", shape, strides, offset, static_cast<std::int64_t>(buffer.size() / size_of(dtype)));
  return ArrayFactory::allocation(std::move(buffer), dtype, shape, std::move(strides), offset);
}

Array Array::borrow_host(void* data, DType dtype, const Shape& shape, std::shared_ptr<void> owner) {
  if (!data) throw InvalidArgument("borrow_host: data is a null pointer; give host memory of shape " + to_string(shape));
  static const Device host = [] {
    for (const Device& d : devices()) {
      if (d.selector() == "host") return d;
    }
    return Device();
  }();
  if (!host) throw Unsupported("borrow_host: the host backend is not loaded (WEFT_BACKENDS): nothing can use host memory in place");
  detail::check_array_dtype(dtype);
  const std::size_t bytes = static_cast<std::size_t>(std::max<std::int64_t>(shape.size(), 1)) * size_of(dtype);
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  // Memory regions (src/array/host_regions.hpp): memory within a live borrowed allocation of
  // this dtype is a view of it (one residence record); other overlaps are linked.
  // (One registry lock for both: a borrow is on the path of every weft.asarray(x, device="auto").)
  struct Making {
    std::uintptr_t begin;
    std::size_t bytes;
    DType dtype;
    const Shape& shape;
    std::shared_ptr<void>& owner;
    std::optional<Array> made;  // (not made, so not cleared, until the registry asks for it)
  } m{begin, bytes, dtype, shape, owner, std::nullopt};
  const detail::Region region = detail::borrow_region(begin, bytes, dtype, [](void* context) {
    Making& k = *static_cast<Making*>(context);
    // (Made as wrap() makes it, without its checks: the buffer is new, of no dtype, and holds
    // the shape's elements exactly.)
    Array& a = k.made.emplace(ArrayFactory::allocation(Buffer::wrap(host, k.begin, k.bytes, std::move(k.owner)),
                                                       k.dtype, k.shape, contiguous_strides(k.shape), 0));
    a.res_->borrowed.store(true, std::memory_order_relaxed);
    a.res_->automatic.store(true, std::memory_order_relaxed);  // (to_auto, without a copy)
    return a.res_;
  }, &m);
  if (m.made && m.made->res_ == region.residence) return std::move(*m.made);
  const detail::Residence::Copy& home = region.residence->copies.front();
  return ArrayFactory::make(home.buffer, region.residence, dtype, shape, contiguous_strides(shape),
                            static_cast<std::int64_t>(region.offset_bytes / size_of(dtype)));
}

Array Array::readable_on_host() const {
  // A valid copy in host-addressable memory (the host backend's) is read without a device
  // transfer; strided views are made contiguous on the device first.
  if (res_ && res_->spread.load(std::memory_order_acquire) && !buffer_.host_ptr()) {
    if (Buffer h = detail::host_copy(*res_)) {
      const Array there = ArrayFactory::make(h, res_, dtype_, shape_, strides_, offset_);
      return there.is_contiguous() ? there : there.copy();
    }
  }
  return is_contiguous() ? *this : copy();
}

Event Array::read_to_host(void* out, DType requested, Blocking blocking) const {
  if (requested != dtype_) {
    throw InvalidArgument("to_host<" + std::string(name(requested)) + "> of " + describe() +
                          ": ask for the array's own dtype, or astype() first");
  }
  if (size() == 0) return detail::array_queue(device()).marker();
  const Array src = readable_on_host();
  const std::size_t bytes = static_cast<std::size_t>(size()) * size_of(dtype_);
  detail::count_transfer(detail::Transfer::to_host, bytes);
  return detail::array_queue(src.device()).read(src.buffer(), out, bytes,
                                                static_cast<std::size_t>(src.offset_) * size_of(dtype_), blocking);
}

Event Array::to_host_bytes_async(void* out, DType requested) const { return read_to_host(out, requested, Blocking::no); }

void Array::to_host_bytes(void* out, DType requested) const { read_to_host(out, requested, Blocking::yes); }

Array Array::reshape(std::vector<std::int64_t> dims) const {
  auto list = [&] {
    std::string t;
    for (auto d : dims) t += (t.empty() ? "" : ", ") + std::to_string(d);
    return "(" + t + ")";
  };
  std::int64_t known = 1;
  int unknown = -1;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] < -1) throw InvalidArgument("reshape: negative extent in " + list());
    if (dims[d] == -1) {
      if (unknown >= 0) throw InvalidArgument("reshape: more than one -1 in the new shape");
      unknown = static_cast<int>(d);
    } else {
      known *= dims[d];
    }
  }
  if (unknown >= 0) {
    if (known == 0 || size() % known != 0) {
      throw InvalidArgument("reshape: cannot reshape " + describe() + " into shape " + list());
    }
    dims[static_cast<std::size_t>(unknown)] = size() / known;
  }
  Shape target(dims);
  if (target.size() != size()) {
    throw InvalidArgument("reshape: cannot reshape " + describe() + " into shape " + to_string(target));
  }
  const Array src = is_contiguous() ? *this : copy();
  return ArrayFactory::make(src.buffer_, src.res_, dtype_, target, contiguous_strides(target), src.offset_);
}

Array Array::transpose() const {
  std::vector<std::int64_t> dims(shape_.dims().rbegin(), shape_.dims().rend());
  Strides st(strides_.rbegin(), strides_.rend());
  return ArrayFactory::make(buffer_, res_, dtype_, Shape(dims), st, offset_);
}

Array Array::slice(std::size_t axis, std::int64_t start, std::int64_t stop, std::int64_t step) const {
  if (axis >= ndim()) throw InvalidArgument("slice: axis " + std::to_string(axis) + " of " + describe());
  if (step == 0) throw InvalidArgument("slice: step must not be zero");
  const std::int64_t n = shape_[axis];
  // NumPy's rules: a negative index counts from the end; out-of-range indices clamp; none
  // (Python's None) runs to the end in the step's direction.
  auto clamp_index = [&](std::int64_t v, bool is_stop) {
    if (v == none) return step > 0 ? (is_stop ? n : 0) : (is_stop ? std::int64_t{-1} : n - 1);
    if (v < 0) v += n;
    if (step > 0) return std::clamp<std::int64_t>(v, 0, n);
    return std::clamp<std::int64_t>(v, -1, n - 1);
  };
  start = clamp_index(start, false);
  stop = clamp_index(stop, true);
  std::int64_t count = step > 0 ? (stop - start + step - 1) / step : (start - stop - step - 1) / -step;
  count = std::max<std::int64_t>(count, 0);
  std::vector<std::int64_t> dims = shape_.dims();
  dims[axis] = count;
  Strides st = strides_;
  st[axis] = strides_[axis] * step;
  return ArrayFactory::make(buffer_, res_, dtype_, Shape(dims), st, offset_ + (count ? start * strides_[axis] : 0));
}

Array Array::broadcast_to(const Shape& shape) const {
  if (shape.ndim() < ndim()) {
    throw InvalidArgument("broadcast_to: cannot broadcast " + describe() + " to fewer dimensions " + to_string(shape));
  }
  const std::size_t lead = shape.ndim() - ndim();
  Strides st(shape.ndim(), 0);
  for (std::size_t d = 0; d < ndim(); ++d) {
    if (shape_[d] == shape[lead + d]) st[lead + d] = strides_[d];
    else if (shape_[d] == 1) st[lead + d] = 0;
    else throw InvalidArgument("broadcast_to: cannot broadcast " + describe() + " to shape " + to_string(shape));
  }
  return ArrayFactory::make(buffer_, res_, dtype_, shape, st, offset_);
}

Array Array::copy() const { return eval(Expr(*this)); }

Array Array::astype(DType dtype) const { return eval(weft::astype(Expr(*this), dtype)); }

std::string Array::describe() const {
  return std::string(name(dtype_)) + " array of shape " + to_string(shape_) +
         (buffer_ ? " on " + buffer_.device().selector() : "");
}

}  // namespace weft
