// CUDA queues and events: queues are non-blocking streams, events CUevents taken from a
// per-device pool; callbacks run on a thread of the device's own.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "backends/cuda/cuda_api.hpp"
#include "runtime/backend.hpp"

namespace weft::detail {

class CudaDevice;
class CudaEvent;

/// CUevents are costly to create; a device keeps the released ones for reuse.
class CudaEventPool {
 public:
  explicit CudaEventPool(CudaDevice& device) : device_(device) {}
  ~CudaEventPool();
  CudaEventPool(const CudaEventPool&) = delete;
  CudaEventPool& operator=(const CudaEventPool&) = delete;
  cu::CUevent take(bool timing);
  void give(cu::CUevent e, bool timing);

 private:
  CudaDevice& device_;
  std::mutex mutex_;
  std::vector<cu::CUevent> timing_, plain_;
};

/// Watches the device's events that have hooks (EventImpl::on_complete) and runs each hook
/// once its event is done, on a thread of the device's own: hooks may call CUDA, which the
/// driver's stream callbacks must not. The hooks are short (Event::then's hands the user's
/// callback to the completion thread). Events are polled with cuEventQuery, not waited for
/// one by one: an event held back by another stream (or a user event) must not delay the
/// hooks of events done after it.
class CudaCallbackThread {
 public:
  explicit CudaCallbackThread(CudaDevice& device);
  ~CudaCallbackThread();
  CudaCallbackThread(const CudaCallbackThread&) = delete;
  CudaCallbackThread& operator=(const CudaCallbackThread&) = delete;
  /// Calls callback once event has completed; keeper keeps event (the CUevent) alive.
  void add(cu::CUevent event, std::shared_ptr<void> keeper, std::function<void()> callback);

 private:
  struct Item {
    cu::CUevent event;
    std::shared_ptr<void> keeper;
    std::function<void()> callback;
  };
  void loop();
  CudaDevice& device_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<Item> items_;  // added, not yet watched (guarded by mutex_)
  bool stop_ = false;
  std::thread thread_;
};

/// The last command of a queue without profiling, whose end event is recorded only when it is
/// wanted: when asked for (its status, a wait, a hook, another stream's wait), or by the
/// queue's next command if anyone still holds the event then. A launch whose Event nobody
/// keeps costs no cuEventRecord (most of what a launch cost beyond cuLaunchKernel). The event
/// is recorded right after its command either way: nothing is enqueued on the stream between
/// (the queue's commands hold `mutex` from settling `pending` to enqueuing the next one), so
/// what it waits for is exactly its command and those before it.
struct CudaStreamTail {
  std::mutex mutex;
  cu::CUstream stream = nullptr;
  std::shared_ptr<CudaEvent> pending;
};

/// A command on a stream: an end event (and a start event on profiling queues). The end
/// event is a timing one on profiling queues and for markers (timed_end), else made with
/// CU_EVENT_DISABLE_TIMING, the cheapest the driver records, and recorded when first wanted
/// (CudaStreamTail).
class CudaEvent final : public EventImpl, public std::enable_shared_from_this<CudaEvent> {
 public:
  /// Recorded already: end (and start) on the stream.
  CudaEvent(std::shared_ptr<CudaDevice> device, cu::CUevent start, cu::CUevent end, bool timed_end,
            std::uint64_t queued_ns);
  /// The tail's pending command: recorded when first wanted.
  CudaEvent(std::shared_ptr<CudaDevice> device, std::shared_ptr<CudaStreamTail> tail, std::uint64_t queued_ns);
  ~CudaEvent() override;
  EventStatus status() const override;
  bool finished_if_known() const override;
  bool pending_if_known() const override;
  void wait() override;
  EventProfile profile() override;
  void on_complete(std::function<void()> callback) override;
  /// The end CUevent, recorded first if it was not yet (takes the tail's mutex: not with the
  /// mutex of this event's queue held).
  cu::CUevent end() const;
  /// Records the end event on stream now if it is not yet; the tail's mutex held.
  void record_on(cu::CUstream stream) const;
  /// Events of other kinds the command waited for: their failure is this command's.
  void set_foreign(std::vector<EventPtr> foreign) { foreign_ = std::move(foreign); }

 private:
  void check_foreign() const;

  std::shared_ptr<CudaDevice> device_;
  std::shared_ptr<CudaStreamTail> tail_;  // null: recorded when made
  cu::CUevent start_ = nullptr;  // null on queues without profiling
  mutable std::atomic<cu::CUevent> end_{nullptr};  // null until recorded
  bool timed_end_ = false;
  std::uint64_t queued_ns_;
  std::vector<EventPtr> foreign_;
};

class CudaQueue final : public QueueImpl, public std::enable_shared_from_this<CudaQueue> {
 public:
  CudaQueue(std::shared_ptr<CudaDevice> device, const QueueOptions& options);
  ~CudaQueue() override;
  std::shared_ptr<DeviceImpl> device() const override;
  EventPtr write(const BufferPtr& dst, std::size_t offset, std::size_t bytes, const void* src, bool blocking,
                 std::span<const EventPtr> wait) override;
  EventPtr read(const BufferPtr& src, std::size_t offset, std::size_t bytes, void* dst, bool blocking,
                std::span<const EventPtr> wait) override;
  EventPtr copy(const BufferPtr& src, const BufferPtr& dst, std::size_t src_offset, std::size_t dst_offset,
                std::size_t bytes, std::span<const EventPtr> wait) override;
  EventPtr fill(const BufferPtr& dst, const void* pattern, std::size_t pattern_size, std::size_t offset,
                std::size_t bytes, std::span<const EventPtr> wait) override;
  EventPtr launch(const std::shared_ptr<KernelImpl>& kernel, const ArgList& args,
                  const LaunchConfig& config, std::span<const EventPtr> wait) override;
  EventPtr marker(std::span<const EventPtr> wait) override;
  /// One cuGraphLaunch of the graph, instantiated as a CUDA graph at its first launch.
  EventPtr launch_graph(GraphImpl& graph, std::span<const EventPtr> wait) override;
  void finish() override;
  /// The stream, for libraries that run on it (cuBLAS).
  cu::CUstream stream() const noexcept { return stream_; }
  const std::shared_ptr<CudaDevice>& cuda_device() const noexcept { return device_; }
  /// Runs call(stream) (a CUDA library's enqueue: cuFFT's exec) after wait, with the device's
  /// context current, as one command of the queue.
  EventPtr enqueue_library(const std::function<void(cu::CUstream)>& call, std::span<const EventPtr> wait);

 private:
  /// Opens a command: records the CUDA events among wait that are not yet (other queues'
  /// tails, one at a time), then locks this queue's tail into `lock` and settles its pending
  /// command (recorded if anyone still holds its event, else forgotten), then makes the stream
  /// wait for each event (CUDA events directly; others through a host function that blocks
  /// until they complete). Returns the others. The command is enqueued with `lock` held;
  /// release it before waiting for the command's event.
  std::vector<EventPtr> wait_for(std::span<const EventPtr> wait, std::unique_lock<std::mutex>& lock);
  /// Records the start event (profiling queues) before a command ...
  cu::CUevent begin_command();
  /// ... and the end event after it (a timing one on profiling queues, or when timed).
  std::shared_ptr<CudaEvent> end_command(cu::CUevent start, std::uint64_t queued_ns,
                                         std::vector<EventPtr> foreign, bool timed = false);

  std::shared_ptr<CudaDevice> device_;
  cu::CUstream stream_ = nullptr;
  bool profiling_;
  std::shared_ptr<CudaStreamTail> tail_;
};

}  // namespace weft::detail
