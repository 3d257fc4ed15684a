#include "dialect/tokenize.hpp"

#include <algorithm>

namespace weft::detail::dialect {

namespace {
bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
}  // namespace

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  int line = 1;
  bool line_start = true;
  bool directive = false;
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      line_start = true;
      directive = false;
      ++i;
      continue;
    }
    if (c == '\\' && i + 1 < n && (s[i + 1] == '\n' || (s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n'))) {
      i += s[i + 1] == '\n' ? 2 : 3;  // line continuation keeps a directive going
      ++line;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n') ++line;
        ++i;
      }
      i = std::min(n, i + 2);
      continue;
    }
    const bool starts_directive = c == '#' && line_start;
    if (starts_directive) directive = true;
    line_start = false;
    Token t{TokenKind::punct, i, i + 1, line, directive, starts_directive};
    if (is_ident_start(c)) {
      std::size_t j = i + 1;
      while (j < n && is_ident_char(s[j])) ++j;
      t.kind = TokenKind::identifier;
      t.end = j;
    } else if (is_digit(c) || (c == '.' && i + 1 < n && is_digit(s[i + 1]))) {
      std::size_t j = i + 1;
      while (j < n) {
        const char d = s[j];
        if ((d == '+' || d == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E' || s[j - 1] == 'p' || s[j - 1] == 'P')) {
          ++j;
        } else if (is_ident_char(d) || d == '.') {
          ++j;
        } else {
          break;
        }
      }
      t.kind = TokenKind::number;
      t.end = j;
    } else if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < n && s[j] != c && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      t.kind = c == '"' ? TokenKind::string : TokenKind::character;
      t.end = std::min(n, j + 1);
    } else if (c == '-' && i + 1 < n && s[i + 1] == '>') {
      t.end = i + 2;
    } else if (c == '#' && i + 1 < n && s[i + 1] == '#') {
      t.end = i + 2;
    }
    out.push_back(t);
    i = t.end;
  }
  return out;
}

}  // namespace weft::detail::dialect
