// Argument lists of generated kernels, written as C signatures (PyOpenCL's convention):
//
//   auto specs = weft::parse_arguments("float *x, const float *y, float a, int n");
//   specs[0].pointer == true; specs[2].dtype == weft::DType::float32
//
// A pointer argument takes a weft::Buffer (checked against its dtype when it has one and
// against the element count a call needs); a value argument takes any C++ number, converted
// to the declared type.
#pragma once

#include "weft/export.hpp"

#include <string>
#include <string_view>
#include <vector>

#include "weft/dtype.hpp"

namespace weft {

struct WEFT_API ArgSpec {
  std::string name;
  DType dtype = DType::float32;
  unsigned vector_width = 1;  // float4 -> 4
  bool pointer = false;
  bool is_const = false;
  /// The dialect's declaration: "__global const float *x", "float a".
  std::string declaration() const;
  /// The dialect's type name: "float", "uint", "float4".
  std::string type_name() const;
};

/// Parses a C-style argument list. Throws InvalidArgument naming the piece that does not
/// parse ("argument 2 'float4x b': unknown type 'float4x'").
WEFT_API std::vector<ArgSpec> parse_arguments(std::string_view spec);

}  // namespace weft
