#include "dialect/types.hpp"

#include <algorithm>
#include <array>

namespace weft::detail::dialect {

namespace {
constexpr std::array<std::string_view, 11> vector_bases{
    "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half"};
}  // namespace

bool is_scalar_type_name(std::string_view name) {
  return std::find(vector_bases.begin(), vector_bases.end(), name) != vector_bases.end();
}

std::pair<std::string_view, int> split_vector_type(std::string_view name) {
  for (auto base : vector_bases) {
    if (name.size() > base.size() && name.substr(0, base.size()) == base) {
      const std::string_view w = name.substr(base.size());
      if (w == "2" || w == "3" || w == "4" || w == "8" || w == "16") {
        return {base, w == "16" ? 16 : w[0] - '0'};
      }
    }
  }
  return {{}, 0};
}

bool is_vector_type_name(std::string_view name) { return split_vector_type(name).second != 0; }

}  // namespace weft::detail::dialect
