// Copies between pageable host memory and a device large enough to be staged through pinned
// buffers on CUDA and GPU OpenCL (8 MiB and up, in chunks of 2 to 16 MiB), with odd sizes and offsets,
// several threads at once (one takes the stager, the others copy directly), and the parallel
// memcpy behind the staging on its own. On host and OpenCL the same copies take their usual
// paths: the results must be the same everywhere.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <thread>
#include <vector>

#include "runtime/parallel_memcpy.hpp"
#include "support.hpp"

namespace weft {
namespace {

std::vector<std::uint32_t> pattern(std::size_t n, std::uint32_t seed) {
  std::vector<std::uint32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint32_t>(i * 2654435761u) ^ seed;
  return v;
}

class LargeCopies : public ::testing::TestWithParam<Device> {};

TEST_P(LargeCopies, PageableRoundTripsOfOddSizesAtOffsets) {
  Device dev = GetParam();
  Queue q(dev);
  // 19 MiB and 3 words: two full chunks, a partial one and a tail; written 4 KiB + 4 bytes in.
  const std::size_t n = (std::size_t{19} << 18) + 3, offset = 4096 + 4;
  const auto v = pattern(n, 7);
  Buffer b(dev, offset + n * sizeof(std::uint32_t) + 64);
  q.write(b, v.data(), n * sizeof(std::uint32_t), offset);
  std::vector<std::uint32_t> back(n, 0);
  q.read(b, back.data(), n * sizeof(std::uint32_t), offset);
  EXPECT_EQ(back, v);
  // A read of a middle part lands where asked and nowhere else.
  std::vector<std::uint32_t> part(n / 2 + 2, 0xdeadbeef);
  q.read(b, part.data() + 1, (n / 2) * sizeof(std::uint32_t), offset + 5 * sizeof(std::uint32_t));
  EXPECT_EQ(part.front(), 0xdeadbeefu);
  EXPECT_EQ(part.back(), 0xdeadbeefu);
  EXPECT_TRUE(std::equal(part.begin() + 1, part.end() - 1, v.begin() + 5));
}

TEST_P(LargeCopies, ANonBlockingWriteThenAKernelSeesEveryChunk) {
  Device dev = GetParam();
  Queue q(dev);
  const std::size_t n = std::size_t{9} << 20;  // 36 MiB of words
  const auto v = pattern(n, 11);
  Buffer a(dev, n * sizeof(std::uint32_t)), c(dev, n * sizeof(std::uint32_t));
  Event w = q.write(a, v.data(), n * sizeof(std::uint32_t), 0, Blocking::no);
  const Event after[] = {w};
  q.copy(a, c, n * sizeof(std::uint32_t), 0, 0, after);
  w.wait();  // (OpenCL keeps the source until then)
  std::vector<std::uint32_t> back(n, 0);
  q.read(c, back.data(), n * sizeof(std::uint32_t));
  EXPECT_EQ(back, v);
}

TEST_P(LargeCopies, SeveralThreadsCopyAtOnce) {
  Device dev = GetParam();
  std::vector<std::thread> pool;
  std::vector<int> ok(3, 0);
  for (int t = 0; t < 3; ++t) {
    pool.emplace_back([&, t] {
      Queue q(dev);
      const std::size_t n = (std::size_t{10} << 18) + static_cast<std::size_t>(t);
      const auto v = pattern(n, static_cast<std::uint32_t>(t));
      Buffer b(dev, n * sizeof(std::uint32_t));
      for (int round = 0; round < 2; ++round) {
        q.write(b, v.data(), n * sizeof(std::uint32_t));
        std::vector<std::uint32_t> back(n, 0);
        q.read(b, back.data(), n * sizeof(std::uint32_t));
        ok[static_cast<std::size_t>(t)] += back == v;
      }
    });
  }
  for (auto& th : pool) th.join();
  EXPECT_EQ(ok, (std::vector<int>{2, 2, 2}));
}

INSTANTIATE_TEST_SUITE_P(AllDevices, LargeCopies, ::testing::ValuesIn(test::test_devices()), test::device_name);

TEST(ParallelMemcpy, CopiesEverySizeWithAnyThreadCount) {
  // Both ways of storing (streaming: non-temporal stores after an unaligned head), into a
  // destination that starts one byte past a line.
  using Stores = detail::ParallelMemcpy::Stores;
  for (unsigned threads : {1u, 3u, 4u}) {
    detail::ParallelMemcpy pool(threads);
    for (Stores stores : {Stores::cached, Stores::streaming}) {
      for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, (std::size_t{1} << 20) - 1, std::size_t{1} << 20,
                                (std::size_t{5} << 20) + 3}) {
        std::vector<unsigned char> src(bytes + 2), dst(bytes + 2, 0xAB);
        std::iota(src.begin(), src.end(), static_cast<unsigned char>(bytes));
        pool.wait(pool.submit(dst.data() + 1, src.data() + 1, bytes, stores));
        EXPECT_EQ(dst.front(), 0xAB);
        EXPECT_EQ(dst.back(), 0xAB);
        EXPECT_TRUE(std::equal(src.begin() + 1, src.end() - 1, dst.begin() + 1))
            << threads << " threads, " << bytes << (stores == Stores::streaming ? " streaming" : " cached");
      }
    }
  }
}

TEST(ParallelMemcpy, JobsFromSeveralThreadsTakeTurns) {
  detail::ParallelMemcpy pool(3);
  std::vector<std::thread> callers;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&, t] {
      std::vector<unsigned char> src((std::size_t{3} << 20) + static_cast<std::size_t>(t)), dst(src.size());
      std::iota(src.begin(), src.end(), static_cast<unsigned char>(t));
      for (int round = 0; round < 5; ++round) {
        std::fill(dst.begin(), dst.end(), 0);
        pool.copy(dst.data(), src.data(), src.size());
        ok[static_cast<std::size_t>(t)] += dst == src;
      }
    });
  }
  for (auto& th : callers) th.join();
  EXPECT_EQ(ok, (std::vector<int>{5, 5, 5, 5}));
}

TEST(ParallelMemcpy, QueuedJobsCompleteWhateverOrderTheyAreWaitedIn) {
  // As a stager uses it: several jobs queued before the first wait, waited in and out of order.
  detail::ParallelMemcpy pool(4);
  constexpr std::size_t kJobs = 6;
  std::vector<std::vector<unsigned char>> src(kJobs), dst(kJobs);
  std::vector<detail::ParallelMemcpy::Ticket> tickets(kJobs);
  for (std::size_t j = 0; j < kJobs; ++j) {
    src[j].resize((std::size_t{1} << 20) + j * 4099);
    std::iota(src[j].begin(), src[j].end(), static_cast<unsigned char>(j));
    dst[j].assign(src[j].size(), 0);
    tickets[j] = pool.submit(dst[j].data(), src[j].data(), src[j].size());
    EXPECT_GT(tickets[j], 0u);
  }
  pool.wait(tickets[3]);
  for (std::size_t j = 0; j <= 3; ++j) EXPECT_EQ(dst[j], src[j]) << "job " << j;
  pool.wait(tickets[5]);
  pool.wait(tickets[1]);  // (long done)
  for (std::size_t j = 0; j < kJobs; ++j) EXPECT_EQ(dst[j], src[j]) << "job " << j;
  // A small copy is made at once: no ticket to wait for.
  std::vector<unsigned char> a(1000, 7), b(1000, 0);
  EXPECT_EQ(pool.submit(b.data(), a.data(), a.size()), 0u);
  EXPECT_EQ(a, b);
  pool.wait(0);
}

TEST(ParallelMemcpy, ATracedJobRecordsItsTimeline) {
  // WEFT_STAGING_TRACE's record of a job: taken, done, its slices (guided: more than the two
  // per thread of a fixed cut, the last ones short) and the waiter's share.
  for (unsigned threads : {1u, 3u}) {
    detail::ParallelMemcpy pool(threads);
    std::vector<unsigned char> src((std::size_t{6} << 20) + 5), dst(src.size(), 0);
    std::iota(src.begin(), src.end(), static_cast<unsigned char>(threads));
    detail::MemcpyTrace trace;
    const std::int64_t before = detail::trace_now_ns();
    pool.wait(pool.submit(dst.data(), src.data(), src.size(), detail::ParallelMemcpy::Stores::cached, &trace));
    EXPECT_EQ(dst, src);
    EXPECT_GE(trace.claimed, before);
    EXPECT_GE(trace.done, trace.claimed);
    EXPECT_LE(trace.done, detail::trace_now_ns());
    EXPECT_LE(trace.by_waiter, trace.slices);
    if (threads == 1) {
      EXPECT_EQ(trace.slices, 1u);  // (one thread: a plain memcpy at submit)
    } else {
      EXPECT_GT(trace.slices, 2 * threads);
      if (trace.worker) {
        EXPECT_GE(trace.worker, trace.claimed);
      }
    }
  }
}

TEST(StagingChunks, CoverTheCopyGrowingAndForReadsTaperingAtTheEnd) {
  const detail::StagingPlan plan;  // 2 MiB doubling to 16 MiB
  constexpr std::size_t MiB = std::size_t{1} << 20;
  for (const bool taper : {false, true}) {
    for (const std::size_t bytes : {8 * MiB, 8 * MiB + 5, 44 * MiB, 64 * MiB, 256 * MiB + 4097}) {
      const auto parts = detail::staging_chunks(plan, bytes, taper);
      std::size_t off = 0;
      for (const auto& [o, len] : parts) {
        EXPECT_EQ(o, off);
        EXPECT_GT(len, 0u);
        EXPECT_LE(len, plan.chunk);
        off += len;
      }
      EXPECT_EQ(off, bytes) << bytes << (taper ? " tapered" : "");
      EXPECT_EQ(parts.front().second, plan.first_chunk);
      if (taper && bytes >= 44 * MiB) {
        // 2, 4, 8, then full chunks, then 8, 4, 2 MiB: the last memcpy is a small one.
        ASSERT_GE(parts.size(), 7u);
        EXPECT_EQ(parts.back().second, plan.first_chunk);
        EXPECT_EQ(parts[parts.size() - 2].second, 2 * plan.first_chunk);
        EXPECT_EQ(parts[parts.size() - 3].second, 4 * plan.first_chunk);
      }
    }
  }
}

}  // namespace
}  // namespace weft
