// This program's operator new, counting every allocation (a file of its own, so the compiler
// sees the replacement only as the library function it replaces).
#include <atomic>
#include <cstdlib>
#include <new>

#include "hot_path/count_allocations.hpp"

namespace {
std::atomic<long> count{0};
}  // namespace

long weft::test::allocations_so_far() { return count.load(std::memory_order_relaxed); }

void* operator new(std::size_t n) {
  count.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
// The nothrow forms too: the library's defaults would pair with a sanitizer's own delete.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  count.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
}
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
