// The generated kernels of the array layer and the algorithms, by key. A template over the
// kernel type: each instantiation is one per-thread table and one lock for the whole
// library, shared by the tables of that kernel type.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace weft::detail {

// A generated kernel by its key: each thread keeps the kernels it has used in a table of its
// own, so that a repeat call takes no lock at all; a key new to the thread is looked up (or
// the kernel made) in the table all threads share, under its lock.
struct KeyHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
template <class K>
using KernelTable = std::unordered_map<std::string, std::shared_ptr<K>, KeyHash, std::equal_to<>>;

// Keys of every table of one kernel type start with a prefix of their own ("eval|", "sum|"
// ...): the thread's table serves them all.
template <class K, class Make>
std::shared_ptr<K> cached(KernelTable<K>& table, std::string_view key, const Make& make) {
  thread_local KernelTable<K> mine;
  if (auto it = mine.find(key); it != mine.end()) return it->second;
  static std::mutex mutex;
  std::shared_ptr<K> kernel;
  {
    std::lock_guard lock(mutex);
    auto it = table.find(key);
    if (it == table.end()) it = table.emplace(std::string(key), make()).first;
    kernel = it->second;
  }
  mine.emplace(std::string(key), kernel);
  return kernel;
}

}  // namespace weft::detail
