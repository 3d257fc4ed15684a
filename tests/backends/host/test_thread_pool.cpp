// The host backend's thread pool: every chunk of every region runs exactly once, whether its
// workers are still spinning from the region before or asleep, with fewer chunks than workers
// (only some are woken) or more, and with several callers at once (one region at a time).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <thread>
#include <vector>

#include "backends/host/thread_pool.hpp"

namespace weft::detail {
namespace {

// Runs a region of `chunks` chunks and checks that each ran once.
void expect_each_chunk_once(ThreadPool& pool, std::size_t chunks) {
  std::vector<std::atomic<int>> ran(chunks);
  auto body = [&](std::size_t c) { ran[c].fetch_add(1); };
  pool.run(chunks, body);
  for (std::size_t c = 0; c < chunks; ++c) ASSERT_EQ(ran[c].load(), 1) << "chunk " << c << " of " << chunks;
}

TEST(ThreadPool, EveryChunkRunsOnceBackToBackAndAfterTheWorkersSlept) {
  ThreadPool pool(6);
  for (int round = 0; round < 200; ++round) {
    for (const std::size_t chunks : {std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{6}, std::size_t{24}}) {
      expect_each_chunk_once(pool, chunks);
    }
    // Now and then long enough for every worker to stop spinning and sleep.
    if (round % 20 == 0) std::this_thread::sleep_for(ThreadPool::kSpin * 4);
  }
}

TEST(ThreadPool, AFewChunksAfterSleepStillGetEveryChunkDone) {
  // Two chunks wake one sleeping worker (or none: the caller may take both); a region of many
  // chunks right after must still find the others, asleep since.
  ThreadPool pool(8);
  for (int round = 0; round < 50; ++round) {
    std::this_thread::sleep_for(ThreadPool::kSpin * 3);
    expect_each_chunk_once(pool, 2);
    std::this_thread::sleep_for(ThreadPool::kSpin * 3);
    expect_each_chunk_once(pool, 64);
  }
}

TEST(ThreadPool, WorkersShareALongRegion) {
  // Chunks that wait for one another can only finish if several threads run them at once: the
  // region's workers are woken, not left asleep.
  ThreadPool pool(4);
  std::this_thread::sleep_for(ThreadPool::kSpin * 4);
  std::atomic<int> arrived{0};
  auto body = [&](std::size_t) {
    arrived.fetch_add(1);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (arrived.load() < 2 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  };
  pool.run(2, body);
  EXPECT_EQ(arrived.load(), 2);
}

TEST(ThreadPool, SeveralCallersTakeTurns) {
  ThreadPool pool(4);
  std::vector<std::thread> callers;
  std::atomic<int> failures{0};
  for (int t = 0; t < 3; ++t) {
    callers.emplace_back([&, t] {
      for (int round = 0; round < 100; ++round) {
        const std::size_t chunks = 2 + static_cast<std::size_t>((round + t) % 9);
        std::vector<std::atomic<int>> ran(chunks);
        auto body = [&](std::size_t c) { ran[c].fetch_add(1); };
        pool.run(chunks, body);
        for (auto& r : ran) failures.fetch_add(r.load() == 1 ? 0 : 1);
      }
    });
  }
  for (auto& c : callers) c.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
}  // namespace weft::detail
