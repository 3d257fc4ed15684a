// How the host backend cuts a launch without a local size into chunks (host_item_chunks) and
// what it learns of a kernel's work-items from its runs (host_item_ps_after).
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

TEST(HostChunks, ARunOnOneThreadMeasuresAWorkItemAndARunInChunksOnlyLowersIt) {
  // 10^4 work-items in 20 us on one thread: 2 ns each, whatever was known.
  EXPECT_EQ(host_item_ps_after(0, 10000, 1, threads, 20000), 2000u);
  EXPECT_EQ(host_item_ps_after(500, 10000, 1, threads, 20000), 2000u);
  // In 64 chunks on 16 threads, 10^5 of them in 20 us: at most 3.2 ns each (16 threads busy).
  EXPECT_EQ(host_item_ps_after(0, 100000, 64, threads, 20000), 3200u);
  EXPECT_EQ(host_item_ps_after(2000, 100000, 64, threads, 20000), 2000u);  // kept: lower
  EXPECT_EQ(host_item_ps_after(5000, 100000, 64, threads, 20000), 3200u);  // lowered
  // In 2 chunks: two threads busy.
  EXPECT_EQ(host_item_ps_after(0, 10000, 2, threads, 10000), 2000u);
  // Runs of fewer than 512 work-items are mostly the call's own time: not measured.
  EXPECT_EQ(host_item_ps_after(700, 511, 1, threads, 90000), 700u);
  EXPECT_EQ(host_item_ps_after(0, 100, 1, threads, 90000), 0u);
}

}  // namespace
}  // namespace weft::detail
