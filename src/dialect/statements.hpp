// The dialect's statement level, read only where a translation must restructure a body: the
// host backend splits kernels that meet at barriers into regions (group_fission.hpp). A body
// becomes a tree of statements over token ranges of the parsed source; expressions stay
// token ranges.
//
//   const Stmt body = parse_body(parsed, kernel);
//   for (const Stmt& s : body.children) if (s.has_sync) ...
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "dialect/parse.hpp"

namespace weft::detail::dialect {

enum class StmtKind : std::uint8_t {
  simple,       // an expression or declaration statement, up to its ';'
  block,        // { ... }: children
  if_,          // cond; children[0] then, children[1] else (when has_else)
  for_,         // init, cond, inc (each possibly empty); children[0] body
  while_,       // cond; children[0] body
  do_,          // children[0] body; cond
  switch_,      // cond; children[0] body
  barrier,      // barrier(...); or work_group_barrier(...);
  return_,
  break_,
  continue_,
  jump,         // goto, and labels (`name:`, `case x:`, `default:`)
  empty,        // ;
  directive,    // a preprocessor line inside the body
};

/// A half-open range of token indices.
struct TokenRange {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool empty() const { return begin >= end; }
};

struct Stmt {
  StmtKind kind = StmtKind::simple;
  TokenRange tokens;        // the whole statement
  TokenRange cond;          // if/for/while/do/switch: the condition (for: the middle clause)
  TokenRange init, inc;     // for: the first and the third clause
  bool has_else = false;
  bool is_declaration = false;  // simple: declares variables
  bool has_sync = false;        // a barrier inside (this statement or any it contains)
  bool group_call = false;      // simple: calls a work-group function (a collective, an async copy)
  int line = 0;
  std::vector<Stmt> children;
};

/// True for the functions that make work-items of a group wait for each other.
bool is_barrier_name(std::string_view name);

/// True for the work-group functions every work-item of a group calls alike, which act as
/// barriers: OpenCL C 2.0's collectives (work_group_reduce_add ...) and the asynchronous
/// copies (async_work_group_copy, async_work_group_strided_copy).
bool is_group_function(std::string_view name);

/// The body of function f (its braces included) as a block statement. Throws BuildError naming
/// the line for a barrier the statement level cannot place (inside an expression, a switch, or
/// a body with #if lines).
Stmt parse_body(const ParsedSource& parsed, const Function& f);

/// One variable of a declaration: `*const p = init` in `float *const p = init, q[4];`.
struct Declarator {
  std::size_t name = 0;  // token index of its name
  TokenRange ptrs;       // between the specifiers and the name ('*', const)
  TokenRange suffix;     // array dimensions after the name
  TokenRange init;       // after '=' (empty without an initializer)
};

struct Declaration {
  TokenRange specs;  // `const __global float` (attributes included)
  std::vector<Declarator> items;
};

/// The declarators of the declaration statement over range (its ';' included); nullopt for
/// what this reading does not cover (function declarations, pointers to arrays or functions).
std::optional<Declaration> split_declaration(const ParsedSource& parsed, TokenRange range);

/// True when the simple statement over range declares variables (`float x = 1, y;`,
/// `__local int tile[16];`, `MyStruct s;`) rather than computing an expression.
bool looks_like_declaration(const ParsedSource& parsed, TokenRange range);

}  // namespace weft::detail::dialect
