// The pool behind weft::result_memory (include/weft/result_memory.hpp): idle blocks in the order
// they were given back, keyed by who made them (a device whose copies want pinned memory, or
// nullptr for ordinary memory) and their size class.
#include "weft/result_memory.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <list>
#include <map>
#include <mutex>

#include "core/lifetime.hpp"
#include "runtime/backend.hpp"
#include "runtime/result_memory_pinned.hpp"
#include "weft/error.hpp"

namespace weft {
namespace detail {
namespace {

class OrdinaryMemory final : public PinnedImpl {
 public:
  using PinnedImpl::PinnedImpl;
  ~OrdinaryMemory() override { std::free(data()); }
};

// Sizes rounded up to eight classes per power of two (at most 1/8 wasted) and to whole pages,
// so that arrays of one shape, asked again, find the block the last one gave back.
std::size_t size_class(std::size_t bytes) {
  const std::size_t top = std::bit_floor(std::max<std::size_t>(bytes, 4096));
  const std::size_t step = std::max<std::size_t>(top / 8, 4096);
  return (bytes + step - 1) / step * step;
}

class ResultPool {
 public:
  std::shared_ptr<PinnedImpl> take(DeviceImpl* maker, std::size_t bytes) {
    {
      std::lock_guard lock(mutex_);
      for (auto it = idle_.begin(); it != idle_.end(); ++it) {
        if (it->maker == maker && it->block->size() == bytes) {
          std::shared_ptr<PinnedImpl> block = std::move(it->block);
          idle_bytes_ -= bytes;
          idle_.erase(it);
          return block;
        }
      }
    }
    std::shared_ptr<PinnedImpl> pinned;
    if (maker && pinned_bytes_.load() + bytes <= kResultMemoryPinnedBytes) {
      try {
        pinned = maker->allocate_pinned(bytes);
      } catch (const OutOfMemory&) {
        // the system locks no more: ordinary memory below still serves
      }
    }
    if (pinned) {
      pinned_bytes_ += bytes;
      PinnedImpl* raw = pinned.get();
      const char* start = static_cast<const char*>(raw->data());
      {
        std::lock_guard lock(ranges_mutex_);
        ranges_[start] = {bytes, maker};
      }
      // The same block, counted off when its last owner (user or pool) lets it go.
      return std::shared_ptr<PinnedImpl>(raw, [this, bytes, start, pinned = std::move(pinned)](PinnedImpl*) mutable {
        {
          std::lock_guard lock(ranges_mutex_);
          ranges_.erase(start);
        }
        pinned_bytes_ -= bytes;
        pinned.reset();
      });
    }
    void* p = std::aligned_alloc(4096, bytes);
    if (!p) throw OutOfMemory("result_memory: cannot allocate " + std::to_string(bytes) + " bytes of host memory", bytes);
    return std::make_shared<OrdinaryMemory>(p, bytes);
  }

  void give_back(DeviceImpl* maker, std::shared_ptr<PinnedImpl> block) {
    std::list<Idle> freed;  // freed outside the lock
    std::lock_guard lock(mutex_);
    const std::size_t bytes = block->size();
    if (bytes > kResultMemoryIdleBytes) return;  // (block freed here)
    idle_.push_back({maker, std::move(block)});
    idle_bytes_ += bytes;
    while (idle_bytes_ > kResultMemoryIdleBytes) {
      idle_bytes_ -= idle_.front().block->size();
      freed.splice(freed.end(), idle_, idle_.begin());
    }
  }

  void clear() {
    std::list<Idle> freed;
    std::lock_guard lock(mutex_);
    freed.swap(idle_);
    idle_bytes_ = 0;
  }

  bool pinned_for(const DeviceImpl* device, const void* p, std::size_t bytes) {
    const char* c = static_cast<const char*>(p);
    std::lock_guard lock(ranges_mutex_);
    auto it = ranges_.upper_bound(c);
    if (it == ranges_.begin()) return false;
    --it;
    return it->second.second == device && c + bytes <= it->first + it->second.first;
  }

  std::size_t idle_bytes() {
    std::lock_guard lock(mutex_);
    return idle_bytes_;
  }

 private:
  struct Idle {
    DeviceImpl* maker;
    std::shared_ptr<PinnedImpl> block;
  };
  std::mutex mutex_;
  std::atomic<std::size_t> pinned_bytes_{0};  // pinned blocks alive, held or idle
  std::list<Idle> idle_;  // oldest first
  std::size_t idle_bytes_ = 0;
  std::mutex ranges_mutex_;
  std::map<const char*, std::pair<std::size_t, const DeviceImpl*>> ranges_;  // pinned blocks: start -> (bytes, device)
};

// Never destroyed (core/lifetime.hpp): NumPy arrays over its blocks may outlive static
// destruction, and pinned blocks must not be freed after their driver has gone.
ResultPool& pool() {
  static Immortal<ResultPool> p;
  return *p;
}

}  // namespace

bool is_pinned_result_memory(const Device& device, const void* p, std::size_t bytes) {
  return pool().pinned_for(device.impl().get(), p, bytes);
}

}  // namespace detail

std::shared_ptr<void> result_memory(const Device& device, std::size_t bytes) {
  if (!device) throw InvalidArgument("result_memory: no device given");
  // Devices with memory of their own copy at full speed only from pinned memory; the others
  // (host, CPU OpenCL) read and write host memory directly.
  detail::DeviceImpl* maker = device.capabilities().memory_is_host ? nullptr : device.impl().get();
  std::shared_ptr<detail::PinnedImpl> block = detail::pool().take(maker, detail::size_class(bytes));
  void* data = block->data();
  // (the device outlives the block: devices are never destroyed, core/lifetime.hpp)
  return std::shared_ptr<void>(data, [maker, block = std::move(block)](void*) noexcept {
    try {
      detail::pool().give_back(maker, block);
    } catch (...) {
      // no room to keep it: the block is freed with the last copy of this deleter
    }
  });
}

void free_result_memory() { detail::pool().clear(); }

std::size_t idle_result_memory() { return detail::pool().idle_bytes(); }

}  // namespace weft
