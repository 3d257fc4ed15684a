// A function of numbers written in the kernel dialect, applied elementwise inside lazy
// expressions: f(a, b) * 2 is one generated kernel that calls f, and so is sum(f(a, b)).
// It is the C++ side of Python's @weft.vectorize, and usable on its own:
//
//   weft::DeviceFunction clamp01("clamp01", {weft::DType::float32}, weft::DType::float32,
//       {{"clamp01", "float clamp01(float x) { return x < 0 ? 0 : x > 1 ? 1 : x; }"}});
//   weft::Array y = weft::eval(clamp01({a}) * 2.0f);   // one kernel
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "weft/array.hpp"
#include "weft/export.hpp"

namespace weft {

namespace detail {
struct FunctionDef;
}

class WEFT_API DeviceFunction {
 public:
  /// A dialect definition the function needs: its name and its text (a function, or a
  /// helper it calls). Definitions of one name are emitted once per kernel, so helpers
  /// shared by several functions (the same name, the same text) may be given by each.
  struct Definition {
    std::string name;
    std::string text;
  };

  /// name: the dialect function to call, defined by the last of definitions (those before it
  /// are what it calls); params: its parameters' dtypes (each argument is converted to its
  /// parameter's, a bool parameter taking whether the value is nonzero); result: the dtype of
  /// its return value. InvalidArgument for a name that is not an identifier (or starts with
  /// weft_, which generated code keeps), no parameters, no definitions, or a last definition
  /// of another name; Unsupported for float16.
  DeviceFunction(std::string name, std::vector<DType> params, DType result, std::vector<Definition> definitions);

  const std::string& name() const;
  const std::vector<DType>& params() const;
  DType result() const;

  /// The lazy application to one argument per parameter (arrays or numbers), broadcast
  /// together as NumPy's operands are; the result has result()'s dtype. InvalidArgument for
  /// another number of arguments or shapes that do not broadcast; ValueOutOfRange for a plain
  /// integer that is not one of its parameter's values (as NumPy 2).
  Expr operator()(const std::vector<Expr>& args) const;

  const std::shared_ptr<const detail::FunctionDef>& def() const noexcept { return def_; }

 private:
  std::shared_ptr<const detail::FunctionDef> def_;
};

}  // namespace weft
