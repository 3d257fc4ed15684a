#include "dialect/uniform_divisors.hpp"

#include <string_view>

#include "dialect/keywords.hpp"

namespace weft::detail::dialect {

namespace {

bool integer_divisor_type(const KernelArgInfo& p) {
  if (p.is_pointer || p.vector_width != 1 || !p.dtype) return false;
  switch (*p.dtype) {
    case DType::int32:
    case DType::int64:
    case DType::uint32:
    case DType::uint64:
      return true;
    default:
      return false;
  }
}

bool is_one_of(std::string_view t, std::initializer_list<std::string_view> set) {
  for (std::string_view s : set) {
    if (t == s) return true;
  }
  return false;
}

// Words that may stand before an expression (anything else before the name is read as a
// declaration that hides the parameter).
bool precedes_expression(std::string_view word) { return is_one_of(word, {"return", "case", "sizeof", "else", "do"}); }

}  // namespace

UniformDivisors uniform_divisors(const ParsedSource& parsed, const Function& k) {
  UniformDivisors out;
  const auto& toks = parsed.tokens;
  const std::string_view src = parsed.source;
  std::string declarations;
  for (std::size_t p = 0; p < k.params.size() && p < 64; ++p) {
    const KernelArgInfo& param = k.params[p];
    if (!integer_divisor_type(param) || param.name.empty() || cxx_name(param.name) != param.name) continue;
    bool kept = true;
    std::vector<std::size_t> uses;
    // A macro of that name anywhere, or the name on a directive line, and the text is not
    // what the tokens say: leave the parameter alone.
    for (const Token& t : toks) {
      if (t.in_directive && t.kind == TokenKind::identifier && t.text(src) == param.name) kept = false;
    }
    for (std::size_t i = k.body_open + 1; kept && i < k.body_close; ++i) {
      const Token& t = toks[i];
      if (t.kind != TokenKind::identifier || t.text(src) != param.name) continue;
      const std::string_view prev = toks[i - 1].text(src);
      const std::string_view next = i + 1 < toks.size() ? toks[i + 1].text(src) : std::string_view{};
      if (prev == "." || prev == "->") continue;  // a member of that name
      const bool written = is_one_of(next, {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
                                            "++", "--", "[", "("}) ||
                           is_one_of(prev, {"++", "--", "&"});
      const bool declared = toks[i - 1].kind == TokenKind::identifier && !precedes_expression(prev);
      if (written || declared) {
        kept = false;
      } else if (prev == "/" || prev == "%") {
        uses.push_back(i);
      }
    }
    if (!kept || uses.empty()) continue;
    out.mask |= 1ull << p;
    const std::string obj = "weft_div_" + param.name;
    for (std::size_t i : uses) out.edits.push_back({toks[i].begin, toks[i].end, obj});
    declarations += " const ::weft_host::UniformDivisor<decltype(" + param.name + ")> " + obj + "(" + param.name +
                    ", weft_wi.div[" + std::to_string(p) + "]);";
  }
  if (!declarations.empty()) {
    const std::size_t at = toks[k.body_open].end;
    out.edits.push_back({at, at, declarations});
  }
  return out;
}

}  // namespace weft::detail::dialect
