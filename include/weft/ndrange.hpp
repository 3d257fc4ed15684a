// The index space of a kernel launch: 1, 2 or 3 extents, as OpenCL's NDRange.
//
//   queue.launch(kernel, weft::NDRange(1024, 768));          // global size, local chosen
//   queue.launch(kernel, weft::NDRange(n), weft::NDRange(256));
#pragma once

#include "weft/export.hpp"

#include <array>
#include <cstddef>

namespace weft {

class WEFT_API NDRange {
 public:
  /// An empty range: "not given" (a local size left to the device, a zero offset).
  constexpr NDRange() noexcept = default;
  constexpr NDRange(std::size_t x) noexcept : dims_(1), size_{x, 1, 1} {}  // NOLINT: implicit
  constexpr NDRange(std::size_t x, std::size_t y) noexcept : dims_(2), size_{x, y, 1} {}
  constexpr NDRange(std::size_t x, std::size_t y, std::size_t z) noexcept
      : dims_(3), size_{x, y, z} {}

  /// Number of dimensions, 0 for an empty range.
  constexpr unsigned dims() const noexcept { return dims_; }
  constexpr bool empty() const noexcept { return dims_ == 0; }
  /// Extent of dimension d; 1 beyond dims().
  constexpr std::size_t operator[](unsigned d) const noexcept { return d < 3 ? size_[d] : 1; }
  /// Product of the extents (1 for an empty range).
  constexpr std::size_t total() const noexcept { return size_[0] * size_[1] * size_[2]; }
  constexpr const std::array<std::size_t, 3>& sizes() const noexcept { return size_; }

 private:
  unsigned dims_ = 0;
  std::array<std::size_t, 3> size_{1, 1, 1};
};

}  // namespace weft
