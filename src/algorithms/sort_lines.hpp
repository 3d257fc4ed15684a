// The lines of an array along an axis, laid out for the radix sort (contiguous, the axis
// last), and their sort: what sort, argsort, sort_by_key and unique share.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "weft/array.hpp"

namespace weft::detail {

struct Lines {
  Array data;              // contiguous from its buffer's start, the sorted axis last
  Shape shape;             // the array's own shape
  std::size_t axis = 0;    // the sorted axis of the array (not flat)
  std::size_t length = 0;  // elements per line
  bool flat = false;       // the flattened elements: one line
  bool moved = false;      // data's axes are the array's with `axis` moved last
};

/// a's lines along axis (std::nullopt: the flattened elements). InvalidArgument naming who
/// for an axis out of bounds; Unsupported for float16.
Lines lines_of(const Array& a, std::optional<int> axis, const char* who);
/// r (laid out as the lines' data) in the array's own layout.
Array restore(const Array& r, const Lines& l);

struct SortedLines {
  Array keys;
  Array indices;  // int64 indices within each line, when asked for (or values were given)
  Array values;   // the values in the keys' order, when given
};

/// Sorts every line of l (stable); values, when given, are laid out as l.data.
SortedLines sort_lines(const Lines& l, bool descending, bool want_indices, const Array* values);

/// The generated kernels of unique and searchsorted for arrays of t (for the NVRTC test).
std::string unique_source(DType t);
std::string searchsorted_source(DType t);

/// Unsupported for dtypes without arrays (float16), naming who.
void check_sortable(DType t, const char* who);

}  // namespace weft::detail
