// Code generation for an expression tree: in key mode only the cache key (structure,
// operations, dtypes) and the kernel arguments, all a call whose kernel is cached needs; in
// text mode the expression's source and the kernel's parameter list, to build the kernel.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "array/expr_node.hpp"
#include "weft/detail/generated.hpp"

namespace weft::detail {

/// Whether two arrays are the same view (one kernel parameter serves both).
bool same_view(const Array& a, const Array& b);
/// The helper functions generated expressions call (floor division, remainder, power ...).
std::string helpers();

// The arguments of a generated kernel: leaves, numbers, then the index arithmetic's extents,
// offsets and strides. The values are needed on every call; the parameter list and the
// offset statements (text) only to build the kernel.
struct Signature {
  std::string spec;     // ", const float *weft_a0, double weft_c0, long weft_off0, ..."
  std::string names;    // ", weft_a0, weft_c0, weft_off0, ...": the same, to pass them on
  std::vector<RuntimeArg> args;
  std::string offsets;  // statements computing weft_oK from i
};

// An expression (several roots, walked in order; the value is the last one's) in the
// output's shape: the cache key and arguments, which every call needs ...
struct Keyed {
  std::string key;
  std::vector<RuntimeArg> args;
};
Keyed key_and_args(const Shape& shape, std::initializer_list<const ExprNode*> roots);
// ... and, to build its kernel, its source.
struct Text {
  std::string value;
  Signature sig;
};
Text text_of(const Shape& shape, std::initializer_list<const ExprNode*> roots);

}  // namespace weft::detail
