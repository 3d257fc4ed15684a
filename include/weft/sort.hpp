// Sorting: a stable LSD radix sort on every device, for every integer and floating dtype,
// ascending or descending, of the flattened elements or along an axis (each line sorted
// independently, all lines in one sort), keys alone, with their indices, or with values.
//
//   weft::Array s = weft::sort(a);                      // along the last axis, ascending
//   weft::Array i = weft::argsort(a, -1, true);         // int64 indices, descending, stable
//   auto [k, v] = weft::sort_by_key(keys, values);      // values follow their keys
//   weft::sort_in_place(a);                             // NumPy's a.sort()
//
// Order, as NumPy's: floats by value with every NaN last (all NaNs equal to each other) and
// -0.0 equal to 0.0; signed integers by value; bool false before true. Equal keys keep their
// input order (a stable sort), also descending: descending is the exact reverse of the
// ascending order with ties kept in input order, so NaNs come first (as array-api-strict's
// sort(descending=True)). docs/ALGORITHMS.md gives the algorithm and its speed.
//
// Raw buffers sort in place on any queue:
//
//   weft::Event e = weft::enqueue_sort(queue, keys, weft::DType::float32, n);
//   weft::enqueue_sort_by_key(queue, keys, weft::DType::uint32, values, sizeof(float), n);
#pragma once

#include "weft/export.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <utility>

#include "weft/array.hpp"
#include "weft/buffer.hpp"
#include "weft/dtype.hpp"
#include "weft/event.hpp"
#include "weft/queue.hpp"

namespace weft {

/// A sorted copy of a: along axis (negative counts from the end), or of the flattened
/// elements (std::nullopt, a 1-D result). InvalidArgument for an axis out of range (a 0-d
/// array has none: sort it with std::nullopt).
WEFT_API Array sort(const Array& a, std::optional<int> axis = -1, bool descending = false);
/// The int64 indices that sort a along axis (each line's own indices, 0 to its length), or
/// the flattened elements (std::nullopt). Stable.
WEFT_API Array argsort(const Array& a, std::optional<int> axis = -1, bool descending = false);
/// keys sorted along axis, and values (an array of keys' shape, any dtype) moved the same
/// way: {sorted keys, values in that order}. Stable.
WEFT_API std::pair<Array, Array> sort_by_key(const Array& keys, const Array& values, std::optional<int> axis = -1,
                                             bool descending = false);
/// Sorts a's elements along axis where they are (NumPy's a.sort(axis)); a may be a view.
WEFT_API void sort_in_place(const Array& a, int axis = -1, bool descending = false);

/// Sorts count keys of key_type (any dtype, float16 too) at the start of keys, in place on
/// queue after wait; returns at once with the event of the sort's last command. The scratch
/// memory it needs lives until then.
WEFT_API Event enqueue_sort(Queue& queue, const Buffer& keys, DType key_type, std::size_t count,
                            bool descending = false, std::span<const Event> wait = {});
/// The same, moving values (count elements of value_size bytes: 1, 2, 4 or 8) with their keys.
WEFT_API Event enqueue_sort_by_key(Queue& queue, const Buffer& keys, DType key_type, const Buffer& values,
                                   std::size_t value_size, std::size_t count, bool descending = false,
                                   std::span<const Event> wait = {});

}  // namespace weft
