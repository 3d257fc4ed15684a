// WEFT_BOUNDS_CHECK at run time: what a bounds-checked kernel (instrumented by the dialect's
// translator, dialect/bounds_check.hpp) needs at each launch. Its translation appends hidden
// parameters after the user's: a small error record (a __global uint*) and, for each checked
// __global pointer parameter, the bytes of the Buffer bound to it (a ulong). The launch path
// fills them in, waits for the kernel, and raises IndexOutOfRange for the first bad access
// the kernel recorded (which it skipped: a read gave 0, a write went nowhere).
//
//   if (kernel.bounds()) event = launch_checked(...);   // runtime/queue.cpp
//
// The record (uint words): [0] 1 once an access failed, [1] the parameter's index, [2] the
// source line, [3..4] the index (a long, low word first), [5..6] the element count, [7..9]
// the work-item's global id. Bad writes go to words 32..63, bad reads read words 64..95
// (zero): no memory outside the record is touched.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "weft/detail/arg_value.hpp"
#include "weft/event.hpp"

namespace weft::detail {

class KernelImpl;
class QueueImpl;
class EventImpl;

/// Whether programs built from now on are bounds-checked: WEFT_BOUNDS_CHECK, unless
/// set_bounds_check changed it (tests and `weft bench` compare both in one process).
bool bounds_check_enabled() noexcept;
void set_bounds_check(bool on) noexcept;

/// Bytes of the error record and its scratch areas.
inline constexpr std::size_t bounds_record_bytes = 96 * 4;

/// What the translation tells the runtime about one checked kernel.
struct BoundsPlan {
  std::vector<std::size_t> sized;  // the parameter each hidden size argument belongs to, in order
  // Where the source came from, for messages: the record's line word is (file << 24) | line,
  // file an index here (the source's own #line directives name files; "<source>" without).
  std::vector<std::string> files{"<source>"};
  std::size_t hidden() const noexcept { return 1 + sized.size(); }
};

/// A checked kernel's state: its error record, used by one launch at a time.
struct BoundsState {
  std::mutex mutex;
  BufferPtr record;  // on the kernel's device, made (zeroed) at the first launch
  // A launch whose wait list held a user event not yet completed: waiting for it there could
  // wait forever (the thread that completes the event is the one launching), so its record
  // is read at the kernel's next launch once it has run (check_deferred_bounds).
  std::shared_ptr<EventImpl> deferred;
};

/// The arguments of a checked launch: args, then the hidden ones (the record, allocated and
/// zeroed here on first use through queue, and each checked buffer's size).
ArgList bounds_args(KernelImpl& kernel, const ArgList& args, QueueImpl& queue);

/// Waits for done, reads the kernel's record and throws IndexOutOfRange naming the kernel,
/// the file and line, the parameter, the index, the element count and the work-item, after
/// clearing the record for the next launch.
void check_bounds(KernelImpl& kernel, QueueImpl& queue, const std::shared_ptr<EventImpl>& done);

/// Whether a wait list holds a user event (weft::UserEvent, PyOpenCL's UserEvent) that has not
/// completed: a checked launch after it is not waited for (it could wait forever).
bool waits_on_open_user_event(std::span<const Event> wait);

/// The deferred launch's record, read (check_bounds) once that launch has finished; nothing
/// while it has not.
void check_deferred_bounds(KernelImpl& kernel, QueueImpl& queue);

}  // namespace weft::detail
