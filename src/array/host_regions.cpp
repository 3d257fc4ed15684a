// The registry of borrowed host ranges (src/array/host_regions.hpp): a short list under one
// mutex, pruned of dead allocations as it is walked (a program that borrows an array per
// operation leaves a dead entry per borrow: pruned at once, the list stays as short as the
// live borrowed allocations).
#include "array/host_regions.hpp"

#include <algorithm>
#include <mutex>

#include "array/memory_pool.hpp"
#include "core/lifetime.hpp"

namespace weft::detail {

namespace {

struct Entry {
  std::uintptr_t begin, end;
  DType dtype;
  const Residence* key;
  std::weak_ptr<Residence> residence;
};

struct Registry {
  std::mutex mutex;
  std::vector<Entry> entries;
  void prune() {
    std::erase_if(entries, [](const Entry& e) { return e.residence.expired(); });
  }
};
Registry& registry() {
  static Immortal<Registry> r;  // never destroyed (core/lifetime.hpp): arrays may outlive statics
  return *r;
}

}  // namespace

Region borrow_region(std::uintptr_t begin, std::size_t bytes, DType dtype,
                     std::shared_ptr<Residence> (*make)(void* context), void* context) {
  Registry& reg = registry();
  std::lock_guard lock(reg.mutex);
  reg.prune();
  Region best;
  std::size_t best_size = 0;
  for (const Entry& e : reg.entries) {
    if (e.dtype != dtype || begin < e.begin || begin + bytes > e.end) continue;
    if ((begin - e.begin) % size_of(dtype) != 0 || e.end - e.begin <= best_size) continue;
    if (auto r = e.residence.lock()) {
      best = Region{std::move(r), begin - e.begin};
      best_size = e.end - e.begin;
    }
  }
  if (best.residence) return best;
  std::shared_ptr<Residence> residence = make(context);
  const std::uintptr_t end = begin + bytes;
  for (const Entry& e : reg.entries) {
    if (e.begin < end && begin < e.end) {
      if (auto o = e.residence.lock()) {
        o->overlapped.store(true, std::memory_order_release);
        residence->overlapped.store(true, std::memory_order_release);
      }
    }
  }
  reg.entries.push_back({begin, end, dtype, residence.get(), residence});
  return Region{std::move(residence), 0};
}

std::vector<std::shared_ptr<Residence>> overlapping_regions(const Residence& r) {
  Registry& reg = registry();
  std::lock_guard lock(reg.mutex);
  reg.prune();  // (a dead allocation's address may be a new one's)
  const auto mine = std::find_if(reg.entries.begin(), reg.entries.end(), [&](const Entry& e) { return e.key == &r; });
  std::vector<std::shared_ptr<Residence>> out;
  if (mine == reg.entries.end()) return out;
  for (const Entry& e : reg.entries) {
    if (e.key == &r || !(e.begin < mine->end && mine->begin < e.end)) continue;
    if (auto o = e.residence.lock()) out.push_back(std::move(o));
  }
  return out;
}

}  // namespace weft::detail
