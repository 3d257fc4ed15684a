#include "dialect/group_plan.hpp"

#include <map>

#include "dialect/keywords.hpp"
#include "dialect/translate.hpp"

namespace weft::detail::dialect::group {

// The source of bytes [b, e) with the translation's edits inside it and extra ones.
std::string Plan::render(std::size_t b, std::size_t e, const std::vector<Edit>& extra) const {
  std::vector<Edit> inside;
  for (const auto* list : {&global_, &extra}) {
    for (const auto& ed : *list) {
      if (ed.begin >= b && ed.end <= e && !(ed.begin == e && ed.end == e)) {
        inside.push_back({ed.begin - b, ed.end - b, ed.text});
      }
    }
  }
  return apply_edits(p_.source.substr(b, e - b), std::move(inside));
}

std::string Plan::line_mark(std::size_t token) const {
  return "\n#line " + std::to_string(p_.tokens[token].line) + " \"" + source_file_name + "\"\n";
}

// The statement declares a variable whose storage is not its own declaration's.
bool Plan::statement_moved(TokenRange stmt) const {
  for (const auto& d : decls_) {
    if ((d.keep == Keep::per_item || d.keep == Keep::shared) && d.statement.begin == stmt.begin) return true;
  }
  return false;
}
bool Plan::statement_typed(TokenRange stmt) const {
  for (const auto& d : decls_) {
    if (d.keep != Keep::plain && d.statement.begin == stmt.begin) return true;
  }
  return false;
}

int Plan::decl_of(TokenRange stmt, std::size_t index) const {
  for (std::size_t i = 0; i < decls_.size(); ++i) {
    if (decls_[i].statement.begin == stmt.begin && decls_[i].index == index) return static_cast<int>(i);
  }
  return -1;
}

// `typedef <specs> <ptrs> weft__T<n> <suffix>;` for every declarator of a statement whose
// variables (some of them) move into per-work-item arrays.
std::string Plan::storage() const {
  std::string out;
  std::set<std::size_t> done;
  for (std::size_t i = 0; i < decls_.size(); ++i) {
    const Decl& d = decls_[i];
    if (!statement_typed(d.statement)) continue;
    const auto parts = split_declaration(p_, d.statement);
    const Declarator& v = parts->items[d.index];
    const std::string n = std::to_string(i);
    out += line_mark(d.statement.begin) + "typedef ";
    if (!parts->specs.empty()) out += render(byte_begin(parts->specs), byte_end(parts->specs)) + " ";
    if (!v.ptrs.empty() && v.ptrs.begin >= parts->specs.end) out += render(byte_begin(v.ptrs), byte_end(v.ptrs)) + " ";
    out += "weft__T" + n;
    if (!v.suffix.empty()) out += render(byte_begin(v.suffix), byte_end(v.suffix));
    out += ";\ntypedef ::weft_host::unconst_t<weft__T" + n + "> weft__U" + n + ";\n";
    if (d.keep == Keep::per_item) {
      out += "weft__U" + n + "* const weft__v" + n + " = weft__S.alloc<weft__U" + n + ">(weft__n);\n";
    } else if (d.keep == Keep::shared) {
      out += "weft__U" + n + " weft__v" + n + "[1];\n";
    }
  }
  return out;
}

std::string Plan::declaration_text(TokenRange stmt, const std::vector<Edit>& edits) const {
  const auto parts = split_declaration(p_, stmt);
  std::string out;
  for (std::size_t i = 0; i < parts->items.size(); ++i) {
    const Declarator& v = parts->items[i];
    const int id = decl_of(stmt, i);
    const std::string n = std::to_string(id);
    const std::string name = cxx_name(text(v.name));
    const std::string init = v.init.empty() ? "" : render(byte_begin(v.init), byte_end(v.init), edits);
    if (decls_[id].keep == Keep::per_item || decls_[id].keep == Keep::shared) {
      out += "weft__U" + n + "& " + name + " = weft__v" + n + (decls_[id].keep == Keep::shared ? "[0];" : "[weft__l];");
      if (!init.empty()) {
        out += " { weft__T" + n + " weft__init_ = " + init + "; __builtin_memcpy(&" + name +
               ", &weft__init_, sizeof(" + name + ")); }";
      }
    } else {
      out += "weft__T" + n + " " + name + (init.empty() ? "" : " = " + init) + ";";
    }
    out += " ";
  }
  return out;
}

// The variables of earlier regions that region r reads: references to their storage, or
// their recomputation (with the recomputed variables theirs reads, first).
std::string Plan::bindings(const Region& r) const {
  std::map<std::string, int> latest;  // the innermost declaration of each name
  for (int d : r.visible) latest[decls_[d].name] = d;
  std::set<int> bound;
  std::vector<std::string> todo(r.idents.begin(), r.idents.end());
  while (!todo.empty()) {
    const std::string name = todo.back();
    todo.pop_back();
    const auto it = latest.find(name);
    if (it == latest.end() || decls_[it->second].keep == Keep::plain || !bound.insert(it->second).second) continue;
    const Decl& d = decls_[it->second];
    if (d.keep != Keep::recompute) continue;
    for (std::size_t j = d.init.begin; j < d.init.end; ++j) {
      if (p_.tokens[j].kind == TokenKind::identifier) todo.emplace_back(text(j));
    }
  }
  std::string out;
  for (int d : bound) {  // in declaration order
    const Decl& v = decls_[d];
    const std::string n = std::to_string(d), name = cxx_name(v.name);
    if (v.keep == Keep::recompute) {
      out += "const weft__U" + n + " " + name + " = " + render(byte_begin(v.init), byte_end(v.init)) + ";\n";
    } else {
      out += "weft__U" + n + "& " + name + " = weft__v" + n + (v.keep == Keep::shared ? "[0];\n" : "[weft__l];\n");
    }
  }
  return out;
}

std::string Plan::region_text(int id) const {
  const Region& r = regions_[id];
  std::string out;
  if (r.single) {
    out = "{\nconst ::weft_host::size_t weft__l = 0;\n"
          "const ::weft_host::GroupItem weft_wi{&weft__L, weft__gi, {0, 0, 0}, weft__gi.base[0]};\n";
  } else {
    // The innermost counter is of the launch's counter type (int where the global ids in x
    // fit): `int i = get_global_id(0)` and `int l = get_local_id(0)` then fold to it, the
    // addresses stay affine and the loop vectorizes (as in the plain kernels' run_loop).
    out = "for (::weft_host::size_t weft__lz = 0; weft__lz < weft__ls2; ++weft__lz)\n"
          "for (::weft_host::size_t weft__ly = 0; weft__ly < weft__ls1; ++weft__ly)\n"
          "for (weft__X weft__x = 0; weft__x < weft__nx; ++weft__x) {\n"
          "const ::weft_host::size_t weft__lx = static_cast<::weft_host::size_t>(weft__x);\n"
          "const ::weft_host::size_t weft__l = (weft__lz * weft__ls1 + weft__ly) * weft__ls0 + weft__lx;\n"
          "const ::weft_host::GroupItem weft_wi{&weft__L, weft__gi, {weft__lx, weft__ly, weft__lz}, "
          "static_cast<::weft_host::size_t>(weft__b0 + weft__x)};\n";
    if (returns_) out += "if (weft__done[weft__l]) continue;\n";
    if (set_tls_) out += "::weft_kernel::weft_wi = weft_wi.work_item();\n";
  }
  out += bindings(r) + "{";
  for (const Item& it : r.items) {
    const TokenRange range = it.stmt ? it.stmt->tokens : it.range;
    out += line_mark(range.begin);
    const bool declares = it.stmt ? it.stmt->kind == StmtKind::simple && it.stmt->is_declaration : it.declaration;
    if (declares && statement_moved(range)) {
      out += declaration_text(range, r.edits);
    } else {
      out += it.prefix + render(byte_begin(range), byte_end(range), r.edits) + it.suffix;
    }
  }
  out += "\n}\nweft__end" + std::to_string(id) + ":;\n}\n";
  return out;
}

std::string Plan::body_text() const {
  std::string out =
      "{\n"
      "const ::weft_host::Launch& weft__L = *weft__G.l;\n"
      "const ::weft_host::size_t weft__ls0 = weft__L.lsize[0], weft__ls1 = weft__L.lsize[1], "
      "weft__ls2 = weft__L.lsize[2];\n"
      "const ::weft_host::size_t weft__n = weft__ls0 * weft__ls1 * weft__ls2;\n"
      "::weft_host::Scratch weft__S;\n";
  out += storage();
  if (returns_) out += "unsigned char* const weft__done = weft__S.alloc<unsigned char>(weft__n);\n";
  for (int c = 0; c < conditions_; ++c) out += "bool weft__c" + std::to_string(c) + " = false;\n";
  for (int c = 0; c < collectives_; ++c) {
    const std::string n = std::to_string(c);
    out += "::weft_host::Slot* const weft__w" + n + " = weft__S.alloc<::weft_host::Slot>(weft__n);\n"
           "::weft_host::Slot weft__r" + n + ";\nbool weft__f" + n + " = false;\n";
  }
  for (int l = 0; l < loops_; ++l) {
    out += "bool weft__brk" + std::to_string(l) + " = false, weft__cont" + std::to_string(l) + " = false;\n";
  }
  for (const Stmt* s : locals_) out += line_mark(s->tokens.begin) + render(byte_begin(s->tokens), byte_end(s->tokens));
  out += "\nfor (::weft_host::size_t weft__g = weft__G.begin; weft__g < weft__G.end; ++weft__g) {\n"
         "const ::weft_host::GroupIds weft__gi = weft__G.ids(weft__g);\n"
         "const weft__X weft__b0 = static_cast<weft__X>(weft__gi.base[0]);\n"
         "const weft__X weft__nx = static_cast<weft__X>(weft__ls0);\n";
  if (returns_) out += "for (::weft_host::size_t weft__i = 0; weft__i < weft__n; ++weft__i) weft__done[weft__i] = 0;\n";
  for (const Op& op : ops_) out += op.region >= 0 ? region_text(op.region) : op.text + "\n";
  out += "}\n}";
  return out;
}

}  // namespace weft::detail::dialect::group
