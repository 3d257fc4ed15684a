// What followed each automatic operation (chain_trace.hpp).
#include "placement/chain_trace.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <mutex>
#include <unordered_map>

#include "array/memory_pool.hpp"
#include "core/lifetime.hpp"
#include "placement/learnt.hpp"

namespace weft::detail {

namespace {

// Steps remembered after a chain's first operation (more are not recorded: the chain goes on,
// and its results are not tagged beyond them).
constexpr std::size_t max_steps = 8;
// Chains remembered in all (a program's distinct first operations and sizes); beyond, the
// table starts again.
constexpr std::size_t max_chains = 4096;

std::uint64_t chain_key(std::uint64_t signature, std::int64_t elements) {
  return (signature ^ (size_class(elements) * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;
}

// The tag of the operation that made an allocation (Residence::made_by); 0: none.
std::uint64_t made_by(const void* allocation) {
  return allocation ? static_cast<const Residence*>(allocation)->made_by.load(std::memory_order_relaxed) : 0;
}
// Whether a tag names a result of chain id (0: no chain).
bool of_chain(std::uint64_t tag, std::uint64_t id) { return id != 0 && tag != 0 && tag >> 8 == id; }

struct Store {
  std::mutex mutex;
  std::unordered_map<std::uint64_t, std::shared_ptr<const ChainSteps>> chains;
  // Counts the changes to chains: a thread's last lookup is good while it has not moved.
  std::atomic<std::uint64_t> version{1};
};
Store& store() {
  static Immortal<Store> s;
  return *s;
}

// Chains are numbered process-wide: a result's tag names its chain and its step, and a
// result tagged by another thread's chain is no step of this one.
std::atomic<std::uint64_t> next_chain{1};

// The current chain of this thread.
struct Current {
  std::uint64_t id = 0;  // 0: none
  std::uint64_t key = 0;  // its first operation's chain_key
  std::array<const void*, ChainStep::max_inputs> first_inputs{};
  std::size_t first_count = 0;
  ChainSteps steps;  // after the first operation, when they are not found's (matching false)
  // While the steps so far are those of the chain remembered for the first operation (found),
  // they are counted, not copied (a loop repeating one chain records nothing).
  bool matching = false;
  std::size_t matched = 0;
  // The last lookup of a first operation (a loop begins the same chain each time: no lock then).
  std::uint64_t looked_up = 0, looked_up_version = 0;
  std::uint64_t next_id = 0, last_id = 0;  // this thread's block of chain numbers
  std::shared_ptr<const ChainSteps> found;
};
// The current chain of this thread, reached through current(): a reference the compiler does
// not look up again (a thread_local used by name in a shared library is a call each time it is
// reached, and GCC recomputed it at each use here: ten calls per automatic operation).
thread_local Current this_thread;
[[gnu::noinline]] Current& current() noexcept { return this_thread; }

// Whether a remembered input came from the same place (another array: seen where it was).
bool same(const ChainInput& a, ChainInput::From from, std::uint8_t index, const InputResidence& seen) {
  return a.from == from && a.index == index &&
         (from != ChainInput::From::elsewhere || (a.seen.valid_on == seen.valid_on && a.seen.on_host == seen.on_host));
}
bool same(const ChainInput& a, const ChainInput& b) { return same(a, b.from, b.index, b.seen); }
bool same(const ChainStep& a, const ChainStep& b) {
  if (a.signature != b.signature || a.value != b.value || a.input_count != b.input_count ||
      size_class(a.work.elements) != size_class(b.work.elements)) {
    return false;
  }
  for (std::size_t i = 0; i < a.input_count; ++i) {
    if (!same(a.inputs[i], b.inputs[i])) return false;
  }
  return true;
}

// Remembers the current chain under its first operation, unless the same steps are there.
void commit(Current& c) {
  if (c.id == 0) return;
  if (c.matching) {
    // The remembered chain again; or its beginning only, copied to be compared below.
    if (!c.found || c.matched == c.found->size()) return;
    c.steps.assign(c.found->begin(), c.found->begin() + static_cast<std::ptrdiff_t>(c.matched));
    c.matching = false;
  }
  if (c.steps.empty()) return;
  Store& s = store();
  std::lock_guard lock(s.mutex);
  auto it = s.chains.find(c.key);
  if (it != s.chains.end() && it->second->size() == c.steps.size() &&
      std::equal(c.steps.begin(), c.steps.end(), it->second->begin(), [](const ChainStep& a, const ChainStep& b) {
        return same(a, b);
      })) {
    return;
  }
  if (it == s.chains.end() && s.chains.size() >= max_chains) s.chains.clear();
  s.chains[c.key] = std::make_shared<const ChainSteps>(c.steps);
  s.version.fetch_add(1, std::memory_order_release);
}

}  // namespace

NotedOperation note_operation(std::span<const void* const> allocations, std::span<const InputResidence> inputs,
                              std::uint64_t signature, const WorkEstimate& work, bool value) {
  Current& c = current();
  if (allocations.size() != inputs.size() || allocations.size() > ChainStep::max_inputs) {
    commit(c);
    c.id = 0;
    return {};
  }
  // A step of the current chain when it reads one of its results.
  const bool member = std::any_of(allocations.begin(), allocations.end(),
                                  [&](const void* a) { return of_chain(made_by(a), c.id); });
  if (member) {
    const std::size_t k = c.matching ? c.matched : c.steps.size();  // its place among the steps
    if (k >= max_steps) return {};
    const auto firsts = std::span<const void* const>(c.first_inputs.data(), c.first_count);
    // Where each input came from: a result of the chain, an input of its first operation, or
    // elsewhere.
    std::array<std::pair<ChainInput::From, std::uint8_t>, ChainStep::max_inputs> from{};
    for (std::size_t i = 0; i < allocations.size(); ++i) {
      const std::uint64_t tag = made_by(allocations[i]);
      if (of_chain(tag, c.id)) {
        from[i] = {ChainInput::From::result, static_cast<std::uint8_t>(tag & 0xff)};
      } else if (const auto f = std::find(firsts.begin(), firsts.end(), allocations[i]); f != firsts.end()) {
        from[i] = {ChainInput::From::first_input, static_cast<std::uint8_t>(f - firsts.begin())};
      } else {
        from[i] = {ChainInput::From::elsewhere, 0};
      }
    }
    if (c.matching) {
      const ChainStep* f = k < c.found->size() ? &(*c.found)[k] : nullptr;
      bool same_step = f && f->signature == signature && f->value == value && f->input_count == allocations.size() &&
                       size_class(f->work.elements) == size_class(work.elements);
      for (std::size_t i = 0; same_step && i < allocations.size(); ++i) {
        same_step = same(f->inputs[i], from[i].first, from[i].second, inputs[i]);
      }
      if (same_step) {
        ++c.matched;
        return {nullptr, value ? 0 : c.id << 8 | c.matched};
      }
      // Another chain this time: the steps that matched, then this one, recorded.
      c.steps.assign(c.found->begin(), c.found->begin() + static_cast<std::ptrdiff_t>(k));
      c.matching = false;
    }
    ChainStep& step = c.steps.emplace_back();
    step.signature = signature;
    step.work = work;
    step.value = value;
    step.input_count = static_cast<std::uint8_t>(allocations.size());
    for (std::size_t i = 0; i < allocations.size(); ++i) {
      ChainInput& in = step.inputs[i];
      in.seen = inputs[i];
      in.from = from[i].first;
      in.index = from[i].second;
    }
    return {nullptr, value ? 0 : c.id << 8 | c.steps.size()};
  }
  // The first operation of a new chain: the one before is complete.
  commit(c);
  if (c.next_id == c.last_id) {
    // Numbers taken in blocks: one atomic operation per 1024 chains of the thread.
    c.next_id = next_chain.fetch_add(1024, std::memory_order_relaxed);
    c.last_id = c.next_id + 1024;
  }
  c.id = c.next_id++;
  c.key = chain_key(signature, work.elements);
  std::copy(allocations.begin(), allocations.end(), c.first_inputs.begin());
  c.first_count = allocations.size();
  c.steps.clear();
  Store& s = store();
  const std::uint64_t version = s.version.load(std::memory_order_acquire);
  if (c.looked_up != c.key || c.looked_up_version != version) {
    std::lock_guard lock(s.mutex);
    const auto it = s.chains.find(c.key);
    c.found = it == s.chains.end() ? nullptr : it->second;
    c.looked_up = c.key;
    c.looked_up_version = s.version.load(std::memory_order_relaxed);
  }
  c.matching = c.found != nullptr;
  c.matched = 0;
  return {c.found.get(), value ? 0 : c.id << 8};
}

std::shared_ptr<const ChainSteps> chain_for(std::span<const void* const> allocations, std::uint64_t signature,
                                            std::int64_t elements) {
  const Current& c = current();
  if (allocations.size() > ChainStep::max_inputs) return nullptr;
  for (const void* a : allocations) {
    if (of_chain(made_by(a), c.id)) return nullptr;
  }
  return remembered_chain(signature, elements);
}

void tag_result(Residence& result, std::uint64_t tag) noexcept {
  if (tag != 0) result.made_by.store(tag, std::memory_order_relaxed);
}

std::shared_ptr<const ChainSteps> remembered_chain(std::uint64_t signature, std::int64_t elements) {
  Store& s = store();
  std::lock_guard lock(s.mutex);
  const auto it = s.chains.find(chain_key(signature, elements));
  return it == s.chains.end() ? nullptr : it->second;
}

void forget_chains() {
  {
    Store& s = store();
    std::lock_guard lock(s.mutex);
    s.chains.clear();
    s.version.fetch_add(1, std::memory_order_release);
  }
  current() = Current{};
}

}  // namespace weft::detail
