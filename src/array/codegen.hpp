// Code generation for an expression tree: in key mode only the cache key (structure,
// operations, dtypes) and the kernel arguments, all a call whose kernel is cached needs; in
// text mode the expression's source and the kernel's parameter list, to build the kernel.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "array/expr_node.hpp"
#include "weft/detail/generated.hpp"

namespace weft::detail {

/// Whether two arrays are the same view (one kernel parameter serves both).
bool same_view(const Array& a, const Array& b);
/// The helper functions generated expressions call (floor division, remainder, power ...).
std::string helpers();

// Complex numbers (complex_codegen.cpp): cfloat / cdouble and their functions.
// (complex_helpers(): weft/detail/generated.hpp)
/// Whether a tree holds a complex value anywhere (its kernel needs complex_helpers()).
bool has_complex(const ExprNode& n);
/// text (a value of type from) converted to type to: a C cast between real types, the
/// helpers' conversions where a complex type takes part (the real part to a real type).
std::string convert(const std::string& text, DType from, DType to);
/// A condition: text (of type t) is nonzero.
std::string truth(const std::string& text, DType t);
/// The result type of a unary operation on complex t; DTypeError where it has none.
DType complex_unary_type(const std::string& op, DType t);
/// The source of a unary operation on a complex value in of type t.
std::string complex_unary(const std::string& op, const std::string& in, DType t);
/// DTypeError when a binary operation is not defined for complex operands (ordering ...).
void check_complex_binary(const std::string& op, DType a, DType b);
/// The source of a binary operation on complex operands a and b, both of type work.
std::string complex_binary(const std::string& op, const std::string& a, const std::string& b, DType work);
/// The complex number of type t (complex64 or complex128) with parts re and im (real
/// expressions of one shape): no arithmetic, so an infinite part stays what it is.
Expr make_complex(const Expr& re, const Expr& im, DType t);

// The arguments of a generated kernel: leaves, numbers, then the index arithmetic's extents,
// offsets and strides. The values are needed on every call; the parameter list and the
// offset statements (text) only to build the kernel.
struct Signature {
  std::string spec;     // ", const float *weft_a0, double weft_c0, long weft_off0, ..."
  std::string names;    // ", weft_a0, weft_c0, weft_off0, ...": the same, to pass them on
  std::string offsets;  // statements computing weft_oK from i
  std::string functions;  // the user device functions the expression calls: before the kernel
};

// The cache key and the arguments of a call whose kernel may already be made: all such a call
// needs. They are written into storage the calling thread keeps and reuses (a call made while
// another's is held takes the next), so a call whose kernel is cached allocates nothing.
// A CallKey lends the thread's storage: hold it on the stack, for one call.
class CallKey {
 public:
  CallKey();
  ~CallKey();
  CallKey(const CallKey&) = delete;
  CallKey& operator=(const CallKey&) = delete;

  /// Appends text to the key: what the kernel does besides the expression (its kind, dtype).
  CallKey& operator<<(std::string_view text);
  /// The expression roots (walked in order; the value is the last one's) in the output's
  /// shape: their key after the text, and their arguments. dest, when given, is leaf 0 (the
  /// array the kernel writes, with its own offset and strides). target, when given: the
  /// automatic arrays of the roots that are on other devices are read as seen from target
  /// (Array::to: their copies there), as if the roots had been through seen_from(.., target)
  /// (src/array/auto_device.hpp) without copying the trees.
  void walk(const Shape& shape, const Array* dest, std::initializer_list<const ExprNode*> roots,
            const Device* target = nullptr);
  std::string_view key() const;
  std::vector<RuntimeArg>& args();

  struct Storage;

 private:
  Storage* s_;
};

// To build the kernel of a walk: the expression's source and its parameter list.
struct Text {
  std::string value;                // the last root's
  Signature sig;
  std::vector<std::string> values;  // every root's, in order (kernels that read several)
};
Text text_of(const Shape& shape, const Array* dest, std::initializer_list<const ExprNode*> roots,
             const Device* target = nullptr);

}  // namespace weft::detail
