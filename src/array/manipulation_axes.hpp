// Axis arguments as NumPy checks them, for the rearranging functions (manipulation.cpp,
// algorithms/take.cpp, algorithms/statistics.cpp): the messages name the function, the
// argument and what it accepts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "weft/array.hpp"

namespace weft::detail {

/// axis (negative from the end) as an index below ndim, else InvalidArgument "who: what 3 is
/// out of bounds for array of dimension 2".
std::size_t axis_index(std::int64_t axis, std::size_t ndim, const std::string& who, const char* what);
/// The same for each of axes, in their order; a repeated axis is refused.
std::vector<std::size_t> axis_indices(const std::vector<int>& axes, std::size_t ndim, const std::string& who,
                                      const char* what);
/// A view of x with its dimensions in the given order (some may be left out when extent 1).
Array permuted(const Array& x, const std::vector<std::size_t>& order);
/// InvalidArgument naming the first array that is not on the first one's device.
void same_device(const std::vector<Array>& arrays, const std::string& who);

}  // namespace weft::detail
