// The array layer's side of lazy arrays (weft/lazy_array.hpp): before it writes memory, it
// evaluates the lazy arrays that still read it.
#pragma once

#include "weft/array.hpp"
#include "weft/buffer.hpp"

namespace weft::detail {

/// Evaluates the lazy arrays that read a's allocation (any view, any device) or its buffer.
void evaluate_readers(const Array& a);
/// Evaluates the lazy arrays that read buffer.
void evaluate_readers(const Buffer& buffer);

}  // namespace weft::detail
