#include "dialect/strip_mine.hpp"

#include <map>
#include <set>
#include <string_view>

#include "dialect/statements.hpp"
#include "dialect/translate.hpp"
#include "dialect/uniformity.hpp"

namespace weft::detail::dialect {

namespace {

bool scalar_type_word(std::string_view s) {
  static const std::set<std::string_view> words{"const", "__private", "private", "char",   "uchar",  "short",
                                                "ushort", "int",      "uint",    "long",   "ulong",  "float",
                                                "double", "bool",     "size_t",  "unsigned", "signed"};
  return words.count(s) != 0;
}

bool integer_type(std::string_view t) {
  return t.find("float") == std::string_view::npos && t.find("double") == std::string_view::npos &&
         t.find("char") == std::string_view::npos && t.find("short") == std::string_view::npos &&
         t.find("bool") == std::string_view::npos;
}

bool refused_name(std::string_view s) {
  for (std::string_view k : {"goto", "switch", "while", "do", "break", "continue", "case", "default", "printf", "asm"}) {
    if (s == k) return true;
  }
  for (std::string_view k : {"get_group_id", "get_local_id", "get_global_linear_id", "get_local_linear_id"}) {
    if (s == k) return true;  // may differ within a strip without reading as varying
  }
  for (std::string_view pre : {"atomic_", "atom_", "weft_", "vstore", "write_image", "barrier", "work_group",
                               "sub_group", "async_", "wait_group", "mem_fence", "read_mem_fence", "write_mem_fence"}) {
    if (s.substr(0, pre.size()) == pre) return true;
  }
  return false;
}

// A split-level variable that may differ between work-items. Three kinds: an array of one value
// per lane; remat == 0: recomputed per lane from the strip's first global id; strip: the same for
// every lane of the strip (get_global_id(1) and (2), and what is computed from such values and
// uniform ones only), a scalar declared where the kernel declares it.
struct Var {
  std::string type;  // the declared type without const / __private
  bool is_int = false;
  int remat = -1;  // d when the variable is get_global_id(d) and never written
  bool strip = false;
  TokenRange init;
  bool lane() const { return !strip; }
  bool array() const { return !strip && remat != 0; }
};

class Strip {
 public:
  Strip(const ParsedSource& p, const Function& k) : p_(p), k_(k) {}

  std::optional<std::string> run(const std::string& symbol);

 private:
  std::string_view text(std::size_t i) const { return p_.tokens[i].text(p_.source); }
  bool adjacent(std::size_t a, std::size_t b) const { return p_.tokens[a].end == p_.tokens[b].begin; }
  bool varying_in(TokenRange r) const {
    for (std::size_t j = r.begin; j < r.end; ++j) {
      if (p_.tokens[j].kind != TokenKind::identifier) continue;
      if (j > r.begin && (text(j - 1) == "." || text(j - 1) == "->")) continue;
      const auto s = text(j);
      if (s == "get_global_id" || s == "get_local_id" || varying_.count(std::string(s))) return true;
    }
    return false;
  }
  std::string slice(TokenRange r) const {
    if (r.empty()) return {};
    return std::string(p_.source.substr(p_.tokens[r.begin].begin, p_.tokens[r.end - 1].end - p_.tokens[r.begin].begin));
  }
  // True when init reads nothing that differs between the lanes of a strip.
  bool strip_init(TokenRange init) const {
    for (std::size_t j = init.begin; j < init.end; ++j) {
      if (p_.tokens[j].kind != TokenKind::identifier) continue;
      if (j > init.begin && (text(j - 1) == "." || text(j - 1) == "->")) continue;
      const auto s = text(j);
      if (s == "get_global_id" || s == "get_local_id") return false;
      const auto a = arrays_.find(std::string(s));
      if (a != arrays_.end() && a->second.lane()) return false;
    }
    return true;
  }
  std::string strip_value(const Var& v) const {
    return v.remat > 0 ? "(" + v.type + ")weft_wi0.gid[" + std::to_string(v.remat) + "]" : slice(v.init);
  }
  bool gate_tokens() const;
  bool pure_leaf(std::string_view name) const;
  int global_id_dim(TokenRange r) const;
  bool uniform_assign(const Stmt& s) const;
  bool splittable(const Stmt& s) const;
  bool uniform_decl(const Stmt& s) const;
  bool scan(const std::vector<const Stmt*>& level, bool in_loop);
  bool lane_reads(TokenRange r) const;
  void nested(const Stmt& s, bool top);
  void writes(const Stmt& s, std::set<std::string>& out) const;
  std::vector<const Stmt*> level_of(const Stmt& body) const;
  void emit_level(const std::vector<const Stmt*>& level, const std::string& exit, std::string& out);
  void flush(std::vector<const Stmt*>& group, const std::string& exit, std::string& out);
  std::string render(const Stmt& s, int label) const;
  static bool has_return(const Stmt& s) {
    if (s.kind == StmtKind::return_) return true;
    for (const auto& c : s.children) {
      if (has_return(c)) return true;
    }
    return false;
  }

  const ParsedSource& p_;
  const Function& k_;
  std::set<std::string> varying_;
  std::map<std::string, Var> arrays_;   // split-level variables that differ per item
  std::set<std::string> uniform_;       // split-level variables uniform across the strip
  std::set<std::string> int_params_;    // signed int parameters
  std::set<std::string> params_;
  std::set<std::string> nested_;        // names declared inside per-item statements
  std::set<const Stmt*> split_decls_;   // split-level declarations that differ per item
  std::set<const Stmt*> split_loops_;
  std::set<const Stmt*> uniform_assigns_;  // uniform_assign statements at the split level
  std::vector<const Stmt*> loop_items_;  // per-item statements inside split loops
  bool any_split_ = false;
  int labels_ = 0;
};

bool Strip::gate_tokens() const {
  // The program's own macros: the gate reads unexpanded tokens, so a macro could hide a return,
  // break, continue, address-of or a call; a kernel that uses one keeps the per-item path.
  std::set<std::string_view> macros;
  for (std::size_t j = 1; j + 1 < p_.tokens.size(); ++j) {
    if (p_.tokens[j].in_directive && text(j) == "define" && text(j - 1) == "#") macros.insert(text(j + 1));
  }
  for (std::size_t j = k_.body_open + 1; j < k_.body_close; ++j) {
    const Token& t = p_.tokens[j];
    if (t.in_directive) return false;
    const auto s = text(j);
    if (t.kind == TokenKind::identifier) {
      if (refused_name(s) || macros.count(s)) return false;
      if (text(j + 1) == "(" && p_.find(s) != nullptr && !pure_leaf(s)) return false;  // the program's own
      if (s == "return" && text(j + 1) != ";") return false;
    } else if (s == "&") {
      const bool pair = (text(j + 1) == "&" && adjacent(j, j + 1)) || (text(j - 1) == "&" && adjacent(j - 1, j));
      const bool compound = text(j + 1) == "=" && adjacent(j, j + 1);
      const auto& prev = p_.tokens[j - 1];
      const bool binary = prev.kind == TokenKind::identifier || prev.kind == TokenKind::number ||
                          text(j - 1) == ")" || text(j - 1) == "]";
      if (!pair && !compound && !(binary && text(j - 1) != "return" && text(j - 1) != "sizeof")) return false;
    }
  }
  return true;
}

// A program function that reads only its scalar arguments and calls none of the program's own
// (weft's Python kernels' pyk_umod_long): a call of it is a per-item expression like a built-in.
bool Strip::pure_leaf(std::string_view name) const {
  const Function* f = p_.find(name);
  if (f == nullptr || f->is_kernel) return false;
  for (std::size_t j = f->params_open + 1; j < f->body_close; ++j) {
    const auto s = text(j);
    if (j < f->params_close && (s == "*" || s == "[")) return false;  // a pointer or array parameter
    if (p_.tokens[j].in_directive || refused_name(s) || s.substr(0, 4) == "get_" || s == "static" ||
        s == "volatile") {
      return false;
    }
    for (std::string_view space : {"global", "local", "constant"}) {
      if (s == space || (s.size() == space.size() + 2 && s.substr(0, 2) == "__" && s.substr(2) == space)) return false;
    }
    if (j > f->body_open && p_.tokens[j].kind == TokenKind::identifier && text(j + 1) == "(" && p_.find(s) != nullptr) {
      return false;
    }
  }
  return true;
}

// `name = expr;` of a strip-uniform variable from uniform values, at the split level (the Python
// kernels' `polypoint1 = (vertices + i * 2L);`): run once per strip, as a uniform declaration is.
bool Strip::uniform_assign(const Stmt& s) const {
  if (s.kind != StmtKind::simple || s.is_declaration || s.tokens.end - s.tokens.begin < 4) return false;
  const std::size_t b = s.tokens.begin;
  if (p_.tokens[b].kind != TokenKind::identifier || text(b + 1) != "=" || text(b + 2) == "=") return false;
  const std::string name(text(b));
  if (!uniform_.count(name) || varying_.count(name) || varying_in(s.tokens)) return false;
  const auto w = assigned_names(p_, s.tokens, false);
  return w.size() == 1 && *w.begin() == name;
}

// d when r is get_global_id(d) (d a literal 0, 1 or 2), in parentheses or cast to a 64-bit integer
// type or both (the Python kernels' `((long)get_global_id(0))`); else -1.
int Strip::global_id_dim(TokenRange r) const {
  while (r.end - r.begin > 4) {
    if (text(r.begin) == "(" && (text(r.begin + 1) == "long" || text(r.begin + 1) == "ulong" ||
                                 text(r.begin + 1) == "size_t") && text(r.begin + 2) == ")") {
      r.begin += 3;
    } else if (text(r.begin) == "(" && text(r.end - 1) == ")") {
      int depth = 0;  // only a pair that encloses all of r
      for (std::size_t j = r.begin; j < r.end - 1; ++j) {
        depth += text(j) == "(" ? 1 : text(j) == ")" ? -1 : 0;
        if (depth == 0) return -1;
      }
      ++r.begin;
      --r.end;
    } else {
      return -1;
    }
  }
  if (r.end - r.begin != 4 || text(r.begin) != "get_global_id" || text(r.begin + 1) != "(" || text(r.begin + 3) != ")") {
    return -1;
  }
  const auto d = text(r.begin + 2);
  return d == "0" || d == "1" || d == "2" ? d[0] - '0' : -1;
}

bool Strip::uniform_decl(const Stmt& s) const {
  if (s.kind != StmtKind::simple || !s.is_declaration || varying_in(s.tokens)) return false;
  const auto d = split_declaration(p_, s.tokens);
  if (!d) return false;
  for (const auto& v : d->items) {
    if (varying_.count(std::string(text(v.name)))) return false;
    if (!assigned_names(p_, v.init, false).empty()) return false;  // a side effect in the initializer
  }
  return true;
}

bool Strip::splittable(const Stmt& s) const {
  if (s.kind != StmtKind::for_ || s.cond.empty()) return false;
  return !varying_in(s.init) && !varying_in(s.cond) && !varying_in(s.inc);
}

std::vector<const Stmt*> Strip::level_of(const Stmt& body) const {
  std::vector<const Stmt*> out;
  if (body.kind == StmtKind::block) {
    for (const auto& c : body.children) out.push_back(&c);
  } else {
    out.push_back(&body);
  }
  return out;
}

void Strip::nested(const Stmt& s, bool top) {
  if (!top && s.kind == StmtKind::simple && s.is_declaration) {
    for (const auto& n : assigned_names(p_, s.tokens, true)) nested_.insert(n);
  }
  if (s.kind == StmtKind::for_ && !s.init.empty()) {
    for (const auto& n : assigned_names(p_, {s.init.begin, s.init.end + 1}, true)) nested_.insert(n);
  }
  for (const auto& c : s.children) nested(c, false);
}

// Classifies a level's statements; false for what the transform does not cover.
// True when range reads memory at an address that differs per lane (a subscript that is not the
// target of a plain `=`, or a pointer declared in it): inside the split loop such a read becomes a
// gather, where the kernel as written walks memory in order per work-item.
bool Strip::lane_reads(TokenRange r) const {
  for (std::size_t j = r.begin; j < r.end; ++j) {
    if (text(j) == "*" && j + 1 < r.end && (text(j + 1) == "(" || p_.tokens[j + 1].kind == TokenKind::identifier)) {
      const auto& prev = p_.tokens[j - 1];
      const bool binary = prev.kind == TokenKind::identifier || prev.kind == TokenKind::number ||
                          text(j - 1) == ")" || text(j - 1) == "]";
      if (!binary || text(j - 1) == "return") return true;  // a dereference, or a pointer declared
    }
    if (text(j) == "->") return true;
    if (text(j) != "[") continue;
    std::size_t e = j + 1;
    bool lane = false;
    for (int depth = 0; e < r.end; ++e) {
      if (text(e) == "[") ++depth;
      if (text(e) == "]" && depth-- == 0) break;
      if (p_.tokens[e].kind != TokenKind::identifier) continue;
      const std::string n(text(e));
      const auto a = arrays_.find(n);
      if (n == "get_global_id" || n == "get_local_id" || (varying_.count(n) && (a == arrays_.end() || a->second.lane()))) {
        lane = true;
      }
    }
    const bool store = e + 2 < r.end && text(e + 1) == "=" && text(e + 2) != "=";
    if (lane && !store) return true;
  }
  return false;
}

bool Strip::scan(const std::vector<const Stmt*>& level, bool in_loop) {
  for (const Stmt* s : level) {
    const bool decl = s->kind == StmtKind::simple && s->is_declaration;
    if (decl) {
      const auto d = split_declaration(p_, s->tokens);
      if (!d) return false;
      std::string type;
      const bool uniform = uniform_decl(*s);  // (of any type: declared as written, once per strip)
      for (std::size_t j = d->specs.begin; j < d->specs.end; ++j) {
        if (!uniform && !scalar_type_word(text(j))) return false;
        if (text(j) != "const" && text(j) != "__private" && text(j) != "private") type += std::string(text(j)) + " ";
      }
      bool pure = true;  // no initializer writes: the declarators may be evaluated apart
      for (const auto& v : d->items) pure = pure && assigned_names(p_, v.init, false).empty();
      for (const auto& v : d->items) {
        if ((!uniform && !v.ptrs.empty()) || !v.suffix.empty()) return false;
        const std::string name(text(v.name));
        if (arrays_.count(name) || uniform_.count(name) || params_.count(name)) return false;
        if (uniform) {
          uniform_.insert(name);
          continue;
        }
        Var var{type, type == "int " || type == "signed int ", -1, false, v.init};
        const auto& in = v.init;
        if (const int dim = global_id_dim(in); dim >= 0 && integer_type(type)) {
          var.remat = dim;
          var.strip = var.remat > 0;
        } else if (pure && !in.empty()) {
          var.strip = strip_init(in);
        }
        arrays_[name] = var;
      }
      if (!uniform) split_decls_.insert(s);
      if (!uniform && in_loop) loop_items_.push_back(s);
    } else if (splittable(*s)) {
      split_loops_.insert(s);
      if (!s->init.empty()) {
        const TokenRange init{s->init.begin, s->init.end + 1};
        if (!looks_like_declaration(p_, init)) return false;
        const auto d = split_declaration(p_, init);
        if (!d) return false;
        for (const auto& v : d->items) {
          const std::string name(text(v.name));
          if (arrays_.count(name) || uniform_.count(name) || params_.count(name)) return false;
          if (!assigned_names(p_, v.init, false).empty()) return false;
          uniform_.insert(name);
        }
      }
      if (!assigned_names(p_, s->cond, false).empty()) return false;
      // A loop of constant trip count (`k < 16`) is unrolled on the per-item path, which then
      // vectorizes across work-items already (weft calibrate's kernels): only a bound that
      // comes from outside the loop makes the interchange worth it.
      bool dynamic = false;
      for (std::size_t j = s->cond.begin; j < s->cond.end; ++j) {
        if (p_.tokens[j].kind != TokenKind::identifier) continue;
        const auto t = text(j);
        bool own = false;
        for (std::size_t i = s->init.begin; i < s->init.end; ++i) own = own || text(i) == t;
        dynamic = dynamic || !own;
      }
      const auto body = level_of(s->children[0]);
      for (const Stmt* b : body) {
        if (dynamic && !uniform_decl(*b) && !splittable(*b)) any_split_ = true;
      }
      if (!scan(body, true)) return false;
    } else if (uniform_assign(*s)) {
      uniform_assigns_.insert(s);
    } else {
      if (in_loop) loop_items_.push_back(s);
      nested(*s, true);
    }
  }
  return true;
}

void Strip::writes(const Stmt& s, std::set<std::string>& out) const {
  if (s.kind == StmtKind::simple) {
    if (split_decls_.count(&s)) {
      const auto d = split_declaration(p_, s.tokens);
      for (const auto& v : d->items) {
        for (const auto& n : assigned_names(p_, v.init, false)) out.insert(n);
      }
    } else if (!s.is_declaration) {
      for (const auto& n : assigned_names(p_, s.tokens, false)) out.insert(n);
    } else {
      for (const auto& n : assigned_names(p_, s.tokens, true)) out.insert(n);
    }
  }
  for (const TokenRange r : {s.init, s.inc}) {
    for (const auto& n : assigned_names(p_, r, false)) out.insert(n);
  }
  for (const auto& c : s.children) writes(c, out);
}

std::string Strip::render(const Stmt& s, int label) const {
  std::vector<Edit> edits;
  const std::size_t base = p_.tokens[s.tokens.begin].begin;
  const auto at = [&](std::size_t tok) { return p_.tokens[tok].begin - base; };
  const auto after = [&](std::size_t tok) { return p_.tokens[tok].end - base; };
  if (split_decls_.count(&s)) {
    std::string assign;
    const auto d = split_declaration(p_, s.tokens);
    for (const auto& v : d->items) {
      if (v.init.empty() || !arrays_.at(std::string(text(v.name))).array()) continue;
      assign += std::string(text(v.name)) + " = " + slice(v.init) + "; ";
    }
    return assign.empty() ? ";" : assign;
  }
  for (std::size_t j = s.tokens.begin; j < s.tokens.end; ++j) {
    const auto t = text(j);
    if (t == "return") {
      edits.push_back({at(j), after(j + 1), "{ weft__done[weft__l] = 1; goto weft__next_" + std::to_string(label) + "; }"});
      continue;
    }
    if (t != "[") continue;
    // A subscript of signed int arithmetic in 64 bits (same value where the int one is defined).
    std::size_t e = j + 1;
    bool widen = true, names = false;
    for (; e < s.tokens.end && text(e) != "]"; ++e) {
      const auto u = text(e);
      const auto& tok = p_.tokens[e];
      if (tok.kind == TokenKind::identifier) {
        const std::string n(u);
        const auto a = arrays_.find(n);
        const bool is_int = (int_params_.count(n) || (a != arrays_.end() && a->second.is_int)) && !nested_.count(n);
        if (!is_int || (e > j + 1 && (text(e - 1) == "." || text(e - 1) == "->"))) widen = false;
        names = true;
      } else if (tok.kind == TokenKind::number) {
        for (char c : u) widen = widen && c >= '0' && c <= '9';
      } else if (u != "+" && u != "-" && u != "*" && u != "(" && u != ")") {
        widen = false;
      }
    }
    if (!widen || !names || e >= s.tokens.end) continue;
    for (std::size_t i = j + 1; i < e; ++i) {
      if (p_.tokens[i].kind != TokenKind::identifier) continue;
      const auto a = arrays_.find(std::string(text(i)));
      const bool lane = a != arrays_.end() && a->second.remat == 0;
      edits.push_back({at(i), after(i),
                       lane ? "((long)weft_wi0.gid[0] + weft__l)" : "((long)" + std::string(text(i)) + ")"});
    }
    j = e;
  }
  return apply_edits(slice(s.tokens), std::move(edits));
}

void Strip::flush(std::vector<const Stmt*>& group, const std::string& exit, std::string& out) {
  if (group.empty()) return;
  const int label = labels_++;
  bool returns = false;
  std::string body;
  std::set<std::string> used;
  for (const Stmt* s : group) {
    returns = returns || has_return(*s);
    body += "\n#line " + std::to_string(s->line) + " \"" + source_file_name + "\"\n" + render(*s, label);
    for (std::size_t j = s->tokens.begin; j < s->tokens.end; ++j) {
      if (p_.tokens[j].kind == TokenKind::identifier) used.insert(std::string(text(j)));
    }
  }
  out += "\nfor (int weft__l = 0; weft__l < 64; ++weft__l) {\n"
         "::weft_host::WorkItem weft_wi = weft_wi0; weft_wi.gid[0] += weft__l; (void)weft_wi;\n";
  for (const auto& [name, v] : arrays_) {
    if (!used.count(name) || v.strip) continue;
    if (v.remat == 0) {
      out += "const " + v.type + name + " = " + (v.type == "int " ? "(int)weft_wi0.gid[0] + weft__l;\n"
                                                              : "(" + v.type + ")(weft_wi0.gid[0] + weft__l);\n");
    } else {
      out += v.type + "& " + name + " = weft__a_" + name + "[weft__l];\n";
    }
  }
  out += "if (!weft__done[weft__l]) {" + body + "\n}\n";
  if (returns) out += "weft__next_" + std::to_string(label) + ":;\n";
  out += "}\n";
  if (returns) {
    out += "{ int weft__live = 0; for (int weft__l = 0; weft__l < 64; ++weft__l) weft__live |= !weft__done[weft__l]; "
           "if (!weft__live) " + exit + " }\n";
  }
  group.clear();
}

void Strip::emit_level(const std::vector<const Stmt*>& level, const std::string& exit, std::string& out) {
  std::vector<const Stmt*> group;
  for (const Stmt* s : level) {
    if (split_decls_.count(s)) {
      bool lane = false;
      const auto d = split_declaration(p_, s->tokens);
      for (const auto& v : d->items) {
        const std::string name(text(v.name));
        const Var& var = arrays_.at(name);
        if (!var.strip) {
          lane = lane || var.array();
          continue;
        }
        flush(group, exit, out);
        out += "\n#line " + std::to_string(s->line) + " \"" + source_file_name + "\"\n" + var.type + name + " = " +
               strip_value(var) + ";\n";
      }
      if (lane) group.push_back(s);
    } else if (uniform_decl(*s) || uniform_assigns_.count(s)) {
      flush(group, exit, out);
      out += "\n#line " + std::to_string(s->line) + " \"" + source_file_name + "\"\n" + slice(s->tokens) + "\n";
    } else if (split_loops_.count(s)) {
      flush(group, exit, out);
      out += "\n#line " + std::to_string(s->line) + " \"" + source_file_name + "\"\nfor (" + slice(s->init) + "; " +
             slice(s->cond) + "; " + slice(s->inc) + ") {\n";
      emit_level(level_of(s->children[0]), "break;", out);
      out += "}\n";
      if (has_return(*s)) {
        out += "{ int weft__live = 0; for (int weft__l = 0; weft__l < 64; ++weft__l) weft__live |= "
               "!weft__done[weft__l]; if (!weft__live) " + exit + " }\n";
      }
    } else {
      group.push_back(s);
    }
  }
  flush(group, exit, out);
}

std::optional<std::string> Strip::run(const std::string& symbol) {
  if (!k_.group_feature.empty() || p_.helpers_use_work_items() || !gate_tokens()) return std::nullopt;
  for (std::size_t i = 0; i < k_.param_tokens.size(); ++i) {
    const auto [first, last] = k_.param_tokens[i];
    const std::string name(text(last));
    params_.insert(name);
    bool is_int = false, other = false;
    for (std::size_t j = first; j < last; ++j) {
      const auto t = text(j);
      if (t == "int") is_int = true;
      else if (t != "const" && t != "__private" && t != "private" && t != "signed") other = true;
    }
    if (is_int && !other) int_params_.insert(name);
  }
  Stmt body;
  try {
    body = parse_body(p_, k_);
  } catch (...) {
    return std::nullopt;
  }
  varying_ = varying_variables(p_, body);
  const auto top = level_of(body);
  if (!scan(top, false) || !any_split_ || split_loops_.empty()) return std::nullopt;
  // What per-item statements write must not be a strip-uniform variable or a kernel parameter
  // (they run once per lane, and a strip has one copy of each parameter).
  std::set<std::string> all;
  std::vector<const Stmt*> todo(top.begin(), top.end());
  while (!todo.empty()) {
    const Stmt* s = todo.back();
    todo.pop_back();
    if (split_loops_.count(s)) {
      for (const Stmt* c : level_of(s->children[0])) todo.push_back(c);
      continue;
    }
    if ((uniform_decl(*s) && !split_decls_.count(s)) || uniform_assigns_.count(s)) continue;
    std::set<std::string> w;
    writes(*s, w);
    for (const auto& n : w) {
      if (uniform_.count(n) || params_.count(n)) return std::nullopt;
      all.insert(n);
    }
  }
  // Written per item, or computed from a value that differs per lane: one value per lane.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& [name, v] : arrays_) {
      if (v.array()) continue;
      if (all.count(name) || nested_.count(name) || (v.strip && v.remat < 0 && !strip_init(v.init))) {
        v.remat = -1;
        v.strip = false;
        changed = true;
      }
    }
  }
  for (const Stmt* s : loop_items_) {
    if (lane_reads(s->tokens)) return std::nullopt;
  }
  std::string out = "\nstatic inline __attribute__((always_inline)) void " + symbol +
                    "__strip(::weft_host::WorkItem weft_wi0, int weft__cnt";
  if (!k_.params.empty()) out += ", " + slice({k_.params_open + 1, k_.params_close});
  out += ") {\n";
  for (const auto& [name, v] : arrays_) {
    if (v.array()) out += v.type + "weft__a_" + name + "[64];\n";
  }
  out += "const ::weft_host::WorkItem weft_wi = weft_wi0; (void)weft_wi;\n";
  out += "unsigned char weft__done[64];\nfor (int weft__l = 0; weft__l < 64; ++weft__l) weft__done[weft__l] = "
         "weft__l >= weft__cnt;\n";
  emit_level(top, "return;", out);
  out += "}\n";
  return out;
}

}  // namespace

std::optional<StripKernel> strip_kernel(const ParsedSource& parsed, const Function& kernel,
                                        const std::vector<Edit>& edits, const std::string& symbol) {
  const std::size_t begin = parsed.tokens[kernel.qualifier_token].begin;
  const std::size_t end = parsed.tokens[kernel.body_close].end;
  for (const auto& e : edits) {
    if (e.begin < end && e.end >= begin && !(e.begin == e.end && (e.begin == begin || e.begin == end))) {
      return std::nullopt;
    }
  }
  Strip s(parsed, kernel);
  auto text = s.run(symbol);
  if (!text) return std::nullopt;
  return StripKernel{std::move(*text)};
}

}  // namespace weft::detail::dialect
