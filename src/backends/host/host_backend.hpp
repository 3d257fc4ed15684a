// The native CPU backend: aligned buffers in host memory, queues that run commands in order
// on their own worker thread, and kernels compiled by the system C++ compiler and run on a
// thread pool, one contiguous chunk of work-items per thread.
#pragma once

#include <atomic>

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "backends/host/host_compiler.hpp"
#include "backends/host/thread_pool.hpp"
#include "cache/program_cache.hpp"
#include "dialect/prelude/launch_abi.hpp"
#include "dialect/translate.hpp"
#include "runtime/backend.hpp"
#include "runtime/completion_event.hpp"

namespace weft::detail {

class HostDevice;

class HostBuffer final : public BufferImpl {
 public:
  HostBuffer(std::shared_ptr<DeviceImpl> device, std::size_t bytes);
  /// Over memory allocated by someone else, kept alive by owner and never freed.
  HostBuffer(std::shared_ptr<DeviceImpl> device, void* external, std::size_t bytes, std::shared_ptr<void> owner)
      : BufferImpl(std::move(device), bytes), external_(external), owner_(std::move(owner)) {}
  void* host_ptr() noexcept override { return external_ ? external_ : data_.get(); }

 private:
  void* external_ = nullptr;
  std::shared_ptr<void> owner_;
  struct Free {
    void operator()(void* p) const noexcept;
  };
  std::unique_ptr<void, Free> data_;
};

class HostKernel final : public KernelImpl {
 public:
  HostKernel(std::string name, std::vector<KernelArgInfo> params,
             std::shared_ptr<HostModule> module, weft_host::RunFn entry);
  weft_host::RunFn run() const noexcept { return run_; }
  /// How long its last run took on the thread that ran it (ns); max before the first run.
  std::uint64_t last_run_ns() const noexcept { return last_run_ns_.load(std::memory_order_relaxed); }
  void note_run_ns(std::uint64_t ns) noexcept { last_run_ns_.store(ns, std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> last_run_ns_{~std::uint64_t{0}};
  std::shared_ptr<HostModule> module_;  // keeps the code loaded
  weft_host::RunFn run_;
};

class HostProgram final : public ProgramImpl {
 public:
  HostProgram(std::shared_ptr<DeviceImpl> device, std::shared_ptr<HostModule> module,
              std::vector<dialect::KernelEntry> kernels);
  std::shared_ptr<KernelImpl> create_kernel(std::string_view name) override;
  std::vector<std::string> kernel_names() const override;
  std::shared_ptr<DeviceImpl> device() const override { return device_.lock(); }

 private:
  // Weak: the device's program table holds this program.
  std::weak_ptr<DeviceImpl> device_;
  std::shared_ptr<HostModule> module_;
  std::vector<dialect::KernelEntry> kernels_;  // refused ones included: named in the error
};

class HostQueue final : public QueueImpl {
 public:
  explicit HostQueue(std::shared_ptr<HostDevice> device);
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
    explicit Core(std::shared_ptr<HostDevice> d) : device(std::move(d)) {}
    /// Queues cmd; when may_inline and the queue is idle (nothing queued or running, every
    /// event waited for done), runs it at once on the calling thread instead: a hand-off to
    /// the worker (a futex wake) costs more than a tiny command itself.
    EventPtr submit(Command&& cmd, std::span<const EventPtr> wait, bool blocking, bool may_inline = false);
    EventPtr submit(std::function<void()> work, std::span<const EventPtr> wait, bool blocking, bool may_inline = false);
    /// Runs cmd (its waits, then its work); returns what it raised. settle() then completes
    /// or fails its event, after the queue is marked idle.
    std::exception_ptr execute(Command& cmd);
    void run_kernel(KernelRun& run);
    static void settle(Command& cmd, const std::exception_ptr& err);
    void worker_loop();

    std::shared_ptr<HostDevice> device;
    std::mutex mutex;
    std::condition_variable cv;
    // A ring of commands (not a deque: a command holds its launch's arguments inline, and a
    // deque of such large elements allocates a node per command).
    std::vector<Command> ring;
    std::size_t head = 0;
    std::size_t count = 0;
    std::exception_ptr first_error;
    bool stop = false;
    bool running = false;  // a command is executing (on the worker or inline)
  };
  std::shared_ptr<Core> core_;
};

class HostDevice final : public DeviceImpl {
 public:
  explicit HostDevice(DeviceInfo info);
  std::shared_ptr<QueueImpl> create_queue(const QueueOptions& options) override;
  BufferPtr allocate(std::size_t bytes) override;
  BufferPtr wrap_memory(std::uint64_t address, std::size_t bytes, std::shared_ptr<void> owner) override;
  ProgramBuilder& program_builder() noexcept override { return builder_; }
  ThreadPool& pool() { return pool_; }

 private:
  ThreadPool pool_;
  HostCompiler compiler_{*this};
  ProgramBuilder builder_{compiler_};
};

/// The local size weft uses when a launch gives none: the largest divisor of the global
/// size up to 1024 in dimension 0, 1 elsewhere (host work-groups only shape get_local_id).
std::size_t host_default_local_size(std::size_t global, unsigned dim);

}  // namespace weft::detail
