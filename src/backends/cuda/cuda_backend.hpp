// The CUDA backend: the driver API and NVRTC, both opened at run time. Each device uses its
// primary context; queues are non-blocking streams; buffers are cuMemAlloc'd; programs are
// dialect source translated (dialect/translate.hpp), compiled by NVRTC for the device's
// exact architecture and kept as CUBINs in the program cache; events are CUevents from a
// per-device pool.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <mutex>
#include <thread>
#include <vector>

#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_compiler.hpp"
#include "cache/program_cache.hpp"
#include "dialect/translate.hpp"
#include "runtime/backend.hpp"

namespace weft::detail {

class CudaDevice;

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

/// Runs event callbacks on a thread of the device's own, after cuEventSynchronize: user
/// callbacks may call CUDA, which the driver's stream callbacks must not.
class CudaCallbackThread {
 public:
  explicit CudaCallbackThread(CudaDevice& device);
  ~CudaCallbackThread();
  CudaCallbackThread(const CudaCallbackThread&) = delete;
  CudaCallbackThread& operator=(const CudaCallbackThread&) = delete;
  /// Calls callback once event has completed; keeper keeps what event needs alive.
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
  std::deque<Item> items_;
  bool stop_ = false;
  std::thread thread_;
};

class CudaDevice final : public DeviceImpl {
 public:
  CudaDevice(DeviceInfo info, cu::CUdevice device, cu::CUcontext context, std::string arch);
  ~CudaDevice() override;

  std::shared_ptr<QueueImpl> create_queue(const QueueOptions& options) override;
  BufferPtr allocate(std::size_t bytes) override;
  BufferPtr wrap_memory(std::uint64_t address, std::size_t bytes, std::shared_ptr<void> owner) override;
  ProgramBuilder& program_builder() noexcept override { return builder_; }
  std::shared_ptr<PinnedImpl> allocate_pinned(std::size_t bytes) override;

  /// Makes the device's context current on the calling thread (cheap when it already is).
  void make_current() const;
  const std::string& arch() const noexcept { return arch_; }
  CudaEventPool& events() { return events_; }
  CudaCallbackThread& callbacks() { return *callbacks_; }
  /// Host nanoseconds of a timing event: the device clock anchored once to the host's.
  std::uint64_t host_time_of(cu::CUevent e) const;

 private:
  cu::CUdevice device_;
  cu::CUcontext context_;
  std::string arch_;
  CudaEventPool events_;
  std::unique_ptr<CudaCallbackThread> callbacks_;
  cu::CUevent anchor_ = nullptr;     // a timing event recorded at start-up ...
  std::uint64_t anchor_host_ns_ = 0;  // ... when the host clock read this
  CudaCompiler compiler_{*this};
  ProgramBuilder builder_{compiler_};
};

class CudaBuffer final : public BufferImpl {
 public:
  CudaBuffer(std::shared_ptr<CudaDevice> device, std::size_t bytes, cu::CUdeviceptr ptr,
             std::shared_ptr<void> owner = {})
      : BufferImpl(device, bytes), ptr_(ptr), owner_(std::move(owner)) {}
  ~CudaBuffer() override;
  cu::CUdeviceptr ptr() const noexcept { return ptr_; }
  std::uint64_t address() noexcept override { return ptr_; }

 private:
  cu::CUdeviceptr ptr_;
  std::shared_ptr<void> owner_;  // memory allocated by someone else: kept alive, never freed
};

class CudaModule {
 public:
  CudaModule(std::weak_ptr<CudaDevice> device, cu::CUmodule module) : device_(std::move(device)), module_(module) {}
  ~CudaModule();
  CudaModule(const CudaModule&) = delete;
  CudaModule& operator=(const CudaModule&) = delete;
  cu::CUmodule get() const noexcept { return module_; }

 private:
  // Weak: a module outliving its device (at exit) is dropped with the device's context.
  std::weak_ptr<CudaDevice> device_;
  cu::CUmodule module_;
};

class CudaKernel final : public KernelImpl {
 public:
  CudaKernel(std::string name, std::vector<KernelArgInfo> params, std::shared_ptr<CudaModule> module,
             cu::CUfunction function, std::size_t max_threads, std::optional<std::size_t> private_bytes);
  cu::CUfunction function() const noexcept { return function_; }
  std::size_t max_threads() const noexcept { return max_threads_; }
  /// Raises the kernel's dynamic shared memory limit when a launch needs more than 48 KiB.
  void allow_shared(std::size_t bytes);
  std::size_t resident_groups(std::size_t local_size, std::size_t local_bytes) const override;
  std::optional<std::size_t> private_bytes() const override { return private_bytes_; }

 private:
  std::shared_ptr<CudaModule> module_;  // keeps the code loaded
  cu::CUfunction function_;
  std::size_t max_threads_;
  std::optional<std::size_t> private_bytes_;
  std::mutex mutex_;
  std::size_t shared_allowed_ = 48 * 1024;
};

class CudaProgram final : public ProgramImpl {
 public:
  CudaProgram(std::shared_ptr<CudaDevice> device, std::shared_ptr<CudaModule> module,
              std::map<std::string, dialect::KernelEntry> kernels)
      : device_(std::move(device)), module_(std::move(module)), kernels_(std::move(kernels)) {}
  std::shared_ptr<KernelImpl> create_kernel(std::string_view name) override;
  std::vector<std::string> kernel_names() const override;
  std::shared_ptr<DeviceImpl> device() const override { return device_.lock(); }

 private:
  // Weak: the device's program table holds this program.
  std::weak_ptr<CudaDevice> device_;
  std::shared_ptr<CudaModule> module_;
  std::map<std::string, dialect::KernelEntry> kernels_;  // by OpenCL name
};

/// A command on a stream: an end event (and a start event on profiling queues).
class CudaEvent final : public EventImpl {
 public:
  CudaEvent(std::shared_ptr<CudaDevice> device, cu::CUevent start, cu::CUevent end, std::uint64_t queued_ns);
  ~CudaEvent() override;
  EventStatus status() const override;
  void wait() override;
  EventProfile profile() override;
  void on_complete(std::function<void()> callback) override;
  cu::CUevent end() const noexcept { return end_; }
  /// Events of other kinds the command waited for: their failure is this command's.
  void set_foreign(std::vector<EventPtr> foreign) { foreign_ = std::move(foreign); }

 private:
  void check_foreign() const;

  std::shared_ptr<CudaDevice> device_;
  cu::CUevent start_;  // null on queues without profiling
  cu::CUevent end_;
  std::uint64_t queued_ns_;
  std::vector<EventPtr> foreign_;
};

class CudaQueue final : public QueueImpl, public std::enable_shared_from_this<CudaQueue> {
 public:
  CudaQueue(std::shared_ptr<CudaDevice> device, const QueueOptions& options);
  ~CudaQueue() override;
  std::shared_ptr<DeviceImpl> device() const override { return device_; }
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

 private:
  /// Makes the stream wait for each event (CUDA events directly; others through a host
  /// function that blocks until they complete). Returns the others.
  std::vector<EventPtr> wait_for(std::span<const EventPtr> wait);
  /// Records the start event (profiling queues) before a command ...
  cu::CUevent begin_command();
  /// ... and the end event after it.
  std::shared_ptr<CudaEvent> end_command(cu::CUevent start, std::uint64_t queued_ns,
                                         std::vector<EventPtr> foreign);

  std::shared_ptr<CudaDevice> device_;
  cu::CUstream stream_ = nullptr;
  bool profiling_;
};

}  // namespace weft::detail
