// Small reads through a device's pinned block (runtime/small_reads.hpp): CUDA and OpenCL GPUs
// read so by their capabilities; the tests turn it on for every device whose memory is not the
// host's, so that PoCL runs the path where there is no GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

#include "array/memory_pool.hpp"
#include "runtime/small_reads.hpp"
#include "support.hpp"
#include "weft/weft.hpp"

using namespace weft;

namespace {

// Every device whose memory is not the host's reads through its block while it lives.
struct ThroughPinned {
  explicit ThroughPinned(int mode = 1) { detail::set_small_reads_through_pinned(mode); }
  ~ThroughPinned() { detail::set_small_reads_through_pinned(-1); }
  ThroughPinned(const ThroughPinned&) = delete;
  ThroughPinned& operator=(const ThroughPinned&) = delete;
};

std::vector<Device> device_memory_devices() {
  std::vector<Device> out;
  for (const Device& d : test::test_devices()) {
    if (!d.info().capabilities.memory_is_host) out.push_back(d);
  }
  return out;
}

Device host_device() {
  for (const Device& d : test::test_devices()) {
    if (d.backend() == "host") return d;
  }
  return {};
}

}  // namespace

TEST(SmallReads, TheBlockIsHeldByOneCallerAtATimeAndOnlyWhereReadsGoThroughIt) {
  const ThroughPinned on;
  if (const Device host = host_device()) {
    EXPECT_FALSE(detail::take_small_read_block(host));
  }
  for (const Device& d : device_memory_devices()) {
    detail::SmallReadLease first = detail::take_small_read_block(d);
    ASSERT_TRUE(first) << d.selector();
    EXPECT_FALSE(detail::take_small_read_block(d)) << d.selector();  // held
    std::byte* const data = first.data();
    first = detail::SmallReadLease();  // given back
    const detail::SmallReadLease again = detail::take_small_read_block(d);
    ASSERT_TRUE(again) << d.selector();
    EXPECT_EQ(again.data(), data) << d.selector();  // the same block, kept
  }
  detail::set_small_reads_through_pinned(0);
  for (const Device& d : device_memory_devices()) EXPECT_FALSE(detail::take_small_read_block(d)) << d.selector();
}

TEST(SmallReads, BlockingReadsOfEverySizeAndOffsetHoldTheBuffersBytes) {
  // Through the block up to 64 KiB, directly beyond, and directly when the block is held:
  // byte for byte what the buffer holds, from any offset, the bytes around untouched.
  const ThroughPinned on;
  for (const Device& d : device_memory_devices()) {
    Queue q(d);
    std::vector<std::uint8_t> bytes(200'003);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i * 131 + 7);
    const Buffer b = test::upload(q, bytes);
    for (const bool held : {false, true}) {
      const detail::SmallReadLease holder = held ? detail::take_small_read_block(d) : detail::SmallReadLease();
      for (const std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{400}, detail::kSmallReadBytes - 1,
                                  detail::kSmallReadBytes, detail::kSmallReadBytes + 1, std::size_t{200'000}}) {
        for (const std::size_t offset : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
          std::vector<std::uint8_t> out(n + 2, 0xEE);
          q.read(b, out.data() + 1, n, offset);
          EXPECT_EQ(out.front(), 0xEE) << d.selector() << " n=" << n;
          EXPECT_EQ(out.back(), 0xEE) << d.selector() << " n=" << n;
          EXPECT_EQ(std::memcmp(out.data() + 1, bytes.data() + offset, n), 0)
              << d.selector() << " n=" << n << " offset=" << offset << " held=" << held;
        }
      }
    }
  }
}

TEST(SmallReads, AReadWaitsForTheWorkQueuedBeforeItAndForItsEvents) {
  // The read through the block is a command of its queue like any other: after a kernel that
  // wrote the buffer, and after the events it was given (another queue's write).
  const ThroughPinned on;
  for (const Device& d : device_memory_devices()) {
    const Array a = eval(Array::full(Shape{1000}, 1.0, DType::float32, d) * 3.0f + 1.0f);
    const std::vector<float> v = a.to_host<float>();
    for (std::size_t i = 0; i < v.size(); i += 97) EXPECT_EQ(v[i], 4.0f) << d.selector() << " " << i;
    Queue writer(d), reader(d);
    const std::vector<float> values(4096, 2.5f);
    const Buffer b(d, values.size() * sizeof(float));
    const Event written = writer.write(b, values.data(), values.size() * sizeof(float), 0, Blocking::no);
    std::vector<float> out(values.size());
    const std::vector<Event> after{written};
    reader.read(b, out.data(), out.size() * sizeof(float), 0, Blocking::yes, after);
    EXPECT_EQ(out, values) << d.selector();
  }
}

TEST(SmallReads, AHostOperationReadsItsInputsThroughTheBlockAndBeyondIt) {
  // Six inputs of 64 KiB resident elsewhere, read for one host operation: four fit the block
  // (read together), the other two are read one by one; one of 448 KiB never goes through it.
  const ThroughPinned on;
  const Device host = host_device();
  if (!host) GTEST_SKIP() << "needs the host backend";
  for (const Device& d : device_memory_devices()) {
    const std::int64_t n = static_cast<std::int64_t>(detail::kSmallReadBytes / sizeof(float));
    std::vector<Array> there, here;
    for (int k = 0; k < 6; ++k) {
      there.push_back(eval(Array::full(Shape{n}, 1.0, DType::float32, d) * static_cast<float>(k + 1)));
      here.push_back(there.back().to(host));
    }
    const Array big = eval(Array::full(Shape{7, n}, 7.0, DType::float32, d) + 0.0f);  // 448 KiB
    synchronize(d);
    const TransferStats t0 = transfer_stats();
    const Array sum6 = eval(here[0] + here[1] + here[2] + here[3] + here[4] + here[5]);
    EXPECT_EQ((transfer_stats() - t0).between_devices, 6u) << d.selector();
    const std::vector<float> r = sum6.to_host<float>();
    ASSERT_EQ(r.size(), static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < r.size(); i += 1021) EXPECT_EQ(r[i], 21.0f) << d.selector() << " " << i;
    EXPECT_EQ(r.back(), 21.0f) << d.selector();
    const std::vector<float> s = eval(big.to(host) + here[0]).to_host<float>();
    EXPECT_EQ(s.front(), 8.0f) << d.selector();
    EXPECT_EQ(s.back(), 8.0f) << d.selector();
    // Written there again: read again, through the block.
    Array w = there[2];
    w.assign(w + 10.0f);
    EXPECT_EQ(eval(here[2] + here[3]).to_host<float>()[5], 13.0f + 4.0f) << d.selector();
  }
}

TEST(SmallReads, ThreadsReadingAtOnceEachGetTheirOwnBytes) {
  // One thread holds the block at a time; the others read directly meanwhile.
  const ThroughPinned on;
  for (const Device& d : device_memory_devices()) {
    std::vector<std::thread> threads;
    std::vector<int> wrong(4, 0);
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        Queue q(d);
        std::vector<std::int32_t> mine(1000 + 100 * t);
        std::iota(mine.begin(), mine.end(), 1'000'000 * t);
        const Buffer b = test::upload(q, mine);
        for (int r = 0; r < 50; ++r) {
          std::vector<std::int32_t> out(mine.size());
          q.read(b, out.data(), out.size() * sizeof(std::int32_t));
          if (out != mine) ++wrong[static_cast<std::size_t>(t)];
        }
      });
    }
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(wrong, std::vector<int>(4, 0)) << d.selector();
  }
}
