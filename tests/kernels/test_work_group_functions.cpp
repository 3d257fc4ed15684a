// Work-group functions on every device (tests/kernels/cl/work_group_{copies,functions}.cl): the
// asynchronous copies everywhere, OpenCL C 2.0's collectives where weft provides them (the
// host backend splits them like barriers, CUDA's prelude has them; weft builds OpenCL C 1.2).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "embedded/weft_test_kernels.hpp"
#include "support.hpp"

namespace weft {
namespace {

using test::download;
using test::upload;

class WorkGroupFunctions : public ::testing::TestWithParam<Device> {
 protected:
  Device dev = GetParam();
  Queue q{dev};
};

TEST_P(WorkGroupFunctions, AsynchronousCopiesPlainAndStrided) {
  Kernel k = Program::build(dev, test_kernels::work_group_copies_cl).kernel("copies");
  const auto in = test::random_vector<float>(64, 3, 0.0f, 1.0f);
  Buffer din = upload(q, in), dout = test::poisoned<float>(q, 64);
  k.set_args(din, dout);
  q.launch(k, NDRange(64), NDRange(32));
  const auto out = download<float>(q, dout, 64);
  for (std::size_t g = 0; g < 2; ++g) {
    for (std::size_t l = 0; l < 32; ++l) {
      float want = in[g * 32 + 31 - l];
      if (l < 16) want += in[g * 32 + 2 * l];  // the strided copy: every second element
      EXPECT_EQ(out[g * 32 + l], want) << dev.selector() << " " << g << " " << l;
    }
  }
}

TEST_P(WorkGroupFunctions, CollectivesMatchAReference) {
  if (dev.backend() == "opencl") GTEST_SKIP() << "OpenCL C 1.2 has no work-group collectives";
  Kernel k = Program::build(dev, test_kernels::work_group_functions_cl).kernel("collectives");
  for (std::size_t group : {std::size_t{16}, std::size_t{40}, std::size_t{64}}) {
    const std::size_t n = group * 3;
    std::vector<int> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<int>((i * 37 + 11) % 97);
    Buffer din = upload(q, in), dout = test::poisoned<int>(q, n * 8), dfout = test::poisoned<float>(q, n);
    k.set_args(din, dout, dfout);
    q.launch(k, NDRange(n), NDRange(group));
    const auto out = download<int>(q, dout, n * 8);
    const auto fout = download<float>(q, dfout, n);
    for (std::size_t g = 0; g < 3; ++g) {
      const auto b = in.begin() + static_cast<std::ptrdiff_t>(g * group);
      const std::vector<int> v(b, b + static_cast<std::ptrdiff_t>(group));
      int inc = 0;
      float mx = -1.0f;
      for (std::size_t l = 0; l < group; ++l) {
        const std::size_t i = g * group + l;
        inc += v[l];
        mx = std::max(mx, static_cast<float>(v[l]) * 0.5f);
        EXPECT_EQ(out[i * 8 + 0], std::accumulate(v.begin(), v.end(), 0)) << group << " " << i;
        EXPECT_EQ(out[i * 8 + 1], *std::min_element(v.begin(), v.end()));
        EXPECT_EQ(out[i * 8 + 2], *std::max_element(v.begin(), v.end()));
        EXPECT_EQ(out[i * 8 + 3], inc);
        EXPECT_EQ(out[i * 8 + 4], inc - v[l]);
        EXPECT_EQ(out[i * 8 + 5], v[0]);
        EXPECT_EQ(out[i * 8 + 6], std::any_of(v.begin(), v.end(), [](int x) { return x > 90; }) ? 1 : 0);
        EXPECT_EQ(out[i * 8 + 7], 1);
        EXPECT_EQ(fout[i], mx);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDevice, WorkGroupFunctions, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
