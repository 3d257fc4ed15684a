#include "dialect/statements.hpp"

#include <set>
#include <string>

#include "weft/error.hpp"

namespace weft::detail::dialect {

bool is_barrier_name(std::string_view s) { return s == "barrier" || s == "work_group_barrier"; }

bool is_group_function(std::string_view s) {
  if (s.size() < 13 || (s[0] != 'w' && s[0] != 'a')) return false;  // most names, at one compare
  return s.rfind("work_group_reduce_", 0) == 0 || s.rfind("work_group_scan_", 0) == 0 ||
         s == "work_group_broadcast" || s == "work_group_any" || s == "work_group_all" ||
         s == "async_work_group_copy" || s == "async_work_group_strided_copy";
}

namespace {

bool is_scalar_type_name(std::string_view s) {
  static const std::set<std::string_view> names = {
      "void", "bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
      "float", "double", "half", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "signed",
      "unsigned", "event_t"};
  if (names.count(s)) return true;
  // Vector types: float4, uchar16 ...
  for (std::string_view base : {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float",
                                "double", "half"}) {
    if (s.size() > base.size() && s.substr(0, base.size()) == base) {
      const auto n = s.substr(base.size());
      if (n == "2" || n == "3" || n == "4" || n == "8" || n == "16") return true;
    }
  }
  return false;
}

bool is_decl_keyword(std::string_view s) {
  return s == "const" || s == "volatile" || s == "__local" || s == "local" || s == "__private" ||
         s == "private" || s == "__global" || s == "global" || s == "__constant" || s == "constant" ||
         s == "static" || s == "struct" || s == "union" || s == "enum" || s == "typedef" ||
         s == "restrict" || s == "__restrict";
}

class BodyParser {
 public:
  BodyParser(const ParsedSource& p, const Function& f) : p_(p), f_(f) {
    // Type names the source defines (typedef ... Name;), for telling declarations apart.
    const auto& toks = p.tokens;
    for (std::size_t i = 0; i < toks.size(); ++i) {
      if (toks[i].in_directive || text(i) != "typedef") continue;
      int depth = 0;
      std::size_t j = i + 1;
      for (; j < toks.size(); ++j) {
        const auto t = text(j);
        if (t == "{" || t == "(" || t == "[") ++depth;
        else if (t == "}" || t == ")" || t == "]") --depth;
        else if (t == ";" && depth == 0) break;
      }
      if (j < toks.size() && j > i + 1 && toks[j - 1].kind == TokenKind::identifier) {
        type_names_.insert(std::string(text(j - 1)));
      }
      i = j;
    }
  }

  Stmt body() {
    std::size_t i = f_.body_open;
    Stmt s = statement(i);
    return s;
  }

  bool declaration(TokenRange r) const {
    if (r.empty()) return false;
    const auto t0 = text(r.begin);
    if (is_decl_keyword(t0) || is_scalar_type_name(t0) || type_names_.count(std::string(t0))) return true;
    if (tok(r.begin).kind != TokenKind::identifier || r.begin + 1 >= r.end) return false;
    const auto t1 = text(r.begin + 1);
    if (tok(r.begin + 1).kind == TokenKind::identifier) return true;  // `MyType x`
    if (t1 == "*" && r.begin + 3 < r.end && tok(r.begin + 2).kind == TokenKind::identifier) {
      const auto t3 = text(r.begin + 3);
      return t3 == "=" || t3 == ";" || t3 == "," || t3 == "[";
    }
    return false;
  }

 private:
  const Token& tok(std::size_t i) const { return p_.tokens[i]; }
  std::string_view text(std::size_t i) const { return p_.tokens[i].text(p_.source); }
  int line(std::size_t i) const { return p_.tokens[i].line; }

  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    throw BuildError("kernel '" + f_.name + "', line " + std::to_string(line(at)) + ": " + what, "",
                     std::string(p_.source));
  }

  // The index of the token that closes the bracket opened at i.
  std::size_t match(std::size_t i) const {
    const auto open = text(i);
    const std::string_view close = open == "(" ? ")" : open == "[" ? "]" : "}";
    int depth = 0;
    for (std::size_t j = i; j < f_.body_close + 1; ++j) {
      if (tok(j).in_directive) continue;
      const auto t = text(j);
      if (t == open) ++depth;
      else if (t == close && --depth == 0) return j;
    }
    fail(i, "unbalanced '" + std::string(open) + "'");
  }

  // The ';' ending the statement that starts at i, skipping nested brackets.
  std::size_t semicolon(std::size_t i) const {
    for (std::size_t j = i; j < f_.body_close; ++j) {
      if (tok(j).in_directive) continue;
      const auto t = text(j);
      if (t == "(" || t == "[" || t == "{") j = match(j);
      else if (t == ";") return j;
      else if (t == "}") break;
    }
    fail(i, "a statement without its ';'");
  }

  std::size_t expect(std::size_t i, std::string_view what) const {
    if (i >= f_.body_close || text(i) != what) fail(i < f_.body_close ? i : f_.body_close, "expected '" + std::string(what) + "'");
    return i;
  }

  bool sync_in(TokenRange r, bool group_functions = false) const {
    for (std::size_t j = r.begin; j < r.end; ++j) {
      if (tok(j).kind == TokenKind::identifier && j + 1 < r.end && text(j + 1) == "(" &&
          (is_barrier_name(text(j)) || (group_functions && is_group_function(text(j))))) {
        return true;
      }
    }
    return false;
  }

  Stmt statement(std::size_t& i) {
    Stmt s;
    s.tokens.begin = i;
    s.line = line(i);
    if (tok(i).in_directive) {
      s.kind = StmtKind::directive;
      std::size_t j = i + 1;
      while (j < f_.body_close && tok(j).in_directive && !tok(j).directive_start) ++j;
      s.tokens.end = i = j;
      return s;
    }
    const auto t = text(i);
    auto paren = [&](std::size_t at) {  // `( ... )` at `at`: its inside
      expect(at, "(");
      const std::size_t close = match(at);
      return TokenRange{at + 1, close};
    };
    auto child = [&](std::size_t& j) {
      s.children.push_back(statement(j));
      s.has_sync = s.has_sync || s.children.back().has_sync;
    };
    if (t == "{") {
      s.kind = StmtKind::block;
      const std::size_t close = match(i);
      std::size_t j = i + 1;
      while (j < close) child(j);
      i = close + 1;
    } else if (t == "if") {
      s.kind = StmtKind::if_;
      s.cond = paren(i + 1);
      std::size_t j = s.cond.end + 1;
      child(j);
      if (j < f_.body_close && text(j) == "else") {
        ++j;
        s.has_else = true;
        child(j);
      }
      i = j;
    } else if (t == "for") {
      s.kind = StmtKind::for_;
      const TokenRange all = paren(i + 1);
      std::size_t a = all.begin;
      for (; a < all.end && text(a) != ";"; ++a) {
        if (text(a) == "(" || text(a) == "[" || text(a) == "{") a = match(a);
      }
      std::size_t b = a + 1;
      for (; b < all.end && text(b) != ";"; ++b) {
        if (text(b) == "(" || text(b) == "[" || text(b) == "{") b = match(b);
      }
      if (a >= all.end || b >= all.end) fail(i, "a for statement without its two ';'");
      s.init = {all.begin, a};
      s.cond = {a + 1, b};
      s.inc = {b + 1, all.end};
      std::size_t j = all.end + 1;
      child(j);
      i = j;
    } else if (t == "while") {
      s.kind = StmtKind::while_;
      s.cond = paren(i + 1);
      std::size_t j = s.cond.end + 1;
      child(j);
      i = j;
    } else if (t == "do") {
      s.kind = StmtKind::do_;
      std::size_t j = i + 1;
      child(j);
      expect(j, "while");
      s.cond = paren(j + 1);
      i = expect(s.cond.end + 1, ";") + 1;
    } else if (t == "switch") {
      s.kind = StmtKind::switch_;
      s.cond = paren(i + 1);
      std::size_t j = s.cond.end + 1;
      child(j);
      i = j;
    } else if (t == ";") {
      s.kind = StmtKind::empty;
      ++i;
    } else if (t == "return" || t == "break" || t == "continue" || t == "goto") {
      s.kind = t == "return" ? StmtKind::return_ : t == "break" ? StmtKind::break_
             : t == "continue" ? StmtKind::continue_ : StmtKind::jump;
      i = semicolon(i) + 1;
    } else if (t == "case" || t == "default" ||
               (tok(i).kind == TokenKind::identifier && i + 1 < f_.body_close && text(i + 1) == ":")) {
      s.kind = StmtKind::jump;  // a label
      std::size_t j = i + 1;
      while (j < f_.body_close && text(j) != ":") ++j;
      i = j + 1;
    } else {
      const std::size_t end = semicolon(i) + 1;
      const TokenRange r{i, end};
      if (tok(i).kind == TokenKind::identifier && is_barrier_name(t) && i + 1 < end && text(i + 1) == "(" &&
          match(i + 1) + 2 == end) {
        s.kind = StmtKind::barrier;
        s.has_sync = true;
      } else {
        s.kind = StmtKind::simple;
        s.is_declaration = declaration(r);
        s.group_call = sync_in(r, true);
        s.has_sync = s.group_call;
        if (sync_in(r)) {
          fail(i, "barrier() must be a statement of its own (`barrier(CLK_LOCAL_MEM_FENCE);`), not part of an "
                  "expression");
        }
      }
      i = end;
    }
    s.tokens.end = i;
    if (s.has_sync && (s.kind == StmtKind::switch_)) {
      fail(s.tokens.begin, "a barrier inside a switch statement; the host backend needs barriers in blocks, "
                           "if/else and loops (write the cases as if/else)");
    }
    if (s.kind != StmtKind::block && s.kind != StmtKind::switch_ &&
        s.kind != StmtKind::barrier && (sync_in(s.cond, true) || sync_in(s.init, true) || sync_in(s.inc, true))) {
      fail(s.tokens.begin, "a barrier or work-group function inside a loop's or if's condition; compute it into "
                           "a variable before the statement");
    }
    return s;
  }

  const ParsedSource& p_;
  const Function& f_;
  std::set<std::string> type_names_;
};

}  // namespace

Stmt parse_body(const ParsedSource& parsed, const Function& f) { return BodyParser(parsed, f).body(); }

bool looks_like_declaration(const ParsedSource& parsed, TokenRange range) {
  if (parsed.functions.empty()) return false;
  return BodyParser(parsed, parsed.functions.front()).declaration(range);
}

std::optional<Declaration> split_declaration(const ParsedSource& parsed, TokenRange range) {
  const auto text = [&](std::size_t i) { return parsed.tokens[i].text(parsed.source); };
  const auto skip_group = [&](std::size_t i) {  // i at an opening bracket: its closing one
    const auto open = text(i);
    const std::string_view close = open == "(" ? ")" : open == "[" ? "]" : "}";
    int depth = 0;
    for (std::size_t j = i; j < range.end; ++j) {
      if (text(j) == open) ++depth;
      else if (text(j) == close && --depth == 0) return j;
    }
    return range.end;
  };
  Declaration d;
  std::size_t i = range.begin;
  bool first = true;
  while (i < range.end) {
    // The name: the last identifier before '=', ',', ';' or '[' at depth 0.
    std::size_t j = i;
    for (; j < range.end; ++j) {
      const auto t = text(j);
      if (t == "__attribute__" && j + 1 < range.end && text(j + 1) == "(") {
        j = skip_group(j + 1);
        continue;
      }
      if (t == "(" || t == "{") return std::nullopt;
      if (t == "=" || t == "," || t == ";" || t == "[") break;
    }
    if (j >= range.end || j == i || parsed.tokens[j - 1].kind != TokenKind::identifier) return std::nullopt;
    Declarator v;
    v.name = j - 1;
    std::size_t ptr_begin = i;
    if (first) {
      std::size_t s = i;
      while (s < v.name && text(s) != "*") ++s;
      if (s == v.name && s == i) return std::nullopt;  // a name without a type
      d.specs = {i, s};
      ptr_begin = s;
      first = false;
    }
    v.ptrs = {ptr_begin, v.name};
    std::size_t k = j;
    while (k < range.end && text(k) == "[") k = skip_group(k) + 1;
    v.suffix = {j, k};
    if (k < range.end && text(k) == "=") {
      std::size_t e = k + 1;
      for (; e < range.end; ++e) {
        const auto t = text(e);
        if (t == "(" || t == "[" || t == "{") e = skip_group(e);
        else if (t == "," || t == ";") break;
      }
      v.init = {k + 1, e};
      k = e;
    }
    d.items.push_back(v);
    if (k >= range.end) return std::nullopt;
    if (text(k) == ";") break;
    if (text(k) != ",") return std::nullopt;
    i = k + 1;
  }
  if (d.items.empty()) return std::nullopt;
  return d;
}

}  // namespace weft::detail::dialect
