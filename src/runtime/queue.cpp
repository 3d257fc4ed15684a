#include <cstring>

#include "runtime/backend.hpp"
#include "runtime/live_queues.hpp"
#include "runtime/ordered_command.hpp"
#include "runtime/program_waits.hpp"
#include "runtime/small_reads.hpp"
#include "weft/error.hpp"
#include "weft/launch_log.hpp"
#include "weft/queue.hpp"

namespace weft {

using detail::ordered;

namespace {
const std::shared_ptr<detail::QueueImpl>& checked(const std::shared_ptr<detail::QueueImpl>& q) {
  if (!q) throw InvalidArgument("an empty Queue handle was used");
  return q;
}

void check_range(const char* what, const Buffer& b, std::size_t offset, std::size_t bytes,
                 const detail::QueueImpl& q) {
  if (!b) throw InvalidArgument(std::string(what) + ": an empty Buffer was given");
  if (offset > b.size() || bytes > b.size() - offset) {
    throw InvalidArgument(std::string(what) + ": range [" + std::to_string(offset) + ", " +
                          std::to_string(offset + bytes) + ") exceeds the buffer's " +
                          std::to_string(b.size()) + " bytes");
  }
  if (b.impl()->device() != q.device()) {
    throw InvalidArgument(std::string(what) + ": the buffer is on " +
                          b.impl()->device()->info().selector + ", the queue on " +
                          q.device()->info().selector);
  }
}
}  // namespace

Queue::Queue(const Device& device, QueueOptions options) {
  if (!device) throw InvalidArgument("Queue: no device given");
  std::shared_ptr<detail::QueueImpl> made = device.impl()->create_queue(options);
  made->device_ptr = device.impl().get();
  made->profiling_enabled = options.profiling;
  detail::DeviceOrder& order = device.impl()->order();
  if (options.ordered_with_arrays) order.add_queue(made);  // else its order_state.device stays null
  detail::register_queue(made);
  // The handles share one owner whose release first leaves a marker after the queue's work
  // in flight with the device's ordering (queue_order.hpp), then lets the queue go.
  detail::QueueImpl* raw = made.get();
  impl_ = std::shared_ptr<detail::QueueImpl>(raw, [made = std::move(made), &order](detail::QueueImpl* q) mutable {
    try {
      order.retire(*q);
    } catch (...) {
      // A marker the backend refuses (a device lost): nothing more can be ordered after it.
    }
    made.reset();
  });
}


Device Queue::device() const { return Device(checked(impl_)->device()); }
bool Queue::out_of_order() const { return checked(impl_)->out_of_order(); }
bool Queue::profiling() const { return checked(impl_)->profiling_enabled; }

Event Queue::write(const Buffer& dst, const void* src, std::size_t bytes, std::size_t dst_offset,
                   Blocking blocking, std::span<const Event> wait) {
  check_range("write", dst, dst_offset, bytes, *checked(impl_));
  if (!src && bytes) throw InvalidArgument("write: null source pointer");
  return ordered(impl_, wait, [&](std::span<const detail::EventPtr> w) {
    return impl_->write(dst.impl(), dst_offset, bytes, src, blocking == Blocking::yes, w);
  });
}

Event Queue::read(const Buffer& src, void* dst, std::size_t bytes, std::size_t src_offset,
                  Blocking blocking, std::span<const Event> wait) {
  check_range("read", src, src_offset, bytes, *checked(impl_));
  if (!dst && bytes) throw InvalidArgument("read: null destination pointer");
  if (blocking == Blocking::yes && bytes && bytes <= detail::kSmallReadBytes &&
      detail::small_reads_through_pinned(*impl_->device())) {
    // Through the device's pinned block (runtime/small_reads.hpp), where nobody holds it. (The
    // capability asked first: a device whose reads do not go so makes no Device handle here.)
    Device device(impl_->device());
    if (detail::SmallReadLease block = detail::take_small_read_block(device)) {
      Event e = ordered(impl_, wait, [&](std::span<const detail::EventPtr> w) {
        return impl_->read(src.impl(), src_offset, bytes, block.data(), false, w);
      });
      const detail::CountedWait counted;  // the program has the data (runtime/program_waits.hpp)
      detail::wait_within(std::span<const Event>(&e, 1));
      std::memcpy(dst, block.data(), bytes);
      return e;
    }
  }
  Event e = ordered(impl_, wait, [&](std::span<const detail::EventPtr> w) {
    return impl_->read(src.impl(), src_offset, bytes, dst, blocking == Blocking::yes, w);
  });
  if (blocking == Blocking::yes) detail::note_program_wait();  // the program has the data (runtime/program_waits.hpp)
  return e;
}

Event Queue::copy(const Buffer& src, const Buffer& dst, std::size_t bytes, std::size_t src_offset,
                  std::size_t dst_offset, std::span<const Event> wait) {
  check_range("copy (source)", src, src_offset, bytes, *checked(impl_));
  check_range("copy (destination)", dst, dst_offset, bytes, *impl_);
  if (src.impl() == dst.impl() && src_offset < dst_offset + bytes && dst_offset < src_offset + bytes) {
    throw InvalidArgument("copy: source and destination ranges overlap within one buffer");
  }
  return ordered(impl_, wait, [&](std::span<const detail::EventPtr> w) {
    return impl_->copy(src.impl(), dst.impl(), src_offset, dst_offset, bytes, w);
  });
}

Event Queue::fill(const Buffer& dst, const void* pattern, std::size_t pattern_size,
                  std::size_t offset, std::size_t bytes, std::span<const Event> wait) {
  check_range("fill", dst, offset, bytes, *checked(impl_));
  if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)) != 0) {
    throw InvalidArgument("fill: pattern size " + std::to_string(pattern_size) +
                          " is not a power of two from 1 to 128");
  }
  if (offset % pattern_size || bytes % pattern_size) {
    throw InvalidArgument("fill: offset and size must be multiples of the pattern size " +
                          std::to_string(pattern_size));
  }
  return ordered(impl_, wait, [&](std::span<const detail::EventPtr> w) {
    return impl_->fill(dst.impl(), pattern, pattern_size, offset, bytes, w);
  });
}

namespace {
Event launch_on(const std::shared_ptr<detail::QueueImpl>& queue, const std::shared_ptr<detail::KernelImpl>& kernel,
                const detail::ArgList& args, const detail::LaunchConfig& config, std::span<const Event> wait) {
  detail::QueueImpl& q = *queue;
  detail::check_launch(*kernel, args, q.device_ptr ? *q.device_ptr : *q.device(), config);
  if (kernel->bounds()) {
    // WEFT_BOUNDS_CHECK: the hidden arguments added, one launch of the kernel at a time, and
    // the launch waited for so that a bad access raises here (runtime/bounds_check.hpp).
    std::lock_guard lock(kernel->bounds_state().mutex);
    detail::check_deferred_bounds(*kernel, q);  // an earlier launch's record, once it ran
    const detail::ArgList full = detail::bounds_args(*kernel, args, q);
    Event event = ordered(queue, wait, [&](std::span<const detail::EventPtr> w) { return q.launch(kernel, full, config, w); });
    if (q.log_count.load(std::memory_order_relaxed) != 0) {
      std::lock_guard log_lock(q.log_mutex);
      for (LaunchLog* log : q.logs) log->add(kernel->name(), event);
    }
    if (detail::waits_on_open_user_event(wait)) {
      // Waiting here could wait forever (the user event is completed by this thread, later):
      // the record is read at the kernel's next launch once this one has run.
      kernel->bounds_state().deferred = event.impl();
      return event;
    }
    detail::check_bounds(*kernel, q, event.impl());
    return event;
  }
  Event event = ordered(queue, wait, [&](std::span<const detail::EventPtr> w) { return q.launch(kernel, args, config, w); });
  if (q.log_count.load(std::memory_order_relaxed) != 0) {
    std::lock_guard lock(q.log_mutex);
    for (LaunchLog* log : q.logs) log->add(kernel->name(), event);
  }
  return event;
}
}  // namespace

Event Queue::launch(const Kernel& kernel, const NDRange& global, const NDRange& local,
                    const NDRange& offset, std::span<const Event> wait) {
  checked(impl_);
  if (!kernel) throw InvalidArgument("launch: an empty Kernel handle was given");
  return launch_on(impl_, kernel.impl(), kernel.impl()->args(), {global, local, offset}, wait);
}

Event Queue::launch(const KernelArgs& args, const NDRange& global, const NDRange& local,
                    const NDRange& offset, std::span<const Event> wait) {
  checked(impl_);
  if (!args.kernel()) throw InvalidArgument("launch: the KernelArgs belong to no kernel");
  return launch_on(impl_, args.kernel().impl(), args.list(), {global, local, offset}, wait);
}

LaunchLog::LaunchLog(const Queue& queue) : queue_(checked(queue.impl())) {
  std::lock_guard lock(queue_->log_mutex);
  queue_->logs.push_back(this);
  queue_->log_count.fetch_add(1);
}

LaunchLog::~LaunchLog() { stop(); }

void LaunchLog::stop() {
  std::lock_guard lock(queue_->log_mutex);
  if (!listening_) return;
  listening_ = false;
  std::erase(queue_->logs, this);
  queue_->log_count.fetch_sub(1);
}

void LaunchLog::add(const std::string& kernel, const Event& event) {
  std::lock_guard lock(mutex_);
  entries_.push_back({kernel, event});
}

std::vector<LaunchLog::Entry> LaunchLog::entries() const {
  std::lock_guard lock(mutex_);
  return entries_;
}

Event Queue::marker(std::span<const Event> wait) {
  checked(impl_);
  return ordered(impl_, wait, [&](std::span<const detail::EventPtr> w) { return impl_->marker(w); });
}

Event Queue::barrier(std::span<const Event> wait) {
  checked(impl_);
  return ordered(impl_, wait, [&](std::span<const detail::EventPtr> w) { return impl_->barrier(w); });
}

void Queue::finish() {
  checked(impl_)->finish();
  detail::note_program_wait();
}

void Queue::flush() { checked(impl_)->flush(); }

}  // namespace weft
