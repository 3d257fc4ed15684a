// The waits through which a program learns that queued work finished: Event::wait, an event's
// status seen complete, a callback run by Event::then, Queue::finish (weft::synchronize) and a
// blocking Queue::read (a result's get(), Array::to_host). Each one adds to a process-wide
// count. Borrowed host memory (Array::borrow_host) is written by its owner only after such a
// wait, so a copy of it on another device made since the last one still holds the owner's data
// (src/array/memory_pool.hpp, Residence::Copy::fresh_at). Weft's own waits and callbacks
// (a transfer's order, a buffer kept alive, a timing) use the helpers below, not counted: a
// count that moved at random moments would make borrowed memory's copies come and go.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>

#include "weft/event.hpp"

namespace weft::detail {

std::atomic<std::uint64_t>& program_waits() noexcept;

/// Counts one wait the program made (after the wait: work it saw finish was finished first).
inline void note_program_wait() noexcept { program_waits().fetch_add(1, std::memory_order_acq_rel); }

/// Counts one wait when it leaves its scope (after the wait, also when it threw).
struct CountedWait {
  CountedWait() = default;
  CountedWait(const CountedWait&) = delete;
  CountedWait& operator=(const CountedWait&) = delete;
  ~CountedWait() { note_program_wait(); }
};

/// The waits counted so far.
inline std::uint64_t program_wait_count() noexcept { return program_waits().load(std::memory_order_acquire); }

/// wait_for_all for weft's own use (every event waited for, the first failure rethrown): not
/// counted.
void wait_within(std::span<const Event> events);

/// Event::done for weft's own use: not counted.
bool done_within(const Event& e);

/// Event::then for weft's own use (a buffer kept alive until the command finished, a timing):
/// not counted.
void then_within(const Event& e, std::function<void(const Event&)> callback);

}  // namespace weft::detail
