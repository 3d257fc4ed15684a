#include "dialect/uniformity.hpp"

#include <optional>

#include "weft/error.hpp"

namespace weft::detail::dialect {

namespace {

// The work-item functions whose value differs between the work-items of one group.
bool is_varying_function(std::string_view s) { return s == "get_global_id" || s == "get_local_id"; }

class Analysis {
 public:
  explicit Analysis(const ParsedSource& p) : p_(p) {
    for (const auto& f : p.functions) {
      if (!f.is_kernel && f.uses_work_item_functions) helpers_.insert(f.name);
    }
  }

  std::string_view text(std::size_t i) const { return p_.tokens[i].text(p_.source); }

  // The first token of range that makes it differ between work-items, if any.
  std::optional<std::size_t> varying_in(TokenRange r) const {
    for (std::size_t j = r.begin; j < r.end; ++j) {
      const Token& t = p_.tokens[j];
      if (t.kind != TokenKind::identifier || t.in_directive) continue;
      if (j > r.begin && (text(j - 1) == "." || text(j - 1) == "->")) continue;  // a member
      const auto s = text(j);
      if (s == "weft_bce") {
        // A bounds check's own arguments (dialect/bounds_check.hpp): the record, the line
        // and the work-item it reports, up to the end of its call, are not the kernel's.
        for (int depth = 0; j + 1 < r.end; ++j) {
          if (text(j + 1) == "(") ++depth;
          if (text(j + 1) == ")" && depth-- == 0) break;
        }
        continue;
      }
      const bool called = j + 1 < r.end && text(j + 1) == "(";
      if (called && (is_varying_function(s) || helpers_.count(std::string(s)))) return j;
      if (!called && varying.count(std::string(s))) return j;
    }
    return std::nullopt;
  }

  void mark(TokenRange r, bool declaration) {
    for (auto& n : assigned_names(p_, r, declaration)) {
      if (varying.insert(n).second) changed_ = true;
    }
  }

  // One pass over s; control is true under control flow that differs between work-items.
  // Returns true when s may leave its innermost loop differently per work-item (a break or
  // continue under varying control).
  bool walk(const Stmt& s, bool control) {
    switch (s.kind) {
      case StmtKind::simple:
        if (control || varying_in(s.tokens)) mark(s.tokens, s.is_declaration);
        return false;
      case StmtKind::block: {
        bool exits = false;
        for (const auto& c : s.children) exits = walk(c, control) || exits;
        return exits;
      }
      case StmtKind::if_: {
        const bool c = control || varying_in(s.cond).has_value();
        bool exits = false;
        for (const auto& ch : s.children) exits = walk(ch, c) || exits;
        return exits;
      }
      case StmtKind::switch_:
        return walk(s.children[0], control || varying_in(s.cond).has_value());
      case StmtKind::for_:
      case StmtKind::while_:
      case StmtKind::do_: {
        if (!s.init.empty() && (control || varying_in(s.init))) mark(s.init, true);
        bool c = control || varying_in(s.cond).has_value() || varying_in(s.inc).has_value() ||
                 varying_loops.count(&s);
        if (walk(s.children[0], c) && !varying_loops.count(&s)) {
          varying_loops.insert(&s);
          changed_ = true;
          c = true;
        }
        if (!s.inc.empty() && (c || varying_in(s.inc))) mark(s.inc, false);
        return false;
      }
      case StmtKind::break_:
      case StmtKind::continue_:
        return control;
      default:
        return false;
    }
  }

  void run(const Stmt& body) {
    do {
      changed_ = false;
      walk(body, false);
    } while (changed_);
  }

  std::set<std::string> varying;
  std::set<const Stmt*> varying_loops;  // left by a break or continue under varying control

 private:
  const ParsedSource& p_;
  std::set<std::string> helpers_;
  bool changed_ = false;
};

int first_barrier_line(const ParsedSource& p, const Stmt& s) {
  if (s.kind == StmtKind::barrier) return s.line;
  for (const auto& c : s.children) {
    if (c.has_sync) return first_barrier_line(p, c);
  }
  return s.line;
}

void check(const Analysis& a, const ParsedSource& p, const Function& k, const Stmt& s) {
  if (!s.has_sync) return;
  std::optional<std::size_t> why;
  if (s.kind == StmtKind::if_ || s.kind == StmtKind::while_ || s.kind == StmtKind::do_ || s.kind == StmtKind::for_) {
    why = a.varying_in(s.cond);
    if (!why) why = a.varying_in(s.inc);
  }
  const bool loop_left = a.varying_loops.count(&s) != 0;
  if (why || loop_left) {
    std::string reason = !loop_left ? "the condition at line " + std::to_string(p.tokens[*why].line) + " depends on '" +
                                   std::string(a.text(*why)) + "', which differs between work-items"
                             : "a break or continue inside the loop depends on the work-item";
    throw BuildError("kernel '" + k.name + "', line " + std::to_string(first_barrier_line(p, s)) +
                         ": barrier() under control flow that differs between the work-items of a group (" + reason +
                         "); OpenCL requires every work-item of a group to reach a barrier, or none: move it out "
                         "of the condition",
                     "", std::string(p.source));
  }
  for (const auto& c : s.children) check(a, p, k, c);
}

}  // namespace

std::set<std::string> assigned_names(const ParsedSource& p, TokenRange r, bool declaration) {
  std::set<std::string> out;
  const auto text = [&](std::size_t i) { return p.tokens[i].text(p.source); };
  const auto adjacent = [&](std::size_t a, std::size_t b) { return p.tokens[a].end == p.tokens[b].begin; };
  if (declaration) {
    if (auto d = split_declaration(p, r)) {
      for (const auto& v : d->items) out.insert(std::string(text(v.name)));
    }
  }
  for (std::size_t j = r.begin; j < r.end; ++j) {
    if (p.tokens[j].kind != TokenKind::identifier) continue;
    if (j > r.begin && (text(j - 1) == "." || text(j - 1) == "->")) continue;
    const std::string name(text(j));
    // ++x / --x
    if (j >= r.begin + 2 && (text(j - 1) == "+" || text(j - 1) == "-") && text(j - 2) == text(j - 1) &&
        adjacent(j - 2, j - 1)) {
      out.insert(name);
      continue;
    }
    // Past indexing and member selection to what follows the lvalue.
    // A write through a subscript or a pointer (`tile[i] = `, `p->x = `) goes to memory, whose
    // cells the analysis does not follow (a __local array written per work-item is read
    // alike by all after a barrier); it does not make the name itself differ.
    std::size_t k = j + 1;
    bool memory = false;
    while (k < r.end) {
      if (text(k) == "[") {
        memory = true;
        int depth = 0;
        for (; k < r.end; ++k) {
          if (text(k) == "[") ++depth;
          else if (text(k) == "]" && --depth == 0) break;
        }
        ++k;
      } else if ((text(k) == "." || text(k) == "->") && k + 1 < r.end) {
        memory = memory || text(k) == "->";
        k += 2;
      } else {
        break;
      }
    }
    if (k >= r.end) continue;
    const auto t = text(k);
    if ((t == "+" || t == "-") && k + 1 < r.end && text(k + 1) == t && adjacent(k, k + 1)) {
      out.insert(name);  // x++
      continue;
    }
    // An assignment operator: '=' not part of '==', '<=', '>=', '!=', or op= / <<= / >>=.
    std::size_t eq = k;
    if (t == "<" || t == ">") {
      if (k + 2 < r.end && text(k + 1) == t && text(k + 2) == "=" && adjacent(k, k + 1) && adjacent(k + 1, k + 2)) {
        eq = k + 2;
      } else {
        continue;
      }
    } else if ((t == "+" || t == "-" || t == "*" || t == "/" || t == "%" || t == "&" || t == "|" || t == "^") &&
               k + 1 < r.end && text(k + 1) == "=" && adjacent(k, k + 1)) {
      eq = k + 1;
    }
    if (text(eq) != "=") continue;
    if (eq + 1 < r.end && text(eq + 1) == "=" && adjacent(eq, eq + 1)) continue;  // ==
    if (eq == k && k > 0 && (text(k - 1) == "!" || text(k - 1) == "=") && adjacent(k - 1, k)) continue;
    if (!memory) out.insert(name);
  }
  return out;
}

std::set<std::string> varying_variables(const ParsedSource& parsed, const Stmt& body) {
  Analysis a(parsed);
  a.run(body);
  return a.varying;
}

void check_uniform_barriers(const ParsedSource& parsed, const Function& kernel, const Stmt& body) {
  Analysis a(parsed);
  a.run(body);
  check(a, parsed, kernel, body);
}

}  // namespace weft::detail::dialect
