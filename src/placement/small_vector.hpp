// A few elements without allocating (device auto's analysis of an operation:
// src/placement/auto_placement.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

namespace weft::detail {

// A few elements without allocating, and without initialising the room for them (a remembered
// decision, the usual call, should cost no allocation and no clearing: issue 27 asks for
// decisions under 2 us, and device auto's whole overhead on a small operation counts).
template <class T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  void push_back(const T& v) { emplace_back() = v; }
  /// A new element, value-initialised, to be filled in place.
  T& emplace_back() {
    if (size_ < N) {
      T* p = std::construct_at(reinterpret_cast<T*>(room_) + size_);
      ++size_;
      return *p;
    }
    if (more_.empty()) more_.assign(first(), first() + N);
    ++size_;
    return more_.emplace_back();
  }
  std::span<const T> view() const noexcept {
    return size_ <= N ? std::span<const T>(first(), size_) : std::span<const T>(more_);
  }
  bool contains(const T& v) const noexcept {
    const std::span<const T> s = view();
    return std::find(s.begin(), s.end(), v) != s.end();
  }

 private:
  T* first() noexcept { return std::launder(reinterpret_cast<T*>(room_)); }
  const T* first() const noexcept { return std::launder(reinterpret_cast<const T*>(room_)); }

  alignas(T) unsigned char room_[N * sizeof(T)];
  std::size_t size_ = 0;
  std::vector<T> more_;  // all of them, once there are more than N
};

}  // namespace weft::detail
