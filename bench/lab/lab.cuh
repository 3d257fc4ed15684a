// What the labs in bench/lab share: error checks, the variants they time, and the timing
// itself (rounds that interleave the variants; each sample is 10 back-to-back calls between
// two events, after one call outside them), printed as median, GB/s and percent of the copy.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#define CHECK(x)                                                                               \
  do {                                                                                         \
    cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

struct Variant {
  std::string name;
  std::function<void()> run;
  bool is_copy;  // the copy every other variant's bandwidth is compared with
  std::vector<float> times;
  bool bound = false;  // a timing bound that computes something else: not checked
};

// Times every variant `rounds` times and prints a table; bytes(v) is what one call of v moves.
inline void time_and_print(std::vector<Variant>& vs, int rounds, const char* title,
                           const std::function<double(const Variant&)>& bytes) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int round = 0; round < rounds; ++round) {
    for (auto& v : vs) {
      v.run();
      CHECK(cudaEventRecord(a));
      for (int r = 0; r < 10; ++r) v.run();
      CHECK(cudaEventRecord(b));
      CHECK(cudaEventSynchronize(b));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, a, b));
      v.times.push_back(ms * 100.f);  // us per call
    }
  }
  CHECK(cudaGetLastError());
  double copy_gbs = 0;
  std::printf("%-60s %10s %10s %8s\n", title, "median us", "GB/s", "of copy");
  for (auto& v : vs) {
    std::sort(v.times.begin(), v.times.end());
    const double us = v.times[v.times.size() / 2];
    const double gbs = bytes(v) / us / 1e3;
    if (v.is_copy) copy_gbs = gbs;
    std::printf("%-60s %10.2f %10.1f %7.1f%%\n", v.name.c_str(), us, gbs, 100 * gbs / copy_gbs);
  }
}
