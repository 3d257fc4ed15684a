// The dialect's scalar and vector type names (float, uchar4, double16 ...), as the parser,
// the vector rewrites and the argument-spec parser of the generators read them.
#pragma once

#include <string_view>
#include <utility>

namespace weft::detail::dialect {

/// char, uchar, short, ushort, int, uint, long, ulong, float, double, half.
bool is_scalar_type_name(std::string_view name);

/// A scalar type name followed by a vector width of the dialect: 2, 3, 4, 8 or 16.
bool is_vector_type_name(std::string_view name);

/// Splits "float4" into ("float", 4); width 0 when name is no vector type.
std::pair<std::string_view, int> split_vector_type(std::string_view name);

}  // namespace weft::detail::dialect
