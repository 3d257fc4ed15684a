// The OpenCL backend: every platform and device the ICD loader offers, one context per
// platform holding all of its devices, queues (in-order or out-of-order, profiling),
// buffers, programs built from dialect source through the program cache (binaries per
// device), kernels and events that wrap cl_event.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "backends/opencl/opencl_api.hpp"
#include "backends/opencl/opencl_compiler.hpp"
#include "cache/program_cache.hpp"
#include "runtime/backend.hpp"

namespace weft::detail {

/// An owned reference to an OpenCL object, released on destruction.
template <class T>
class ClRef {
 public:
  using Release = cl::cl_int (*)(T);
  ClRef() = default;
  ClRef(T handle, Release release) : handle_(handle), release_(release) {}
  ClRef(ClRef&& o) noexcept : handle_(std::exchange(o.handle_, nullptr)), release_(o.release_) {}
  ClRef& operator=(ClRef&& o) noexcept {
    if (this != &o) {
      reset();
      handle_ = std::exchange(o.handle_, nullptr);
      release_ = o.release_;
    }
    return *this;
  }
  ClRef(const ClRef&) = delete;
  ClRef& operator=(const ClRef&) = delete;
  ~ClRef() { reset(); }
  T get() const noexcept { return handle_; }
  explicit operator bool() const noexcept { return handle_ != nullptr; }
  void reset() noexcept {
    if (handle_ && release_) release_(handle_);
    handle_ = nullptr;
  }

 private:
  T handle_ = nullptr;
  Release release_ = nullptr;
};

/// A context and the devices created in it (a platform's, or a partition's sub-devices).
struct OpenclContext {
  ClRef<cl::cl_context> context;
  std::string platform_name;
  std::string platform_version;
};

class OpenclDevice final : public DeviceImpl {
 public:
  OpenclDevice(DeviceInfo info, cl::cl_device_id id, std::shared_ptr<OpenclContext> context,
               bool out_of_order, bool sub_device);
  ~OpenclDevice() override;

  std::shared_ptr<QueueImpl> create_queue(const QueueOptions& options) override;
  BufferPtr allocate(std::size_t bytes) override;
  ProgramBuilder& program_builder() noexcept override { return builder_; }
  std::vector<std::shared_ptr<DeviceImpl>> partition_equally(unsigned compute_units) override;
  std::shared_ptr<PinnedImpl> allocate_pinned(std::size_t bytes) override;

  cl::cl_device_id id() const noexcept { return id_; }
  cl::cl_context context() const noexcept { return context_->context.get(); }
  const OpenclContext& context_info() const noexcept { return *context_; }

 private:
  cl::cl_device_id id_;
  std::shared_ptr<OpenclContext> context_;
  bool out_of_order_supported_;
  bool sub_device_;
  OpenclCompiler compiler_{*this};
  ProgramBuilder builder_{compiler_};
  std::mutex map_mutex_;
  ClRef<cl::cl_command_queue> map_queue_;  // maps pinned buffers; made on first use
};

class OpenclBuffer final : public BufferImpl {
 public:
  OpenclBuffer(std::shared_ptr<DeviceImpl> device, std::size_t bytes, cl::cl_mem mem)
      : BufferImpl(std::move(device), bytes), mem_(mem, cl::api().clReleaseMemObject) {}
  cl::cl_mem mem() const noexcept { return mem_.get(); }

 private:
  ClRef<cl::cl_mem> mem_;
};

class OpenclProgram final : public ProgramImpl {
 public:
  OpenclProgram(std::shared_ptr<OpenclDevice> device, ClRef<cl::cl_program> program,
                std::map<std::string, std::vector<KernelArgInfo>> kernels);
  std::shared_ptr<KernelImpl> create_kernel(std::string_view name) override;
  std::vector<std::string> kernel_names() const override;
  std::shared_ptr<DeviceImpl> device() const override { return device_.lock(); }

 private:
  // Weak: the device's program table holds this program.
  std::weak_ptr<OpenclDevice> device_;
  cl::cl_device_id device_id_;
  ClRef<cl::cl_program> program_;
  std::map<std::string, std::vector<KernelArgInfo>> kernels_;
};

class OpenclKernel final : public KernelImpl {
 public:
  OpenclKernel(std::string name, std::vector<KernelArgInfo> params, ClRef<cl::cl_kernel> kernel,
               std::size_t max_group, std::size_t preferred_multiple, std::optional<std::size_t> private_bytes);
  /// Sets the arguments on the cl_kernel (skipping those unchanged since the last launch)
  /// and enqueues it, under the kernel's lock: a cl_kernel holds one set of arguments.
  cl::cl_event enqueue(cl::cl_command_queue queue, const ArgList& args,
                       const LaunchConfig& config, const std::vector<cl::cl_event>& wait);
  std::optional<std::size_t> private_bytes() const override { return private_bytes_; }

 private:
  std::mutex mutex_;
  ClRef<cl::cl_kernel> kernel_;
  std::size_t max_group_;
  std::size_t preferred_multiple_;
  std::optional<std::size_t> private_bytes_;
  std::vector<ArgValue> bound_;  // what the cl_kernel holds now
};

class OpenclEvent final : public EventImpl {
 public:
  /// Takes ownership of event (no extra retain).
  explicit OpenclEvent(cl::cl_event event) : event_(event, cl::api().clReleaseEvent) {}
  EventStatus status() const override;
  void wait() override;
  EventProfile profile() override;
  void on_complete(std::function<void()> callback) override;
  cl::cl_event get() const noexcept { return event_.get(); }

 private:
  ClRef<cl::cl_event> event_;
};

class OpenclQueue final : public QueueImpl {
 public:
  OpenclQueue(std::shared_ptr<OpenclDevice> device, const QueueOptions& options);
  std::shared_ptr<DeviceImpl> device() const override { return device_; }
  bool out_of_order() const override { return out_of_order_; }
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
  void flush() override;

 private:
  /// cl_events for a wait list; events of other backends or contexts are bridged through
  /// user events completed by their callbacks.
  std::vector<cl::cl_event> wait_list(std::span<const EventPtr> wait);
  /// A marker after w: the event of a command with nothing to do (zero bytes, zero items).
  EventPtr enqueue_marker(const std::vector<cl::cl_event>& w);

  std::shared_ptr<OpenclDevice> device_;
  ClRef<cl::cl_command_queue> queue_;
  bool out_of_order_ = false;
};

}  // namespace weft::detail
