// Arrays that may not be computed yet: NumPy-style code where each operation returns an array
// and a chain of them still runs as one kernel (Python's weft.Array is this type).
//
//   weft::LazyArray b = weft::LazyArray::defer(weft::sqrt(a) * 2);  // nothing runs yet
//   weft::LazyArray c = weft::LazyArray::defer(b.expr() + 1);       // still nothing: one kernel later
//   a.assign(weft::Expr(0.0));      // b and c read a: they are evaluated first, with a's old values
//   const weft::Array& r = c.array();   // already computed
//
// A lazy array is evaluated the first time its value is needed (array()), or just before
// something overwrites memory it reads: Array::assign, Array::mark_written, and
// prepare_write() for writes the array layer does not see (a raw kernel, a copy into a
// Buffer). NumPy's order of effects holds, with fusion wherever nothing can observe it.
// Several threads may use one LazyArray: it is evaluated once.
#pragma once

#include "weft/export.hpp"

#include <cstddef>
#include <memory>

#include "weft/array.hpp"

namespace weft {

namespace detail {
struct Deferred;
}

class WEFT_API LazyArray {
 public:
  /// Expressions of more nodes than this are evaluated when deferred: the kernel of an
  /// unbounded chain (a loop of x = x + 1) would cost more to compile than it saves.
  static constexpr std::size_t max_nodes = 64;

  LazyArray() = default;
  LazyArray(Array array);  // NOLINT: a computed array is a LazyArray that is not lazy
  /// expr, computed when first needed (at once when it is an array, or larger than max_nodes).
  static LazyArray defer(Expr expr);

  /// Whether the value is still to be computed.
  bool lazy() const;
  /// The value, computed now if it was not.
  const Array& array() const;
  /// The value as an expression to build on: the array once computed, else the expression.
  Expr expr() const;
  DType dtype() const;
  const Shape& shape() const;
  Device device() const;
  explicit operator bool() const noexcept { return state_ != nullptr; }

 private:
  std::shared_ptr<detail::Deferred> state_;
};

/// Evaluates every lazy array that reads the memory of a (any view, on any device), then
/// records that a's copy is about to be written (its copies elsewhere become stale): call it
/// before a write the array layer does not make itself (a raw kernel, DLPack).
WEFT_API void prepare_write(const Array& a);
/// The same for a buffer written directly (a raw kernel or a copy into it).
WEFT_API void prepare_write(const Buffer& buffer);

}  // namespace weft
