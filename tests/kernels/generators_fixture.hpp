// The fixture of the kernel generator tests on every device (test_generators.cpp,
// test_reduction_kernels.cpp, test_scan_kernels.cpp): one test suite, Generators, instantiated
// once in test_generators.cpp for every device, and the sizes and choices they share.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "kernels/generators/choices.hpp"
#include "support.hpp"

namespace weft {

using Choices = detail::GeneratorChoices;

// The choices of one test: the single-pass scan and the fused reduction where asked.
inline Choices forcing(bool single_pass, bool fused = false) {
  Choices c;
  if (single_pass) c.scan_algorithm = Choices::ScanAlgorithm::single_pass;
  if (fused) c.reduce_algorithm = Choices::ReduceAlgorithm::fused;
  return c;
}

const std::size_t sizes[] = {0, 1, 2, 1023, 1024, 1025, 65535, 65536, 65537, (1u << 20) + 1};

// Not in an anonymous namespace: the suite's tests in every file must name the same class.
class Generators : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();
  Queue q{dev};
  template <class T>
  Buffer upload_typed(const std::vector<T>& v) {
    Buffer b = Buffer::of<T>(dev, std::max<std::size_t>(v.size(), 1));
    if (!v.empty()) q.write(b, v.data(), v.size() * sizeof(T));
    return b;
  }
};

}  // namespace weft
