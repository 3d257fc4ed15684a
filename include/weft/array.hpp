// n-dimensional arrays on a device, with NumPy's dtypes, broadcasting and type promotion, and
// lazy arithmetic: an expression of arrays becomes ONE generated kernel when it is evaluated.
//
//   weft::Device dev = weft::default_device();
//   weft::Array a = weft::Array::arange(0, 12, 1, weft::DType::float32, dev).reshape({3, 4});
//   weft::Array b = weft::Array::full({4}, 2.0, weft::DType::float32, dev);
//   weft::Array c = weft::eval(a * b + weft::sin(a));     // one kernel, b broadcast over rows
//   std::vector<float> host = c.to_host<float>();
//   double total = weft::sum(a * b).get();                 // the map fused into the reduction
//
// Views (reshape and ravel of contiguous data, transpose, slice with steps, broadcast_to,
// as_strided) share their array's memory.
//
// Residence: an allocation records which devices hold a valid copy of it. a.to(other) is
// the same allocation seen from another device: nothing moves until a kernel there reads it,
// then the whole allocation is copied once; a write on one device makes the other copies
// stale, and the next read elsewhere copies again. Views share their allocation's record,
// so no view sees stale data. weft::transfer_stats() (memory.hpp) counts the copies.
//
//   weft::Array g = a.to(gpu);          // no copy yet
//   weft::Array s = weft::eval(g * 2);  // copies a to the GPU once, then runs there
//   g.assign(g + 1);                    // the host copy of a is now stale
//   a.to_host<float>();                 // copies back (once), then reads
//
// Memory comes from a pool per device (memory.hpp); WEFT_MEMORY_LIMIT caps it, and a request
// beyond it throws OutOfMemory naming the request.
#pragma once

#include "weft/export.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "weft/buffer.hpp"
#include "weft/device.hpp"
#include "weft/dtype.hpp"
#include "weft/future.hpp"
#include "weft/memory.hpp"
#include "weft/queue.hpp"
#include "weft/shape.hpp"

namespace weft {

class Expr;
namespace detail {
struct Residence;
}

class WEFT_API Array {
 public:
  Array() = default;

  static Array empty(const Shape& shape, DType dtype, const Device& device);
  static Array full(const Shape& shape, double value, DType dtype, const Device& device);
  /// The same with the value as an expression of one number: Expr(std::int64_t{...}) fills an
  /// int64 array exactly beyond 2**53; a number that is not one of dtype's values (300 for
  /// int8) throws ValueOutOfRange, as NumPy 2 refuses it.
  static Array full(const Shape& shape, const Expr& value, DType dtype, const Device& device);
  static Array zeros(const Shape& shape, DType dtype, const Device& device) { return full(shape, 0, dtype, device); }
  static Array ones(const Shape& shape, DType dtype, const Device& device) { return full(shape, 1, dtype, device); }
  /// [start, stop) by step, as numpy.arange of floats (the values computed in double);
  /// InvalidArgument for a bound that is not finite or a count no array holds.
  static Array arange(double start, double stop, double step, DType dtype, const Device& device);
  /// [start, stop) by step for integers, as numpy.arange of ints: exact for every int64 (above
  /// 2**53 too), then converted to dtype.
  static Array arange_integers(std::int64_t start, std::int64_t stop, std::int64_t step, DType dtype,
                               const Device& device);
  /// num values from start to stop (stop included unless endpoint is false), as numpy.linspace.
  static Array linspace(double start, double stop, std::int64_t num, DType dtype, const Device& device,
                        bool endpoint = true);
  /// A copy of host data (row-major) of the given shape.
  template <class T>
  static Array from_host(std::span<const T> data, const Shape& shape, const Device& device) {
    return from_host_bytes(data.data(), data.size(), dtype_of<T>, shape, device);
  }

  /// Copies count elements of dtype from host memory into a new contiguous array (blocking).
  static Array from_host_bytes(const void* data, std::size_t count, DType dtype, const Shape& shape,
                               const Device& device);
  /// An array over an existing buffer (no copy): the element at index i is at
  /// offset + sum(i[d] * strides[d]) elements into buffer. InvalidArgument when the view
  /// reaches outside the buffer or the buffer's dtype, where it has one, differs. Empty
  /// strides mean contiguous ones.
  static Array wrap(Buffer buffer, DType dtype, const Shape& shape, Strides strides = {}, std::int64_t offset = 0);
  /// An automatic array (to_auto, docs/PLACEMENT.md) over contiguous host memory that someone
  /// else owns and may go on writing (a NumPy array, a std::vector), without a copy: the host
  /// backend's kernels read and write it in place, and a copy on another device is refreshed
  /// from it by the first operation there after each wait of the program's (the owner's writes
  /// are seen; the cost model counts that copy). owner is kept alive as long as the array (the
  /// caller keeps data alive otherwise). Unsupported when the host backend is not loaded. The
  /// owner's contract: array work is lazy and asynchronous, so the owner reads its memory after
  /// weft wrote it, or writes it while an expression over it is pending or running, only after
  /// a wait: weft::synchronize, a result's get(), to_host, Event::wait, an event seen done, an
  /// Event::then callback or Queue::finish. Python's asarray borrows only with copy=False.
  ///
  ///   std::vector<float> v(n, 1.0f);
  ///   double s = weft::sum(weft::Array::borrow_host(v.data(), weft::DType::float32, weft::Shape{n})).get();
  static Array borrow_host(void* data, DType dtype, const Shape& shape, std::shared_ptr<void> owner = {});
  template <class T>
  static Array borrow_host(std::span<T> data, const Shape& shape, std::shared_ptr<void> owner = {}) {
    return borrow_host(static_cast<void*>(data.data()), dtype_of<std::remove_const_t<T>>, shape, std::move(owner));
  }

  DType dtype() const noexcept { return dtype_; }
  const Shape& shape() const noexcept { return shape_; }
  const Strides& strides() const noexcept { return strides_; }
  std::int64_t offset() const noexcept { return offset_; }
  std::size_t ndim() const noexcept { return shape_.ndim(); }
  std::int64_t size() const noexcept { return shape_.size(); }
  Device device() const { return buffer_.device(); }
  /// The memory of the array on its device, made current first (copied from another
  /// device's copy if this one is stale). A raw kernel that writes it must call
  /// mark_written() afterwards.
  const Buffer& buffer() const;
  /// Records that the array's memory on its device was written outside the array layer (a
  /// raw kernel, another library through DLPack): copies on other devices become stale.
  void mark_written() const;
  /// The buffer of this device's copy as it is (not made current): for identity only.
  const Buffer& buffer_handle() const noexcept { return buffer_; }
  /// The same allocation seen from device (a view of the same shape, strides and offset):
  /// no copy is made now; the first kernel that reads it there copies the allocation once.
  /// The array itself when it is already on device.
  Array to(const Device& device) const;
  /// Device `auto` (docs/PLACEMENT.md): from now on each operation that reads only automatic
  /// arrays (eval, assignments into a new array, full reductions) runs on the device the cost
  /// model expects to finish it first, counting the copies its arrays would need from where
  /// their valid copies are; its result is automatic too. Marks the allocation, so every view
  /// of it is automatic. Returns this array (on the device where its data is now).
  Array to_auto() const;
  /// Whether the allocation is placed automatically (to_auto).
  bool is_auto() const noexcept;
  /// True when both arrays are views of one allocation.
  bool shares_allocation(const Array& other) const noexcept { return res_ && res_ == other.res_; }
  /// An opaque identity of the allocation (the same for all its views on every device).
  const void* allocation_id() const noexcept { return res_.get(); }
  bool is_contiguous() const { return weft::is_contiguous(shape_, strides_); }
  explicit operator bool() const noexcept { return static_cast<bool>(buffer_); }

  /// The elements in row-major order; T must be the array's dtype.
  template <class T>
  std::vector<T> to_host() const {
    static_assert(!std::is_same_v<T, bool>, "read bool arrays as astype(DType::uint8) (std::vector<bool> packs bits)");
    std::vector<T> out(static_cast<std::size_t>(size()));
    to_host_bytes(out.data(), dtype_of<T>);
    return out;
  }

  // Views: they share this array's memory.
  /// A new shape for the same elements (one extent may be -1, as NumPy's): a view of a
  /// contiguous array, a copy of any other (as NumPy does when it must).
  Array reshape(std::vector<std::int64_t> dims) const;
  /// The elements as one dimension: a view when contiguous, else a copy (numpy.ravel).
  Array ravel() const;
  /// Reverses the dimensions (NumPy's a.T).
  Array transpose() const;
  /// Python's None in a slice: to the end (or, stepping backwards, the beginning).
  static constexpr std::int64_t none = INT64_MIN;
  /// a[start:stop:step] along axis, with NumPy's rules: negative indices count from the end,
  /// negative steps walk backwards (a.slice(0, Array::none, Array::none, -1) reverses).
  Array slice(std::size_t axis, std::int64_t start, std::int64_t stop, std::int64_t step = 1) const;
  /// NumPy's broadcast_to: extent-1 (or missing leading) dimensions repeated with stride 0.
  Array broadcast_to(const Shape& shape) const;
  /// Another view of the same allocation: element i at offset + sum(i[d] * strides[d])
  /// elements into it. InvalidArgument when the view reaches outside the allocation.
  Array as_strided(const Shape& shape, Strides strides, std::int64_t offset) const;

  /// A contiguous copy; astype converts as NumPy's astype does.
  Array copy() const;
  Array astype(DType dtype) const;
  /// Writes the value of expr (broadcast to this array's shape) into this array, in one kernel.
  void assign(const Expr& expr);

  std::string describe() const;  // "float32 array of shape (3, 4) on host"
  /// Copies the elements in C order into out (size() * size_of(requested) bytes), blocking;
  /// requested must be the array's own dtype.
  void to_host_bytes(void* out, DType requested) const;
  /// The same, without waiting: the returned event completes when out holds the elements.
  /// out and the array must stay alive until then.
  Event to_host_bytes_async(void* out, DType requested) const;

 private:
  friend class ArrayFactory;
  Array readable_on_host() const;
  Event read_to_host(void* out, DType requested, Blocking blocking) const;

  Buffer buffer_;  // the allocation's copy on this array's device
  std::shared_ptr<detail::Residence> res_;
  DType dtype_ = DType::float32;
  Shape shape_;
  Strides strides_;
  std::int64_t offset_ = 0;
};

namespace detail {
struct ExprNode;
}

/// A lazy expression of arrays and numbers. Building one launches nothing.
class WEFT_API Expr {
 public:
  Expr(const Array& a);  // NOLINT: arrays take part in expressions as they are
  Expr(double v);        // NOLINT: a number adopts the other operand's type (NumPy 2 rules)
  Expr(int v);           // NOLINT
  Expr(long long v);     // NOLINT
  Expr(unsigned long long v);  // NOLINT: above 2**63-1 a uint64 number
  Expr(bool v);          // NOLINT: a bool adapts to the other operand's type, even bool
  Expr(std::complex<double> v);  // NOLINT: a Python complex (complex64 arrays stay complex64)
  /// A number of a given dtype that does not adapt (a NumPy scalar: int8 + np.int64(3) is
  /// int64). Throws ValueOutOfRange when v is not one of the dtype's values.
  static Expr typed(double v, DType dtype);
  static Expr typed(long long v, DType dtype);
  static Expr typed(unsigned long long v, DType dtype);
  /// A complex number of dtype complex64 or complex128.
  static Expr typed(std::complex<double> v, DType dtype);
  explicit Expr(std::shared_ptr<const detail::ExprNode> node) : node_(std::move(node)) {}

  DType dtype() const;
  const Shape& shape() const;
  /// How many nodes the expression tree has (a leaf or a number counts one).
  std::size_t node_count() const;
  /// The arrays the expression reads, each once, in the order met.
  std::vector<Array> arrays() const;
  /// The array itself when the expression is one array and nothing else, else null.
  const Array* as_array() const;
  const std::shared_ptr<const detail::ExprNode>& node() const noexcept { return node_; }

 private:
  std::shared_ptr<const detail::ExprNode> node_;
};

WEFT_API Expr operator+(const Expr& a, const Expr& b);
WEFT_API Expr operator-(const Expr& a, const Expr& b);
WEFT_API Expr operator*(const Expr& a, const Expr& b);
/// True division: integers divide as floats, as in NumPy.
WEFT_API Expr operator/(const Expr& a, const Expr& b);
WEFT_API Expr operator-(const Expr& a);
WEFT_API Expr operator<(const Expr& a, const Expr& b);
WEFT_API Expr operator>(const Expr& a, const Expr& b);
WEFT_API Expr operator<=(const Expr& a, const Expr& b);
WEFT_API Expr operator>=(const Expr& a, const Expr& b);
WEFT_API Expr operator==(const Expr& a, const Expr& b);
WEFT_API Expr operator!=(const Expr& a, const Expr& b);
WEFT_API Expr operator&(const Expr& a, const Expr& b);  // bitwise, on integers and bools
WEFT_API Expr operator|(const Expr& a, const Expr& b);
WEFT_API Expr operator^(const Expr& a, const Expr& b);
WEFT_API Expr operator~(const Expr& a);
WEFT_API Expr logical_and(const Expr& a, const Expr& b);
WEFT_API Expr logical_or(const Expr& a, const Expr& b);
WEFT_API Expr logical_xor(const Expr& a, const Expr& b);
WEFT_API Expr logical_not(const Expr& a);
/// NumPy's floor_divide and remainder (the sign of the divisor; 0 for an integer divided by
/// 0), power; minimum and maximum propagate NaN, fmin and fmax ignore it.
WEFT_API Expr floor_divide(const Expr& a, const Expr& b);
WEFT_API Expr remainder(const Expr& a, const Expr& b);
WEFT_API Expr power(const Expr& a, const Expr& b);
WEFT_API Expr minimum(const Expr& a, const Expr& b);
WEFT_API Expr maximum(const Expr& a, const Expr& b);
WEFT_API Expr fmin(const Expr& a, const Expr& b);
WEFT_API Expr fmax(const Expr& a, const Expr& b);
WEFT_API Expr clip(const Expr& a, const Expr& lo, const Expr& hi);
WEFT_API Expr atan2(const Expr& a, const Expr& b);
WEFT_API Expr hypot(const Expr& a, const Expr& b);
WEFT_API Expr where(const Expr& condition, const Expr& a, const Expr& b);
WEFT_API Expr astype(const Expr& a, DType dtype);
/// isnan, isinf and isfinite give bool; floor, ceil, trunc and round (half to even) keep an
/// integer's dtype as NumPy 2 does; the others give floats for integers.
WEFT_API Expr isnan(const Expr& a);
WEFT_API Expr isinf(const Expr& a);
WEFT_API Expr isfinite(const Expr& a);
WEFT_API Expr floor(const Expr& a);
WEFT_API Expr ceil(const Expr& a);
WEFT_API Expr trunc(const Expr& a);
WEFT_API Expr round(const Expr& a);
WEFT_API Expr abs(const Expr& a);
/// NumPy's fabs and rint give floats for integers; square and reciprocal keep the dtype
/// (square and reciprocal of bools are int8; an integer's reciprocal is 1 / x truncated, and
/// for 0 NumPy's value: the smallest int32/int64, 0 for the other integer types).
WEFT_API Expr fabs(const Expr& a);
WEFT_API Expr rint(const Expr& a);
WEFT_API Expr square(const Expr& a);
WEFT_API Expr reciprocal(const Expr& a);
WEFT_API Expr sqrt(const Expr& a);
WEFT_API Expr cbrt(const Expr& a);
WEFT_API Expr exp(const Expr& a);
WEFT_API Expr exp2(const Expr& a);
WEFT_API Expr expm1(const Expr& a);
WEFT_API Expr log(const Expr& a);
WEFT_API Expr log2(const Expr& a);
WEFT_API Expr log10(const Expr& a);
WEFT_API Expr log1p(const Expr& a);
WEFT_API Expr sin(const Expr& a);
WEFT_API Expr cos(const Expr& a);
WEFT_API Expr tan(const Expr& a);
WEFT_API Expr asin(const Expr& a);
WEFT_API Expr acos(const Expr& a);
WEFT_API Expr atan(const Expr& a);
WEFT_API Expr sinh(const Expr& a);
WEFT_API Expr cosh(const Expr& a);
WEFT_API Expr tanh(const Expr& a);
WEFT_API Expr asinh(const Expr& a);
WEFT_API Expr acosh(const Expr& a);
WEFT_API Expr atanh(const Expr& a);
/// The Array API's (and NumPy's) sign: -1, 0 or 1 in the operand's dtype; NaN stays NaN and
/// -0.0 gives 0.0. positive is the value itself (a new array when evaluated). Both refuse bools,
/// as NumPy does.
WEFT_API Expr sign(const Expr& a);
WEFT_API Expr positive(const Expr& a);
/// Complex numbers' parts: real and imag give the real type (complex64 -> float32; a real
/// operand is its own real part and has zeros for imag, as NumPy's), conj the conjugate (a
/// real operand itself), angle the argument atan2(imag, real) (floats for integers).
/// abs of a complex number is its modulus (hypot of the parts), sign z / |z|.
WEFT_API Expr real(const Expr& a);
WEFT_API Expr imag(const Expr& a);
WEFT_API Expr conj(const Expr& a);
WEFT_API Expr angle(const Expr& a);
/// Whether the sign bit is set (bool): true for -0.0 and for a NaN with its sign bit set; for
/// integers x < 0.
WEFT_API Expr signbit(const Expr& a);
/// a with the sign of b; the next float after a towards b; log(exp(a) + exp(b)) without
/// overflow (NumPy's formula). Floats for integers, as hypot.
WEFT_API Expr copysign(const Expr& a, const Expr& b);
WEFT_API Expr nextafter(const Expr& a, const Expr& b);
WEFT_API Expr logaddexp(const Expr& a, const Expr& b);
/// Shifts of integers (and bools, as int8), in the promoted integer type, with NumPy's results
/// for every count: a count at or beyond the width (or negative) shifts everything out: 0 for a
/// left shift, the sign (0 or -1) for a right shift. Right shifts of signed integers are
/// arithmetic. Floats and a signed/uint64 mix (whose promoted type is float64) are refused.
WEFT_API Expr bitwise_left_shift(const Expr& a, const Expr& b);
WEFT_API Expr bitwise_right_shift(const Expr& a, const Expr& b);
WEFT_API Expr operator<<(const Expr& a, const Expr& b);
WEFT_API Expr operator>>(const Expr& a, const Expr& b);

/// Evaluates an expression into a new contiguous array, in one generated kernel, on the
/// device of its arrays (all must be on one device). A tree too large for one kernel (more
/// than about 40 kernel parameters, 256 nodes or 32 levels) has its costliest subtrees
/// evaluated into temporaries first; the same view read several times counts once.
WEFT_API Array eval(const Expr& expr);

/// Reductions over every element, the expression fused into the one reading pass.
WEFT_API Future<double> sum(const Expr& expr);
WEFT_API Future<double> min(const Expr& expr);
WEFT_API Future<double> max(const Expr& expr);

/// Reductions along axes (negative axes count from the end; an empty list means every axis),
/// with NumPy's result types: sum and prod of integers give int64 (uint64 for unsigned),
/// mean of integers float64, any and all bool; keepdims leaves the reduced axes as extent 1.
/// The expression is evaluated inside the reduction's one kernel; floats accumulate in
/// double. Reducing every axis runs the parallel reduction (integers accumulate exactly in 64
/// bits); reducing some axes runs one work-item per output element with four accumulators
/// (commutative operations; prod keeps NumPy's order), and on GPUs a long reduced range
/// with few outputs is cut into pieces reduced in two stages.
WEFT_API Array sum(const Expr& expr, const std::vector<int>& axes, bool keepdims = false);
WEFT_API Array prod(const Expr& expr, const std::vector<int>& axes, bool keepdims = false);
WEFT_API Array min(const Expr& expr, const std::vector<int>& axes, bool keepdims = false);
WEFT_API Array max(const Expr& expr, const std::vector<int>& axes, bool keepdims = false);
WEFT_API Array mean(const Expr& expr, const std::vector<int>& axes, bool keepdims = false);
WEFT_API Array any(const Expr& expr, const std::vector<int>& axes, bool keepdims = false);
WEFT_API Array all(const Expr& expr, const std::vector<int>& axes, bool keepdims = false);

/// The index of the first minimum / maximum (a NaN counts as the extreme, as in NumPy):
/// over every element (the flat index in C order, a 0-d int64 array; two parallel passes),
/// or along one axis.
WEFT_API Array argmin(const Expr& expr);
WEFT_API Array argmax(const Expr& expr);
WEFT_API Array argmin(const Expr& expr, int axis, bool keepdims = false);
WEFT_API Array argmax(const Expr& expr, int axis, bool keepdims = false);
/// Variance and standard deviation along axes (empty: every axis), dividing by N - ddof, in
/// two passes as NumPy's (the mean, then the squared deviations); floats keep their type,
/// integers give float64.
WEFT_API Array var(const Expr& expr, const std::vector<int>& axes = {}, bool keepdims = false, int ddof = 0);
WEFT_API Array std(const Expr& expr, const std::vector<int>& axes = {}, bool keepdims = false, int ddof = 0);
/// Cumulative sums and products with NumPy's result types (small integers widen to 64
/// bits): of the flattened elements, or along axis (a segmented scan over its lines), in
/// one generated scan kernel reading the expression.
WEFT_API Array cumsum(const Expr& expr);
WEFT_API Array cumprod(const Expr& expr);
WEFT_API Array cumsum(const Expr& expr, int axis);
WEFT_API Array cumprod(const Expr& expr, int axis);
/// numpy.dot: the inner product of 1-D operands; else the sum over a's last axis and b's
/// second-to-last (matrix product for 2-D), in one kernel without a temporary.
WEFT_API Array dot(const Expr& a, const Expr& b);

/// The in-order queue the array layer runs its work on, one per device (made on first use).
/// It is ordered with the device's other queues as CUDA's legacy default stream is with other
/// streams: a command on another queue runs after the array work enqueued before it, and
/// array work after what other queues enqueued before it. So a kernel on a queue of the user's
/// that takes an array's buffer (`Array::buffer()`, Python's `.data`) needs no wait from the
/// user, before or after (src/runtime/queue_order.hpp).
WEFT_API Queue& array_queue(const Device& device);
/// Waits until the array work queued on device (evaluations, assignments) has finished.
WEFT_API void synchronize(const Device& device);

/// How many elementwise kernels the arrays have launched on device: each eval or assignment
/// is one, whatever the size of its expression (two when an assignment reads memory it
/// overwrites through another view: it goes through a temporary).
WEFT_API std::uint64_t elementwise_launches(const Device& device);

/// NumPy's result type of a binary operation on arrays of dtypes a and b.
WEFT_API DType result_type(DType a, DType b);

}  // namespace weft
