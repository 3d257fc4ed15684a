// CUDA streams as queues, CUevents as events, kernel launches.
#include "backends/cuda/cuda_queue.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <vector>
#include <cstring>

#include "backends/cuda/cuda_compiler.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_memory.hpp"
#include "core/log.hpp"
#include "runtime/completion_event.hpp"
#include "runtime/device_work.hpp"
#include "runtime/launch_geometry.hpp"
#include "weft/error.hpp"

namespace weft::detail {

using namespace cu;

namespace {
CUdeviceptr ptr_of(const BufferPtr& b) { return static_cast<CudaBuffer&>(*b).ptr(); }

// A stream waiting for a foreign event (host work, a user event, another backend) runs this
// host function, which blocks the stream until that event is done. It makes no CUDA call.
void wait_foreign(void* user) {
  std::unique_ptr<EventPtr> e(static_cast<EventPtr*>(user));
  try {
    (*e)->wait();
  } catch (...) {
    // The failure belongs to the foreign event's owner; this stream proceeds.
  }
}
}  // namespace

// ---- events pool and callbacks -------------------------------------------------------------

CudaEventPool::~CudaEventPool() {
  device_.make_current();
  for (auto e : timing_) driver().cuEventDestroy(e);
  for (auto e : plain_) driver().cuEventDestroy(e);
}

CUevent CudaEventPool::take(bool timing) {
  {
    std::lock_guard lock(mutex_);
    auto& list = timing ? timing_ : plain_;
    if (!list.empty()) {
      CUevent e = list.back();
      list.pop_back();
      return e;
    }
  }
  CUevent e = nullptr;
  check(driver().cuEventCreate(&e, timing ? 0u : CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return e;
}

void CudaEventPool::give(CUevent e, bool timing) {
  std::lock_guard lock(mutex_);
  (timing ? timing_ : plain_).push_back(e);
}

CudaCallbackThread::CudaCallbackThread(CudaDevice& device) : device_(device) {
  thread_ = std::thread([this] { loop(); });
}

CudaCallbackThread::~CudaCallbackThread() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void CudaCallbackThread::add(CUevent event, std::shared_ptr<void> keeper, std::function<void()> callback) {
  {
    std::lock_guard lock(mutex_);
    items_.push_back({event, std::move(keeper), std::move(callback)});
  }
  cv_.notify_one();
}

void CudaCallbackThread::loop() {
  device_.make_current();
  std::vector<Item> watching;
  // The pause between polls while nothing completes: short after a completion or a new
  // event, doubling up to a quarter of a millisecond (the hooks' latency bound under load).
  constexpr std::chrono::microseconds shortest(10), longest(250);
  std::chrono::microseconds pause = shortest;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      const auto ready = [&] { return stop_ || !items_.empty(); };
      if (watching.empty()) cv_.wait(lock, ready);
      else cv_.wait_for(lock, pause, ready);
      if (stop_ && items_.empty() && watching.empty()) return;
      if (!items_.empty()) pause = shortest;
      for (auto& i : items_) watching.push_back(std::move(i));
      items_.clear();
    }
    bool any = false;
    for (std::size_t i = 0; i < watching.size();) {
      if (driver().cuEventQuery(watching[i].event) == CUDA_ERROR_NOT_READY) {
        ++i;
        continue;
      }
      // Done (or failed: a failed event's waiters learn it from the event itself).
      Item item = std::move(watching[i]);
      watching[i] = std::move(watching.back());
      watching.pop_back();
      any = true;
      try {
        item.callback();
      } catch (const std::exception& e) {
        WEFT_LOG_WARNING("an event hook threw: " << e.what());
      } catch (...) {
        WEFT_LOG_WARNING("an event hook threw");
      }
    }
    pause = any ? shortest : std::min(pause * 2, longest);
  }
}

// ---- events ------------------------------------------------------------------------------

CudaEvent::CudaEvent(std::shared_ptr<CudaDevice> device, CUevent start, CUevent end, bool timed_end,
                     std::uint64_t queued_ns)
    : device_(std::move(device)), start_(start), end_(end), timed_end_(timed_end), queued_ns_(queued_ns) {}

CudaEvent::CudaEvent(std::shared_ptr<CudaDevice> device, std::shared_ptr<CudaStreamTail> tail, std::uint64_t queued_ns)
    : device_(std::move(device)), tail_(std::move(tail)), queued_ns_(queued_ns) {}

CudaEvent::~CudaEvent() {
  if (start_) device_->events().give(start_, true);
  if (CUevent e = end_.load(std::memory_order_acquire)) device_->events().give(e, timed_end_);
}

void CudaEvent::record_on(CUstream stream) const {
  if (end_.load(std::memory_order_acquire)) return;
  CUevent e = device_->events().take(false);
  const CUresult r = driver().cuEventRecord(e, stream);
  if (r != CUDA_SUCCESS) {
    device_->events().give(e, false);
    check(r, "cuEventRecord");
  }
  end_.store(e, std::memory_order_release);
}

CUevent CudaEvent::end() const {
  if (CUevent e = end_.load(std::memory_order_acquire)) return e;
  // Not recorded: the last command of its queue (the queue's next command or its end would
  // have recorded it, this event being held), so recording it now puts it right after it.
  std::lock_guard lock(tail_->mutex);
  if (!tail_->stream) throw Error("a CUDA event whose queue is gone was never recorded");
  device_->make_current();
  record_on(tail_->stream);
  return end_.load(std::memory_order_acquire);
}

bool CudaEvent::finished_if_known() const {
  return end_.load(std::memory_order_acquire) != nullptr && finished();
}

bool CudaEvent::pending_if_known() const {
  return end_.load(std::memory_order_acquire) != nullptr && !finished();
}

void CudaEvent::check_foreign() const {
  for (const auto& f : foreign_) {
    try {
      f->wait();
    } catch (const std::exception& e) {
      throw Error(std::string("a command this one waited for failed: ") + e.what());
    }
  }
}

EventStatus CudaEvent::status() const {
  const CUevent end = this->end();
  device_->make_current();
  const CUresult r = driver().cuEventQuery(end);
  if (r == CUDA_SUCCESS) {
    for (const auto& f : foreign_) {
      if (f->status() == EventStatus::error) return EventStatus::error;
    }
    return EventStatus::complete;
  }
  if (r == CUDA_ERROR_NOT_READY) return EventStatus::submitted;
  return EventStatus::error;
}

void CudaEvent::wait() {
  const CUevent end = this->end();
  device_->make_current();
  check(driver().cuEventSynchronize(end), "cuEventSynchronize");
  check_foreign();
}

EventProfile CudaEvent::profile() {
  if (!timed_end_) throw_not_profiled();  // a queue without profiling: no device times
  wait();
  EventProfile p;
  p.queued = p.submitted = queued_ns_;
  if (start_) {
    p.start = device_->host_time_of(start_);
    float ms = 0;
    driver().cuEventElapsedTime(&ms, start_, end());
    p.end = p.start + static_cast<std::uint64_t>(static_cast<double>(ms) * 1e6);
  } else {
    p.start = p.end = device_->host_time_of(end());  // a marker on a queue without profiling
  }
  if (p.submitted > p.start) p.submitted = p.start;  // anchoring rounds; keep the order
  if (p.queued > p.submitted) p.queued = p.submitted;
  return p;
}

void CudaEvent::on_complete(std::function<void()> callback) {
  // The watcher holds this event (and so its CUevent, out of the pool) until the hook ran.
  device_->callbacks().add(end(), shared_from_this(), std::move(callback));
}

// ---- queues ------------------------------------------------------------------------------

CudaQueue::CudaQueue(std::shared_ptr<CudaDevice> device, const QueueOptions& options)
    : device_(std::move(device)), profiling_(options.profiling) {
  device_->make_current();
  check(driver().cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  tail_ = std::make_shared<CudaStreamTail>();
  tail_->stream = stream_;
}

std::shared_ptr<DeviceImpl> CudaQueue::device() const { return device_; }

CudaQueue::~CudaQueue() {
  device_->make_current();
  {
    // The last command's event, if anyone holds it, is recorded before the stream goes.
    std::lock_guard lock(tail_->mutex);
    if (tail_->pending && tail_->pending.use_count() > 1) {
      try {
        tail_->pending->record_on(stream_);
      } catch (const std::exception& e) {
        WEFT_LOG_WARNING("a CUDA queue's last event could not be recorded: " << e.what());
      }
    }
    tail_->pending.reset();
    tail_->stream = nullptr;
  }
  // No wait: a stream destroyed with work in flight runs that work to its end and is released
  // then (the driver's promise), so nothing enqueued is dropped, and dropping a queue never
  // blocks (a kernel that never ends, Ctrl-C'd from Python, must not hang the process's exit).
  driver().cuStreamDestroy(stream_);
}

std::vector<EventPtr> CudaQueue::wait_for(std::span<const EventPtr> wait, std::unique_lock<std::mutex>& lock) {
  // Other queues' events first, without this queue's lock: one tail's mutex at a time.
  for (const auto& e : wait) {
    if (auto* ce = dynamic_cast<CudaEvent*>(e.get())) (void)ce->end();
  }
  lock = std::unique_lock(tail_->mutex);
  if (tail_->pending) {
    // Still wanted (held beyond this slot): recorded now, right after its command.
    if (tail_->pending.use_count() > 1) tail_->pending->record_on(stream_);
    tail_->pending.reset();
  }
  std::vector<EventPtr> foreign;
  for (const auto& e : wait) {
    if (auto* ce = dynamic_cast<CudaEvent*>(e.get())) {
      check(driver().cuStreamWaitEvent(stream_, ce->end(), 0), "cuStreamWaitEvent");
    } else if (const auto s = e->status(); s != EventStatus::complete) {
      auto holder = std::make_unique<EventPtr>(e);
      check(driver().cuLaunchHostFunc(stream_, &wait_foreign, holder.get()), "cuLaunchHostFunc");
      holder.release();  // owned by wait_foreign now
      foreign.push_back(e);
    } else if (s == EventStatus::error) {
      foreign.push_back(e);
    }
  }
  return foreign;
}

CUevent CudaQueue::begin_command() {
  note_device_work(static_cast<const DeviceImpl*>(device_.get()), device_->info().type == DeviceType::cpu);
  if (!profiling_) return nullptr;
  CUevent start = device_->events().take(true);
  check(driver().cuEventRecord(start, stream_), "cuEventRecord");
  return start;
}

std::shared_ptr<CudaEvent> CudaQueue::end_command(CUevent start, std::uint64_t queued_ns,
                                                  std::vector<EventPtr> foreign, bool timed) {
  const bool timing = profiling_ || timed;
  if (!timing) {
    // Recorded when wanted (CudaStreamTail); the caller holds the tail's mutex.
    auto event = std::make_shared<CudaEvent>(device_, tail_, queued_ns);
    if (!foreign.empty()) event->set_foreign(std::move(foreign));
    tail_->pending = event;
    return event;
  }
  CUevent end = device_->events().take(timing);
  const CUresult r = driver().cuEventRecord(end, stream_);
  auto event = std::make_shared<CudaEvent>(device_, start, end, timing, queued_ns);
  if (!foreign.empty()) event->set_foreign(std::move(foreign));
  check(r, "cuEventRecord");
  return event;
}

EventPtr CudaQueue::write(const BufferPtr& dst, std::size_t offset, std::size_t bytes, const void* src, bool blocking,
                          std::span<const EventPtr> wait) {
  const std::uint64_t t = now_ns();
  device_->make_current();
  std::unique_lock<std::mutex> lock;
  auto foreign = wait_for(wait, lock);
  CUevent start = begin_command();
  if (bytes && !device_->upload_staging().write(stream_, ptr_of(dst) + offset, src, bytes)) {
    check(driver().cuMemcpyHtoDAsync(ptr_of(dst) + offset, src, bytes, stream_), "cuMemcpyHtoDAsync");
  }
  auto e = end_command(start, t, std::move(foreign));
  lock.unlock();
  if (blocking) e->wait();
  return e;
}

EventPtr CudaQueue::read(const BufferPtr& src, std::size_t offset, std::size_t bytes, void* dst, bool blocking,
                         std::span<const EventPtr> wait) {
  const std::uint64_t t = now_ns();
  device_->make_current();
  std::unique_lock<std::mutex> lock;
  auto foreign = wait_for(wait, lock);
  CUevent start = begin_command();
  if (bytes && !device_->download_staging().read(stream_, dst, ptr_of(src) + offset, bytes)) {
    check(driver().cuMemcpyDtoHAsync(dst, ptr_of(src) + offset, bytes, stream_), "cuMemcpyDtoHAsync");
  }
  auto e = end_command(start, t, std::move(foreign));
  lock.unlock();
  if (blocking) e->wait();
  return e;
}

EventPtr CudaQueue::copy(const BufferPtr& src, const BufferPtr& dst, std::size_t src_offset, std::size_t dst_offset,
                         std::size_t bytes, std::span<const EventPtr> wait) {
  const std::uint64_t t = now_ns();
  device_->make_current();
  std::unique_lock<std::mutex> lock;
  auto foreign = wait_for(wait, lock);
  CUevent start = begin_command();
  if (bytes) {
    check(driver().cuMemcpyDtoDAsync(ptr_of(dst) + dst_offset, ptr_of(src) + src_offset, bytes, stream_),
          "cuMemcpyDtoDAsync");
  }
  return end_command(start, t, std::move(foreign));
}

EventPtr CudaQueue::enqueue_library(const std::function<void(CUstream)>& call, std::span<const EventPtr> wait) {
  const std::uint64_t t = now_ns();
  device_->make_current();
  std::unique_lock<std::mutex> lock;
  auto foreign = wait_for(wait, lock);
  CUevent start = begin_command();
  call(stream_);
  return end_command(start, t, std::move(foreign));
}

EventPtr CudaQueue::fill(const BufferPtr& dst, const void* pattern, std::size_t pattern_size, std::size_t offset,
                         std::size_t bytes, std::span<const EventPtr> wait) {
  const std::uint64_t t = now_ns();
  device_->make_current();
  std::unique_lock<std::mutex> lock;
  auto foreign = wait_for(wait, lock);
  CUevent start = begin_command();
  const CUdeviceptr p = ptr_of(dst) + offset;
  if (bytes) {
    if (pattern_size == 1) {
      unsigned char v;
      std::memcpy(&v, pattern, 1);
      check(driver().cuMemsetD8Async(p, v, bytes, stream_), "cuMemsetD8Async");
    } else if (pattern_size == 2) {
      unsigned short v;
      std::memcpy(&v, pattern, 2);
      check(driver().cuMemsetD16Async(p, v, bytes / 2, stream_), "cuMemsetD16Async");
    } else if (pattern_size == 4) {
      unsigned v;
      std::memcpy(&v, pattern, 4);
      check(driver().cuMemsetD32Async(p, v, bytes / 4, stream_), "cuMemsetD32Async");
    } else {
      // Wider patterns: expanded on the host and copied (pageable copies are staged by the
      // driver before this call returns, so the temporary may go).
      std::vector<unsigned char> expanded(bytes);
      for (std::size_t i = 0; i < bytes; i += pattern_size) std::memcpy(expanded.data() + i, pattern, pattern_size);
      check(driver().cuMemcpyHtoDAsync(p, expanded.data(), bytes, stream_), "cuMemcpyHtoDAsync");
      check(driver().cuStreamSynchronize(stream_), "cuStreamSynchronize");
    }
  }
  return end_command(start, t, std::move(foreign));
}

namespace {

// One launch, checked and laid out for cuLaunchKernel or a graph's kernel node: the grid,
// the block, the shared memory, and the parameters (the hidden launch description first,
// then each argument: a buffer's device pointer, a value's bytes, or a __local argument's
// offset into shared memory). params points into the object, so it stays where it is made.
class PreparedLaunch {
 public:
  static constexpr std::size_t max_args = 64;

  PreparedLaunch(CudaKernel& k, const ArgList& args, const LaunchConfig& c, const DeviceInfo& info) {
    std::size_t local[3] = {1, 1, 1};
    if (c.local.empty()) {
      // At most 256 items in all where the grid allows (launch_geometry.hpp): a 2-d launch
      // made 256x4 blocks of 1024 items, and a kernel of over 32 registers then fits one
      // block per SM, half the warps it could keep busy.
      choose_cuda_block(c.global, k.max_threads(), local);
    } else {
      std::size_t group = 1;
      for (unsigned d = 0; d < c.global.dims(); ++d) group *= (local[d] = c.local[d]);
      if (group > k.max_threads()) {
        throw InvalidArgument("launch of kernel '" + k.name() + "': a work-group of " + std::to_string(group) +
                              " items exceeds this kernel's limit of " + std::to_string(k.max_threads()) + " on " +
                              info.selector + " (it depends on the kernel's registers)");
      }
    }
    for (unsigned d = 0; d < 3; ++d) {
      const std::size_t g = c.global[d] / local[d];
      const std::size_t limit = d == 0 ? 0x7fffffffu : 65535u;
      if (g > limit) {
        throw InvalidArgument("launch of kernel '" + k.name() + "': " + std::to_string(g) +
                              " work-groups in dimension " + std::to_string(d) + " exceed CUDA's limit of " +
                              std::to_string(limit) + "; use larger work-groups or another dimension");
      }
      grid[d] = static_cast<unsigned>(g);
      block[d] = static_cast<unsigned>(local[d]);
    }
    if (args.size() > max_args) throw InvalidArgument("kernel '" + k.name() + "' has more than 64 arguments");
    for (unsigned d = 0; d < 3; ++d) launch_.goff[d] = c.offset.empty() ? 0 : c.offset[d];
    launch_.work_dim = c.global.dims();
    // Dialect kernels take the launch description first; CUDA C as written does not.
    const std::size_t base = k.launch_description() ? 1 : 0;
    if (base) params[0] = &launch_;
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < args.size(); ++i) {
      switch (args[i].kind) {
        case ArgValue::Kind::buffer:
          pointers_[i] = ptr_of(args[i].buffer);
          params[i + base] = &pointers_[i];
          break;
        case ArgValue::Kind::value: params[i + base] = const_cast<std::byte*>(args[i].bytes.data()); break;
        case ArgValue::Kind::local:
          bytes = (bytes + 15) / 16 * 16;
          offsets_[i] = static_cast<unsigned>(bytes);
          bytes += args[i].size;
          params[i + base] = &offsets_[i];
          break;
        case ArgValue::Kind::unset: break;
      }
    }
    if (bytes > info.local_mem_bytes) {
      throw InvalidArgument("launch of kernel '" + k.name() + "': " + std::to_string(bytes) +
                            " bytes of __local memory exceed the " + std::to_string(info.local_mem_bytes) +
                            " bytes a work-group may use on " + info.selector);
    }
    shared = static_cast<unsigned>(bytes);
    if (bytes > 48 * 1024) k.allow_shared(bytes);  // the caller made the context current
  }
  PreparedLaunch(const PreparedLaunch&) = delete;
  PreparedLaunch& operator=(const PreparedLaunch&) = delete;

  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned shared = 0;
  std::array<void*, max_args + 1> params{};

 private:
  struct alignas(8) {
    unsigned long long goff[3];
    unsigned work_dim;
    unsigned reserved;
  } launch_{};
  std::array<CUdeviceptr, max_args> pointers_{};
  std::array<unsigned, max_args> offsets_{};
};

// An instantiated CUDA graph: the launches chained one after the other.
class CudaGraphExec final : public GraphExec {
 public:
  CudaGraphExec(std::shared_ptr<CudaDevice> device, const std::vector<RecordedLaunch>& launches)
      : device_(std::move(device)) {
    const Driver& d = driver();
    check(d.cuGraphCreate(&graph_, 0), "cuGraphCreate");
    try {
      build(launches);
    } catch (...) {
      if (exec_) d.cuGraphExecDestroy(exec_);
      d.cuGraphDestroy(graph_);
      throw;
    }
  }
  CudaGraphExec(const CudaGraphExec&) = delete;
  CudaGraphExec& operator=(const CudaGraphExec&) = delete;
  ~CudaGraphExec() override {
    device_->make_current();
    // A graph still running is freed by the driver when it completes.
    if (exec_) driver().cuGraphExecDestroy(exec_);
    if (graph_) driver().cuGraphDestroy(graph_);
  }
  CUgraphExec exec() const { return exec_; }

 private:
  void build(const std::vector<RecordedLaunch>& launches) {
    const Driver& d = driver();
    CUgraphNode previous = nullptr;
    for (const auto& r : launches) {
      auto& k = static_cast<CudaKernel&>(*r.kernel);
      const PreparedLaunch p(k, r.args, r.config, device_->info());
      KernelNodeParams node{};
      node.func = k.function();
      node.gridDimX = p.grid[0], node.gridDimY = p.grid[1], node.gridDimZ = p.grid[2];
      node.blockDimX = p.block[0], node.blockDimY = p.block[1], node.blockDimZ = p.block[2];
      node.sharedMemBytes = p.shared;
      node.kernelParams = const_cast<void**>(p.params.data());  // the driver copies the values
      CUgraphNode added = nullptr;
      check(d.cuGraphAddKernelNode(&added, graph_, previous ? &previous : nullptr, previous ? 1 : 0, &node),
            "cuGraphAddKernelNode");
      previous = added;
    }
    check(d.cuGraphInstantiate(&exec_, graph_, 0), "cuGraphInstantiate");
  }

  std::shared_ptr<CudaDevice> device_;
  CUgraph graph_ = nullptr;
  CUgraphExec exec_ = nullptr;
};

}  // namespace

EventPtr CudaQueue::launch(const std::shared_ptr<KernelImpl>& kernel, const ArgList& args,
                           const LaunchConfig& c, std::span<const EventPtr> wait) {
  // Nothing to run: an event after what came before, as on the other backends (a grid of
  // zero blocks is an error to cuLaunchKernel).
  if (c.global.total() == 0) return marker(wait);
  const std::uint64_t t = now_ns();
  auto& k = static_cast<CudaKernel&>(*kernel);
  device_->make_current();
  const PreparedLaunch p(k, args, c, device_->info());
  std::unique_lock<std::mutex> lock;
  auto foreign = wait_for(wait, lock);
  CUevent start = begin_command();
  const CUresult r = driver().cuLaunchKernel(k.function(), p.grid[0], p.grid[1], p.grid[2], p.block[0], p.block[1],
                                             p.block[2], p.shared, stream_, const_cast<void**>(p.params.data()),
                                             nullptr);
  auto e = end_command(start, t, std::move(foreign));
  check(r, "cuLaunchKernel");
  return e;
}

EventPtr CudaQueue::launch_graph(GraphImpl& graph, std::span<const EventPtr> wait) {
  if (!driver().graphs || graph.launches.empty()) return QueueImpl::launch_graph(graph, wait);
  const std::uint64_t t = now_ns();
  device_->make_current();
  if (!graph.exec) graph.exec = std::make_unique<CudaGraphExec>(device_, graph.launches);
  const CUgraphExec exec = static_cast<CudaGraphExec&>(*graph.exec).exec();
  std::unique_lock<std::mutex> lock;
  auto foreign = wait_for(wait, lock);
  CUevent start = begin_command();
  const CUresult r = driver().cuGraphLaunch(exec, stream_);
  auto e = end_command(start, t, std::move(foreign));
  check(r, "cuGraphLaunch");
  return e;
}

EventPtr CudaQueue::marker(std::span<const EventPtr> wait) {
  const std::uint64_t t = now_ns();
  device_->make_current();
  std::unique_lock<std::mutex> lock;
  auto foreign = wait_for(wait, lock);
  // A marker's end event is a timing one on every queue: one event, and what weft.benchmark
  // times the device by.
  return end_command(begin_command(), t, std::move(foreign), true);
}

void CudaQueue::finish() {
  device_->make_current();
  check(driver().cuStreamSynchronize(stream_), "cuStreamSynchronize");
}

}  // namespace weft::detail
