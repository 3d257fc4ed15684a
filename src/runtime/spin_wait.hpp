// Polling before sleeping: a thread that expects what it waits for within microseconds polls
// for it rather than sleeping at once, because a futex wake-up costs tens of microseconds in a
// VM (the waker's system call, then the scheduler's latency), more than the short commands
// and regions it would wait for. Used by the memcpy pool, the host backend's thread pool and
// queue worker, and host events' waits.
#pragma once

#include <atomic>
#include <chrono>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace weft::detail {

/// A CPU's polite busy-wait hint (x86 pause; elsewhere a yield).
inline void spin_pause() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

/// Tests force polling on or off (1 / 0) to run both paths on any machine; -1: decided by the
/// machine (polling_pays).
inline std::atomic<int>& polling_override() noexcept {
  static std::atomic<int> forced{-1};
  return forced;
}

/// The CPUs this process may run on (its affinity mask: a container or taskset may allow
/// fewer than the machine has).
inline unsigned usable_cpus() noexcept {
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<unsigned>(CPU_COUNT(&set));
#endif
  return std::thread::hardware_concurrency();
}

/// Whether waiting threads poll at all: with fewer than four usable CPUs the thread that would
/// end the wait (a queue's worker, a pool's other thread) often needs the core the poller
/// holds, so pollers sleep at once there (the host backend's pools and queues and host
/// events; the memcpy pool's stagers measured their own).
inline bool polling_pays() noexcept {
  const int forced = polling_override().load(std::memory_order_relaxed);
  if (forced >= 0) return forced != 0;
  static const bool pays = usable_cpus() >= 4;
  return pays;
}

/// Polls done() until it is true (returns true) or how_long has passed (false). After polite
/// (at most how_long) it yields between polls, in case the process has more busy threads than
/// cores; the clock is read every 64 polls.
template <class Done>
bool spin_until(Done done, std::chrono::microseconds how_long,
                std::chrono::microseconds polite = std::chrono::microseconds(30)) {
  const auto start = std::chrono::steady_clock::now();
  const auto yield_from = start + polite, until = start + how_long;
  for (unsigned i = 1;; ++i) {
    if (done()) return true;
    spin_pause();
    if (i % 64 == 0) {
      const auto now = std::chrono::steady_clock::now();
      if (now > until) return false;
      if (now > yield_from) std::this_thread::yield();
    }
  }
}

}  // namespace weft::detail
