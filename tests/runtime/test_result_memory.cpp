// weft::result_memory: host blocks for large results, given back to a pool by their last owner
// and handed out again for the same size class, idle bytes capped, freed on request.
#include <gtest/gtest.h>

#include <cstring>

#include "support.hpp"
#include "weft/result_memory.hpp"

namespace weft {
namespace {

class ResultMemory : public ::testing::TestWithParam<Device> {};

TEST_P(ResultMemory, ABlockGivenBackIsReusedForTheSameSize) {
  const Device dev = GetParam();
  free_result_memory();
  constexpr std::size_t bytes = std::size_t{6} << 20;
  void* first = nullptr;
  {
    std::shared_ptr<void> a = result_memory(dev, bytes);
    first = a.get();
    std::memset(a.get(), 7, bytes);  // writable, all of it
    EXPECT_EQ(idle_result_memory(), 0u);
  }
  EXPECT_GE(idle_result_memory(), bytes);
  {
    const std::shared_ptr<void> again = result_memory(dev, bytes - 4096);  // the same size class
    EXPECT_EQ(again.get(), first);
    EXPECT_EQ(static_cast<unsigned char*>(again.get())[bytes - 1], 7);  // (not cleared: faulted in)
    const std::shared_ptr<void> other = result_memory(dev, bytes);  // the one idle block is taken
    EXPECT_NE(other.get(), first);
  }
  free_result_memory();
  EXPECT_EQ(idle_result_memory(), 0u);
}

TEST_P(ResultMemory, IdleBytesStayUnderTheCap) {
  const Device dev = GetParam();
  free_result_memory();
  {
    std::vector<std::shared_ptr<void>> held;
    for (int i = 0; i < 5; ++i) held.push_back(result_memory(dev, kResultMemoryIdleBytes / 4));
  }  // five quarters of the cap given back: the oldest is freed
  EXPECT_LE(idle_result_memory(), kResultMemoryIdleBytes);
  EXPECT_GE(idle_result_memory(), kResultMemoryIdleBytes / 2);
  free_result_memory();
  EXPECT_THROW(result_memory(Device(), 1), InvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(AllDevices, ResultMemory, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft
