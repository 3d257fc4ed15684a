#include "dialect/edits.hpp"

#include <algorithm>

namespace weft::detail::dialect {

std::string apply_edits(std::string_view source, std::vector<Edit> edits) {
  // An insertion (begin == end) goes before a replacement that starts at the same byte:
  // both apply (a parameter inserted after '(' and a renamed first parameter).
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
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
