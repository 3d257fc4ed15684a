// What online learning keeps (Chooser::observe, include/weft/placement.hpp; docs/PLACEMENT.md,
// "Learning online"), shared by the cost model (src/placement/cost_model.cpp) and the learning
// itself (src/placement/learning.cpp), and the hashing both key by.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "weft/placement.hpp"

namespace weft {

namespace detail {

// Decisions remembered: a direct-mapped table of 64-bit words, each the key's upper bits and
// the chosen index + 1 in the low byte (0: empty). 4096 entries cover every (operation, size
// class, residence) a program meets many times over; a collision only recomputes or, when two
// keys share their upper 56 bits, reuses a decision made for another operation.
inline constexpr std::size_t decision_slots = 4096;

inline std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  // splitmix64's finalizer over the running value: cheap, and every input bit reaches every output bit.
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return h;
}

// The power of two of an element count: the chooser's size class.
inline std::uint64_t size_class(std::int64_t elements) {
  return static_cast<std::uint64_t>(std::bit_width(static_cast<std::uint64_t>(std::max<std::int64_t>(elements, 0))));
}
inline std::uint64_t class_key(std::uint64_t signature, std::uint64_t size_class, std::size_t d) {
  return mix(mix(signature, size_class), d);
}
inline std::uint64_t learnt_key(std::uint64_t signature, std::int64_t elements, std::size_t d) {
  return class_key(signature, size_class(elements), d);
}

}  // namespace detail

// What observe() learnt: measured / predicted per (signature, size class, device).
struct Chooser::Learnt {
  // The last few measured / predicted ratios of an operation, size class and device, and the
  // factor: their median once there are enough of them (one timing disturbed by a preemption,
  // a page fault or a busy core moves it not at all; a factor set from one such timing sent
  // 10^3-element host work to PoCL for good on the 2-core VM, at 238 times its estimate).
  static constexpr std::size_t window = 5;
  static constexpr std::size_t enough = 3;
  // Ratios counted after which an entry is settled for the process: observe() then leaves it and
  // the remembered decisions alone, so the operation is no longer timed. Without it, timings
  // that vary by 10% or more kept dropping every remembered decision (and storing the factors)
  // for as long as a program ran: on a shared machine, for good.
  static constexpr std::size_t settled = 8;
  struct Entry {
    std::uint64_t signature;
    std::uint32_t size_class;
    std::size_t device;
    double factor = 0;  // 0: none yet (the correction is 1)
    bool warmed = false;  // a run was seen in this process (the first, which builds or loads the kernel, is not counted)
    std::array<double, window> ratios{};
    std::size_t seen = 0;  // ratios counted (a taught factor counts as one), the newest at (seen - 1) % window
    void add(double r) { ratios[seen++ % window] = r; }
    double median() const {
      std::array<double, window> r = ratios;
      const std::size_t n = std::min(seen, window);
      std::sort(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(n));
      return r[(n - 1) / 2];  // (of an even count the lower: a disturbed timing is only ever slower)
    }
  };
  std::mutex mutex;
  std::unordered_map<std::uint64_t, Entry> factor;
  std::atomic<bool> any{false};
};

}  // namespace weft
