#include "array/memory_pool.hpp"
#include "array/host_regions.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <mutex>
#include <vector>

#include "array/array_queue.hpp"
#include "runtime/backend.hpp"
#include "runtime/device_local.hpp"
#include "runtime/program_waits.hpp"
#include "runtime/small_reads.hpp"
#include "weft/config.hpp"
#include "weft/error.hpp"
#include "core/lifetime.hpp"

namespace weft {

namespace detail {

namespace {
std::string bytes_text(std::uint64_t b) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  if (u == 0) return std::to_string(b) + " bytes";
  char text[64];
  std::snprintf(text, sizeof text, "%.1f %s", v, units[u]);
  return text;
}

struct Counters {
  std::atomic<std::uint64_t> to_device{0}, to_host{0}, between{0}, bytes{0};
};
Counters& counters() {
  static Counters c;
  return c;
}
}  // namespace

std::size_t MemoryPool::size_class(std::size_t bytes) {
  if (bytes <= 4096) return std::max<std::size_t>(512, (bytes + 511) / 512 * 512);
  const std::size_t step = std::bit_floor(bytes - 1) / 8;
  return (bytes + step - 1) / step * step;
}

std::vector<std::shared_ptr<BufferImpl>> MemoryPool::take_cached_locked(std::size_t at_least) {
  // Largest blocks first, until at_least bytes are freed (everything for SIZE_MAX).
  std::vector<std::shared_ptr<BufferImpl>> out;
  std::size_t freed = 0;
  while (freed < at_least && !cache_.empty()) {
    auto it = std::prev(cache_.end());
    while (!it->second.empty() && freed < at_least) {
      out.push_back(std::move(it->second.back()));
      it->second.pop_back();
      freed += it->first;
      stats_.cached -= it->first;
    }
    if (it->second.empty()) cache_.erase(it);
  }
  return out;
}

void MemoryPool::take_back(std::shared_ptr<BufferImpl> block) {
  std::lock_guard lock(mutex_);
  const std::size_t cls = block->size();
  stats_.in_use -= cls;
  stats_.cached += cls;
  cache_[cls].push_back(std::move(block));
}

Buffer MemoryPool::allocate(std::size_t bytes, DType dtype, const std::function<std::string()>& what) {
  const std::size_t cls = size_class(bytes);
  auto hand_out = [&](std::shared_ptr<BufferImpl> block) {
    block->dtype = dtype;
    BufferImpl* raw = block.get();
    // The handle arrays hold: when the last one goes, the block returns to the pool (or is
    // freed, when the pool is gone). Kernels still queued on it hold the handle too.
    return Buffer(std::shared_ptr<BufferImpl>(
        raw, [pool = weak_from_this(), owned = std::move(block)](BufferImpl*) mutable {
          if (auto p = pool.lock()) p->take_back(std::move(owned));
          else owned.reset();
        }));
  };
  std::vector<std::shared_ptr<BufferImpl>> to_free;
  {
    std::lock_guard lock(mutex_);
    if (auto it = cache_.find(cls); it != cache_.end() && !it->second.empty()) {
      auto block = std::move(it->second.back());
      it->second.pop_back();
      stats_.cached -= cls;
      stats_.in_use += cls;
      ++stats_.reuses;
      return hand_out(std::move(block));
    }
    if (limit_ && stats_.in_use + cls > limit_) {
      throw OutOfMemory(what() + " needs " + bytes_text(cls) + " on " + device_.selector() +
                            ", more than WEFT_MEMORY_LIMIT (" + bytes_text(limit_) + ") allows: arrays there hold " +
                            bytes_text(stats_.in_use) + " already",
                        bytes);
    }
    if (limit_ && stats_.in_use + stats_.cached + cls > limit_) {
      to_free = take_cached_locked(stats_.in_use + stats_.cached + cls - limit_);
    }
    stats_.in_use += cls;  // reserved now, so concurrent requests see it against the limit
  }
  to_free.clear();
  auto unreserve = [&] {
    std::lock_guard lock(mutex_);
    stats_.in_use -= cls;
  };
  std::shared_ptr<BufferImpl> block;
  try {
    block = Buffer(device_, cls).impl();
  } catch (const OutOfMemory&) {
    // The driver refused: give the cached blocks back and try once more.
    release_cached();
    try {
      block = Buffer(device_, cls).impl();
    } catch (const OutOfMemory& e) {
      unreserve();
      throw OutOfMemory(what() + ": " + bytes_text(cls) + " could not be allocated on " + device_.selector() +
                            " (arrays there hold " + bytes_text(stats().in_use) + "): " + e.what(),
                        bytes, e.name(), e.call());
    }
  } catch (...) {
    unreserve();
    throw;
  }
  {
    std::lock_guard lock(mutex_);
    ++stats_.allocations;
    stats_.peak = std::max(stats_.peak, stats_.in_use + stats_.cached);
  }
  return hand_out(std::move(block));
}

MemoryStats MemoryPool::stats() const {
  std::lock_guard lock(mutex_);
  MemoryStats s = stats_;
  s.limit = limit_;
  return s;
}

void MemoryPool::release_cached() {
  std::vector<std::shared_ptr<BufferImpl>> blocks;
  {
    std::lock_guard lock(mutex_);
    blocks = take_cached_locked(SIZE_MAX);
  }
  if (blocks.empty()) return;
  detail::array_queue(device_).finish();  // nothing queued may still use them
  blocks.clear();
}

MemoryPool& memory_pool(const Device& device) {
  // Never destroyed (core/lifetime.hpp): blocks may still be in use by queued work at exit.
  static Immortal<DeviceLocal<MemoryPool>> pools(
      [](const Device& d) { return std::make_shared<MemoryPool>(d, config().memory_limit); });
  return pools->get(device);
}

void count_transfer(Transfer kind, std::size_t bytes) {
  Counters& c = counters();
  (kind == Transfer::to_device ? c.to_device : kind == Transfer::to_host ? c.to_host : c.between)
      .fetch_add(1, std::memory_order_relaxed);
  c.bytes.fetch_add(bytes, std::memory_order_relaxed);
}

// ---- residence ----

namespace {
Residence::Copy* find(Residence& r, const Buffer& b) {
  for (auto& c : r.copies) {
    if (c.buffer.impl() == b.impl()) return &c;
  }
  return nullptr;
}

// A queue's work finished for weft's own sake (a transfer's order): not a wait of the
// program's (runtime/program_waits.hpp), so borrowed memory's copies made before it stay fresh.
void finish_within(Queue& q) { q.impl()->finish(); }

// Copies the whole allocation from src to dst (both on their array queues, in order after
// what is queued there), blocking; dst is fresh (Copy::fresh_at) from the program's wait count
// read before the copy began.
void transfer(const Residence::Copy& src, Residence::Copy& dst, std::size_t bytes) {
  const std::uint64_t waits = program_wait_count();
  Queue& sq = detail::array_queue(src.device);
  Queue& dq = detail::array_queue(dst.device);
  if (void* d = dst.buffer.host_ptr()) {
    finish_within(dq);  // kernels queued before the copy went stale may still read it
    // (A blocking read, the fastest on CUDA, counts as a wait of the program's: borrowed
    // memory's copies elsewhere are then copied again, which is only slower.)
    sq.read(src.buffer, d, bytes);
  } else if (void* s = src.buffer.host_ptr()) {
    finish_within(sq);  // the writes queued on the source
    dq.write(dst.buffer, s, bytes);
  } else {
    std::vector<std::byte> staging(bytes);
    sq.read(src.buffer, staging.data(), bytes);
    dq.write(dst.buffer, staging.data(), bytes);
  }
  count_transfer(Transfer::between_devices, bytes);
  dst.fresh_at = waits;
}

// The copy a stale one is made current from (r locked): a copy the host addresses first (one
// copy, no staging), else any valid one.
const Residence::Copy& source_of(const Residence& r) {
  const Residence::Copy* src = nullptr;
  for (const auto& c : r.copies) {
    if (c.valid && (!src || (c.buffer.host_ptr() && !src->buffer.host_ptr()))) src = &c;
  }
  if (!src) throw Error("internal: an allocation with no valid copy");
  return *src;
}
}  // namespace

void make_current(Residence& r, const Buffer& buffer) {
  std::lock_guard lock(r.mutex);
  Residence::Copy* mine = find(r, buffer);
  if (!mine || mine->valid) return;
  transfer(source_of(r), *mine, r.bytes);
  mine->valid = true;
}

namespace {
// The device blocks an operation's small reads go through (runtime/small_reads.hpp): one
// lease per source device, the reads packed one after another.
struct ReadBlock {
  const detail::DeviceImpl* device;
  SmallReadLease lease;
  std::size_t used = 0;
};

// Where a read of bytes from device goes in its block, or nullptr (not a small read through
// pinned memory, the block held elsewhere, or full: the read is made as make_current's).
std::byte* block_slot(std::vector<ReadBlock>& blocks, const Device& device, std::size_t bytes) {
  if (bytes > kSmallReadBytes || !small_reads_through_pinned(*device.impl())) return nullptr;
  auto b = std::find_if(blocks.begin(), blocks.end(), [&](const ReadBlock& x) { return x.device == device.impl().get(); });
  if (b == blocks.end()) {
    blocks.push_back({device.impl().get(), take_small_read_block(device)});
    b = std::prev(blocks.end());
  }
  const std::size_t size = (bytes + kSmallReadAlign - 1) / kSmallReadAlign * kSmallReadAlign;
  if (!b->lease || size > kSmallReadBlock - b->used) return nullptr;
  std::byte* slot = b->lease.data() + b->used;
  b->used += size;
  return slot;
}
}  // namespace

void make_current_all(std::span<const WantedCopy> wanted) {
  // Each allocation once, in address order (the order every holder of two residences' locks
  // takes them in).
  std::vector<WantedCopy> todo(wanted.begin(), wanted.end());
  std::sort(todo.begin(), todo.end(), [](const WantedCopy& a, const WantedCopy& b) {
    return std::less<>()(a.residence, b.residence);
  });
  todo.erase(std::unique(todo.begin(), todo.end(),
                         [](const WantedCopy& a, const WantedCopy& b) { return a.residence == b.residence; }),
             todo.end());
  std::vector<std::unique_lock<std::mutex>> locks;
  locks.reserve(todo.size());
  for (const WantedCopy& w : todo) locks.emplace_back(w.residence->mutex);
  std::vector<Event> reads;
  std::vector<Residence::Copy*> read_into;
  struct Staged {
    const std::byte* from;
    void* into;
    std::size_t bytes;
  };
  std::vector<ReadBlock> blocks;  // (given back when this returns, after the copies out)
  std::vector<Staged> staged;
  std::vector<const void*> finished;  // the host queues waited for (each once)
  try {
    for (const WantedCopy& w : todo) {
      Residence& r = *w.residence;
      Residence::Copy* mine = find(r, *w.buffer);
      if (!mine || mine->valid) continue;
      const Residence::Copy* src = &source_of(r);
      void* into = mine->buffer.host_ptr();
      const bool read = into && !src->buffer.host_ptr();
      std::byte* slot = read ? block_slot(blocks, src->device, r.bytes) : nullptr;
      if (!slot && (!read || !src->device.info().capabilities.reads_queue_together)) {
        // Not a read into host memory, or from a device whose reads are no cheaper queued
        // together (DeviceCapabilities::reads_queue_together) nor go through its pinned block:
        // as make_current.
        transfer(*src, *mine, r.bytes);
        mine->valid = true;
        continue;
      }
      // A read into host memory: kernels queued there before the copy went stale may still
      // read it (their queue finished once), then the read queued after the source's work.
      Queue& dq = detail::array_queue(mine->device);
      if (std::find(finished.begin(), finished.end(), &dq) == finished.end()) {
        finish_within(dq);
        finished.push_back(&dq);
      }
      mine->fresh_at = program_wait_count();
      reads.push_back(detail::array_queue(src->device).read(src->buffer, slot ? slot : into, r.bytes, 0, Blocking::no));
      if (slot) staged.push_back({slot, into, r.bytes});
      read_into.push_back(mine);
      count_transfer(Transfer::between_devices, r.bytes);
    }
    wait_within(reads);
  } catch (...) {
    // Nothing read is marked valid; the reads queued still write their buffers: waited for.
    for (const Event& e : reads) {
      try {
        wait_within(std::span<const Event>(&e, 1));
      } catch (const Error&) {
        // (the first error is the one reported)
      }
    }
    throw;
  }
  for (const Staged& s : staged) std::memcpy(s.into, s.from, s.bytes);
  for (Residence::Copy* c : read_into) c->valid = true;
}

void note_written(Residence& r, const Buffer& buffer) {
  {
    std::lock_guard lock(r.mutex);
    for (auto& c : r.copies) c.valid = c.buffer.impl() == buffer.impl();
    if (!r.overlapped.load(std::memory_order_acquire)) return;
    if (!r.copies.front().valid) {
      // Written on another device: the host memory that overlapping allocations read in place
      // gets the data now (ordered after the write on that device's queue).
      Residence::Copy* written = find(r, buffer);
      if (!written) return;
      transfer(*written, r.copies.front(), r.bytes);
      r.copies.front().valid = true;
    }
  }
  // The host memory changed: what overlapping allocations copied from it is stale (each one
  // locked on its own: no two residences' locks are held at once).
  for (const std::shared_ptr<Residence>& o : overlapping_regions(r)) {
    std::lock_guard lock(o->mutex);
    if (o->copies.front().valid) {
      for (std::size_t i = 1; i < o->copies.size(); ++i) o->copies[i].valid = false;
    }
  }
}

Buffer copy_on(Residence& r, const Device& device, DType dtype) {
  std::lock_guard lock(r.mutex);
  for (const auto& c : r.copies) {
    if (c.device == device) return c.buffer;
  }
  Buffer b = memory_pool(device).allocate(r.bytes, dtype, [&] {
    return "a copy of " + std::to_string(r.bytes) + " bytes of array memory on " + device.selector();
  });
  r.copies.push_back({device, b, false});
  r.spread.store(true, std::memory_order_release);
  return b;
}

bool fresh_since_last_wait(const Residence::Copy& c) noexcept { return c.fresh_at == program_wait_count(); }

void refresh_from_borrowed(Residence& r) {
  std::lock_guard lock(r.mutex);
  if (r.copies.empty() || !r.copies.front().valid) return;  // weft wrote another copy since: that one holds the data
  // A copy made since the program's last wait holds the owner's data: the owner writes the
  // memory only after a wait (Array::borrow_host's contract). The rest are copied again.
  for (std::size_t i = 1; i < r.copies.size(); ++i) {
    if (!fresh_since_last_wait(r.copies[i])) r.copies[i].valid = false;
  }
}

Buffer host_copy(Residence& r) {
  std::lock_guard lock(r.mutex);
  for (const auto& c : r.copies) {
    if (c.valid && c.buffer.host_ptr()) return c.buffer;
  }
  return Buffer();
}

}  // namespace detail

MemoryStats memory_stats(const Device& device) { return detail::memory_pool(device).stats(); }
void free_cached_memory(const Device& device) { detail::memory_pool(device).release_cached(); }

TransferStats transfer_stats() {
  const auto& c = detail::counters();
  return {c.to_device.load(), c.to_host.load(), c.between.load(), c.bytes.load()};
}

}  // namespace weft
