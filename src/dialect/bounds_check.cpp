#include "dialect/bounds_check.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dialect/edits.hpp"

namespace weft::detail::dialect {

namespace {

// Records the first bad access in the record e (runtime/bounds_check.hpp gives its words).
constexpr const char* fail_helper =
    "static void weft_bc_fail(__global uint* e, uint param, uint line, long i, ulong n, ulong g0, ulong g1, "
    "ulong g2) { if (atomic_cmpxchg((volatile __global uint*)e, 0u, 1u) != 0u) return; e[1] = param; e[2] = line; "
    "e[3] = (uint)((ulong)i); e[4] = (uint)((ulong)i >> 32); e[5] = (uint)n; e[6] = (uint)(n >> 32); "
    "e[7] = (uint)g0; e[8] = (uint)g1; e[9] = (uint)g2; } ";

// Each physical line's (file, line) as the source's #line directives have them (`#line N`,
// `#line N "file"`, and the preprocessor's `# N "file"`): files[0] is "<source>".
struct LineMap {
  std::vector<std::string> files{"<source>"};
  std::vector<std::pair<std::uint32_t, std::uint32_t>> lines{{0, 0}};  // [physical line]: (file, line)
};

LineMap line_map(std::string_view s) {
  LineMap m;
  std::uint32_t file = 0, next = 1;  // the file and line number of the next physical line
  std::size_t pos = 0;
  while (pos <= s.size()) {
    const std::size_t end = std::min(s.find('\n', pos), s.size());
    const std::string_view l = s.substr(pos, end - pos);
    m.lines.emplace_back(file, next++);
    std::size_t i = l.find_first_not_of(" \t");
    if (i != std::string_view::npos && l[i] == '#') {
      i = l.find_first_not_of(" \t", i + 1);
      if (i != std::string_view::npos && l.substr(i, 4) == "line") i = l.find_first_not_of(" \t", i + 4);
      std::uint32_t n = 0;
      std::size_t j = i;
      while (j < l.size() && l[j] >= '0' && l[j] <= '9' && n < (1u << 24)) n = n * 10 + static_cast<std::uint32_t>(l[j++] - '0');
      if (i != std::string_view::npos && j > i) {  // a line directive: the next line is n
        next = n;
        const std::size_t q = l.find('"', j);
        const std::size_t q2 = q == std::string_view::npos ? q : l.find('"', q + 1);
        if (q2 != std::string_view::npos) {
          const std::string name(l.substr(q + 1, q2 - q - 1));
          const auto it = std::find(m.files.begin(), m.files.end(), name);
          file = static_cast<std::uint32_t>(it - m.files.begin());
          if (it == m.files.end() && m.files.size() < 255) m.files.push_back(name);
          if (file >= m.files.size()) file = 0;
        }
      }
    }
    pos = end + 1;
  }
  return m;
}

class Instrumenter {
 public:
  explicit Instrumenter(const ParsedSource& p) : p_(p), t_(p.tokens), map_(line_map(p.source)) {}

  BoundsInstrumented run() {
    BoundsInstrumented out;
    std::size_t ordinal = 0;
    bool fail_written = false;
    for (const Function* k : p_.kernels()) {
      const std::size_t kernel_ordinal = ordinal++;
      auto plan = std::make_shared<BoundsPlan>();
      plan->files = map_.files;
      std::string helpers;
      for (std::size_t j = 0; j < k->params.size(); ++j) {
        if (!checkable(*k, j)) continue;
        const std::string helper = "weft_bc" + std::to_string(kernel_ordinal) + "_" + std::to_string(j);
        if (!instrument_param(*k, j, helper)) continue;
        const std::string type = type_text(*k, j);
        helpers += "static inline " + type + " " + helper + "(" + type +
                   " p, long i, ulong bytes, __global uint* e, uint line, int w, ulong g0, ulong g1, ulong g2) { "
                   "const ulong n = bytes / sizeof(*p); if ((ulong)i < n) return p + i; weft_bc_fail(e, " +
                   std::to_string(j) + "u, line, i, n, g0, g1, g2); return (" + type + ")(e + (w ? 32 : 64)); } ";
        plan->sized.push_back(j);
      }
      if (plan->sized.empty()) continue;
      if (!fail_written) {
        helpers = fail_helper + helpers;
        fail_written = true;
      }
      edits_.push_back({t_[definition_start(*k)].begin, t_[definition_start(*k)].begin, helpers});
      std::string hidden = ", __global uint* weft_bce";
      for (const std::size_t j : plan->sized) hidden += ", ulong weft_bcn" + std::to_string(j);
      edits_.push_back({t_[k->params_close].begin, t_[k->params_close].begin, hidden});
      out.plans[k->name] = std::move(plan);
    }
    if (!out.plans.empty()) out.text = apply_edits(p_.source, std::move(edits_));
    return out;
  }

 private:
  // The record's line word of a physical line: (file << 24) | line, as the #line directives map it.
  std::uint32_t line_word(int physical) const {
    const auto k = static_cast<std::size_t>(physical);
    if (k >= map_.lines.size()) return static_cast<std::uint32_t>(physical);
    return (map_.lines[k].first << 24) | (map_.lines[k].second & 0xffffffu);
  }
  std::string_view text(std::size_t i) const { return i < t_.size() ? t_[i].text(p_.source) : std::string_view(); }
  // Tokens i and i + 1 spell one operator ("+=", "++", "<<").
  bool joined(std::size_t i, std::string_view a, std::string_view b) const {
    return i + 1 < t_.size() && text(i) == a && text(i + 1) == b && t_[i].end == t_[i + 1].begin;
  }

  // A __global pointer to a scalar or vector (at most 128 bytes: the record's scratch area).
  bool checkable(const Function& k, std::size_t j) const {
    const KernelArgInfo& a = k.params[j];
    if (!a.is_pointer || a.space != AddressSpace::global || !a.dtype || a.vector_width > 16) return false;
    const auto [first, last] = k.param_tokens[j];
    for (std::size_t i = first; i <= last; ++i) {
      if (text(i) == "[" || text(i) == "(" || text(i) == "__attribute__") return false;
    }
    return true;
  }

  // The parameter's type as declared, without its name and restrict.
  std::string type_text(const Function& k, std::size_t j) const {
    const auto [first, last] = k.param_tokens[j];
    std::string out;
    for (std::size_t i = first; i <= last; ++i) {
      const auto s = text(i);
      if (s == k.params[j].name || s == "restrict" || s == "__restrict" || s == "__restrict__") continue;
      out += s;
      out += ' ';
    }
    return out;
  }

  // The first token of k's definition: attributes before __kernel belong to it.
  std::size_t definition_start(const Function& k) const {
    std::size_t i = k.qualifier_token;
    while (i > 0) {
      const auto s = text(i - 1);
      if (s == ";" || s == "}" || t_[i - 1].in_directive) break;
      --i;
    }
    return i;
  }

  // Edits every p[i] of parameter j in k's body; false (and no edits) when the body changes
  // p or takes its address, or has no access to check.
  bool instrument_param(const Function& k, std::size_t j, const std::string& helper) {
    const std::string& name = k.params[j].name;
    std::vector<Edit> mine;
    for (std::size_t i = k.body_open + 1; i < k.body_close; ++i) {
      if (t_[i].kind != TokenKind::identifier || text(i) != name || t_[i].in_directive) continue;
      if (text(i - 1) == "." || text(i - 1) == "->") continue;  // a member of the same name
      if (text(i - 1) == "&" || joined(i - 2, "+", "+") || joined(i - 2, "-", "-")) return false;
      const auto next = text(i + 1);
      if ((next == "=" && text(i + 2) != "=") || joined(i + 1, "+", "=") || joined(i + 1, "-", "=") ||
          joined(i + 1, "+", "+") || joined(i + 1, "-", "-")) {
        return false;  // the pointer itself changes
      }
      if (next != "[") continue;
      std::size_t close = i + 1;
      int depth = 0;
      for (; close < k.body_close; ++close) {
        if (t_[close].in_directive) break;
        if (text(close) == "[") ++depth;
        if (text(close) == "]" && --depth == 0) break;
      }
      if (close >= k.body_close || t_[close].in_directive) continue;
      const std::string w = writes(i, close) ? "1" : "0";
      mine.push_back({t_[i].begin, t_[i + 1].end, "(*" + helper + "(" + name + ", (long)("});
      mine.push_back({t_[close].begin, t_[close].end,
                      "), weft_bcn" + std::to_string(j) + ", weft_bce, " + std::to_string(line_word(t_[i].line)) + "u, " + w +
                          ", get_global_id(0), get_global_id(1), get_global_id(2)))"});
    }
    if (mine.empty()) return false;
    edits_.insert(edits_.end(), mine.begin(), mine.end());
    return true;
  }

  // Whether the access from token name to its ']' close may write: an assignment, ++/--, a
  // member (component) access or its address taken. Reads elsewhere read zeros when bad.
  bool writes(std::size_t name, std::size_t close) const {
    const std::size_t n = close + 1;
    const auto a = text(n);
    if (a == "=") return text(n + 1) != "=";
    static const std::set<std::string_view> compound = {"+", "-", "*", "/", "%", "&", "|", "^"};
    if (compound.count(a) && joined(n, a, "=")) return true;
    if (joined(n, "+", "+") || joined(n, "-", "-") || a == "." || a == "->") return true;
    if ((joined(n, "<", "<") || joined(n, ">", ">")) && joined(n + 1, text(n + 1), "=")) return true;
    if (name >= 1 && text(name - 1) == "&") return true;
    return name >= 2 && (joined(name - 2, "+", "+") || joined(name - 2, "-", "-"));
  }

  const ParsedSource& p_;
  const std::vector<Token>& t_;
  LineMap map_;
  std::vector<Edit> edits_;
};

}  // namespace

BoundsInstrumented instrument_bounds(const ParsedSource& parsed) { return Instrumenter(parsed).run(); }

}  // namespace weft::detail::dialect
