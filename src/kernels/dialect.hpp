// The kernel dialect (OpenCL C 1.2) as weft's backends see it: a tokenizer that keeps
// positions, a parser that finds functions and kernels with their parameters, and the
// facts each backend needs (does a kernel use barriers or __local memory, and where).
// Translations to CUDA and host C++ are token-level rewrites on top of this.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "weft/program.hpp"

namespace weft::detail::dialect {

enum class TokenKind : std::uint8_t { identifier, number, string, character, punct };

struct Token {
  TokenKind kind;
  std::size_t begin;    // byte offset into the source
  std::size_t end;
  int line;             // 1-based
  bool in_directive;    // part of a preprocessor line (#define ...)
  std::string_view text(std::string_view src) const { return src.substr(begin, end - begin); }
};

/// Splits source into tokens; comments and whitespace are dropped, positions kept.
std::vector<Token> tokenize(std::string_view source);

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

/// A replacement of source bytes [begin, end) by text.
struct Edit {
  std::size_t begin;
  std::size_t end;
  std::string text;
};
/// Applies non-overlapping edits (any order) and returns the new text.
std::string apply_edits(std::string_view source, std::vector<Edit> edits);

/// Token-level rewrites every C++-based translation (host, CUDA) needs: vector literals,
/// swizzles, convert_/as_ functions and vloadN/vstoreN. Returns the edits.
std::vector<Edit> vector_rewrites(const ParsedSource& parsed);

/// The vector widths of the dialect: 2, 3, 4, 8, 16.
bool is_vector_type_name(std::string_view name);

/// Source lines [first, last] of source, numbered, for error messages.
std::string excerpt(std::string_view source, int first, int last, int mark = 0);

/// The first errors of a compiler log ("FILE:LINE:COL: error: ...", FILE matching
/// file_pattern, a regular expression), each followed by the offending source line.
/// Falls back to the log's first lines that mention an error.
std::string summarize_build_log(const std::string& log, std::string_view source,
                                const std::string& file_pattern);

/// Splits build options and checks each is one weft accepts on every backend: -D NAME[=V],
/// -I DIR, -w, -Werror and OpenCL's -cl-* options. Throws InvalidArgument naming the first
/// other one. Returns the words, with "-D X" and "-I X" joined into one.
std::vector<std::string> check_build_options(std::string_view options);

}  // namespace weft::detail::dialect
