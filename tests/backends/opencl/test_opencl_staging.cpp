// OpenclStaging (backends/opencl/opencl_staging.hpp), driven directly on every OpenCL device:
// the queues stage only where device memory is not host memory (NVIDIA's OpenCL), which CI
// has none of, so the chunked copies through pinned buffers are checked here on PoCL too.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

#include "backends/opencl/opencl_device.hpp"
#include "backends/opencl/opencl_memory.hpp"
#include "backends/opencl/opencl_queue.hpp"
#include "support.hpp"
#include "weft/pinned_memory.hpp"

namespace weft {
namespace {

std::vector<Device> opencl_devices() {
  std::vector<Device> out;
  for (const Device& d : test::test_devices()) {
    if (d.backend() == "opencl") out.push_back(d);
  }
  return out;
}

class OpenclStagingTest : public ::testing::TestWithParam<Device> {};

TEST_P(OpenclStagingTest, ChunkedCopiesBothWaysKeepEveryByte) {
  const Device dev = GetParam();
  auto& impl = static_cast<detail::OpenclDevice&>(*dev.impl());
  detail::PinnedRanges ranges;
  detail::OpenclStaging up([&](std::size_t n) { return impl.allocate_pinned(n); }, ranges);
  detail::OpenclStaging down([&](std::size_t n) { return impl.allocate_pinned(n); }, ranges);
  Queue q(dev, QueueOptions{.profiling = true});
  detail::cl::cl_command_queue handle = static_cast<detail::OpenclQueue&>(*q.impl()).handle();
  // Not a whole number of chunks, written at an offset: every chunk size of the plan is met.
  const std::size_t bytes = (std::size_t{21} << 20) + 4100, offset = 4096;
  Buffer buf(dev, bytes + offset);
  detail::cl::cl_mem mem = static_cast<detail::OpenclBuffer&>(*buf.impl()).mem();
  std::vector<std::uint32_t> host(bytes / 4);
  std::iota(host.begin(), host.end(), 7u);
  const detail::StagedCopy w = up.write(handle, mem, offset, host.data(), host.size() * 4, {});
  ASSERT_TRUE(w);  // staged (8 MiB and more, pageable)
  ASSERT_NE(w.first, w.last);  // several chunks
  // The copy's event profiles every chunk: from the first's start to the last's end.
  detail::OpenclEvent whole(w.first, w.last);
  whole.wait();
  detail::cl::api().clRetainEvent(w.last);
  const EventProfile last_only = detail::OpenclEvent(w.last).profile(), all = whole.profile();
  EXPECT_EQ(all.end, last_only.end);
  EXPECT_LT(all.start, last_only.start);
  std::vector<std::uint32_t> back(host.size());
  const detail::StagedCopy r = down.read(handle, back.data(), mem, offset, back.size() * 4, {});
  ASSERT_TRUE(r);
  detail::OpenclEvent read_event(r.first, r.last);  // (releases both)
  EXPECT_EQ(back, host);
  // The queue's own path agrees (staged or not on this device).
  std::vector<std::uint32_t> direct(host.size());
  q.read(buf, direct.data(), direct.size() * 4, offset);
  EXPECT_EQ(direct, host);
  // Small copies and pinned memory are the caller's to copy directly.
  EXPECT_FALSE(up.write(handle, mem, 0, host.data(), 1 << 20, {}));
  PinnedMemory pinned(dev, std::size_t{9} << 20);
  ranges.add(pinned.data(), pinned.size());
  EXPECT_FALSE(down.read(handle, pinned.data(), mem, 0, pinned.size(), {}));
  ranges.remove(pinned.data());
}

TEST(PinnedRanges, ContainsOnlyWholeRanges) {
  detail::PinnedRanges r;
  std::vector<char> a(100), b(100);
  r.add(a.data(), 100);
  EXPECT_TRUE(r.contains(a.data(), 100));
  EXPECT_TRUE(r.contains(a.data() + 10, 50));
  EXPECT_FALSE(r.contains(a.data() + 10, 100));
  EXPECT_FALSE(r.contains(b.data(), 1));
  r.remove(a.data());
  EXPECT_FALSE(r.contains(a.data(), 1));
}

INSTANTIATE_TEST_SUITE_P(OpenclDevices, OpenclStagingTest, ::testing::ValuesIn(opencl_devices()), test::device_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OpenclStagingTest);

}  // namespace
}  // namespace weft
