// The copies' figures of a device's costs (src/placement/measure_parts.hpp): copies as arrays
// make them, and reads of several arrays together, each the median of a few repetitions
// after a warm-up.
#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "array/memory_pool.hpp"
#include "core/log.hpp"
#include "placement/measure_parts.hpp"
#include "runtime/small_reads.hpp"
#include "weft/array.hpp"

namespace weft::detail {

// Host<->device copies as arrays make them, which is what the model's copy terms stand for: an
// array made on the device from pageable host memory (its allocation from the pool and the
// write), and a resident array read into fresh host memory after its queue finished (what
// `get()`, `to_host` and the host's path to resident data do), each at 64 bytes,
// small_copy_bytes and 4 MiB. A raw 64-byte read and a warm 64 MiB rate made the H200's
// reads of 40 KB-4 MB look 3-10 times cheaper than they were (35-450 us).
void measure_array_copies(const Device& device, bool quick, DeviceCosts& c) {
  const int reps = quick ? 5 : 9;
  const std::size_t counts[3] = {16, static_cast<std::size_t>(DeviceCosts::small_copy_bytes) / 4,
                                 std::size_t{1} << 20};  // floats: 64 B, 64 KiB, 4 MiB
  const std::vector<float> host(counts[2], 1.0f);
  double to_dev[3], to_host[3], bytes[3];
  for (int i = 0; i < 3; ++i) {
    const std::span<const float> data(host.data(), counts[i]);
    const Shape shape{static_cast<std::int64_t>(counts[i])};
    bytes[i] = 4.0 * static_cast<double>(counts[i]);
    to_dev[i] = median_time(reps, [&] {
      const Array a = Array::from_host<float>(data, shape, device);
      synchronize(device);
    });
    // Each read of an array made afresh (untimed, its device idle), as a program reads a
    // result it just computed: reading one array again and again was 2-3 us cheaper on the
    // H200's GPUs (CUDA 7.5 us against 10.5 for 64 bytes), and a chain's three inputs moved to
    // the host at 1.2-1.35 times the time of staying on CUDA. A kernel after the upload, as a
    // computed result has: CUDA's read of 64 bytes took 9.0 us after one, 7.7 without, and the
    // estimate without it sent cumsum of 10^2 resident on cuda:0 to the host at 1.24-1.32 times
    // staying's time.
    std::vector<double> t;
    for (int r = 0; r <= reps; ++r) {
      const Array resident = Array::from_host<float>(data, shape, device);
      (void)Array::full(Shape{1}, 0.0, DType::float32, device);
      synchronize(device);
      const auto t0 = Clock::now();
      const std::vector<float> out = resident.to_host<float>();
      volatile float sink = out.back();
      (void)sink;
      if (r > 0) t.push_back(seconds_since(t0));  // (the first: a warm-up)
    }
    to_host[i] = median(t);
  }
  // A segment's rate from its two ends (a busy moment can make the larger look no slower: its
  // own average then).
  const auto rate = [&](const double* t, int i) {
    return t[i + 1] > t[i] ? (bytes[i + 1] - bytes[i]) / (t[i + 1] - t[i]) : bytes[i + 1] / t[i + 1];
  };
  c.to_device_latency_s = to_dev[0];
  c.to_host_latency_s = to_host[0];
  c.to_device_small_Bps = rate(to_dev, 0);
  c.to_host_small_Bps = rate(to_host, 0);
  c.to_device_Bps = rate(to_dev, 1);
  c.to_host_Bps = rate(to_host, 1);
}

namespace {
// Reads of arrays into host memory together, as an operation on the host reading several
// arrays resident on device makes them (detail::make_current_all): the median seconds to read
// k arrays of 64 bytes made afresh there (untimed, the device idle), their copies on the host
// made beforehand (as the operation's own are, untimed here).
double time_reads_together(const Device& device, const Device& host, std::size_t k, int reps) {
  const std::vector<float> values(16, 1.0f);
  std::vector<double> t;
  for (int r = 0; r <= reps; ++r) {
    std::vector<Array> arrays;
    std::vector<Array> there;
    std::vector<detail::WantedCopy> wanted;
    for (std::size_t i = 0; i < k; ++i) {
      arrays.push_back(Array::from_host<float>(values, Shape{16}, device));
      there.push_back(arrays.back().to(host));  // (its copy on the host, made, not yet filled)
    }
    (void)Array::full(Shape{1}, 0.0, DType::float32, device);  // (computed there, as measure_array_copies)
    for (const Array& a : there) {
      wanted.push_back({static_cast<detail::Residence*>(const_cast<void*>(a.allocation_id())), &a.buffer_handle()});
    }
    synchronize(device);
    const auto t0 = Clock::now();
    detail::make_current_all(wanted);
    if (r > 0) t.push_back(seconds_since(t0));  // (the first: a warm-up)
  }
  return median(t);
}
}  // namespace

// Each further array read into host memory with others (DeviceCosts::to_host_more_s): four
// read together against one, on a device whose reads are queued so
// (DeviceCapabilities::reads_queue_together, or reads_through_pinned: up to 64 KiB a read),
// where the host backend is loaded (an operation there is what reads them so). Elsewhere 0:
// each read a round trip, at the latency.
void measure_reads_together(const Device& device, bool quick, DeviceCosts& c) {
  const DeviceCapabilities& caps = device.info().capabilities;
  const bool pinned = detail::small_reads_through_pinned(*device.impl());
  if (caps.memory_is_host || !(caps.reads_queue_together || pinned)) return;
  Device host;
  for (const Device& d : devices()) {
    if (d.selector() == "host") host = d;
  }
  if (!host) return;
  const int reps = quick ? 5 : 9;
  const double one = time_reads_together(device, host, 1, reps);
  const double four = time_reads_together(device, host, 4, reps);
  c.to_host_more_s = std::clamp((four - one) / 3, 1e-9, c.to_host_latency_s > 0 ? c.to_host_latency_s : one);
  WEFT_LOG_DEBUG("calibrate " << device.selector() << ": reads together, one " << one * 1e6 << " us, four "
                              << four * 1e6 << " us (a read alone " << c.to_host_latency_s * 1e6 << " us)");
  c.to_host_more_bytes = caps.reads_queue_together ? 0.0 : static_cast<double>(detail::kSmallReadBytes);
  // (Through a GPU's pinned block a read alone is the same read: its latency stands.)
  if (caps.reads_queue_together) c.to_host_first_together_s = std::min(one, c.to_host_latency_s > 0 ? c.to_host_latency_s : one);
}

}  // namespace weft::detail
