#include "runtime/backend.hpp"
#include "weft/error.hpp"
#include "weft/launch_log.hpp"
#include "weft/queue.hpp"

namespace weft {

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
  impl_ = device.impl()->create_queue(options);
}

Device Queue::device() const { return Device(checked(impl_)->device()); }
bool Queue::out_of_order() const { return checked(impl_)->out_of_order(); }

Event Queue::write(const Buffer& dst, const void* src, std::size_t bytes, std::size_t dst_offset,
                   Blocking blocking, std::span<const Event> wait) {
  check_range("write", dst, dst_offset, bytes, *checked(impl_));
  if (!src && bytes) throw InvalidArgument("write: null source pointer");
  return Event(impl_->write(dst.impl(), dst_offset, bytes, src, blocking == Blocking::yes,
                            detail::to_event_ptrs(wait)));
}

Event Queue::read(const Buffer& src, void* dst, std::size_t bytes, std::size_t src_offset,
                  Blocking blocking, std::span<const Event> wait) {
  check_range("read", src, src_offset, bytes, *checked(impl_));
  if (!dst && bytes) throw InvalidArgument("read: null destination pointer");
  return Event(impl_->read(src.impl(), src_offset, bytes, dst, blocking == Blocking::yes,
                           detail::to_event_ptrs(wait)));
}

Event Queue::copy(const Buffer& src, const Buffer& dst, std::size_t bytes, std::size_t src_offset,
                  std::size_t dst_offset, std::span<const Event> wait) {
  check_range("copy (source)", src, src_offset, bytes, *checked(impl_));
  check_range("copy (destination)", dst, dst_offset, bytes, *impl_);
  if (src.impl() == dst.impl() && src_offset < dst_offset + bytes && dst_offset < src_offset + bytes) {
    throw InvalidArgument("copy: source and destination ranges overlap within one buffer");
  }
  return Event(impl_->copy(src.impl(), dst.impl(), src_offset, dst_offset, bytes,
                           detail::to_event_ptrs(wait)));
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
  return Event(impl_->fill(dst.impl(), pattern, pattern_size, offset, bytes,
                           detail::to_event_ptrs(wait)));
}

Event Queue::launch(const Kernel& kernel, const NDRange& global, const NDRange& local,
                    const NDRange& offset, std::span<const Event> wait) {
  checked(impl_);
  if (!kernel) throw InvalidArgument("launch: an empty Kernel handle was given");
  const detail::LaunchConfig config{global, local, offset};
  detail::check_launch(*kernel.impl(), impl_->device()->info(), config);
  Event event(impl_->launch(kernel.impl(), kernel.impl()->args(), config, detail::to_event_ptrs(wait)));
  if (impl_->log_count.load(std::memory_order_relaxed) != 0) {
    std::lock_guard lock(impl_->log_mutex);
    for (LaunchLog* log : impl_->logs) log->add(kernel.name(), event);
  }
  return event;
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
  return Event(checked(impl_)->marker(detail::to_event_ptrs(wait)));
}

void Queue::finish() { checked(impl_)->finish(); }

void Queue::flush() { checked(impl_)->flush(); }

}  // namespace weft
