// The array memory pool (reuse, WEFT_MEMORY_LIMIT, OutOfMemory naming the request) and
// residence: an allocation copied between devices only when read where its copy is stale,
// once, with views sharing the record. The copies are counted and must be the minimum.
#include <gtest/gtest.h>

#include <numeric>
#include <thread>

#include "array/memory_pool.hpp"
#include "support.hpp"

namespace weft {
namespace {

class Memory : public ::testing::TestWithParam<Device> {
 public:
  Device dev = GetParam();
};

TEST_P(Memory, FreedBlocksAreReusedWithTheirNewType) {
  synchronize(dev);
  free_cached_memory(dev);
  const MemoryStats start = memory_stats(dev);
  std::uint64_t first_address = 0;
  {
    Array a = Array::full({1000}, 1.5, DType::float32, dev);
    first_address = a.buffer().address();
    EXPECT_EQ(memory_stats(dev).in_use, start.in_use + 4096);
    EXPECT_EQ(a.to_host<float>(), std::vector<float>(1000, 1.5f));
  }
  EXPECT_EQ(memory_stats(dev).cached, start.cached + 4096);
  // The same bytes as another dtype: the block comes back, the array holds what it is given.
  Array b = Array::arange(0, 1000, 1, DType::int32, dev);
  const MemoryStats after = memory_stats(dev);
  EXPECT_GE(after.reuses, start.reuses + 1);
  EXPECT_EQ(b.buffer().dtype(), DType::int32);
  if (first_address) {
    EXPECT_EQ(b.buffer().address(), first_address);
  }
  std::vector<std::int32_t> want(1000);
  std::iota(want.begin(), want.end(), 0);
  EXPECT_EQ(b.to_host<std::int32_t>(), want);
  free_cached_memory(dev);
  EXPECT_EQ(memory_stats(dev).cached, 0u);
}

TEST(MemoryPool, SizeClassesWasteAtMostAnEighth) {
  using detail::MemoryPool;
  EXPECT_EQ(MemoryPool::size_class(1), 512u);
  EXPECT_EQ(MemoryPool::size_class(513), 1024u);
  EXPECT_EQ(MemoryPool::size_class(4096), 4096u);
  for (std::size_t b : {4097ul, 10000ul, 65537ul, 1000001ul, (1ul << 30) + 1}) {
    const std::size_t c = MemoryPool::size_class(b);
    EXPECT_GE(c, b);
    EXPECT_LE(c, b + b / 8) << b;
    EXPECT_EQ(MemoryPool::size_class(c), c) << "a class is its own class: " << b;
  }
}

TEST_P(Memory, ALimitRefusesARequestBeyondItAndNamesIt) {
  auto pool = std::make_shared<detail::MemoryPool>(dev, 1 << 20);  // as WEFT_MEMORY_LIMIT=1M
  const auto what = [] { return std::string("a float32 array of shape (160000,)"); };
  Buffer a = pool->allocate(640000, DType::float32, what);
  try {
    Buffer b = pool->allocate(640000, DType::float32, what);
    FAIL() << "a second 640000-byte block fit under a 1 MiB limit";
  } catch (const OutOfMemory& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.requested(), 640000u);
    EXPECT_NE(m.find("a float32 array of shape (160000,)"), std::string::npos) << m;
    EXPECT_NE(m.find("WEFT_MEMORY_LIMIT"), std::string::npos) << m;
    EXPECT_NE(m.find(dev.selector()), std::string::npos) << m;
  }
  a = Buffer();  // back to the cache
  EXPECT_GT(pool->stats().cached, 0u);
  // A request of another size: the cached block is freed to make room under the limit.
  Buffer c = pool->allocate(700000, DType::uint8, what);
  EXPECT_EQ(pool->stats().cached, 0u);
  EXPECT_LE(pool->stats().in_use, 1u << 20);
  EXPECT_EQ(pool->stats().allocations, 2u);
}

// Two devices to move arrays between: the host backend and another one (PoCL in CI).
std::pair<Device, Device> two_devices() {
  Device host, other;
  for (const Device& d : test::test_devices()) {
    if (d.backend() == "host" && !host) host = d;
    else if (d.backend() != "host" && !other) other = d;
  }
  return {host, other};
}

TEST(Residence, ACopyIsMadeOnlyWhenReadWhereStaleAndOnce) {
  auto [host, other] = two_devices();
  if (!host || !other) GTEST_SKIP() << "needs the host backend and one other device";
  std::vector<float> v(256);
  std::iota(v.begin(), v.end(), 0.0f);
  const TransferStats t0 = transfer_stats();
  Array a = Array::from_host<float>(v, Shape{16, 16}, host);
  EXPECT_EQ((transfer_stats() - t0).to_device, 1u);

  const TransferStats t1 = transfer_stats();
  Array g = a.to(other);  // nothing moves yet
  EXPECT_EQ(g.device(), other);
  EXPECT_EQ((transfer_stats() - t1).total(), 0u);
  Array twice = eval(g * 2.0f);  // the first read there: one copy
  Array thrice = eval(g * 3.0f);  // valid there now: none
  EXPECT_EQ((transfer_stats() - t1).between_devices, 1u);
  EXPECT_EQ(thrice.to_host<float>()[5], 15.0f);
  EXPECT_EQ(twice.to_host<float>()[255], 510.0f);

  // A write on the other device makes the host copy stale: the next host read copies back
  // once; a view of the same allocation sees the new values without another copy.
  const TransferStats t2 = transfer_stats();
  g.assign(g + 1.0f);
  const auto back = a.to_host<float>();
  EXPECT_EQ(back[0], 1.0f);
  EXPECT_EQ(back[255], 256.0f);
  const Array row = a.slice(0, 3, 4);
  EXPECT_EQ(eval(row * 1.0f).to_host<float>()[0], 49.0f);
  EXPECT_EQ((transfer_stats() - t2).between_devices, 1u);

  // Reading the other device's array to the host, with a valid host copy: no device transfer.
  const TransferStats t3 = transfer_stats();
  EXPECT_EQ(g.to_host<float>()[1], 2.0f);
  EXPECT_EQ((transfer_stats() - t3).between_devices, 0u);
  EXPECT_EQ((transfer_stats() - t3).to_host, 1u);

  // A write through a host view: the other copy is stale, and reading there copies again.
  const TransferStats t4 = transfer_stats();
  a.slice(0, 0, 1).assign(Expr(-7.0f));
  const auto there = eval(g + 0.0f).to_host<float>();
  EXPECT_EQ(there[0], -7.0f);
  EXPECT_EQ(there[15], -7.0f);
  EXPECT_EQ(there[16], 17.0f);
  EXPECT_EQ((transfer_stats() - t4).between_devices, 1u);
}

TEST(Residence, AnArrayMadeElsewhereReachesTheHostBackend) {
  auto [host, other] = two_devices();
  if (!host || !other) GTEST_SKIP() << "needs the host backend and one other device";
  Array g = Array::arange(0, 100, 1, DType::int64, other);
  Array h = g.to(host);
  const TransferStats t = transfer_stats();
  EXPECT_EQ(sum(h * 2).get(), 9900.0);
  EXPECT_EQ(sum(h).get(), 4950.0);
  EXPECT_EQ((transfer_stats() - t).between_devices, 1u);
  EXPECT_EQ(h.to(other).device(), other);
  EXPECT_TRUE(h.to(other).shares_allocation(g));
  // Mixing devices in one expression is refused, naming both.
  try {
    eval(g + h);
    FAIL() << "an expression mixing devices ran";
  } catch (const InvalidArgument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(host.selector()), std::string::npos) << m;
    EXPECT_NE(m.find(other.selector()), std::string::npos) << m;
  }
}

TEST(Residence, AHostOperationReadsItsInputsFromAnotherDeviceTogetherEachOnce) {
  // make_current_all: the stale host copies of an expression's inputs read together (the
  // reads queued on the other device, waited for once), each allocation once, views of one
  // allocation (one residence record, one lock) among them.
  auto [host, other] = two_devices();
  if (!host || !other) GTEST_SKIP() << "needs the host backend and one other device";
  std::vector<float> v(64);
  std::iota(v.begin(), v.end(), 0.0f);
  const Array a = Array::from_host<float>(v, Shape{64}, other);
  Array b = eval(a * 2.0f);  // (written below)
  const Array c = eval(a + 100.0f);
  synchronize(other);
  const TransferStats t0 = transfer_stats();
  const Array ha = a.to(host), hb = b.to(host), hc = c.to(host);
  const auto first_32 = [](const Array& x) { return x.as_strided(Shape{32}, {1}, 0); };
  const Array even = ha.as_strided(Shape{32}, {2}, 0);
  const std::vector<float> r = eval(first_32(hb) + first_32(hc) * 0.5f + first_32(ha) - even).to_host<float>();
  EXPECT_EQ((transfer_stats() - t0).between_devices, 3u);  // a once for both of its views
  for (std::size_t i = 0; i < 32; ++i) {
    const float x = static_cast<float>(i);
    EXPECT_EQ(r[i], 2 * x + (x + 100) * 0.5f + x - 2 * x) << i;
  }
  // Valid on the host now: nothing more to read.
  const TransferStats t1 = transfer_stats();
  EXPECT_EQ(eval(hb + hc).to_host<float>()[3], 6.0f + 103.0f);
  EXPECT_EQ((transfer_stats() - t1).between_devices, 0u);
  // Written on the other device: read again, with the copy still valid alongside.
  b.assign(b + 1.0f);
  const TransferStats t2 = transfer_stats();
  EXPECT_EQ(eval(hb + hc + ha).to_host<float>()[3], 7.0f + 103.0f + 3.0f);
  EXPECT_EQ((transfer_stats() - t2).between_devices, 1u);
}

TEST(Residence, ThreadsReadingTheSameInputsTogetherInEitherOrderDoNotDeadlock) {
  // Two threads' host operations read x and y from another device in opposite orders: the
  // residences are locked in address order, so neither waits for the other forever (and TSan
  // sees no lock-order inversion).
  auto [host, other] = two_devices();
  if (!host || !other) GTEST_SKIP() << "needs the host backend and one other device";
  for (int round = 0; round < 20; ++round) {
    const Array x = Array::full(Shape{256}, 1.0, DType::float32, other);
    const Array y = Array::full(Shape{256}, 2.0, DType::float32, other);
    synchronize(other);
    const Array hx = x.to(host), hy = y.to(host);
    double s1 = 0, s2 = 0;
    std::thread t1([&] { s1 = sum(hx * 3.0f + hy).get(); });
    std::thread t2([&] { s2 = sum(hy * 5.0f + hx).get(); });
    t1.join();
    t2.join();
    EXPECT_EQ(s1, 256.0 * 5);
    EXPECT_EQ(s2, 256.0 * 11);
  }
}

INSTANTIATE_TEST_SUITE_P(AllDevices, Memory, ::testing::ValuesIn(test::test_devices()), test::device_name);

}  // namespace
}  // namespace weft

namespace weft {
namespace {

TEST_P(Memory, ReductionResultsComeFromThePool) {
  const Array a = Array::arange(0, 1000, 1, DType::float32, dev);
  EXPECT_EQ(sum(a).get(), 499500.0);  // warm: the kernels, and a block of the result's size
  synchronize(dev);
  const MemoryStats before = memory_stats(dev);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(sum(a * 2).get(), 999000.0);
  synchronize(dev);
  const MemoryStats after = memory_stats(dev);
  EXPECT_EQ(after.allocations, before.allocations) << "a sum asked the driver for memory";
  EXPECT_GE(after.reuses, before.reuses + 20);
}

}  // namespace
}  // namespace weft
