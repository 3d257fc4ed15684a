// DeviceLocal<T>: one value per device, made once on first use from any number of threads,
// found again without a lock; devices made later (sub-devices) get values of their own.
#include <gtest/gtest.h>

#include <atomic>
#include <algorithm>
#include <barrier>
#include <thread>

#include "runtime/device_local.hpp"
#include "support.hpp"

namespace weft {
namespace {

// A value that counts how many were made and are alive, and remembers its device.
struct Counted {
  static inline std::atomic<int> made{0};
  static inline std::atomic<int> alive{0};
  explicit Counted(const Device& d) : device(d) {
    ++made;
    ++alive;
  }
  ~Counted() { --alive; }
  Counted(const Counted&) = delete;
  Counted& operator=(const Counted&) = delete;
  Device device;
};

// Every device present, and where an OpenCL device splits (PoCL's CPU device does) sub-devices
// of several partitions: each partition makes devices of its own, enough here to need more than
// DeviceLocal's first segment of slots.
std::vector<Device> devices_and_sub_devices() {
  std::vector<Device> out = test::test_devices();
  for (const Device& d : test::test_devices()) {
    if (d.info().compute_units < 2) continue;
    for (int round = 0; round < 12; ++round) {
      try {
        for (Device& s : d.partition(1)) out.push_back(std::move(s));
      } catch (const Unsupported&) {
        break;
      }
    }
  }
  return out;
}

TEST(DeviceLocal, EachDeviceGetsOneValueMadeOnceAcrossThreads) {
  const std::vector<Device> devs = devices_and_sub_devices();
  Counted::made = 0;
  {
    detail::DeviceLocal<Counted> local;
    constexpr int threads = 8;
    std::vector<std::vector<Counted*>> seen(threads, std::vector<Counted*>(devs.size()));
    std::barrier start(threads);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        start.arrive_and_wait();  // every thread asks at once: first uses race
        for (int round = 0; round < 50; ++round) {
          // Threads walk the devices in different orders.
          for (std::size_t k = 0; k < devs.size(); ++k) {
            const std::size_t i = (k * 7 + static_cast<std::size_t>(t) * 3) % devs.size();
            Counted* v = &local.get(devs[i]);
            if (round == 0) seen[static_cast<std::size_t>(t)][i] = v;
            else if (seen[static_cast<std::size_t>(t)][i] != v) seen[static_cast<std::size_t>(t)][i] = nullptr;
          }
        }
      });
    }
    for (auto& th : pool) th.join();
    EXPECT_EQ(Counted::made.load(), static_cast<int>(devs.size())) << "values made once per device";
    for (std::size_t i = 0; i < devs.size(); ++i) {
      ASSERT_NE(seen[0][i], nullptr) << devs[i].selector() << ": the value changed between calls";
      EXPECT_TRUE(seen[0][i]->device == devs[i]) << devs[i].selector() << " got another device's value";
      for (int t = 1; t < threads; ++t) EXPECT_EQ(seen[static_cast<std::size_t>(t)][i], seen[0][i]) << devs[i].selector();
      for (std::size_t j = 0; j < i; ++j) EXPECT_NE(seen[0][i], seen[0][j]);
    }
    EXPECT_EQ(Counted::alive.load(), static_cast<int>(devs.size()));
  }
  EXPECT_EQ(Counted::alive.load(), 0) << "values live as long as their DeviceLocal";
}

TEST(DeviceLocal, AFailedMakeKeepsNothingAndTheNextUseTriesAgain) {
  int calls = 0;
  detail::DeviceLocal<int> local([&](const Device&) -> std::shared_ptr<int> {
    if (++calls == 1) throw Error("first make fails");
    return std::make_shared<int>(calls);
  });
  const Device host = device("host");
  EXPECT_THROW(local.get(host), Error);
  EXPECT_EQ(local.get(host), 2);
  EXPECT_EQ(local.get(host), 2);
  EXPECT_EQ(calls, 2);
  EXPECT_THROW(local.get(Device()), InvalidArgument);
}

TEST(DeviceLocal, DevicesHaveDistinctIndices) {
  std::vector<std::size_t> indices;
  for (const Device& d : devices_and_sub_devices()) indices.push_back(d.impl()->local_index());
  std::sort(indices.begin(), indices.end());
  EXPECT_EQ(std::adjacent_find(indices.begin(), indices.end()), indices.end());
}

}  // namespace
}  // namespace weft
