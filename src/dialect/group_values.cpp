#include "dialect/group_values.hpp"

#include "dialect/uniformity.hpp"

namespace weft::detail::dialect {

namespace {

bool is_uniform_work_item_function(std::string_view s) {
  return s == "get_local_size" || s == "get_group_id" || s == "get_num_groups" || s == "get_global_size" ||
         s == "get_work_dim" || s == "get_global_offset" || s == "get_enqueued_local_size";
}

bool is_pure_builtin(std::string_view s) {
  return s == "min" || s == "max" || s == "clamp" || s == "abs" || s == "mad24" || s == "mul24" || s == "sizeof";
}

bool is_cast_type(std::string_view s) {
  return s == "int" || s == "uint" || s == "long" || s == "ulong" || s == "short" || s == "ushort" ||
         s == "char" || s == "uchar" || s == "size_t" || s == "ptrdiff_t" || s == "unsigned" || s == "signed" ||
         s == "float" || s == "double" || s == "bool";
}

void collect(const ParsedSource& p, const Stmt& s, std::set<std::string>& out) {
  const auto add = [&](TokenRange r, bool declaration) {
    if (r.empty()) return;
    std::set<std::string> names = assigned_names(p, r, false);
    if (declaration) {
      // A declarator's own `= init` is its definition, not a reassignment.
      if (auto d = split_declaration(p, r)) {
        for (const auto& v : d->items) {
          if (!v.init.empty()) names.erase(std::string(p.tokens[v.name].text(p.source)));
          for (const auto& n : assigned_names(p, v.init, false)) names.insert(n);
        }
      }
    }
    out.insert(names.begin(), names.end());
    for (std::size_t j = r.begin; j + 1 < r.end; ++j) {
      if (p.tokens[j].text(p.source) == "&" && p.tokens[j + 1].kind == TokenKind::identifier) {
        out.insert(std::string(p.tokens[j + 1].text(p.source)));
      }
    }
  };
  switch (s.kind) {
    case StmtKind::simple:
      add(s.tokens, s.is_declaration);
      break;
    case StmtKind::for_:
      add({s.init.begin, s.init.end + 1}, looks_like_declaration(p, {s.init.begin, s.init.end + 1}));
      add(s.cond, false);
      add(s.inc, false);
      break;
    case StmtKind::if_:
    case StmtKind::while_:
    case StmtKind::do_:
    case StmtKind::switch_:
      add(s.cond, false);
      break;
    default:
      break;
  }
  for (const auto& c : s.children) collect(p, c, out);
}

}  // namespace

std::set<std::string> reassigned_names(const ParsedSource& parsed, const Stmt& body) {
  std::set<std::string> out;
  collect(parsed, body, out);
  return out;
}

std::set<std::string> constant_parameters(const ParsedSource& parsed, const Function& k,
                                          const std::set<std::string>& reassigned) {
  (void)parsed;
  std::set<std::string> out;
  for (const auto& prm : k.params) {
    if (!prm.is_pointer && !reassigned.count(prm.name)) out.insert(prm.name);
  }
  return out;
}

bool pure_expression(const ParsedSource& p, TokenRange r, const std::set<std::string>& names, bool varying,
                     const std::set<std::string>* assignable) {
  const auto text = [&](std::size_t i) { return p.tokens[i].text(p.source); };
  if (r.empty()) return true;
  std::set<std::string> written = assigned_names(p, r, false);
  for (const auto& w : written) {
    if (!assignable || !assignable->count(w)) return false;
  }
  for (std::size_t j = r.begin; j < r.end; ++j) {
    const Token& t = p.tokens[j];
    if (t.in_directive || t.kind == TokenKind::string || t.kind == TokenKind::character) return false;
    if (t.kind == TokenKind::punct) {
      const auto s = text(j);
      if (s == "[" || s == "->" || s == "." || s == "{" || s == "}" || s == ";") return false;
      continue;
    }
    if (t.kind != TokenKind::identifier) continue;
    const auto s = text(j);
    const bool called = j + 1 < r.end && text(j + 1) == "(";
    if (called) {
      if (is_uniform_work_item_function(s) || is_pure_builtin(s)) continue;
      if (varying && (s == "get_local_id" || s == "get_global_id")) continue;
      return false;
    }
    if (is_cast_type(s) || names.count(std::string(s))) continue;
    return false;
  }
  return true;
}

}  // namespace weft::detail::dialect
