#include "weft/arg_spec.hpp"

#include "dialect/tokenize.hpp"
#include "dialect/types.hpp"
#include "weft/error.hpp"

namespace weft {

std::string ArgSpec::type_name() const {
  std::string t(c_name(dtype));
  if (vector_width > 1) t += std::to_string(vector_width);
  return t;
}

std::string ArgSpec::declaration() const {
  std::string d = pointer ? "__global " : "";
  if (is_const) d += "const ";
  d += type_name();
  d += pointer ? " *" : " ";
  return d + name;
}

std::vector<ArgSpec> parse_arguments(std::string_view spec) {
  std::vector<ArgSpec> out;
  std::size_t start = 0;
  int index = 0;
  while (start <= spec.size()) {
    std::size_t comma = spec.find(',', start);
    if (comma == std::string_view::npos) comma = spec.size();
    const std::string_view piece = spec.substr(start, comma - start);
    start = comma + 1;
    ++index;
    const auto toks = detail::dialect::tokenize(piece);
    auto fail = [&](const std::string& why) -> InvalidArgument {
      std::string p(piece);
      while (!p.empty() && p.front() == ' ') p.erase(0, 1);
      return InvalidArgument("argument " + std::to_string(index) + " '" + p + "' of \"" + std::string(spec) +
                             "\": " + why);
    };
    if (toks.empty()) {
      if (comma == spec.size() && index == 1) break;  // an empty list
      throw fail("it is empty");
    }
    ArgSpec a;
    std::string type;
    for (std::size_t i = 0; i < toks.size(); ++i) {
      const std::string t(toks[i].text(piece));
      if (t == "const") a.is_const = true;
      else if (t == "__global" || t == "global" || t == "restrict" || t == "__restrict") continue;
      else if (t == "*") a.pointer = true;
      else if (toks[i].kind != detail::dialect::TokenKind::identifier) throw fail("unexpected '" + t + "'");
      else if (i + 1 == toks.size()) a.name = t;
      else type += (type.empty() ? "" : " ") + t;
    }
    if (a.name.empty() || type.empty()) throw fail("expected a type and a name, like \"float *x\"");
    std::string base = type;
    if (detail::dialect::is_vector_type_name(type)) {
      const auto digits = type.find_first_of("0123456789");
      base = type.substr(0, digits);
      a.vector_width = static_cast<unsigned>(std::stoul(type.substr(digits)));
    }
    const auto dt = parse_dtype(base);
    if (!dt) throw fail("unknown type '" + type + "'");
    a.dtype = *dt;
    for (const auto& prev : out) {
      if (prev.name == a.name) throw fail("the name '" + a.name + "' is used twice");
    }
    out.push_back(std::move(a));
    if (comma == spec.size()) break;
  }
  return out;
}

}  // namespace weft
