// What weft::measure_costs is made of (src/placement/measure.cpp): the timing it shares, and
// the copies' figures measured in src/placement/measure_copies.cpp.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

#include "weft/device.hpp"
#include "weft/placement.hpp"

namespace weft::detail {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The median of timings (t reordered).
inline double median(std::vector<double>& t) {
  std::nth_element(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(t.size() / 2), t.end());
  return t[t.size() / 2];
}

// The median of reps timings of f (after one untimed run).
inline double median_time(int reps, const std::function<void()>& f) {
  f();
  std::vector<double> t;
  t.reserve(static_cast<std::size_t>(reps));
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    f();
    t.push_back(seconds_since(t0));
  }
  return median(t);
}

/// Host<->device copies as arrays make them (latencies and rates, DeviceCosts::to_device_*,
/// to_host_*).
void measure_array_copies(const Device& device, bool quick, DeviceCosts& c);
/// Each further array read into host memory with others (DeviceCosts::to_host_more_s,
/// to_host_more_bytes), where the device's reads go together.
void measure_reads_together(const Device& device, bool quick, DeviceCosts& c);

}  // namespace weft::detail
