#include "dialect/parse.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>

#include "dialect/statements.hpp"
#include "dialect/types.hpp"
#include "weft/error.hpp"

namespace weft::detail::dialect {

namespace {

bool is_work_item_function(std::string_view s) {
  return s == "get_global_id" || s == "get_local_id" || s == "get_group_id" ||
         s == "get_global_size" || s == "get_local_size" || s == "get_num_groups" ||
         s == "get_work_dim" || s == "get_global_offset" || s == "get_enqueued_local_size";
}

bool is_control_keyword(std::string_view s) {
  return s == "if" || s == "for" || s == "while" || s == "switch" || s == "return" ||
         s == "sizeof" || s == "do" || s == "else" || s == "case" || s == "__attribute__";
}

bool is_qualifier(std::string_view s) {
  return s == "const" || s == "volatile" || s == "restrict" || s == "__restrict" ||
         s == "__restrict__" || s == "__global" || s == "global" || s == "__local" ||
         s == "local" || s == "__constant" || s == "constant" || s == "__private" ||
         s == "private" || s == "__read_only" || s == "read_only" || s == "__write_only" ||
         s == "write_only" || s == "__read_write" || s == "read_write" || s == "struct" ||
         s == "union" || s == "enum";
}

// An array length as C writes it (42, 0x2A, 052, 42u); nullopt for what is not one, or
// does not fit (the layout is then unknown, as for any type the parser cannot size).
std::optional<std::size_t> array_length(std::string_view t) {
  while (!t.empty() && (t.back() == 'u' || t.back() == 'U' || t.back() == 'l' || t.back() == 'L')) {
    t.remove_suffix(1);
  }
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  } else if (t.size() > 1 && t[0] == '0') {
    base = 8;
    t.remove_prefix(1);
  }
  std::size_t n = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), n, base);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size()) return std::nullopt;
  return n;
}

class Parser {
 public:
  explicit Parser(std::string_view src) : src_(src) {}

  ParsedSource run() {
    ParsedSource out;
    out.source = src_;
    out.tokens = tokenize(src_);
    // Structure is read from ordinary tokens only: directives are skipped.
    for (std::size_t i = 0; i < out.tokens.size(); ++i) {
      if (!out.tokens[i].in_directive) code_.push_back(i);
    }
    tokens_ = &out.tokens;
    std::size_t decl_start = 0;
    for (std::size_t k = 0; k < code_.size(); ++k) {
      const std::string_view t = text(k);
      if (t == ";") {
        record_alias(decl_start, k);
        decl_start = k + 1;
        continue;
      }
      if (t == "{") {  // struct/union/enum bodies, initializers
        const std::size_t close_brace = match(k, "{", "}");
        record_aggregate(decl_start, k, close_brace);
        k = close_brace;
        continue;
      }
      if (tok(k).kind != TokenKind::identifier || k + 1 >= code_.size() || text(k + 1) != "(") {
        continue;
      }
      const std::size_t close = match(k + 1, "(", ")");
      std::size_t after = close + 1;
      while (after < code_.size() && text(after) == "__attribute__" && after + 1 < code_.size() &&
             text(after + 1) == "(") {
        after = match(after + 1, "(", ")") + 1;
      }
      if (after >= code_.size() || text(after) != "{" || is_control_keyword(text(k))) {
        k = close;
        continue;
      }
      Function f;
      f.name = std::string(text(k));
      f.line = tok(k).line;
      f.name_token = code_[k];
      f.params_open = code_[k + 1];
      f.params_close = code_[close];
      f.body_open = code_[after];
      const std::size_t body_end = match(after, "{", "}");
      f.body_close = code_[body_end];
      bool returns_void = false;
      for (std::size_t q = decl_start; q < k; ++q) {
        const auto s = text(q);
        if (s == "__kernel" || s == "kernel") {
          f.is_kernel = true;
          f.qualifier_token = code_[q];
        }
        if (s == "void") returns_void = true;
      }
      if (f.is_kernel && !returns_void) {
        throw BuildError("kernel '" + f.name + "' (line " + std::to_string(f.line) +
                             ") must return void",
                         "", std::string(src_));
      }
      ranges_.clear();
      f.params = parse_params(k + 1, close, f);
      f.param_tokens = ranges_;
      scan_body(after, body_end, f);
      out.functions.push_back(std::move(f));
      k = body_end;
      decl_start = k + 1;
    }
    propagate(out.functions);
    return out;
  }

 private:
  const Token& tok(std::size_t k) const { return (*tokens_)[code_[k]]; }
  std::string_view text(std::size_t k) const { return tok(k).text(src_); }

  // Index (into code_) of the token closing the bracket opened at k; the last token when
  // the source ends first (the compiler will report the imbalance with a line number).
  std::size_t match(std::size_t k, std::string_view open, std::string_view close) const {
    int depth = 0;
    for (std::size_t j = k; j < code_.size(); ++j) {
      const auto s = text(j);
      if (s == open) ++depth;
      else if (s == close && --depth == 0) return j;
    }
    return code_.empty() ? 0 : code_.size() - 1;
  }

  std::vector<KernelArgInfo> parse_params(std::size_t open, std::size_t close, const Function& f) {
    std::vector<KernelArgInfo> params;
    std::vector<std::size_t> cur;
    int depth = 0;
    auto flush = [&] {
      if (!cur.empty()) {
        params.push_back(parse_param(cur, f));
        ranges_.emplace_back(code_[cur.front()], code_[cur.back()]);
      }
      cur.clear();
    };
    for (std::size_t k = open + 1; k < close; ++k) {
      const auto s = text(k);
      if (s == "(" || s == "[") ++depth;
      if (s == ")" || s == "]") --depth;
      if (s == "," && depth == 0) {
        if (cur.empty()) {
          throw BuildError("function '" + f.name + "' (line " + std::to_string(f.line) +
                               "): empty parameter in its parameter list",
                           "", std::string(src_));
        }
        flush();
      } else {
        cur.push_back(k);
      }
    }
    if (cur.size() == 1 && text(cur[0]) == "void") cur.clear();
    flush();
    return params;
  }

  KernelArgInfo parse_param(const std::vector<std::size_t>& ks, const Function& f) {
    KernelArgInfo p;
    std::vector<std::string_view> type_words;
    bool is_const = false;
    std::size_t name_k = ks.size();
    for (std::size_t j = ks.size(); j-- > 0;) {
      if (tok(ks[j]).kind == TokenKind::identifier && !is_qualifier(text(ks[j]))) {
        name_k = j;
        break;
      }
    }
    for (std::size_t j = 0; j < ks.size(); ++j) {
      const auto s = text(ks[j]);
      if (s == "__global" || s == "global") p.space = AddressSpace::global;
      else if (s == "__local" || s == "local") p.space = AddressSpace::local;
      else if (s == "__constant" || s == "constant") p.space = AddressSpace::constant;
      else if (s == "const") is_const = true;
      else if (s == "*") p.is_pointer = true;
      else if (j != name_k && tok(ks[j]).kind == TokenKind::identifier && !is_qualifier(s)) {
        type_words.push_back(s);
      } else if (s == "struct" || s == "union" || s == "enum") {
        type_words.push_back(s);
      }
    }
    if (name_k == ks.size() || type_words.empty()) {
      // No separate name: a type alone (allowed in prototypes, not in kernels).
      if (f.is_kernel) {
        throw BuildError("kernel '" + f.name + "' (line " + std::to_string(f.line) +
                             "): every parameter needs a type and a name",
                         "", std::string(src_));
      }
      if (name_k != ks.size()) type_words.push_back(text(ks[name_k]));
    } else {
      p.name = std::string(text(ks[name_k]));
    }
    if (p.is_pointer && p.space == AddressSpace::private_ && f.is_kernel) {
      p.space = AddressSpace::global;  // OpenCL would refuse; we read it as __global.
    }
    std::string joined;
    for (auto w : type_words) {
      if (!joined.empty()) joined += ' ';
      joined += w;
    }
    p.type_name = (is_const ? "const " : "") + joined + (p.is_pointer ? "*" : "");
    auto [base, width] = split_vector_type(joined);
    if (width) {
      p.dtype = parse_dtype(base);
      p.vector_width = static_cast<unsigned>(width);
    } else {
      p.dtype = parse_dtype(joined);
    }
    if (!p.is_pointer && p.dtype) {
      p.value_size = size_of(*p.dtype) * (p.vector_width == 3 ? 4 : p.vector_width);
    } else if (!p.is_pointer) {
      if (auto l = layout_of(joined, 0)) p.value_size = l->size;
    }
    return p;
  }

  struct Layout {
    std::size_t size;
    std::size_t align;
  };
  struct Aggregate {
    std::size_t open;   // index into code_ of '{'
    std::size_t close;  // of '}'
    bool is_union;
  };

  // `struct Tag {...}` and `typedef struct [Tag] {...} Name;` at the top level.
  void record_aggregate(std::size_t decl_start, std::size_t open, std::size_t close) {
    bool is_union = false;
    std::string tag;
    if (open >= 1 && (text(open - 1) == "struct" || text(open - 1) == "union")) {
      is_union = text(open - 1) == "union";
    } else if (open >= 2 && (text(open - 2) == "struct" || text(open - 2) == "union") &&
               tok(open - 1).kind == TokenKind::identifier) {
      is_union = text(open - 2) == "union";
      tag = std::string(text(open - 2)) + " " + std::string(text(open - 1));
    } else {
      return;  // an enum, an initializer
    }
    const Aggregate agg{open, close, is_union};
    if (!tag.empty()) aggregates_[tag] = agg;
    if (decl_start < code_.size() && text(decl_start) == "typedef" && close + 2 < code_.size() &&
        tok(close + 1).kind == TokenKind::identifier && text(close + 2) == ";") {
      aggregates_[std::string(text(close + 1))] = agg;
    }
  }

  // `typedef float4 vec_t;` and `typedef struct Tag Name;`.
  void record_alias(std::size_t decl_start, std::size_t semicolon) {
    if (decl_start + 2 > semicolon || text(decl_start) != "typedef") return;
    std::string target;
    for (std::size_t k = decl_start + 1; k + 1 < semicolon; ++k) {
      if (tok(k).kind != TokenKind::identifier) return;  // pointers, arrays, function types
      if (text(k) == "const" || text(k) == "volatile") continue;
      target += (target.empty() ? "" : " ") + std::string(text(k));
    }
    if (tok(semicolon - 1).kind == TokenKind::identifier && !target.empty()) {
      aliases_[std::string(text(semicolon - 1))] = target;
    }
  }

  // OpenCL C layout of a type named by its words ("float4", "Params", "struct P",
  // "unsigned int"); nullopt when it cannot be known from the source alone.
  // Memoized: a struct of structs of structs ... is sized once per type, not once per path
  // to it (16 levels of 8 members each would be 8^16 walks).
  std::optional<Layout> layout_of(const std::string& type, int depth) const {
    if (depth > 16) return std::nullopt;
    if (auto known = layouts_.find(type); known != layouts_.end()) return known->second;
    const std::optional<Layout> l = compute_layout(type, depth);
    layouts_.emplace(type, l);
    return l;
  }

  std::optional<Layout> compute_layout(const std::string& type, int depth) const {
    if (auto [base, width] = split_vector_type(type); width) {
      const std::size_t n = (width == 3 ? 4 : static_cast<std::size_t>(width)) * size_of(*parse_dtype(base));
      return Layout{n, n};
    }
    if (type == "bool") return Layout{1, 1};
    if (auto d = parse_dtype(type)) return Layout{size_of(*d), size_of(*d)};
    if (auto a = aliases_.find(type); a != aliases_.end()) return layout_of(a->second, depth + 1);
    auto it = aggregates_.find(type);
    if (it == aggregates_.end()) return std::nullopt;
    const Aggregate& agg = it->second;
    std::size_t offset = 0, size = 0, align = 1;
    std::vector<std::size_t> decl;
    for (std::size_t k = agg.open + 1; k <= agg.close; ++k) {
      if (k < agg.close && text(k) != ";") {
        decl.push_back(k);
        continue;
      }
      if (decl.empty()) continue;
      // One declaration: type words, then declarators separated by commas.
      std::string base;
      std::size_t j = 0;
      for (; j < decl.size(); ++j) {
        const auto w = text(decl[j]);
        if (w == "const" || w == "volatile") continue;
        if (tok(decl[j]).kind != TokenKind::identifier) return std::nullopt;  // '*', attributes ...
        const bool last_word = j + 1 == decl.size() || text(decl[j + 1]) == "[" || text(decl[j + 1]) == ",";
        if (last_word) break;
        base += (base.empty() ? "" : " ") + std::string(w);
      }
      auto member = layout_of(base, depth + 1);
      if (!member) return std::nullopt;
      while (j < decl.size()) {
        if (tok(decl[j]).kind != TokenKind::identifier) return std::nullopt;
        std::size_t count = 1;
        ++j;
        while (j < decl.size() && text(decl[j]) == "[") {
          if (j + 2 >= decl.size() || tok(decl[j + 1]).kind != TokenKind::number || text(decl[j + 2]) != "]") {
            return std::nullopt;
          }
          const auto n = array_length(text(decl[j + 1]));
          if (!n) return std::nullopt;
          count *= *n;
          j += 3;
        }
        if (j < decl.size()) {
          if (text(decl[j]) != ",") return std::nullopt;  // bit-fields, initializers
          ++j;
        }
        align = std::max(align, member->align);
        if (agg.is_union) {
          size = std::max(size, member->size * count);
        } else {
          offset = (offset + member->align - 1) / member->align * member->align + member->size * count;
          size = offset;
        }
      }
      decl.clear();
    }
    size = (size + align - 1) / align * align;
    return Layout{size, align};
  }

  void scan_body(std::size_t open, std::size_t close, Function& f) {
    for (const auto& p : f.params) {
      if (p.space == AddressSpace::local && f.group_feature.empty()) {
        f.group_feature = "a __local parameter '" + p.name + "' (line " + std::to_string(f.line) + ")";
      }
    }
    std::set<std::string> calls;
    for (std::size_t k = open + 1; k < close; ++k) {
      if (tok(k).kind != TokenKind::identifier) continue;
      const auto s = text(k);
      const bool called = k + 1 < close && text(k + 1) == "(";
      if (f.group_feature.empty()) {
        if (called && (s == "barrier" || s == "work_group_barrier" || is_group_function(s))) {
          f.group_feature = std::string(s) + "() at line " + std::to_string(tok(k).line);
        } else if (s == "__local" || s == "local") {
          f.group_feature = "__local memory at line " + std::to_string(tok(k).line);
        }
      }
      if (is_work_item_function(s)) f.uses_work_item_functions = true;
      if (called && !is_control_keyword(s)) {
        const bool member = k > open + 1 && (text(k - 1) == "." || text(k - 1) == "->");
        if (!member) calls.insert(std::string(s));
      }
    }
    f.calls.assign(calls.begin(), calls.end());
  }

  // What each function needs through its calls: from every function that uses a feature
  // itself, backwards along the calls (linear in functions and calls; a chain of thousands of
  // helpers must not take a pass per link).
  static void propagate(std::vector<Function>& fns) {
    std::map<std::string_view, std::size_t> index;  // the first definition of a name
    for (std::size_t i = 0; i < fns.size(); ++i) index.emplace(fns[i].name, i);
    std::vector<std::vector<std::size_t>> callers(fns.size());
    for (std::size_t i = 0; i < fns.size(); ++i) {
      for (const auto& c : fns[i].calls) {
        if (auto it = index.find(c); it != index.end() && it->second != i) callers[it->second].push_back(i);
      }
    }
    std::vector<std::size_t> queue, root(fns.size());  // root: the function whose own use it is
    for (std::size_t i = 0; i < fns.size(); ++i) {
      if (!fns[i].group_feature.empty()) {
        queue.push_back(i);
        root[i] = i;
      }
    }
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const std::size_t g = queue[q];
      for (std::size_t f : callers[g]) {
        if (!fns[f].group_feature.empty()) continue;
        root[f] = root[g];
        const Function& r = fns[root[g]];
        fns[f].group_feature = "a call to " + fns[g].name + "(), which " +
                               (root[g] == g ? "uses " : "calls on to " + r.name + "(), which uses ") +
                               r.group_feature;
        queue.push_back(f);
      }
    }
  }

  std::string_view src_;
  const std::vector<Token>* tokens_ = nullptr;
  std::vector<std::size_t> code_;
  std::map<std::string, Aggregate> aggregates_;
  std::vector<std::pair<std::size_t, std::size_t>> ranges_;
  std::map<std::string, std::string> aliases_;
  mutable std::map<std::string, std::optional<Layout>> layouts_;
};

}  // namespace

ParsedSource parse(std::string_view source) { return Parser(source).run(); }

const Function* ParsedSource::find(std::string_view name) const {
  for (const auto& f : functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::vector<const Function*> ParsedSource::kernels() const {
  std::vector<const Function*> out;
  for (const auto& f : functions) {
    if (f.is_kernel) out.push_back(&f);
  }
  return out;
}

bool ParsedSource::helpers_use_work_items() const {
  for (const auto& f : functions) {
    if (!f.is_kernel && f.uses_work_item_functions) return true;
  }
  // A work-item function in a macro body may expand anywhere.
  for (const auto& t : tokens) {
    if (t.in_directive && t.kind == TokenKind::identifier && is_work_item_function(t.text(source))) {
      return true;
    }
  }
  return false;
}

}  // namespace weft::detail::dialect
