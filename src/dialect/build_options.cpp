#include "dialect/build_options.hpp"

#include "dialect/keywords.hpp"
#include "weft/error.hpp"

namespace weft::detail::dialect {

std::vector<std::string> check_build_options(std::string_view options) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : options) {
    if (c == ' ' || c == '\t' || c == '\n') {
      if (!cur.empty()) words.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "-D" || w == "-I") {
      if (i + 1 >= words.size()) throw InvalidArgument("build option " + w + " needs a value");
      out.push_back(w + words[++i]);
    } else if (w.rfind("-D", 0) == 0 || w.rfind("-I", 0) == 0 || w.rfind("-cl-", 0) == 0 ||
               w == "-w" || w == "-Werror") {
      out.push_back(w);
    } else {
      throw InvalidArgument("unknown build option '" + w +
                            "': weft accepts -D NAME[=VALUE], -I DIR, -w, -Werror and -cl-* options");
    }
  }
  return out;
}

std::string cxx_defines(std::string_view options) {
  std::string out;
  for (const auto& w : check_build_options(options)) {
    if (w.rfind("-D", 0) != 0) continue;
    // -DNAME=VALUE is #define NAME VALUE; -DNAME alone defines NAME as 1, as compilers do.
    const std::string_view d = std::string_view(w).substr(2);
    const auto eq = d.find('=');
    out += "#define ";
    out += cxx_text(d.substr(0, eq));
    out += ' ';
    out += eq == std::string_view::npos ? std::string("1") : cxx_text(d.substr(eq + 1));
    out += '\n';
  }
  return out;
}

}  // namespace weft::detail::dialect
