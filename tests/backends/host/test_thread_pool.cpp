// The host backend's thread pool: every chunk of every region runs exactly once, whether its
// workers are still polling from the region before or asleep, with fewer chunks than workers
// (only some are woken) or more, and with several callers at once (one region at a time).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <thread>
#include <vector>

#include "backends/host/thread_pool.hpp"
#include "runtime/spin_wait.hpp"
#include "support.hpp"

namespace weft::detail {
namespace {

// Each test runs with the workers polling before they sleep and without (the machine decides
// which in a real run: polling_pays), so that both paths run under the sanitizers on any machine.
class ThreadPoolTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { polling_override().store(GetParam() ? 1 : 0); }
  void TearDown() override { polling_override().store(-1); }
};

// Runs a region of `chunks` chunks and checks that each ran once.
void expect_each_chunk_once(ThreadPool& pool, std::size_t chunks) {
  std::vector<std::atomic<int>> ran(chunks);
  auto body = [&](std::size_t c) { ran[c].fetch_add(1); };
  pool.run(chunks, body);
  for (std::size_t c = 0; c < chunks; ++c) ASSERT_EQ(ran[c].load(), 1) << "chunk " << c << " of " << chunks;
}

TEST_P(ThreadPoolTest, EveryChunkRunsOnceBackToBackAndAfterTheWorkersSlept) {
  ThreadPool pool(6);
  for (int round = 0; round < 200; ++round) {
    for (const std::size_t chunks : {std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{6}, std::size_t{24}}) {
      expect_each_chunk_once(pool, chunks);
    }
    // Now and then long enough for every worker to stop spinning and sleep.
    if (round % 20 == 0) std::this_thread::sleep_for(ThreadPool::kSpin * 4);
  }
}

TEST_P(ThreadPoolTest, AFewChunksAfterSleepStillGetEveryChunkDone) {
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

TEST_P(ThreadPoolTest, WorkersShareALongRegion) {
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

TEST_P(ThreadPoolTest, SeveralCallersTakeTurns) {
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

TEST_P(ThreadPoolTest, HostQueueAndEventsGiveTheSameResults) {
  // The host queue's worker and host event waits poll (or not) as the pool's workers do: one
  // kernel on the queue's worker, multi-chunk kernels on the pool, reads waited for.
  const Device host = device("host");
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{20000}}) {
    std::vector<float> v(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 97);
    const Array a = Array::from_host<float>(v, Shape{n}, host);
    for (int round = 0; round < 40; ++round) {
      const std::vector<float> got = eval(a * 2.0f + 1.0f).to_host<float>();
      for (std::size_t i = 0; i < v.size(); i += 997) ASSERT_EQ(got[i], v[i] * 2 + 1) << "n=" << n << " i=" << i;
      if (round % 10 == 0) std::this_thread::sleep_for(ThreadPool::kSpin * 3);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(ThreadPool, ThreadPoolTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "Polling" : "Sleeping"; });

}  // namespace
}  // namespace weft::detail
