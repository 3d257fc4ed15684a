// The fixture of the array tests on every device (tests/array/test_array.cpp,
// test_arithmetic.cpp and tests/algorithms/test_reductions.cpp): one test suite, Arrays,
// instantiated once in test_array.cpp for every device.
#pragma once

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "support.hpp"

namespace weft {

// Not in an anonymous namespace: the suite's tests in every file must name the same class.
class Arrays : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();

  template <class T>
  Array make(const std::vector<T>& v, const Shape& shape) {
    return Array::from_host<T>(std::span<const T>(v), shape, dev);
  }
};

inline std::vector<float> iota_f(std::size_t n, float start = 0) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

}  // namespace weft
