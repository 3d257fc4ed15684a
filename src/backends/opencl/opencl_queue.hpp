// OpenCL queues (in-order or out-of-order, profiling) and events that wrap cl_event.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "backends/opencl/opencl_api.hpp"
#include "backends/opencl/opencl_device.hpp"
#include "runtime/backend.hpp"

namespace weft::detail {

class OpenclEvent final : public EventImpl {
 public:
  /// Takes ownership of event (no extra retain).
  explicit OpenclEvent(cl::cl_event event) : event_(event, cl::api().clReleaseEvent) {}
  /// A command made of several in order, first to last (a staged copy's chunks): both owned;
  /// the profile runs from first's queued and start times to last's end.
  OpenclEvent(cl::cl_event first, cl::cl_event last)
      : event_(last, cl::api().clReleaseEvent), first_(first, cl::api().clReleaseEvent) {}
  EventStatus status() const override;
  void wait() override;
  EventProfile profile() override;
  void on_complete(std::function<void()> callback) override;
  cl::cl_event get() const noexcept { return event_.get(); }

 private:
  ClRef<cl::cl_event> event_;
  ClRef<cl::cl_event> first_;  // null: event_ is the whole command
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
  EventPtr barrier(std::span<const EventPtr> wait) override;
  void finish() override;
  void flush() override;
  /// The cl_command_queue, for libraries that enqueue on it (CLBlast).
  cl::cl_command_queue handle() const noexcept { return queue_.get(); }

 private:
  /// cl_events for a wait list; events of other backends or contexts are bridged through
  /// user events completed by their callbacks.
  std::vector<cl::cl_event> wait_list(std::span<const EventPtr> wait);
  /// Whether copies with pageable host memory go through the device's stagers: in-order
  /// queues of devices whose memory is not host memory, with memcpy threads to spare
  /// (opencl_staging.hpp).
  bool staged() const noexcept;
  /// A marker after w: the event of a command with nothing to do (zero bytes, zero items).
  EventPtr enqueue_marker(const std::vector<cl::cl_event>& w);

  std::shared_ptr<OpenclDevice> device_;
  ClRef<cl::cl_command_queue> queue_;
  bool out_of_order_ = false;
};

}  // namespace weft::detail
