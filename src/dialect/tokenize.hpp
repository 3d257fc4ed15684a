// The dialect's first stage: source text to tokens that keep their byte positions and line
// numbers, so later stages rewrite the source in place (compiler messages then still point
// at the user's lines) instead of printing a new one.
//
//   for (const Token& t : tokenize("float x = .5f; // c")) use(t.text(source), t.line);
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace weft::detail::dialect {

enum class TokenKind : std::uint8_t { identifier, number, string, character, punct };

struct Token {
  TokenKind kind;
  std::size_t begin;    // byte offset into the source
  std::size_t end;
  int line;             // 1-based
  bool in_directive;    // part of a preprocessor line (#define ...)
  bool directive_start;  // the '#' that begins one
  std::string_view text(std::string_view src) const { return src.substr(begin, end - begin); }
};

/// Splits source into tokens; comments and whitespace are dropped, positions kept.
std::vector<Token> tokenize(std::string_view source);

}  // namespace weft::detail::dialect
