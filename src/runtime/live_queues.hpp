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

/// Registers (again) the exit handler that lets the work still queued on every live queue
/// finish (finish_every_queue, at most 10 s) before the process tears down its libraries. A
/// backend calls it after something that may make its driver build state whose static
/// destructors must not run under that work: PoCL builds a kernel's work-group function, with
/// LLVM's statics, when the kernel is first launched, and a C++ program that ended with such a
/// kernel still queued crashed in LLVM's destroyed pass registry. Exit handlers run in the
/// reverse order of their registration: one registered after those statics were made runs
/// before their destructors. The handler drains once per exit (the later registered one), and
/// not at all in a forked child.
void finish_queues_at_exit() noexcept;

/// Waits, at most limit, for the work enqueued so far on every queue still alive; a queue
/// whose device fails is skipped. Returns whether everything finished. Call it without locks
/// held; other threads may go on making queues meanwhile.
bool finish_every_queue(std::chrono::milliseconds limit) noexcept;

}  // namespace weft::detail
