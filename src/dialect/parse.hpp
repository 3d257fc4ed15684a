// The dialect's second stage: the top level of a source read into functions and kernels with
// their parameters (types, address spaces, sizes of by-value arguments), and the facts the
// backends need (does a kernel use barriers or __local memory, and where; do helpers call
// work-item functions).
//
//   const ParsedSource p = parse(source);
//   for (const Function* k : p.kernels()) use(k->name, k->params);
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dialect/tokenize.hpp"
#include "weft/program.hpp"

namespace weft::detail::dialect {

struct Function {
  std::string name;
  bool is_kernel = false;
  int line = 0;
  std::size_t qualifier_token = 0;  // index of __kernel/kernel (kernels only)
  std::size_t name_token = 0;
  std::size_t params_open = 0;      // index of '('
  std::size_t params_close = 0;     // index of ')'
  std::size_t body_open = 0;        // index of '{'
  std::size_t body_close = 0;       // index of '}'
  std::vector<KernelArgInfo> params;
  std::vector<std::pair<std::size_t, std::size_t>> param_tokens;  // [first, last] token of each
  // Work-group features: barrier()/work_group_barrier() calls and __local memory.
  // What the function itself uses, then (after parse) what it needs through its calls.
  std::string group_feature;        // "" or e.g. "barrier() at line 12"
  bool uses_work_item_functions = false;
  std::vector<std::string> calls;   // names of functions called in the body
};

struct ParsedSource {
  std::string_view source;
  std::vector<Token> tokens;
  std::vector<Function> functions;  // in source order

  const Function* find(std::string_view name) const;
  std::vector<const Function*> kernels() const;
  /// True when a function that is not a kernel calls get_global_id() and friends.
  bool helpers_use_work_items() const;
};

/// Parses the top level of source. Throws BuildError for a kernel whose parameter list or
/// return type is not OpenCL C (the message names the line).
ParsedSource parse(std::string_view source);

}  // namespace weft::detail::dialect
