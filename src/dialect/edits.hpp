// Translations rewrite the user's source in place: each stage lists byte-range replacements
// and one pass applies them, so the text between them (and its line numbers) is untouched.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace weft::detail::dialect {

/// A replacement of source bytes [begin, end) by text.
struct Edit {
  std::size_t begin;
  std::size_t end;
  std::string text;
};

/// Applies edits (any order) and returns the new text. Of overlapping edits, the one that
/// begins first wins; insertions at a byte apply before a replacement that starts there.
std::string apply_edits(std::string_view source, std::vector<Edit> edits);

}  // namespace weft::detail::dialect
