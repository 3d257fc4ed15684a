// Objects that live until the process ends and are never destroyed.
//
// What holds devices, queues, programs and pooled memory (the backend registry, the array
// layer's per-device state, the kernel tables) is built on first use and never torn down:
// at exit, work may still be in flight on a device (a kernel that never ends, queued copies a
// script did not wait for), and destroying a context, unloading a module or joining a thread
// under it crashes or hangs the exit. The operating system reclaims it all when the process
// ends, as CUDA's and OpenCL's own runtimes expect. Only process-wide tables use this.
//
//   static detail::Immortal<KernelTable<ElementwiseKernel>> table;
//   table->find(key);
#pragma once

#include <cstddef>
#include <new>
#include <utility>

namespace weft::detail {

template <class T>
class Immortal {
 public:
  template <class... A>
  explicit Immortal(A&&... args) {
    ::new (static_cast<void*>(storage_)) T(std::forward<A>(args)...);
  }
  Immortal(const Immortal&) = delete;
  Immortal& operator=(const Immortal&) = delete;
  ~Immortal() = default;  // deliberately does not destroy the T

  T& get() noexcept { return *std::launder(reinterpret_cast<T*>(storage_)); }
  T* operator->() noexcept { return &get(); }
  T& operator*() noexcept { return get(); }

 private:
  alignas(T) std::byte storage_[sizeof(T)];
};

}  // namespace weft::detail
