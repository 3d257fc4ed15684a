// The node of a lazy expression tree (weft::Expr holds the root) and the questions every
// stage asks of a whole tree. Each expression becomes one generated kernel (an
// ElementwiseKernel, or the map of a ReductionKernel), cached by the expression's structure:
// the operators (and the user functions called), the dtypes, the number of dimensions and
// which arrays need strided indexing. Array offsets, shapes, strides and numbers are kernel
// arguments, so a new value reuses the kernel. The stages, one file each: promotion (the node
// builders and NumPy's types; device_function.cpp builds the call nodes), codegen (key and
// source), kernel_cache, tree_cutting, evaluate; the reductions and scans built on them live
// in src/algorithms.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "weft/array.hpp"
#include "weft/device_function.hpp"

namespace weft::detail {

// The dialect function a call node calls (weft::DeviceFunction, device_function.cpp).
struct FunctionDef {
  std::string name;
  std::vector<DType> params;
  DType result = DType::float64;
  std::vector<DeviceFunction::Definition> definitions;  // what it calls first, itself last
  std::string key;  // the name and a digest of the definitions: the function in cache keys
};

struct ExprNode {
  enum class Kind { leaf, scalar, unary, binary, where, cast, call };
  Kind kind = Kind::scalar;
  std::string op;
  DType dtype = DType::float64;
  bool weak = false;  // a plain number: adopts the other operand's type (NumPy 2, NEP 50)
  Shape shape;
  std::vector<std::shared_ptr<const ExprNode>> kids;
  Array array;
  double value = 0;         // a floating-point number (a complex one's real part)
  double imag = 0;          // a complex number's imaginary part
  std::int64_t ivalue = 0;  // an integer or bool (a uint64 above 2**63-1 as its bits)
  std::shared_ptr<const FunctionDef> function;  // a call's (op is its key)
};

using NodePtr = std::shared_ptr<const ExprNode>;

/// The device of the first array the tree reads (none: a tree of numbers only).
Device device_of(const ExprNode& n);
/// Throws InvalidArgument when an array of the tree is not on d.
void check_one_device(const ExprNode& n, const Device& d);

}  // namespace weft::detail
