// Every queue of the process, held weakly, so that a process that ends with work still queued
// can first let it finish: PoCL's worker threads that still run kernels while the process
// tears down its libraries crash it (seen at Python's exit). The Python package calls
// finish_every_queue() at interpreter exit (atexit), before anything is torn down.
//
//   detail::register_queue(made);   // Queue's constructor
//   detail::finish_every_queue(10s);   // at exit: waits for each live queue's work
#pragma once

#include <chrono>
#include <memory>

namespace weft::detail {

class QueueImpl;

/// Records a new queue (weakly: the registry never keeps one alive).
void register_queue(const std::shared_ptr<QueueImpl>& queue);

/// Waits, at most limit, for the work enqueued so far on every queue still alive; a queue
/// whose device fails is skipped. Returns whether everything finished. Call it without locks
/// held; other threads may go on making queues meanwhile.
bool finish_every_queue(std::chrono::milliseconds limit) noexcept;

}  // namespace weft::detail
