// Shapes and strides of n-dimensional data.
//
//   weft::Shape s{3, 4};                    // 3 rows of 4
//   s.size() == 12; s.ndim() == 2; to_string(s) == "(3, 4)"
//   weft::Strides st = weft::contiguous_strides(s);   // {4, 1}, in elements
//   weft::broadcast_shapes({3, 1}, {4}) == weft::Shape{3, 4}
//
// Strides count elements, not bytes (NumPy counts bytes): a view never splits an element.
#pragma once

#include "weft/export.hpp"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace weft {

/// Extents of an n-dimensional array, outermost first. A 0-d shape is a scalar (size 1).
class WEFT_API Shape {
 public:
  Shape() = default;
  Shape(std::initializer_list<std::int64_t> dims);
  explicit Shape(std::vector<std::int64_t> dims);

  std::size_t ndim() const noexcept { return dims_.size(); }
  /// Number of elements: the product of the extents (1 for a 0-d shape).
  std::int64_t size() const noexcept;
  std::int64_t operator[](std::size_t i) const { return dims_.at(i); }
  const std::vector<std::int64_t>& dims() const noexcept { return dims_; }
  auto begin() const noexcept { return dims_.begin(); }
  auto end() const noexcept { return dims_.end(); }

  friend bool operator==(const Shape&, const Shape&) = default;

 private:
  std::vector<std::int64_t> dims_;
};

/// Per-dimension steps between neighbouring elements, in elements (may be 0 or negative).
using Strides = std::vector<std::int64_t>;

/// Row-major (C order) strides of a shape.
WEFT_API Strides contiguous_strides(const Shape& shape);
/// True when strides are the row-major strides of shape (extent-1 dimensions ignored).
WEFT_API bool is_contiguous(const Shape& shape, const Strides& strides);
/// NumPy's broadcasting of two shapes; throws InvalidArgument naming both when they clash.
WEFT_API Shape broadcast_shapes(const Shape& a, const Shape& b);
/// "(3, 4)", "()" for 0-d, "(5,)" for 1-d, as NumPy prints it.
WEFT_API std::string to_string(const Shape& shape);

}  // namespace weft
