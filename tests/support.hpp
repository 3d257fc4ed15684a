// Helpers shared by the tests: the devices to run on, random data, buffer round trips.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "weft/weft.hpp"

namespace weft::test {

/// A helper program's path: the environment variable when set (a test run on another
/// machine), else where the build put it.
inline std::string program_path(const char* env, const char* built) {
  const char* v = std::getenv(env);
  return v && *v ? v : built;
}

/// Polls until pred holds, up to 20 s (a loaded CI machine under TSan is slow, never that
/// slow): a wait that is bounded, with nothing timed.
template <class Pred>
bool eventually(Pred pred) {
  for (int i = 0; i < 20000 && !pred(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return pred();
}

/// The mode bits of path itself (lstat: a link is not followed).
inline mode_t mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode;
}

/// Every device this machine has (WEFT_BACKENDS narrows it): tests run on each.
inline std::vector<Device> test_devices() { return devices(); }

/// The first OpenCL device (PoCL in CI), or an empty Device where there is none.
inline Device opencl_device() {
  for (const Device& d : devices()) {
    if (d.backend() == "opencl") return d;
  }
  return Device();
}

inline std::string device_name(const ::testing::TestParamInfo<Device>& info) {
  std::string s = info.param.selector();
  for (auto& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

template <class T>
std::vector<T> random_vector(std::size_t n, unsigned seed, T lo, T hi) {
  std::mt19937 rng(seed);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(lo, hi);
    for (auto& x : v) x = d(rng);
  } else {
    std::uniform_int_distribution<long long> d(lo, hi);
    for (auto& x : v) x = static_cast<T>(d(rng));
  }
  return v;
}

template <class T>
Buffer upload(Queue& q, const std::vector<T>& v) {
  Buffer b(q.device(), std::max<std::size_t>(v.size(), 1) * sizeof(T));
  if (!v.empty()) q.write(b, v.data(), v.size() * sizeof(T));
  return b;
}

template <class T>
std::vector<T> download(Queue& q, const Buffer& b, std::size_t n) {
  std::vector<T> v(n);
  if (n) q.read(b, v.data(), n * sizeof(T));
  return v;
}

/// A buffer of n elements filled with a poison pattern, so unwritten outputs show.
template <class T>
Buffer poisoned(Queue& q, std::size_t n) {
  Buffer b(q.device(), std::max<std::size_t>(n, 1) * sizeof(T));
  const unsigned char poison = 0xA5;
  // Waited for: on an out-of-order queue the next command would not wait for the fill.
  q.fill(b, &poison, 1, 0, b.size()).wait();
  return b;
}

}  // namespace weft::test
