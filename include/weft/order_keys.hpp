// The order weft::sort uses, as unsigned integers: what selection (partition, top-k) compares.
//
//   weft::Array k = weft::order_keys(a);        // uint32 for float32/int32/uint32 arrays
//   weft::Array d = weft::order_keys(a, true);  // descending: the bits flipped
//
// Element i of the result is the key of a's element i: unsigned integers compare as weft::sort
// orders the values (signed integers by value, floats by value with every NaN last and equal,
// -0.0 equal to 0.0; descending reverses it). One elementwise pass (src/kernels/cl/sort_keys.cl).
#pragma once

#include "weft/export.hpp"

#include "weft/array.hpp"

namespace weft {

/// The unsigned key (uint8, uint16, uint32 or uint64: a's width; bool gives uint8) of each
/// element of a, in a's shape (a new contiguous array on a's device). InvalidArgument for a
/// dtype without an order (complex, float16) or an empty handle.
WEFT_API Array order_keys(const Array& a, bool descending = false);

}  // namespace weft
