// The work-group sizes chosen for launches that give none (src/runtime/launch_geometry.hpp).
#include <gtest/gtest.h>

#include "runtime/launch_geometry.hpp"

namespace weft::detail {
namespace {

std::size_t items(const std::size_t l[3]) { return l[0] * l[1] * l[2]; }

TEST(LaunchGeometry, CudaBlocksHoldAtMost256ItemsWhereTheGridAllows) {
  std::size_t l[3];
  choose_cuda_block(NDRange(1024, 1024), 1024, l);
  EXPECT_EQ(l[0], 256u);
  EXPECT_EQ(items(l), 256u);
  choose_cuda_block(NDRange(1 << 20), 1024, l);
  EXPECT_EQ(l[0], 256u);
  EXPECT_EQ(items(l), 256u);
  choose_cuda_block(NDRange(64, 64, 64), 1024, l);
  EXPECT_LE(items(l), 256u);
}

TEST(LaunchGeometry, CudaBlocksGrowWhereYOrZWouldNeedMoreThan65535Blocks) {
  // (found by review: 256 x 200000 made 200000 blocks along y, over CUDA's limit)
  for (const NDRange& g : {NDRange(256, 200000), NDRange(64, 1000000), NDRange(256, 131072)}) {
    std::size_t l[3];
    choose_cuda_block(g, 1024, l);
    for (unsigned d = 0; d < g.dims(); ++d) {
      EXPECT_EQ(g[d] % l[d], 0u);
      if (d > 0) {
        EXPECT_LE(g[d] / l[d], 65535u) << "dimension " << d;
      }
    }
    EXPECT_LE(items(l), 1024u);
  }
}

TEST(LaunchGeometry, ALocalSizeDividesTheGlobalSize) {
  EXPECT_EQ(choose_local_size(1000, 256, 32), 250u);  // no multiple of 32 divides 1000
  EXPECT_EQ(choose_local_size(4096, 256, 32), 256u);
  EXPECT_EQ(choose_local_size(7, 256, 32), 7u);
  EXPECT_EQ(choose_local_size(0, 256, 32), 1u);
}

}  // namespace
}  // namespace weft::detail
