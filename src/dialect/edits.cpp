#include "dialect/edits.hpp"

#include <algorithm>

namespace weft::detail::dialect {

std::string apply_edits(std::string_view source, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::string out;
  out.reserve(source.size() + edits.size() * 16);
  std::size_t pos = 0;
  for (const auto& e : edits) {
    if (e.begin < pos) continue;  // overlapping edit: the first one wins
    out.append(source.substr(pos, e.begin - pos));
    out += e.text;
    pos = e.end;
  }
  out.append(source.substr(pos));
  return out;
}

}  // namespace weft::detail::dialect
