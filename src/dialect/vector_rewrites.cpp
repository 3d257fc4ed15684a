#include "dialect/vector_rewrites.hpp"

#include "dialect/types.hpp"

namespace weft::detail::dialect {

namespace {

// "xy" -> {0,1}; "s0A" -> {0,10}; empty when name is no swizzle of two or more xyzw
// components or of one or more s-digits.
std::vector<int> swizzle_indices(std::string_view name) {
  std::vector<int> out;
  if (name.size() >= 2 && name.size() <= 16 &&
      name.find_first_not_of("xyzw") == std::string_view::npos) {
    for (char c : name) out.push_back(c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : 3);
    return out;
  }
  if (name.size() >= 2 && name.size() <= 17 && (name[0] == 's' || name[0] == 'S')) {
    for (char c : name.substr(1)) {
      if (c >= '0' && c <= '9') out.push_back(c - '0');
      else if (c >= 'a' && c <= 'f') out.push_back(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') out.push_back(c - 'A' + 10);
      else return {};
    }
    return out;
  }
  return {};
}

}  // namespace

std::vector<Edit> vector_rewrites(const ParsedSource& p) {
  std::vector<Edit> edits;
  const auto& t = p.tokens;
  const auto txt = [&](std::size_t i) { return t[i].text(p.source); };
  for (std::size_t i = 0; i < t.size(); ++i) {
    const auto s = txt(i);
    // (float4)(a, b, c, d) -> weft_make<float4>(a, b, c, d)
    if (s == "(" && i + 3 < t.size() && t[i + 1].kind == TokenKind::identifier &&
        is_vector_type_name(txt(i + 1)) && txt(i + 2) == ")" && txt(i + 3) == "(") {
      edits.push_back({t[i].begin, t[i + 2].end, "weft_make<" + std::string(txt(i + 1)) + ">"});
      i += 2;
      continue;
    }
    // v.xy, v.s01, v.lo -> v.weft_swz<0, 1>(), v.weft_lo()
    if ((s == "." || s == "->") && i + 1 < t.size() && t[i + 1].kind == TokenKind::identifier) {
      const auto m = txt(i + 1);
      if (m == "lo" || m == "hi" || m == "even" || m == "odd") {
        edits.push_back({t[i + 1].begin, t[i + 1].end, "weft_" + std::string(m) + "()"});
      } else if (auto idx = swizzle_indices(m); !idx.empty()) {
        std::string r = "weft_swz<";
        for (std::size_t k = 0; k < idx.size(); ++k) r += (k ? ", " : "") + std::to_string(idx[k]);
        edits.push_back({t[i + 1].begin, t[i + 1].end, r + ">()"});
      }
      ++i;
      continue;
    }
    if (t[i].kind != TokenKind::identifier || i + 1 >= t.size() || txt(i + 1) != "(") continue;
    if (i > 0 && (txt(i - 1) == "." || txt(i - 1) == "->")) continue;
    // convert_int4_sat_rte(x) -> weft_convert<int4, true>(x)
    if (s.substr(0, 8) == "convert_") {
      std::string_view rest = s.substr(8);
      for (auto mode : {"_rte", "_rtz", "_rtp", "_rtn"}) {
        const std::string_view m(mode);
        if (rest.size() > m.size() && rest.substr(rest.size() - m.size()) == m) {
          rest.remove_suffix(m.size());
          break;
        }
      }
      bool sat = false;
      if (rest.size() > 4 && rest.substr(rest.size() - 4) == "_sat") {
        sat = true;
        rest.remove_suffix(4);
      }
      if (is_scalar_type_name(rest) || is_vector_type_name(rest)) {
        edits.push_back({t[i].begin, t[i].end,
                         "weft_convert<" + std::string(rest) + (sat ? ", true>" : ", false>")});
      }
      continue;
    }
    if (s.substr(0, 3) == "as_") {
      const auto type = s.substr(3);
      if (is_scalar_type_name(type) || is_vector_type_name(type)) {
        edits.push_back({t[i].begin, t[i].end, "weft_as<" + std::string(type) + ">"});
      }
      continue;
    }
    for (std::string_view op : {"vload", "vstore"}) {
      if (s.size() > op.size() && s.substr(0, op.size()) == op) {
        const auto w = s.substr(op.size());
        if (w == "2" || w == "3" || w == "4" || w == "8" || w == "16") {
          edits.push_back({t[i].begin, t[i].end, "weft_" + std::string(op) + "<" + std::string(w) + ">"});
        }
      }
    }
  }
  return edits;
}

}  // namespace weft::detail::dialect
