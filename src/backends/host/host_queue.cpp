// Host queues: enqueue returns at once; a worker thread per queue runs the commands in
// order, so host code overlaps host kernels. A kernel launch splits its work-items over the
// device's thread pool, the worker taking a share.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>

#include "backends/host/host_device.hpp"
#include "backends/host/host_queue.hpp"
#include "runtime/spin_wait.hpp"
#include "weft/error.hpp"

namespace weft::detail {

namespace {
// A launch without a local size is cut into chunks of min_items_per_chunk work-items (fewer
// run on the queue's worker alone: waking the pool costs more), or, where its work-items were
// measured to take heavy_from_ns or more in all on one thread (HostRunRecord::item_ps: the last
// run's chunks' own times summed, over its work-items), into more: about chunk_ns each, up to a
// few per thread. H200 host, 16 threads, float32 resident
// there, medians of 150 (session 25, runs BF, BG and BH): sin/exp/cos of 4096 elements 142-157
// us on one thread, 22-31 in 64 chunks; of 16384 578 us on one thread, 186-212 in 4 chunks of
// 4096 and 59-79 in 64. a*b+c (light, about 0.5 ns an element) gains nothing from chunks below
// about 10 us of work, and where every launch of 10 us or more was cut finely (run BG) the
// bench's a*b+c of 10^4 elements on the host took 47 us (21 in run BD, another lease), so a
// light launch keeps its chunks of 4096.
constexpr std::size_t min_items_per_chunk = 4096;
constexpr std::uint64_t heavy_from_ns = host_heavy_from_ns;
constexpr std::uint64_t chunk_ns = 1'000;
// A run of fewer work-items is not measured (its time is mostly the call's).
constexpr std::size_t measured_from = 512;
// A launch that names its local size makes each work-group the unit of work, as OpenCL CPU
// runtimes do, so a kernel with few heavy work-items (a row of an image each) still spreads
// over the threads. A few chunks per thread let the caller's thread take on the work of
// workers that are slow to wake.
constexpr std::size_t chunks_per_thread = 4;
// Commands the caller's thread runs itself when the queue is idle: copies up to this size,
// and one-chunk kernels whose last run took at most this long.
constexpr std::size_t inline_copy_bytes = 64 * 1024;
constexpr std::uint64_t inline_kernel_ns = 20'000;
// How long the queue's worker polls for the next command before it sleeps.
constexpr std::chrono::microseconds worker_spin{50};
}  // namespace

std::size_t host_default_local_size(std::size_t global, unsigned dim) {
  if (dim != 0) return 1;
  for (std::size_t l = std::min<std::size_t>(global, 1024); l > 1; --l) {
    if (global % l == 0) return l;
  }
  return 1;
}

HostQueue::HostQueue(std::shared_ptr<HostDevice> device, bool profiling)
    : core_(std::make_shared<Core>(std::move(device), profiling)) {
  std::thread([core = core_] { core->worker_loop(); }).detach();
}

HostQueue::~HostQueue() {
  {
    std::lock_guard lock(core_->mutex);
    core_->stop = true;
  }
  // The worker runs what is queued (nothing enqueued is dropped), then ends; this does not wait.
  core_->cv.notify_all();
}

std::shared_ptr<DeviceImpl> HostQueue::device() const { return core_->device; }

void HostQueue::Core::worker_loop() {
  while (true) {
    Command cmd;
    // The next command of a sequence (an expression's kernels, a copy after them) usually
    // comes within microseconds: polled for, it needs no futex wake-up, which took tens of
    // microseconds per command on a VM.
    if (polling_pays()) spin_until([&] { return queued.load(std::memory_order_relaxed) != 0; }, worker_spin);
    {
      std::unique_lock lock(mutex);
      cv.wait(lock, [&] { return (stop && !running) || (count != 0 && !running); });
      if (count == 0) return;  // stop and drained
      cmd = std::move(ring[head]);
      head = (head + 1) % ring.size();
      queued.store(--count, std::memory_order_relaxed);
      running = true;
    }
    std::exception_ptr err = execute(cmd);
    {
      std::lock_guard lock(mutex);
      running = false;  // before the event completes: whoever waited on it finds the queue idle
    }
    settle(cmd, err);
  }
}

std::exception_ptr HostQueue::Core::execute(Command& cmd) {
  // The command's closure (and the buffers its kernel arguments hold) goes before its event
  // completes: a waiter then finds the memory released (back in the array pool).
  struct Drop {
    Command& c;
    ~Drop() {
      c.work = nullptr;
      c.run.kernel.reset();
      c.run.args.clear();
      c.wait.clear();
    }
  } drop{cmd};
  // Submitted and running are one moment (one clock read) for a command that waits for none.
  if (!cmd.wait.empty()) cmd.event->mark_submitted();
  try {
    for (const auto& w : cmd.wait) {
      try {
        w->wait();
      } catch (const std::exception& e) {
        throw Error(std::string("a command this one waited for failed: ") + e.what());
      }
    }
    cmd.event->mark_running();
    if (cmd.run.kernel) run_kernel(cmd.run);
    else if (cmd.work) cmd.work();
    return nullptr;
  } catch (...) {
    auto err = std::current_exception();
    {
      std::lock_guard lock(mutex);
      if (!first_error) first_error = err;
    }
    return err;
  }
}

void HostQueue::Core::settle(Command& cmd, const std::exception_ptr& err) {
  if (err) cmd.event->fail(err);
  else cmd.event->complete();
}

EventPtr HostQueue::Core::submit(std::function<void()> work, std::span<const EventPtr> wait, bool blocking, bool may_inline) {
  Command cmd;
  cmd.work = std::move(work);
  return submit(std::move(cmd), wait, blocking, may_inline);
}

EventPtr HostQueue::Core::submit(Command&& cmd, std::span<const EventPtr> wait, bool blocking, bool may_inline) {
  // A marker (no work, no kernel) reads the clock on every queue: two clock reads, and what
  // weft.benchmark times the device by.
  const bool marker = !cmd.work && !cmd.run.kernel;
  auto event = std::make_shared<CompletionEvent>(profiling || marker);
  cmd.event = event;
  if (!wait.empty()) cmd.wait.assign(wait.begin(), wait.end());
  if (may_inline && std::all_of(wait.begin(), wait.end(), [](const EventPtr& w) { return w->finished(); })) {
    std::unique_lock lock(mutex);
    if (count == 0 && !running && !stop) {
      running = true;
      lock.unlock();
      const std::exception_ptr err = execute(cmd);
      lock.lock();
      running = false;
      const bool more = count != 0;
      lock.unlock();
      settle(cmd, err);
      if (more) cv.notify_one();  // another thread queued work while this ran
      if (blocking) event->wait();  // raises what the command raised, as a queued one would
      return event;
    }
  }
  {
    std::lock_guard lock(mutex);
    if (count == ring.size()) {
      // Grow the ring, keeping the commands in order.
      std::vector<Command> bigger(std::max<std::size_t>(16, ring.size() * 2));
      for (std::size_t i = 0; i < count; ++i) bigger[i] = std::move(ring[(head + i) % ring.size()]);
      ring = std::move(bigger);
      head = 0;
    }
    ring[(head + count) % ring.size()] = std::move(cmd);
    queued.store(++count, std::memory_order_relaxed);
  }
  cv.notify_one();
  if (blocking) event->wait();
  return event;
}

EventPtr HostQueue::write(const BufferPtr& dst, std::size_t offset, std::size_t bytes, const void* src,
                          bool blocking, std::span<const EventPtr> wait) {
  return core_->submit([dst, offset, bytes, src] {
    if (bytes) std::memcpy(static_cast<char*>(dst->host_ptr()) + offset, src, bytes);
  }, wait, blocking, bytes <= inline_copy_bytes);
}

EventPtr HostQueue::read(const BufferPtr& src, std::size_t offset, std::size_t bytes, void* dst,
                         bool blocking, std::span<const EventPtr> wait) {
  return core_->submit([src, offset, bytes, dst] {
    if (bytes) std::memcpy(dst, static_cast<const char*>(src->host_ptr()) + offset, bytes);
  }, wait, blocking, bytes <= inline_copy_bytes);
}

EventPtr HostQueue::copy(const BufferPtr& src, const BufferPtr& dst, std::size_t src_offset,
                         std::size_t dst_offset, std::size_t bytes, std::span<const EventPtr> wait) {
  return core_->submit([src, dst, src_offset, dst_offset, bytes] {
    if (bytes) {
      std::memcpy(static_cast<char*>(dst->host_ptr()) + dst_offset,
                  static_cast<const char*>(src->host_ptr()) + src_offset, bytes);
    }
  }, wait, false);
}

EventPtr HostQueue::fill(const BufferPtr& dst, const void* pattern, std::size_t pattern_size,
                         std::size_t offset, std::size_t bytes, std::span<const EventPtr> wait) {
  std::array<std::byte, 128> pat{};
  std::memcpy(pat.data(), pattern, pattern_size);
  return core_->submit([dst, pat, pattern_size, offset, bytes] {
    auto* p = static_cast<std::byte*>(dst->host_ptr()) + offset;
    if (pattern_size == 1) {
      std::memset(p, static_cast<int>(pat[0]), bytes);
      return;
    }
    for (std::size_t i = 0; i < bytes; i += pattern_size) std::memcpy(p + i, pat.data(), pattern_size);
  }, wait, false);
}

EventPtr HostQueue::launch(const std::shared_ptr<KernelImpl>& kernel, const ArgList& args,
                           const LaunchConfig& config, std::span<const EventPtr> wait) {
  Command cmd;
  KernelRun& run = cmd.run;
  run.kernel = std::static_pointer_cast<HostKernel>(kernel);
  run.args = args;
  weft_host::Launch& launch = run.geometry;
  launch.work_dim = config.global.dims();
  std::size_t total = 1;
  for (unsigned d = 0; d < 3; ++d) {
    launch.gsize[d] = config.global[d];
    launch.goff[d] = config.offset.empty() ? 0 : config.offset[d];
    launch.lsize[d] = config.local.empty() ? host_default_local_size(config.global[d], d) : config.local[d];
    total *= launch.gsize[d];
  }
  run.total = total;
  run.explicit_local = !config.local.empty();
  run.group = launch.lsize[0] * launch.lsize[1] * launch.lsize[2];
  // A one-chunk launch of a kernel whose last run was short runs on the caller's thread
  // when the queue is idle (it would run on one thread anyway).
  const bool one_chunk = run.explicit_local
                             ? total <= run.group
                             : host_item_chunks(run.kernel->item_ps(), total, core_->device->pool().size()) == 1;
  const bool may_inline = one_chunk && run.kernel->last_run_ns() <= inline_kernel_ns;
  return core_->submit(std::move(cmd), wait, false, may_inline);
}

void HostQueue::Core::run_kernel(KernelRun& r) {
  if (r.total == 0) return;
  const auto t0 = std::chrono::steady_clock::now();
  // Each argument's address: a buffer's is that of a pointer to its memory. Kernels take at
  // most 64 parameters (launch_abi.hpp).
  const std::size_t n = r.args.size();
  if (n > 64) throw InvalidArgument("kernel '" + r.kernel->name() + "' has more than 64 parameters");
  std::array<void*, 64> pointers;
  std::array<void*, 64> argv;
  for (std::size_t i = 0; i < n; ++i) {
    ArgValue& a = r.args[i];
    if (a.kind == ArgValue::Kind::buffer) {
      pointers[i] = a.buffer->host_ptr();
      argv[i] = &pointers[i];
    } else {
      argv[i] = a.bytes.data();
    }
  }
  const weft_host::RunFn run = r.kernel->run();
  ThreadPool& pool = device->pool();
  const std::size_t threads = pool.size();
  const std::size_t total = r.total;
  if (r.kernel->groups()) {
    run_groups(r, argv, n);
    r.kernel->note_run_ns(static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count()));
    return;
  }
  // Without a local size, chunks by the work-items' measured time (host_item_chunks), a few chunks
  // per thread at most: on cores shared with other processes (or threads the OS runs late) one
  // even share per thread waits for the slowest, where chunks taken one at a time move to the
  // threads that run.
  const std::size_t chunks = r.explicit_local ? std::clamp<std::size_t>(total / r.group, 1, threads * chunks_per_thread)
                                              : host_item_chunks(r.kernel->item_ps(), total, threads);
  const weft_host::Launch* geometry = &r.geometry;
  const auto since = [](std::chrono::steady_clock::time_point from) {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - from).count());
  };
  // The work-items' time on the threads that ran them: each chunk's own time, summed (the pool's
  // wake-up and the wait for the last chunk left out), so a run in chunks measures them as well
  // as a run on one thread does.
  std::atomic<std::uint64_t> busy{0};
  if (chunks == 1) {
    run(argv.data(), geometry, 0, total);
  } else {
    auto body = [&](std::size_t c) {
      const auto c0 = std::chrono::steady_clock::now();
      run(argv.data(), geometry, total * c / chunks, total * (c + 1) / chunks);
      busy.fetch_add(since(c0), std::memory_order_relaxed);
    };
    pool.run(chunks, body);
  }
  const std::uint64_t ns = since(t0);  // (one clock read for both figures of a run on one thread)
  r.kernel->note_run_ns(ns);
  const std::uint64_t work_ns = chunks == 1 ? ns : busy.load(std::memory_order_relaxed);
  if (!r.explicit_local) r.kernel->note_item_ps(host_item_ps_after(r.kernel->item_ps(), total, work_ns));
}

std::size_t host_item_chunks(std::uint64_t item_ps, std::size_t total, std::size_t threads) {
  if (threads <= 1) return 1;
  const std::size_t most = threads * chunks_per_thread;
  const std::size_t by_count = std::clamp<std::size_t>(total / min_items_per_chunk, 1, most);
  if (item_ps == 0 || total < measured_from) return by_count;
  const double work_ns = static_cast<double>(item_ps) * 1e-3 * static_cast<double>(total);
  if (work_ns < static_cast<double>(heavy_from_ns)) return by_count;
  const auto by_time = static_cast<std::size_t>(work_ns / static_cast<double>(chunk_ns));
  return std::max(by_count, std::min({by_time, most, total}));
}

std::uint64_t host_item_ps_after(std::uint64_t known, std::size_t total, std::uint64_t work_ns) {
  // (The call's own time is in a run's: measured_from keeps it small against the work-items'.)
  if (total < measured_from) return known;
  const double per_item = static_cast<double>(work_ns) * 1e3 / static_cast<double>(total);
  return static_cast<std::uint64_t>(std::max(1.0, per_item));
}

namespace {
struct FreeBytes {
  void operator()(std::byte* p) const noexcept { std::free(p); }
};
}  // namespace

void HostQueue::Core::run_groups(KernelRun& r, std::array<void*, 64>& argv, std::size_t n) {
  // Each chunk of groups runs on one thread, one group after another, so it needs one copy of
  // the __local memory the launch asked for (LocalMemory arguments).
  std::size_t local_bytes = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (r.args[i].kind == ArgValue::Kind::local) local_bytes += (r.args[i].size + 63) / 64 * 64;
  }
  const std::size_t groups = r.total / r.group;
  const std::size_t threads = device->pool().size();
  const std::size_t chunks = std::clamp<std::size_t>(groups, 1, threads * chunks_per_thread);
  const weft_host::RunFn run = r.kernel->run();
  // One block for every chunk, allocated before any runs (a chunk's function must not throw).
  std::unique_ptr<std::byte, FreeBytes> local;
  if (local_bytes) {
    local.reset(static_cast<std::byte*>(std::aligned_alloc(64, local_bytes * chunks)));
    if (!local) {
      throw OutOfMemory("host: no memory for the launch's __local memory (" + std::to_string(local_bytes) +
                            " bytes for each of " + std::to_string(chunks) + " threads' chunks)",
                        local_bytes * chunks);
    }
  }
  auto body = [&](std::size_t c) {
    std::array<void*, 64> args = argv;
    std::array<void*, 64> pointers;
    if (local_bytes) {
      std::byte* at = local.get() + c * local_bytes;
      for (std::size_t i = 0; i < n; ++i) {
        if (r.args[i].kind != ArgValue::Kind::local) continue;
        pointers[i] = at;
        args[i] = &pointers[i];
        at += (r.args[i].size + 63) / 64 * 64;
      }
    }
    run(args.data(), &r.geometry, groups * c / chunks, groups * (c + 1) / chunks);
  };
  if (chunks == 1) body(0);
  else device->pool().run(chunks, body);
}

EventPtr HostQueue::enqueue_work(std::function<void()> work, std::span<const EventPtr> wait, bool may_inline) {
  return core_->submit(std::move(work), wait, false, may_inline);
}

EventPtr HostQueue::marker(std::span<const EventPtr> wait) { return core_->submit(Command{}, wait, false, true); }

void HostQueue::finish() {
  core_->submit(Command{}, {}, true, true);
  std::exception_ptr err;
  {
    std::lock_guard lock(core_->mutex);
    err = std::exchange(core_->first_error, nullptr);
  }
  if (err) std::rethrow_exception(err);
}

}  // namespace weft::detail
