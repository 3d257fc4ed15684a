// The backend interface: what each backend folder (host, opencl, cuda) implements.
//
// A Backend lists Devices; a Device allocates Buffers, creates Queues and builds Programs
// from dialect source; a Queue copies and launches Kernels over an NDRange with a wait list,
// returning Events. The public handles in include/weft/ hold shared_ptrs to these.
// Backends register themselves with BackendRegistration; the registry never names one.
#pragma once

#include <cstdint>

#include <array>
#include <atomic>
#include <mutex>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "weft/detail/arg_value.hpp"
#include "weft/device.hpp"
#include "weft/event.hpp"
#include "weft/ndrange.hpp"
#include "weft/program.hpp"
#include "weft/launch_log.hpp"
#include "weft/queue.hpp"
#include "runtime/bounds_check.hpp"
#include "runtime/queue_order.hpp"

namespace weft::detail {

class DeviceImpl;
class ProgramBuilder;

class EventImpl {
 public:
  virtual ~EventImpl() = default;
  virtual EventStatus status() const = 0;
  /// Whether the command has ended, well or not.
  bool finished() const {
    const EventStatus s = status();
    return s == EventStatus::complete || s == EventStatus::error;
  }
  /// finished(), where learning it costs nothing more than a look: false for an event a
  /// backend has not made real yet (CUDA's last command of a queue, recorded when wanted).
  virtual bool finished_if_known() const { return finished(); }
  /// !finished(), where learning it costs nothing more than a look: false for an event a
  /// backend has not made real yet (whether it is pending is not known without a call).
  virtual bool pending_if_known() const { return !finished(); }
  /// Blocks until done; rethrows the command's failure.
  virtual void wait() = 0;
  /// Waits, then returns the times.
  virtual EventProfile profile() = 0;
  /// Runs callback once done (at once, on the caller's thread, if already done), on whatever
  /// thread learns of it: a hook for weft's own short, non-blocking work. User callbacks go
  /// through add_callback instead.
  virtual void on_complete(std::function<void()> callback) = 0;

  /// Event::then: job goes to the completion thread (completion_thread.hpp) once the event is
  /// done, after every job added before it (backends' own hooks run in no promised order, so
  /// the order is kept here, with one hook per event). No cost until the first call.
  static void add_callback(const std::shared_ptr<EventImpl>& self, std::function<void()> job);

 private:
  std::mutex callbacks_mutex_;
  std::vector<std::function<void()>> callbacks_;  // waiting for the hook to fire
  bool hooked_ = false;                           // on_complete was given the hook
  bool fired_ = false;                            // the hook ran: new jobs are posted at once
};
using EventPtr = std::shared_ptr<EventImpl>;

/// What EventImpl::profile throws for an event of a queue made without profiling: the
/// error names the option that gives times.
[[noreturn]] void throw_not_profiled();

class BufferImpl {
 public:
  BufferImpl(std::shared_ptr<DeviceImpl> device, std::size_t size)
      : device_(std::move(device)), size_(size) {}
  virtual ~BufferImpl() = default;
  BufferImpl(const BufferImpl&) = delete;
  BufferImpl& operator=(const BufferImpl&) = delete;

  std::size_t size() const noexcept { return size_; }
  const std::shared_ptr<DeviceImpl>& device() const noexcept { return device_; }
  /// Host-addressable memory, or nullptr.
  virtual void* host_ptr() noexcept { return nullptr; }
  /// The address kernels see (a CUDA device pointer, a host pointer), or 0 (OpenCL).
  virtual std::uint64_t address() noexcept { return reinterpret_cast<std::uintptr_t>(host_ptr()); }
  std::optional<DType> dtype;  // the element type it was created with, if any

 private:
  std::shared_ptr<DeviceImpl> device_;
  std::size_t size_;
};
using BufferPtr = std::shared_ptr<BufferImpl>;

class KernelImpl {
 public:
  KernelImpl(std::string name, std::vector<KernelArgInfo> params)
      : name_(std::move(name)), params_(std::move(params)), args_(params_.size()) {}
  virtual ~KernelImpl() = default;
  KernelImpl(const KernelImpl&) = delete;
  KernelImpl& operator=(const KernelImpl&) = delete;

  const std::string& name() const noexcept { return name_; }
  const std::vector<KernelArgInfo>& params() const noexcept { return params_; }
  /// The device the kernel's program was built for (set by Program::kernel); a launch on
  /// another device's queue is refused.
  const DeviceImpl* device() const noexcept { return device_; }
  void set_device(const DeviceImpl* device) noexcept { device_ = device; }
  /// The kernel's own arguments (Kernel::set_arg); a launch may bring its own (KernelArgs).
  ArgList& args() noexcept { return args_; }
  const ArgList& args() const noexcept { return args_; }
  /// Work-groups of local_size work-items with local_bytes of dynamic local memory that one
  /// compute unit holds at once, where the backend can tell; 0 where it cannot.
  virtual std::size_t resident_groups(std::size_t local_size, std::size_t local_bytes) const {
    (void)local_size;
    (void)local_bytes;
    return 0;
  }
  /// Private (per work-item) memory the build placed in device memory, spilled registers
  /// included, where the backend can tell.
  virtual std::optional<std::size_t> private_bytes() const { return std::nullopt; }

  /// WEFT_BOUNDS_CHECK: the plan of a kernel whose translation checks its accesses (null
  /// otherwise). Its compiled form takes plan->hidden() arguments after params() (set by the
  /// backend when it makes the kernel; runtime/bounds_check.hpp).
  const BoundsPlan* bounds() const noexcept { return bounds_.get(); }
  std::size_t hidden_args() const noexcept { return bounds_ ? bounds_->hidden() : 0; }
  void set_bounds(std::shared_ptr<const BoundsPlan> plan) {
    bounds_ = std::move(plan);
    if (bounds_ && !bounds_state_) bounds_state_ = std::make_unique<BoundsState>();
  }
  BoundsState& bounds_state() noexcept { return *bounds_state_; }

 private:
  std::string name_;
  std::vector<KernelArgInfo> params_;
  ArgList args_;
  const DeviceImpl* device_ = nullptr;
  std::shared_ptr<const BoundsPlan> bounds_;
  std::unique_ptr<BoundsState> bounds_state_;
};

class ProgramImpl {
 public:
  virtual ~ProgramImpl() = default;
  virtual std::shared_ptr<KernelImpl> create_kernel(std::string_view name) = 0;
  virtual std::vector<std::string> kernel_names() const = 0;
  virtual std::shared_ptr<DeviceImpl> device() const = 0;
};

struct LaunchConfig {
  NDRange global;
  NDRange local;   // empty: the backend chooses
  NDRange offset;  // empty: zero
};

struct GraphImpl;

class QueueImpl {
 public:
  virtual ~QueueImpl() = default;
  virtual std::shared_ptr<DeviceImpl> device() const = 0;
  /// Whether commands may run in another order than enqueued (only OpenCL queues made so).
  virtual bool out_of_order() const { return false; }
  virtual EventPtr write(const BufferPtr& dst, std::size_t offset, std::size_t bytes,
                         const void* src, bool blocking, std::span<const EventPtr> wait) = 0;
  virtual EventPtr read(const BufferPtr& src, std::size_t offset, std::size_t bytes, void* dst,
                        bool blocking, std::span<const EventPtr> wait) = 0;
  virtual EventPtr copy(const BufferPtr& src, const BufferPtr& dst, std::size_t src_offset,
                        std::size_t dst_offset, std::size_t bytes,
                        std::span<const EventPtr> wait) = 0;
  virtual EventPtr fill(const BufferPtr& dst, const void* pattern, std::size_t pattern_size,
                        std::size_t offset, std::size_t bytes, std::span<const EventPtr> wait) = 0;
  /// args: one per parameter, already checked to be complete; a backend copies what it
  /// keeps past the call (the caller may change them once launch returns).
  virtual EventPtr launch(const std::shared_ptr<KernelImpl>& kernel, const ArgList& args,
                          const LaunchConfig& config, std::span<const EventPtr> wait) = 0;
  virtual EventPtr marker(std::span<const EventPtr> wait) = 0;
  /// A marker that later commands also wait for. On an in-order queue every marker is one;
  /// out-of-order queues (OpenCL) override this.
  virtual EventPtr barrier(std::span<const EventPtr> wait) { return marker(wait); }
  /// Runs a graph's launches in order (graph.mutex held by the caller). This default
  /// enqueues them one by one; a backend with graphs of its own overrides it.
  virtual EventPtr launch_graph(GraphImpl& graph, std::span<const EventPtr> wait);
  virtual void finish() = 0;
  virtual void flush() {}

  // Its place in the ordering with the device's array queue (queue_order.hpp).
  QueueOrderState order_state;
  // The device, for the launch path's checks without a shared_ptr copy (set when made).
  const DeviceImpl* device_ptr = nullptr;
  // QueueOptions::profiling, as made (set when made).
  bool profiling_enabled = false;

  // The LaunchLogs listening to this queue's launches; the count keeps a launch that none
  // listens to at one relaxed load.
  std::atomic<int> log_count{0};
  std::mutex log_mutex;
  std::vector<LaunchLog*> logs;
};

/// A backend's prepared form of a graph (an instantiated CUDA graph), kept with the graph
/// until its launches change.
class GraphExec {
 public:
  virtual ~GraphExec() = default;
};

struct RecordedLaunch {
  std::shared_ptr<KernelImpl> kernel;
  ArgList args;  // the snapshot taken when it was recorded
  LaunchConfig config;
};

struct GraphImpl {
  explicit GraphImpl(std::shared_ptr<DeviceImpl> d) : device(std::move(d)) {}
  std::shared_ptr<DeviceImpl> device;
  std::mutex mutex;  // guards what follows; held while the graph is recorded or launched
  std::vector<RecordedLaunch> launches;
  std::unique_ptr<GraphExec> exec;  // dropped whenever launches change
};

/// Pinned host memory; each backend frees it its own way.
class PinnedImpl {
 public:
  PinnedImpl(void* data, std::size_t size) : data_(data), size_(size) {}
  virtual ~PinnedImpl() = default;
  PinnedImpl(const PinnedImpl&) = delete;
  PinnedImpl& operator=(const PinnedImpl&) = delete;
  void* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

 private:
  void* data_;
  std::size_t size_;
};

/// The next DeviceImpl's local_index().
std::size_t next_device_index() noexcept;

class DeviceImpl : public std::enable_shared_from_this<DeviceImpl> {
 public:
  explicit DeviceImpl(DeviceInfo info) : info_(std::move(info)), local_index_(next_device_index()) {}
  virtual ~DeviceImpl() = default;
  DeviceImpl(const DeviceImpl&) = delete;
  DeviceImpl& operator=(const DeviceImpl&) = delete;

  const DeviceInfo& info() const noexcept { return info_; }
  virtual std::shared_ptr<QueueImpl> create_queue(const QueueOptions& options) = 0;
  /// Throws OutOfMemory naming the request.
  virtual BufferPtr allocate(std::size_t bytes) = 0;
  /// A buffer over memory allocated by someone else (DLPack, __cuda_array_interface__): owner
  /// is kept alive with it and nothing is freed. Unsupported where memory has no address.
  virtual BufferPtr wrap_memory(std::uint64_t address, std::size_t bytes, std::shared_ptr<void> owner);
  /// Builds the device's programs (program_builder.hpp): Program::build goes through it.
  virtual ProgramBuilder& program_builder() noexcept = 0;
  /// Builds CUDA C as written (Program::build_cuda), where the device compiles it (CUDA
  /// devices, whose capabilities say cuda_source); nullptr elsewhere.
  virtual ProgramBuilder* cuda_source_builder() noexcept { return nullptr; }
  /// Pinned host memory for fast transfers with this device (default: aligned host memory).
  virtual std::shared_ptr<PinnedImpl> allocate_pinned(std::size_t bytes);
  /// Sub-devices of compute_units each (OpenCL device fission); Unsupported elsewhere.
  virtual std::vector<std::shared_ptr<DeviceImpl>> partition_equally(unsigned compute_units);
  /// Sub-devices of counts[k] compute units each (OpenCL fission by counts); Unsupported elsewhere.
  virtual std::vector<std::shared_ptr<DeviceImpl>> partition_by_counts(std::span<const unsigned> counts);

  /// The sub-devices of this device's latest partition that are still alive: a selector
  /// "D/S" names the S-th of them (the list holds weak references, so naming one changes no
  /// device's lifetime).
  std::vector<std::shared_ptr<DeviceImpl>> sub_devices() const;
  void remember_sub_devices(const std::vector<std::shared_ptr<DeviceImpl>>& subs);

  /// The ordering of this device's queues with its array queue (queue_order.hpp).
  DeviceOrder& order() const noexcept { return order_; }

  /// A small number of this device's own, from 0 in the order devices are made and never
  /// reused: where DeviceLocal (device_local.hpp) finds the device's values.
  std::size_t local_index() const noexcept { return local_index_; }

 protected:
  DeviceInfo info_;

 private:
  std::size_t local_index_;
  mutable DeviceOrder order_;
  mutable std::mutex sub_mutex_;
  std::vector<std::weak_ptr<DeviceImpl>> sub_devices_;
};

class BackendImpl {
 public:
  virtual ~BackendImpl() = default;
  virtual std::vector<std::shared_ptr<DeviceImpl>> devices() = 0;
};

/// Creates a backend, or throws Unsupported with the reason it cannot load
/// ("libOpenCL.so.1 not found").
using BackendFactory = std::function<std::unique_ptr<BackendImpl>()>;

/// A static object of this type in a backend's source registers it. order fixes the order of
/// `weft devices` (host 0, opencl 10, cuda 20).
struct BackendRegistration {
  BackendRegistration(std::string name, int order, BackendFactory factory);
};

/// Converts public wait lists to backend ones.
std::vector<EventPtr> to_event_ptrs(std::span<const Event> events);

/// Validates a launch (its sizes, and args: complete, buffers on the device) against the
/// kernel and device limits before any backend sees it.
void check_launch(const KernelImpl& kernel, const ArgList& args, const DeviceImpl& device,
                  const LaunchConfig& config);

}  // namespace weft::detail
