// OpenCL queues, kernels launches and events.
#include "backends/opencl/opencl_queue.hpp"

#include <algorithm>
#include <cstring>

#include "backends/opencl/opencl_compiler.hpp"
#include "backends/opencl/opencl_memory.hpp"
#include "core/log.hpp"
#include "runtime/device_work.hpp"
#include "runtime/parallel_memcpy.hpp"
#include "runtime/launch_geometry.hpp"
#include "runtime/live_queues.hpp"
#include "weft/error.hpp"

namespace weft::detail {

using namespace cl;

namespace {

cl_mem mem_of(const BufferPtr& b) { return static_cast<OpenclBuffer&>(*b).mem(); }

void event_callback_trampoline(cl_event, cl_int, void* user) {
  // Ownership of the callback passes to this function.
  std::unique_ptr<std::function<void()>> cb(static_cast<std::function<void()>*>(user));
  try {
    (*cb)();
  } catch (const std::exception& e) {
    WEFT_LOG_WARNING("an event callback threw: " << e.what());
  } catch (...) {
    WEFT_LOG_WARNING("an event callback threw");
  }
}

}  // namespace

// ---- events ------------------------------------------------------------------------------

EventStatus OpenclEvent::status() const {
  cl_int s = CL_COMPLETE;
  check(api().clGetEventInfo(event_.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr),
        "clGetEventInfo");
  if (s < 0) return EventStatus::error;
  switch (s) {
    case CL_COMPLETE: return EventStatus::complete;
    case CL_RUNNING: return EventStatus::running;
    case CL_SUBMITTED: return EventStatus::submitted;
    default: return EventStatus::queued;
  }
}

void OpenclEvent::wait() {
  cl_event e = event_.get();
  const cl_int err = api().clWaitForEvents(1, &e);
  cl_int s = CL_COMPLETE;
  api().clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr);
  if (s < 0) {
    throw DeviceError("an OpenCL command failed: " + error_name(s) + " (" + std::to_string(s) + ")" +
                          (s == -14 ? ": an event it waited for failed (a failed command, a UserEvent set to an error)"
                                    : ""),
                      error_name(s), "command execution");
  }
  check(err, "clWaitForEvents");
}

EventProfile OpenclEvent::profile() {
  wait();
  EventProfile p;
  const Api& a = api();
  cl_event e = event_.get();
  cl_ulong v = 0;
  const cl_int err = a.clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof v, &v, nullptr);
  if (err == CL_PROFILING_INFO_NOT_AVAILABLE) throw_not_profiled();  // a queue without profiling
  check(err, "clGetEventProfilingInfo");
  a.clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof v, &v, nullptr);
  p.end = v;
  if (first_) e = first_.get();  // a chunked command: the rest from its first chunk
  a.clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof v, &v, nullptr);
  p.queued = v;
  a.clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_SUBMIT, sizeof v, &v, nullptr);
  p.submitted = v;
  a.clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof v, &v, nullptr);
  p.start = v;
  return p;
}

void OpenclEvent::on_complete(std::function<void()> callback) {
  auto holder = std::make_unique<std::function<void()>>(std::move(callback));
  // The event runs the callback (CL_COMPLETE also fires for failed commands).
  const cl_int err = api().clSetEventCallback(event_.get(), CL_COMPLETE, &event_callback_trampoline, holder.get());
  check(err, "clSetEventCallback");
  holder.release();  // now owned by the trampoline
}

// ---- kernel launches -----------------------------------------------------------------------------

cl_event OpenclKernel::enqueue(cl_command_queue queue, const ArgList& args, const LaunchConfig& c,
                               const std::vector<cl_event>& wait) {
  const Api& a = api();
  std::size_t global[3], local[3], offset[3];
  const cl_uint dims = std::min(c.global.dims(), 3u);
  if (c.local.empty()) choose_local_sizes(c.global, max_group_, 256, preferred_multiple_, local);
  std::size_t group = 1;
  for (cl_uint d = 0; d < dims; ++d) {
    global[d] = c.global[d];
    offset[d] = c.offset.empty() ? 0 : c.offset[d];
    if (!c.local.empty()) local[d] = c.local[d];
    group *= local[d];
  }
  if (!c.local.empty() && group > max_group_) {
    throw InvalidArgument("launch of kernel '" + name() + "': a work-group of " + std::to_string(group) +
                          " items exceeds this kernel's limit of " + std::to_string(max_group_) +
                          " on this device (it depends on the kernel's registers and local memory)");
  }
  std::lock_guard lock(mutex_);
  for (cl_uint i = 0; i < args.size(); ++i) {
    const ArgValue& v = args[i];
    ArgValue& b = bound_[i];
    cl_int err = CL_SUCCESS;
    switch (v.kind) {
      case ArgValue::Kind::buffer: {
        // What is bound is remembered by its cl_mem, not held: a kernel must not keep a
        // buffer alive (or out of the array memory pool) after its launches.
        cl_mem m = mem_of(v.buffer);
        if (b.kind == ArgValue::Kind::buffer && std::memcmp(b.bytes.data(), &m, sizeof m) == 0) continue;
        err = a.clSetKernelArg(kernel_.get(), i, sizeof m, &m);
        if (err == CL_SUCCESS) {
          b = ArgValue{};
          b.kind = ArgValue::Kind::buffer;
          std::memcpy(b.bytes.data(), &m, sizeof m);
          continue;
        }
        break;
      }
      case ArgValue::Kind::value:
        if (b.kind == ArgValue::Kind::value && b.size == v.size && std::memcmp(b.bytes.data(), v.bytes.data(), v.size) == 0) {
          continue;
        }
        err = a.clSetKernelArg(kernel_.get(), i, v.size, v.bytes.data());
        break;
      case ArgValue::Kind::local:
        if (b.kind == ArgValue::Kind::local && b.size == v.size) continue;
        err = a.clSetKernelArg(kernel_.get(), i, v.size, nullptr);
        break;
      case ArgValue::Kind::unset: break;
    }
    if (err != CL_SUCCESS) {
      b = ArgValue{};
      if (err == CL_INVALID_ARG_SIZE && i < params().size()) {
        const auto& p = params()[i];
        throw InvalidArgument("kernel '" + name() + "' argument " + std::to_string(i) + " ('" + p.type_name + " " +
                              p.name + "'): the driver refused a value of " + std::to_string(v.size) + " bytes");
      }
      check(err, "clSetKernelArg");
    }
    b = v;
  }
  cl_event ev = nullptr;
  const cl_int err = a.clEnqueueNDRangeKernel(queue, kernel_.get(), dims, c.offset.empty() ? nullptr : offset, global,
                                              local, static_cast<cl_uint>(wait.size()),
                                              wait.empty() ? nullptr : wait.data(), &ev);
  check(err, "clEnqueueNDRangeKernel");
  // A kernel's first launch may make the driver build it (PoCL: its work-group function, with
  // LLVM's statics): the exit handler that lets queued work finish is registered after that.
  if (!launched_) {
    launched_ = true;
    finish_queues_at_exit();
  }
  return ev;
}

// ---- queues ------------------------------------------------------------------------------

OpenclQueue::OpenclQueue(std::shared_ptr<OpenclDevice> device, const QueueOptions& options)
    : device_(std::move(device)), out_of_order_(options.out_of_order) {
  cl_command_queue_properties props = 0;
  if (options.profiling) props |= CL_QUEUE_PROFILING_ENABLE;
  if (options.out_of_order) props |= CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  cl_int err = CL_SUCCESS;
  cl_command_queue q = api().clCreateCommandQueue(device_->context(), device_->id(), props, &err);
  check(err, "clCreateCommandQueue");
  queue_ = ClRef<cl_command_queue>(q, api().clReleaseCommandQueue);
}

std::vector<cl_event> OpenclQueue::wait_list(std::span<const EventPtr> wait) {
  // (Every command starts here.)
  note_device_work(static_cast<const DeviceImpl*>(device_.get()), device_->info().type == DeviceType::cpu);
  std::vector<cl_event> out;
  out.reserve(wait.size());
  const Api& a = api();
  for (const auto& e : wait) {
    if (auto* ce = dynamic_cast<OpenclEvent*>(e.get())) {
      out.push_back(ce->get());  // events of other contexts are refused by the driver
      continue;
    }
    if (e->status() == EventStatus::complete) continue;
    // A foreign event (host work, a user event, another backend): a user event of this
    // context stands in for it and completes from its callback.
    cl_int err = CL_SUCCESS;
    auto bridge = std::make_shared<ClRef<cl_event>>(a.clCreateUserEvent(device_->context(), &err), a.clReleaseEvent);
    check(err, "clCreateUserEvent");
    out.push_back(bridge->get());
    std::weak_ptr<EventImpl> weak = e;
    e->on_complete([bridge, weak] {
      cl_int status = CL_COMPLETE;
      // OpenCL passes a status code, not the error: this one says "an event waited for failed".
      constexpr cl_int waited_for_failed = -14;  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
      if (auto src = weak.lock(); src && src->status() == EventStatus::error) status = waited_for_failed;
      api().clSetUserEventStatus(bridge->get(), status);
    });
  }
  return out;
}

bool OpenclQueue::staged() const noexcept {
  // (one memcpy thread would copy no faster than the driver's own staging)
  return !out_of_order_ && !device_->info().capabilities.memory_is_host && parallel_memcpy().threads() >= 2;
}

EventPtr OpenclQueue::write(const BufferPtr& dst, std::size_t offset, std::size_t bytes, const void* src,
                            bool blocking, std::span<const EventPtr> wait) {
  const auto w = wait_list(wait);
  if (staged()) {
    if (const StagedCopy staged = device_->upload_staging().write(queue_.get(), mem_of(dst), offset, src, bytes, w)) {
      auto event = std::make_shared<OpenclEvent>(staged.first, staged.last);
      if (blocking) event->wait();
      return event;
    }
  }
  cl_event ev = nullptr;
  check(api().clEnqueueWriteBuffer(queue_.get(), mem_of(dst), blocking ? CL_TRUE : CL_FALSE, offset, bytes, src,
                                   static_cast<cl_uint>(w.size()), w.empty() ? nullptr : w.data(), &ev),
        "clEnqueueWriteBuffer");
  auto event = std::make_shared<OpenclEvent>(ev);
  if (blocking) event->wait();
  return event;
}

EventPtr OpenclQueue::read(const BufferPtr& src, std::size_t offset, std::size_t bytes, void* dst, bool blocking,
                           std::span<const EventPtr> wait) {
  const auto w = wait_list(wait);
  if (staged()) {
    if (const StagedCopy staged = device_->download_staging().read(queue_.get(), dst, mem_of(src), offset, bytes, w)) {
      // (done: the stager returns when dst holds the data)
      return std::make_shared<OpenclEvent>(staged.first, staged.last);
    }
  }
  cl_event ev = nullptr;
  check(api().clEnqueueReadBuffer(queue_.get(), mem_of(src), blocking ? CL_TRUE : CL_FALSE, offset, bytes, dst,
                                  static_cast<cl_uint>(w.size()), w.empty() ? nullptr : w.data(), &ev),
        "clEnqueueReadBuffer");
  auto event = std::make_shared<OpenclEvent>(ev);
  if (blocking) event->wait();
  return event;
}

EventPtr OpenclQueue::copy(const BufferPtr& src, const BufferPtr& dst, std::size_t src_offset, std::size_t dst_offset,
                           std::size_t bytes, std::span<const EventPtr> wait) {
  const auto w = wait_list(wait);
  cl_event ev = nullptr;
  if (bytes == 0) {
    check(api().clEnqueueMarkerWithWaitList(queue_.get(), static_cast<cl_uint>(w.size()),
                                            w.empty() ? nullptr : w.data(), &ev),
          "clEnqueueMarkerWithWaitList");
    return std::make_shared<OpenclEvent>(ev);
  }
  check(api().clEnqueueCopyBuffer(queue_.get(), mem_of(src), mem_of(dst), src_offset, dst_offset, bytes,
                                  static_cast<cl_uint>(w.size()), w.empty() ? nullptr : w.data(), &ev),
        "clEnqueueCopyBuffer");
  return std::make_shared<OpenclEvent>(ev);
}

EventPtr OpenclQueue::fill(const BufferPtr& dst, const void* pattern, std::size_t pattern_size, std::size_t offset,
                           std::size_t bytes, std::span<const EventPtr> wait) {
  const auto w = wait_list(wait);
  cl_event ev = nullptr;
  if (bytes == 0) {
    check(api().clEnqueueMarkerWithWaitList(queue_.get(), static_cast<cl_uint>(w.size()),
                                            w.empty() ? nullptr : w.data(), &ev),
          "clEnqueueMarkerWithWaitList");
    return std::make_shared<OpenclEvent>(ev);
  }
  check(api().clEnqueueFillBuffer(queue_.get(), mem_of(dst), pattern, pattern_size, offset, bytes,
                                  static_cast<cl_uint>(w.size()), w.empty() ? nullptr : w.data(), &ev),
        "clEnqueueFillBuffer");
  return std::make_shared<OpenclEvent>(ev);
}

EventPtr OpenclQueue::launch(const std::shared_ptr<KernelImpl>& kernel, const ArgList& args,
                             const LaunchConfig& config, std::span<const EventPtr> wait) {
  const auto w = wait_list(wait);
  if (config.global.total() == 0) return enqueue_marker(w);
  return std::make_shared<OpenclEvent>(static_cast<OpenclKernel&>(*kernel).enqueue(queue_.get(), args, config, w));
}

EventPtr OpenclQueue::marker(std::span<const EventPtr> wait) { return enqueue_marker(wait_list(wait)); }

EventPtr OpenclQueue::barrier(std::span<const EventPtr> wait) {
  const auto w = wait_list(wait);
  if (!out_of_order_) return enqueue_marker(w);
  cl_event ev = nullptr;
  check(api().clEnqueueBarrierWithWaitList(queue_.get(), static_cast<cl_uint>(w.size()), w.empty() ? nullptr : w.data(), &ev),
        "clEnqueueBarrierWithWaitList");
  return std::make_shared<OpenclEvent>(ev);
}

EventPtr OpenclQueue::enqueue_marker(const std::vector<cl_event>& w) {
  cl_event ev = nullptr;
  check(api().clEnqueueMarkerWithWaitList(queue_.get(), static_cast<cl_uint>(w.size()),
                                          w.empty() ? nullptr : w.data(), &ev),
        "clEnqueueMarkerWithWaitList");
  return std::make_shared<OpenclEvent>(ev);
}

void OpenclQueue::finish() { check(api().clFinish(queue_.get()), "clFinish"); }

void OpenclQueue::flush() { check(api().clFlush(queue_.get()), "clFlush"); }

}  // namespace weft::detail
