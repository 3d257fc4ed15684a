// Host queues: enqueue returns at once; a worker thread per queue runs the commands in
// order; a kernel launch splits its work-items over the device's thread pool.
#pragma once

#include <cstdint>
#include <array>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "backends/host/host_compiler.hpp"
#include "dialect/prelude/launch_abi.hpp"
#include "runtime/backend.hpp"
#include "runtime/completion_event.hpp"

namespace weft::detail {

class HostDevice;

class HostQueue final : public QueueImpl {
 public:
  HostQueue(std::shared_ptr<HostDevice> device, bool profiling);
  ~HostQueue() override;

  std::shared_ptr<DeviceImpl> device() const override;
  EventPtr write(const BufferPtr& dst, std::size_t offset, std::size_t bytes, const void* src,
                 bool blocking, std::span<const EventPtr> wait) override;
  EventPtr read(const BufferPtr& src, std::size_t offset, std::size_t bytes, void* dst,
                bool blocking, std::span<const EventPtr> wait) override;
  EventPtr copy(const BufferPtr& src, const BufferPtr& dst, std::size_t src_offset,
                std::size_t dst_offset, std::size_t bytes, std::span<const EventPtr> wait) override;
  EventPtr fill(const BufferPtr& dst, const void* pattern, std::size_t pattern_size,
                std::size_t offset, std::size_t bytes, std::span<const EventPtr> wait) override;
  EventPtr launch(const std::shared_ptr<KernelImpl>& kernel, const ArgList& args,
                  const LaunchConfig& config, std::span<const EventPtr> wait) override;
  EventPtr marker(std::span<const EventPtr> wait) override;
  void finish() override;
  /// Runs work on the queue's worker after wait, in order with the queue's other commands
  /// (a library call on host memory: pocketfft's transforms). may_inline: short work (a few
  /// microseconds), which the caller's thread runs itself when the queue is idle and wait has
  /// completed, as it does small copies: a worker's wake-up would cost more than the work.
  EventPtr enqueue_work(std::function<void()> work, std::span<const EventPtr> wait, bool may_inline = false);

 private:
  /// A kernel launch, kept in the command itself: a launch allocates no closure.
  struct KernelRun {
    std::shared_ptr<HostKernel> kernel;
    ArgList args;
    weft_host::Launch geometry{};
    std::size_t total = 0;   // work-items
    std::size_t group = 1;   // work-items per work-group
    bool explicit_local = false;
  };
  struct Command {
    std::function<void()> work;  // copies, fills (empty for launches and markers)
    KernelRun run;               // a launch when run.kernel is set
    std::shared_ptr<CompletionEvent> event;
    std::vector<EventPtr> wait;
  };
  /// Everything the worker thread uses, shared with it: destroying a queue never waits for
  /// its work (a kernel that never ends, Ctrl-C'd from Python, must not hang the caller or
  /// the process's exit). The worker runs what was enqueued, then ends with the last holder.
  struct Core {
    Core(std::shared_ptr<HostDevice> d, bool p) : device(std::move(d)), profiling(p) {}
    /// Queues cmd; when may_inline and the queue is idle (nothing queued or running, every
    /// event waited for done), runs it at once on the calling thread instead: a hand-off to
    /// the worker (a futex wake) costs more than a tiny command itself.
    EventPtr submit(Command&& cmd, std::span<const EventPtr> wait, bool blocking, bool may_inline = false);
    EventPtr submit(std::function<void()> work, std::span<const EventPtr> wait, bool blocking, bool may_inline = false);
    /// Runs cmd (its waits, then its work); returns what it raised. settle() then completes
    /// or fails its event, after the queue is marked idle.
    std::exception_ptr execute(Command& cmd);
    void run_kernel(KernelRun& run);
    void run_groups(KernelRun& run, std::array<void*, 64>& argv, std::size_t n);
    static void settle(Command& cmd, const std::exception_ptr& err);
    void worker_loop();

    std::shared_ptr<HostDevice> device;
    const bool profiling;  // QueueOptions::profiling: events read the clock (markers always do)
    std::mutex mutex;
    std::condition_variable cv;
    // A ring of commands (not a deque: a command holds its launch's arguments inline, and a
    // deque of such large elements allocates a node per command).
    std::vector<Command> ring;
    std::size_t head = 0;
    std::size_t count = 0;
    // count, readable without the lock: the worker polls it for a while before it sleeps.
    std::atomic<std::size_t> queued{0};
    std::exception_ptr first_error;
    bool stop = false;
    bool running = false;  // a command is executing (on the worker or inline)
  };
  std::shared_ptr<Core> core_;
};

/// The local size weft uses when a launch gives none: the largest divisor of the global
/// size up to 1024 in dimension 0, 1 elsewhere (host work-groups only shape get_local_id).
std::size_t host_default_local_size(std::size_t global, unsigned dim);

/// A launch without a local size whose work-items take this long or more in all on one thread
/// is heavy: cut into chunks of about a microsecond over every thread (host_item_chunks;
/// DeviceCapabilities::spreads_work_from_s).
inline constexpr std::uint64_t host_heavy_from_ns = 50'000;

/// The chunks (tasks on the pool) a launch of total work-items without a local size is cut into
/// on threads, given what one of its work-items takes on one thread (picoseconds; 0: not yet
/// measured): chunks of 4096 work-items (one below that), or, where the work-items take 50 us or
/// more in all, about a microsecond each, at most four per thread (host_queue.cpp).
std::size_t host_item_chunks(std::uint64_t item_ps, std::size_t total, std::size_t threads);
/// What a work-item takes after a run of total work-items whose chunks took work_ns on their
/// threads in all (a run on one thread: its time), from known before it: work_ns over total;
/// runs of fewer than 512 work-items leave it as it was (their time is mostly the call's).
std::uint64_t host_item_ps_after(std::uint64_t known, std::size_t total, std::uint64_t work_ns);

}  // namespace weft::detail
