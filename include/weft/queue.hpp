// Command queues: copies and kernel launches on one device, each returning an Event.
//
//   weft::Queue q(dev);                              // in order, without profiling
//   q.write(a, host_a.data(), bytes);                // blocking by default
//   weft::Event e = q.launch(kernel, n);             // returns at once
//   q.read(c, host_c.data(), bytes, 0, weft::Blocking::yes, {e});
//
// An in-order queue runs its commands one after the other; an out-of-order queue may run
// them in any order the wait lists allow. Queues of one device may run at the same time.
#pragma once

#include "weft/export.hpp"

#include <chrono>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>

#include "weft/buffer.hpp"
#include "weft/device.hpp"
#include "weft/event.hpp"
#include "weft/kernel_args.hpp"
#include "weft/ndrange.hpp"
#include "weft/program.hpp"

namespace weft {

namespace detail {
class QueueImpl;
}

enum class Blocking : bool { no = false, yes = true };

struct WEFT_API QueueOptions {
  bool out_of_order = false;
  /// Whether the queue's events carry times (Event::profile), as OpenCL's
  /// CL_QUEUE_PROFILING_ENABLE: off by default, since it costs every command (two timing
  /// events per command on CUDA). Event::profile on an event of a queue without it throws,
  /// except for markers where the backend stamps them cheaply (host, CUDA).
  bool profiling = false;
  /// Whether the queue is ordered with the device's array queue (array.hpp's array_queue, as
  /// CUDA's legacy default stream: each runs after what the other enqueued before it). false
  /// makes it independent, as a CUDA stream made with cudaStreamNonBlocking: its commands
  /// overlap array work, and the caller orders them with events (wait lists, barriers), as
  /// weft.stream_map does for its copy queues.
  bool ordered_with_arrays = true;
};

class WEFT_API Queue {
 public:
  Queue() = default;
  explicit Queue(const Device& device, QueueOptions options = {});

  Device device() const;
  /// Whether commands may run out of the order they were enqueued in (QueueOptions).
  bool out_of_order() const;
  /// Whether the queue's events carry profiling times (QueueOptions).
  bool profiling() const;

  /// Host memory -> buffer. With Blocking::no, src must stay valid until the event completes.
  Event write(const Buffer& dst, const void* src, std::size_t bytes, std::size_t dst_offset = 0,
              Blocking blocking = Blocking::yes, std::span<const Event> wait = {});
  /// Buffer -> host memory. With Blocking::no, dst is filled when the event completes.
  Event read(const Buffer& src, void* dst, std::size_t bytes, std::size_t src_offset = 0,
             Blocking blocking = Blocking::yes, std::span<const Event> wait = {});
  /// Buffer -> buffer on this queue's device.
  Event copy(const Buffer& src, const Buffer& dst, std::size_t bytes, std::size_t src_offset = 0,
             std::size_t dst_offset = 0, std::span<const Event> wait = {});
  /// Repeats a pattern of pattern_size bytes (1, 2, 4, 8, ... 128) over [offset, offset+bytes).
  Event fill(const Buffer& dst, const void* pattern, std::size_t pattern_size,
             std::size_t offset, std::size_t bytes, std::span<const Event> wait = {});
  /// Runs kernel over global with its current arguments. An empty local lets weft choose;
  /// global must be a multiple of a given local in each dimension. A global size of 0
  /// launches nothing and returns an event that completes after what came before.
  Event launch(const Kernel& kernel, const NDRange& global, const NDRange& local = {},
               const NDRange& offset = {}, std::span<const Event> wait = {});
  /// Runs args.kernel() with the arguments in args (not the kernel's own): several threads
  /// may launch one kernel this way at once.
  Event launch(const KernelArgs& args, const NDRange& global, const NDRange& local = {},
               const NDRange& offset = {}, std::span<const Event> wait = {});
  /// Sets every argument, then launches.
  template <class... A>
  Event launch_with(Kernel kernel, const NDRange& global, const NDRange& local,
                    const A&... args) {
    kernel.set_args(args...);
    return launch(kernel, global, local);
  }
  /// An event that completes when everything before it (and wait) has.
  Event marker(std::span<const Event> wait = {});
  /// A marker that every command enqueued after it also waits for (on an in-order queue,
  /// the same as marker; on an out-of-order queue, a fence between what came before and after).
  Event barrier(std::span<const Event> wait = {});
  /// Blocks until every command so far has finished; throws the first failure among them.
  void finish();
  /// Hands queued commands to the device without waiting.
  void flush();

  explicit operator bool() const noexcept { return impl_ != nullptr; }
  const std::shared_ptr<detail::QueueImpl>& impl() const noexcept { return impl_; }

 private:
  std::shared_ptr<detail::QueueImpl> impl_;
};

/// Blocks until the work enqueued so far on every queue of the process still alive has
/// finished (the devices' array queues included), or until limit has passed; returns whether
/// it all finished. Errors are logged, not thrown. For a program's end: PoCL crashes a process
/// that exits while its threads still run kernels. The Python package calls it at interpreter
/// exit (for at most 10 s, and not after Ctrl-C interrupted a wait).
WEFT_API bool finish_all_queues(std::chrono::milliseconds limit = std::chrono::milliseconds::max()) noexcept;

}  // namespace weft
