#include "dialect/group_fission.hpp"

#include "dialect/group_plan.hpp"

#include <cstdint>
#include <algorithm>
#include <map>
#include <set>

#include "dialect/group_values.hpp"
#include "dialect/keywords.hpp"
#include "dialect/statements.hpp"
#include "dialect/translate.hpp"
#include "dialect/uniformity.hpp"
#include "weft/error.hpp"

namespace weft::detail::dialect {

namespace {

using group::Decl;
using group::Item;
using group::Keep;
using group::Op;
using group::Region;

bool is_local_declaration(const ParsedSource& p, const Stmt& s) {
  if (s.kind != StmtKind::simple || !s.is_declaration) return false;
  for (std::size_t j = s.tokens.begin; j < s.tokens.end; ++j) {
    const auto t = p.tokens[j].text(p.source);
    if (t == "=" || t == "(" ) break;
    if (t == "__local" || t == "local") return true;
  }
  return false;
}

class Fission : group::Plan {
 public:
  using Plan::Plan;

  std::vector<Edit> run() {
    const Stmt body = parse_body(p_, k_);
    check_uniform_barriers(p_, k_, body);
    varying_ = varying_variables(p_, body);
    reassigned_ = reassigned_names(p_, body);
    constants_ = constant_parameters(p_, k_, reassigned_);
    for (const auto& prm : k_.params) {
      if (prm.space == AddressSpace::local) local_names_.insert(prm.name);
    }
    collect_locals(body);
    scopes_.emplace_back();
    emit_list(children_of(body));
    decide();
    std::vector<Edit> out;
    const auto& toks = p_.tokens;
    // A template on the x counter's type: the launcher picks int where the ids fit.
    out.push_back({toks[k_.qualifier_token].begin, toks[k_.qualifier_token].end,
                   "template <class weft__X> static inline __attribute__((always_inline))"});
    const auto& open = toks[k_.params_open];
    if (k_.params.empty()) {
      out.push_back({open.end, toks[k_.params_close].begin, "::weft_host::Groups weft__G"});
    } else {
      out.push_back({open.end, open.end, "::weft_host::Groups weft__G, "});
    }
    out.push_back({toks[k_.body_open].begin, toks[k_.body_close].end, body_text()});
    return out;
  }

 private:
  static std::vector<const Stmt*> children_of(const Stmt& s) {
    std::vector<const Stmt*> out;
    if (s.kind == StmtKind::block) {
      for (const auto& c : s.children) out.push_back(&c);
    } else {
      out.push_back(&s);
    }
    return out;
  }

  void collect_locals(const Stmt& s) {
    if (is_local_declaration(p_, s)) {
      locals_.push_back(&s);
      if (auto d = split_declaration(p_, s.tokens)) {
        for (const auto& v : d->items) local_names_.insert(std::string(text(v.name)));
      }
      return;
    }
    for (const auto& c : s.children) collect_locals(c);
  }
  bool is_hoisted(const Stmt* s) const { return std::find(locals_.begin(), locals_.end(), s) != locals_.end(); }

  // ---- pass 1: structure and regions -------------------------------------------------------

  void emit_list(const std::vector<const Stmt*>& list) {
    std::vector<Item> run;
    auto flush = [&] {
      if (!run.empty()) emit_region(std::move(run));
      run.clear();
    };
    for (const Stmt* s : list) {
      if (is_hoisted(s)) continue;
      if (!s->has_sync) {
        run.push_back({s, {}, {}, {}, false});
        continue;
      }
      flush();
      switch (s->kind) {
        case StmtKind::barrier:
          break;
        case StmtKind::block:
          ops_.push_back({"{"});
          scopes_.emplace_back();
          emit_list(children_of(*s));
          scopes_.pop_back();
          ops_.push_back({"}"});
          break;
        case StmtKind::if_: {
          const std::string c = condition(s->cond);
          ops_.push_back({"if (" + c + ") {"});
          scopes_.emplace_back();
          emit_list(children_of(s->children[0]));
          scopes_.pop_back();
          ops_.push_back({"}"});
          if (s->has_else) {
            ops_.push_back({" else {"});
            scopes_.emplace_back();
            emit_list(children_of(s->children[1]));
            scopes_.pop_back();
            ops_.push_back({"}"});
          }
          break;
        }
        case StmtKind::for_:
        case StmtKind::while_:
        case StmtKind::do_:
          emit_loop(*s);
          break;
        case StmtKind::simple:
          emit_group_call(*s);
          break;
        default:
          throw BuildError("kernel '" + k_.name + "', line " + std::to_string(s->line) +
                               ": the host backend cannot place a barrier inside this statement",
                           "", std::string(p_.source));
      }
    }
    flush();
  }

  void emit_loop(const Stmt& s) {
    const int id = loops_++;
    const std::string n = std::to_string(id);
    ops_.push_back({"{"});
    scopes_.emplace_back();
    const bool once = uniform_counter(s);
    if (s.kind == StmtKind::for_ && !s.init.empty()) {
      Item init;
      init.range = {s.init.begin, s.init.end + 1};  // with the for's ';'
      init.declaration = looks_like_declaration(p_, init.range);
      emit_region({init}, once);
    }
    loop_stack_.push_back(id);
    ops_.push_back({"for (;;) {\nweft__brk" + n + " = false; weft__cont" + n + " = false;\n"});
    if (s.kind != StmtKind::do_ && !s.cond.empty()) {
      ops_.push_back({"if (!" + condition(s.cond, once) + ") break;\n"});
    }
    scopes_.emplace_back();
    emit_list(children_of(s.children[0]));
    scopes_.pop_back();
    ops_.push_back({"weft__next" + n + ":;\n"});
    loop_stack_.pop_back();
    if (s.kind == StmtKind::do_) {
      ops_.push_back({"if (!" + condition(s.cond) + ") break;\n"});
    } else if (s.kind == StmtKind::for_ && !s.inc.empty()) {
      Item inc;
      inc.range = s.inc;
      inc.suffix = ";";
      emit_region({inc}, once);
    }
    ops_.push_back({"}\n"});
    scopes_.pop_back();
    ops_.push_back({"}\n"});
  }

  // The arguments of the call whose '(' is at open: top-level comma-separated ranges.
  std::vector<TokenRange> arguments(std::size_t open, std::size_t& close) const {
    std::vector<TokenRange> out;
    int depth = 0;
    std::size_t start = open + 1;
    for (std::size_t j = open; j < p_.tokens.size(); ++j) {
      const auto t = text(j);
      if (t == "(" || t == "[" || t == "{") {
        ++depth;
      } else if (t == ")" || t == "]" || t == "}") {
        if (--depth == 0) {
          if (j > start) out.push_back({start, j});
          close = j;
          return out;
        }
      } else if (t == "," && depth == 1) {
        out.push_back({start, j});
        start = j + 1;
      }
    }
    close = p_.tokens.size() - 1;
    return out;
  }

  [[noreturn]] void refuse(const Stmt& s, const std::string& what) const {
    throw BuildError("kernel '" + k_.name + "', line " + std::to_string(s.line) + ": " + what, "",
                     std::string(p_.source));
  }

  // A statement calling work-group functions. An asynchronous copy runs once for the group,
  // between the regions before and after it. A collective's argument is stored per work-item
  // in a region of its own; the statement then runs with each call replaced by the combined
  // value (computed once, by the first work-item to ask).
  void emit_group_call(const Stmt& s) {
    struct Call {
      std::size_t name, close;
      std::vector<TokenRange> args;
    };
    std::vector<Call> calls;
    bool copies = false, collectives = false;
    for (std::size_t j = s.tokens.begin; j + 1 < s.tokens.end; ++j) {
      if (p_.tokens[j].kind != TokenKind::identifier || text(j + 1) != "(" || !is_group_function(text(j))) continue;
      Call c{j, 0, {}};
      c.args = arguments(j + 1, c.close);
      for (std::size_t k = j + 2; k < c.close; ++k) {
        if (p_.tokens[k].kind == TokenKind::identifier && is_group_function(text(k))) {
          refuse(s, "a work-group function inside another's arguments; compute the inner one into a variable first");
        }
      }
      (text(j).rfind("async_", 0) == 0 ? copies : collectives) = true;
      calls.push_back(std::move(c));
      j = c.close;
    }
    if (copies && collectives) {
      refuse(s, "an asynchronous copy and a work-group collective in one statement; write them as two");
    }
    if (copies) {
      const int id = static_cast<int>(regions_.size());
      emit_region({Item{&s, {}, {}, {}, false}}, true);
      for (const Call& c : calls) {
        if (text(c.name) != "async_work_group_strided_copy" || c.args.empty()) continue;
        // The destination's address space tells the direction (__local names are known).
        std::size_t d = c.args[0].begin;
        while (d < c.args[0].end && p_.tokens[d].kind != TokenKind::identifier) ++d;
        const bool to_local = d < c.args[0].end && local_names_.count(std::string(text(d)));
        regions_[id].edits.push_back({p_.tokens[c.name].begin, p_.tokens[c.name].end,
                                      to_local ? "weft_async_copy_strided_src" : "weft_async_copy_strided_dst"});
      }
      return;
    }
    std::vector<Item> stores;
    std::vector<Edit> replacements;
    for (const Call& c : calls) {
      const std::string name(text(c.name));
      const int id = collectives_++;
      const std::string n = std::to_string(id);
      if (c.args.empty()) refuse(s, name + "() without an argument");
      const std::string arg = render(byte_begin(c.args[0]), byte_end(c.args[0]));
      const bool predicate = name == "work_group_any" || name == "work_group_all";
      const std::string type = predicate ? "int" : "::weft_host::unref_t<decltype(" + arg + ")>";
      Item store;
      store.range = c.args[0];
      store.prefix = "::weft_host::slot_put<" + type + ">(weft__w" + n + "[weft__l], (";
      store.suffix = "));";
      stores.push_back(store);
      ops_.push_back({"weft__f" + n + " = false;"});
      std::string value;
      const std::string slots = "weft__w" + n;
      auto op_of = [&](std::string_view suffix) -> std::string {
        if (suffix == "add") return "::weft_host::GroupOp::add";
        if (suffix == "min") return "::weft_host::GroupOp::min";
        if (suffix == "max") return "::weft_host::GroupOp::max";
        refuse(s, name + "(): the work-group functions combine with add, min or max");
      };
      if (name.rfind("work_group_reduce_", 0) == 0) {
        value = "::weft_host::group_reduce<" + type + ", " + op_of(std::string_view(name).substr(18)) + ">(" + slots +
                ", weft__n, weft__r" + n + ", weft__f" + n + ")";
      } else if (name.rfind("work_group_scan_inclusive_", 0) == 0 || name.rfind("work_group_scan_exclusive_", 0) == 0) {
        const bool inclusive = name[16] == 'i';
        value = "::weft_host::group_scan<" + type + ", " + op_of(std::string_view(name).substr(26)) + ", " +
                (inclusive ? "true" : "false") + ">(" + slots + ", weft__n, weft__f" + n + ", weft__l)";
      } else if (predicate) {
        value = "::weft_host::group_reduce<int, ::weft_host::GroupOp::" + std::string(name == "work_group_any" ? "any" : "all") +
                ">(" + slots + ", weft__n, weft__r" + n + ", weft__f" + n + ")";
      } else if (name == "work_group_broadcast") {
        if (c.args.size() < 2 || c.args.size() > 4) refuse(s, "work_group_broadcast(value, x[, y[, z]])");
        value = "::weft_host::group_broadcast<" + type + ">(" + slots + ", weft__L";
        for (std::size_t a = 1; a < c.args.size(); ++a) {
          value += ", static_cast<::weft_host::size_t>(" + render(byte_begin(c.args[a]), byte_end(c.args[a])) + ")";
        }
        value += ")";
      } else {
        refuse(s, name + "() is not a work-group function the host backend knows");
      }
      replacements.push_back({p_.tokens[c.name].begin, p_.tokens[c.close].end, value});
    }
    emit_region(std::move(stores));
    const int id = static_cast<int>(regions_.size());
    emit_region({Item{&s, {}, {}, {}, false}});
    regions_[id].edits.insert(regions_[id].edits.end(), replacements.begin(), replacements.end());
  }

  // A condition every work-item evaluates (side effects included); by OpenCL's rule they
  // agree, and the group follows their value. Returns the flag's name.
  std::string condition(TokenRange cond, bool once = false) {
    const std::string flag = "weft__c" + std::to_string(conditions_++);
    ops_.push_back({flag + " = false;\n"});
    Item c;
    c.range = cond;
    c.prefix = flag + " = (";
    c.suffix = ");";
    emit_region({c}, once);
    return flag;
  }

  // The names visible here that hold the same value for every work-item and that a clause run
  // once for the group may read: constant parameters, recomputable uniform variables and the
  // counters of uniform loops around.
  std::set<std::string> uniform_names() const {
    std::set<std::string> out = constants_;
    for (const auto& scope : scopes_) {
      for (int d : scope) {
        if ((decls_[d].recomputable && decls_[d].uniform) || decls_[d].keep == Keep::shared) {
          out.insert(decls_[d].name);
        }
      }
    }
    return out;
  }

  // A for loop with barriers whose counters every work-item computes alike from uniform
  // values, and which its body does not assign: its clauses run once for the group.
  bool uniform_counter(const Stmt& s) const {
    if (s.kind != StmtKind::for_ || s.init.empty()) return false;
    const TokenRange init{s.init.begin, s.init.end + 1};
    if (!looks_like_declaration(p_, init)) return false;
    const auto d = split_declaration(p_, init);
    if (!d) return false;
    std::set<std::string> names = uniform_names(), counters;
    const std::set<std::string> in_body = reassigned_names(p_, s.children[0]);
    for (const auto& v : d->items) {
      const std::string name(text(v.name));
      if (!v.suffix.empty() || varying_.count(name) || in_body.count(name)) return false;
      if (!pure_expression(p_, v.init, names, false)) return false;
      counters.insert(name);
      names.insert(name);
    }
    return pure_expression(p_, s.cond, names, false) && pure_expression(p_, s.inc, names, false, &counters);
  }

  void emit_region(std::vector<Item> items, bool single = false) {
    const int id = static_cast<int>(regions_.size());
    Region r;
    r.single = single;
    for (const auto& scope : scopes_) r.visible.insert(r.visible.end(), scope.begin(), scope.end());
    r.loop = loop_stack_.empty() ? -1 : loop_stack_.back();
    bool breaks = false, continues = false;
    for (const Item& it : items) {
      const TokenRange range = it.stmt ? it.stmt->tokens : it.range;
      for (std::size_t j = range.begin; j < range.end; ++j) {
        if (p_.tokens[j].kind != TokenKind::identifier) continue;
        if (j > range.begin && (text(j - 1) == "." || text(j - 1) == "->")) continue;
        r.idents.insert(std::string(text(j)));
      }
      if (it.stmt) jumps(*it.stmt, r, id, 0, 0, breaks, continues, true);
      local_atomics(range, r);
      const bool declares = it.stmt ? it.stmt->kind == StmtKind::simple && it.stmt->is_declaration : it.declaration;
      if (declares) {
        const TokenRange stmt = it.stmt ? it.stmt->tokens : it.range;
        if (auto d = split_declaration(p_, stmt)) {
          for (std::size_t i = 0; i < d->items.size(); ++i) {
            const Declarator& v = d->items[i];
            Decl decl;
            decl.name = std::string(text(v.name));
            decl.region = id;
            decl.statement = stmt;
            decl.index = i;
            decl.init = v.init;
            decl.uniform = !varying_.count(decl.name);
            decl.keep = single ? Keep::shared : Keep::plain;
            if (!single && v.suffix.empty() && !v.init.empty() && !reassigned_.count(decl.name)) {
              std::set<std::string> names = constants_;
              for (const auto& scope : scopes_) {
                for (int e : scope) {
                  if (decls_[e].recomputable) names.insert(decls_[e].name);
                }
              }
              decl.recomputable = pure_expression(p_, v.init, names, true);
            }
            decls_.push_back(decl);
            scopes_.back().push_back(static_cast<int>(decls_.size()) - 1);
          }
        }
      }
    }
    r.items = std::move(items);
    regions_.push_back(std::move(r));
    ops_.push_back({"", id});
    const std::string n = std::to_string(regions_.back().loop);
    if (breaks) ops_.push_back({"if (weft__brk" + n + ") break;\n"});
    if (continues) ops_.push_back({"if (weft__cont" + n + ") goto weft__next" + n + ";\n"});
  }

  // Atomics on __local memory need no atomicity here: one thread runs a whole group, and its
  // __local memory is its own. `atomic_inc(&bins[d])` becomes a plain increment.
  void local_atomics(TokenRange range, Region& r) const {
    for (std::size_t j = range.begin; j + 2 < range.end; ++j) {
      const auto t = text(j);
      if (p_.tokens[j].kind != TokenKind::identifier || text(j + 1) != "(") continue;
      if (t.rfind("atomic_", 0) != 0 && t.rfind("atom_", 0) != 0) continue;
      std::size_t a = j + 2;
      if (text(a) == "&" && a + 1 < range.end) ++a;
      if (p_.tokens[a].kind == TokenKind::identifier && local_names_.count(std::string(text(a)))) {
        r.edits.push_back({p_.tokens[j].begin, p_.tokens[j].end, "weft_local_" + std::string(t)});
      }
    }
  }

  // Rewrites the jumps of s that leave the region: a return ends the work-item's part of the
  // kernel; a break or continue of the loop around the region (one with barriers) ends its
  // part of this region and tells the loop, which every work-item leaves alike.
  void jumps(const Stmt& s, Region& r, int id, int loops, int switches, bool& breaks, bool& continues, bool top) {
    const std::string end = "goto weft__end" + std::to_string(id) + "; }";
    const std::size_t b = byte_begin(s.tokens), e = byte_end(s.tokens);
    switch (s.kind) {
      case StmtKind::return_:
        r.edits.push_back({b, e, "{ weft__done[weft__l] = 1; " + end});
        returns_ = true;
        return;
      case StmtKind::break_:
        if (loops == 0 && switches == 0 && r.loop >= 0) {
          r.edits.push_back({b, e, "{ weft__brk" + std::to_string(r.loop) + " = true; " + end});
          breaks = true;
        }
        return;
      case StmtKind::continue_:
        if (loops == 0 && r.loop >= 0) {
          r.edits.push_back({b, e, "{ weft__cont" + std::to_string(r.loop) + " = true; " + end});
          continues = true;
        }
        return;
      case StmtKind::simple:
        if (!top && is_hoisted(&s)) r.edits.push_back({b, e, ""});
        return;
      default:
        break;
    }
    const bool loop = s.kind == StmtKind::for_ || s.kind == StmtKind::while_ || s.kind == StmtKind::do_;
    for (const auto& c : s.children) {
      jumps(c, r, id, loops + (loop ? 1 : 0), switches + (s.kind == StmtKind::switch_ ? 1 : 0), breaks, continues,
            false);
    }
  }

  // ---- pass 2: which variables live across a barrier (the text: group_render.cpp) ---------

  void decide() {
    for (std::size_t r = 0; r < regions_.size(); ++r) {
      for (int d : regions_[r].visible) {
        Decl& v = decls_[d];
        if (v.keep != Keep::plain || v.region == static_cast<int>(r) || !regions_[r].idents.count(v.name)) continue;
        v.keep = v.recomputable ? Keep::recompute : Keep::per_item;
      }
    }
  }

  std::set<std::string> varying_, reassigned_, constants_, local_names_;
  std::vector<std::vector<int>> scopes_;
  std::vector<int> loop_stack_;
};

// The barrier or work-group function f calls itself, if any.
std::string_view group_call_in(const ParsedSource& p, const Function& f) {
  for (std::size_t j = f.body_open; j < f.body_close; ++j) {
    const auto t = p.tokens[j].text(p.source);
    if (p.tokens[j].kind == TokenKind::identifier && (is_barrier_name(t) || is_group_function(t)) &&
        j + 1 < f.body_close && p.tokens[j + 1].text(p.source) == "(") {
      return t;
    }
  }
  return {};
}

}  // namespace

std::string host_group_refusal(const ParsedSource& parsed, const Function& k) {
  // Every helper the kernel reaches through its calls.
  std::set<std::string> seen;
  std::vector<const Function*> todo{&k};
  while (!todo.empty()) {
    const Function* f = todo.back();
    todo.pop_back();
    for (const auto& c : f->calls) {
      const Function* g = parsed.find(c);
      if (!g || g->is_kernel || !seen.insert(c).second) continue;
      if (const auto call = group_call_in(parsed, *g); !call.empty()) {
        return std::string(call) + "() inside helper function " + g->name + "() (line " + std::to_string(g->line) +
               "); the host backend splits kernels at barriers and work-group functions written in the kernel's "
               "own body: move the call there";
      }
      todo.push_back(g);
    }
  }
  return {};
}

std::vector<Edit> group_kernel_edits(const ParsedSource& parsed, const Function& k, const std::vector<Edit>& edits,
                                     bool set_tls) {
  return Fission(parsed, k, edits, set_tls).run();
}

}  // namespace weft::detail::dialect
