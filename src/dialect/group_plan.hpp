// The plan of a group kernel (group_fission.hpp) between its two passes: the regions the body
// was split into, the variables that live across barriers and where each keeps its value, and
// the fixed text between regions. group_fission.cpp fills it; group_render.cpp writes the new
// body from it. Internal to the dialect translator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "dialect/edits.hpp"
#include "dialect/parse.hpp"
#include "dialect/statements.hpp"

namespace weft::detail::dialect::group {

// One statement of a region, or a clause (a condition, a for's init or increment) made one.
struct Item {
  const Stmt* stmt = nullptr;
  TokenRange range;  // a clause's tokens
  std::string prefix, suffix;
  bool declaration = false;
};

// Where a variable that regions after its own use keeps its value (group_values.hpp).
enum class Keep : std::uint8_t {
  plain,      // used in one region only: an ordinary local variable there
  per_item,   // an array with one element per work-item
  recompute,  // never assigned again and computed from work-item ids and constants: recomputed
  shared,     // a loop counter every work-item holds alike: one copy for the group
};

// A variable declared at the top level of a region, visible to the regions after it.
struct Decl {
  std::string name;
  int region = 0;
  TokenRange statement;  // the declaration, its ';' included
  std::size_t index = 0; // which of its declarators
  Keep keep = Keep::plain;
  bool recomputable = false;
  bool uniform = false;
  TokenRange init;
};

struct Region {
  std::vector<Item> items;
  std::vector<int> visible;  // declarations made before it, in enclosing scopes
  std::set<std::string> idents;
  std::vector<Edit> edits;   // rewritten jumps, hoisted __local declarations
  int loop = -1;             // the innermost loop with a barrier around it
  bool single = false;       // run once for the group (a uniform loop's clauses), not per item
};

// The new body in order: fixed text, and regions rendered once replication is decided.
struct Op {
  std::string text;
  int region = -1;
};

// What pass 1 decides and pass 2 writes. The members keep the names the passes use.
struct Plan {
  Plan(const ParsedSource& p, const Function& k, const std::vector<Edit>& edits, bool set_tls)
      : p_(p), k_(k), global_(edits), set_tls_(set_tls) {}

  std::string_view text(std::size_t i) const { return p_.tokens[i].text(p_.source); }
  std::size_t byte_begin(TokenRange r) const { return p_.tokens[r.begin].begin; }
  std::size_t byte_end(TokenRange r) const { return p_.tokens[r.end - 1].end; }

  // The source of bytes [b, e) with the translation's edits inside it and extra ones.
  std::string render(std::size_t b, std::size_t e, const std::vector<Edit>& extra = {}) const;
  std::string line_mark(std::size_t token) const;

  // Pass 2 (group_render.cpp): the kernel's new body, `{ ... }`.
  std::string body_text() const;

  const ParsedSource& p_;
  const Function& k_;
  const std::vector<Edit>& global_;
  bool set_tls_;
  std::vector<const Stmt*> locals_;  // __local declarations, hoisted to the body's top
  std::vector<Region> regions_;
  std::vector<Decl> decls_;
  std::vector<Op> ops_;
  int loops_ = 0;
  int conditions_ = 0;
  int collectives_ = 0;
  bool returns_ = false;

 private:
  bool statement_moved(TokenRange stmt) const;
  bool statement_typed(TokenRange stmt) const;
  int decl_of(TokenRange stmt, std::size_t index) const;
  std::string storage() const;
  std::string declaration_text(TokenRange stmt, const std::vector<Edit>& edits) const;
  std::string bindings(const Region& r) const;
  std::string region_text(int id) const;
};

}  // namespace weft::detail::dialect::group
