// How the host backend cuts a launch without a local size into chunks (host_item_chunks) and
// what it learns of a kernel's work-items from its runs (host_item_ps_after: the chunks' own
// times summed over the work-items).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

#include "backends/host/host_queue.hpp"

namespace weft::detail {
namespace {

constexpr std::size_t threads = 16;

TEST(HostChunks, UnmeasuredKernelsTakeChunksOf4096WorkItems) {
  EXPECT_EQ(host_item_chunks(0, 100, threads), 1u);
  EXPECT_EQ(host_item_chunks(0, 4095, threads), 1u);
  EXPECT_EQ(host_item_chunks(0, 10000, threads), 2u);
  EXPECT_EQ(host_item_chunks(0, 1 << 20, threads), 64u);  // four per thread at most
  EXPECT_EQ(host_item_chunks(0, 1 << 20, 1), 1u);         // one thread: one chunk
}

TEST(HostChunks, LightWorkItemsKeepTheChunksOf4096) {
  // Half a nanosecond each: 10^4 of them are 5 us of work, 10^5 50 us.
  EXPECT_EQ(host_item_chunks(500, 10000, threads), 2u);
  EXPECT_EQ(host_item_chunks(500, 4000, threads), 1u);
  EXPECT_EQ(host_item_chunks(500, 99000, threads), 24u);
}

TEST(HostChunks, HeavyWorkItemsAreCutIntoChunksOfAboutAMicrosecond) {
  // 30 ns each: 4096 of them are 123 us of work (one chunk by count), cut into 64 (the most);
  // 2000 of them 60 us, 60 chunks; 1000 of them 30 us, one.
  EXPECT_EQ(host_item_chunks(30000, 4096, threads), 64u);
  EXPECT_EQ(host_item_chunks(30000, 2000, threads), 60u);
  EXPECT_EQ(host_item_chunks(30000, 1000, threads), 1u);
  // Never more chunks than work-items, never more than four per thread.
  EXPECT_EQ(host_item_chunks(1000000, 600, threads), 64u);
  EXPECT_EQ(host_item_chunks(1000000, 600, 200), 600u);
  EXPECT_EQ(host_item_chunks(30000, 4096, 1), 1u);
}

TEST(HostChunks, ARunMeasuresAWorkItemFromItsChunksOwnTimes) {
  // 10^4 work-items whose chunks took 20 us in all: 2 ns each, whatever was known before (a
  // kernel whose work-items' cost depends on its arguments follows its latest run).
  EXPECT_EQ(host_item_ps_after(0, 10000, 20000), 2000u);
  EXPECT_EQ(host_item_ps_after(500, 10000, 20000), 2000u);
  EXPECT_EQ(host_item_ps_after(30000, 10000, 20000), 2000u);
  // Runs of fewer than 512 work-items are mostly the call's own time: not measured.
  EXPECT_EQ(host_item_ps_after(700, 511, 90000), 700u);
  EXPECT_EQ(host_item_ps_after(0, 100, 90000), 0u);
  // Never 0 once measured (0 means not yet).
  EXPECT_EQ(host_item_ps_after(0, 1 << 20, 0), 1u);
}

TEST(HostChunks, AKernelMeasuredHeavyThenLightGoesBackToItsChunksOf4096) {
  // A run of 4096 heavy work-items (123 us on the threads) cuts the next launch into 64; a run
  // of light ones after it (2000 work-items, 1 us on the threads, wherever the pool's wake-up
  // went) brings the next launch of 2000 back to one chunk.
  std::uint64_t ps = host_item_ps_after(0, 4096, 123000);
  EXPECT_EQ(host_item_chunks(ps, 2000, threads), 60u);
  ps = host_item_ps_after(ps, 2000, 1000);
  EXPECT_EQ(host_item_chunks(ps, 2000, threads), 1u);
}

}  // namespace
}  // namespace weft::detail
