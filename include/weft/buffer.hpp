// A block of device memory. RAII: the memory is released when the last handle goes.
//
//   weft::Buffer a(dev, n * sizeof(float));
//   queue.write(a, host.data(), a.size());
//
// On the host backend, host_ptr() gives the memory directly; elsewhere it is null.
#pragma once

#include "weft/export.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "weft/device.hpp"
#include "weft/dtype.hpp"

namespace weft {

namespace detail {
class BufferImpl;
}

class WEFT_API Buffer {
 public:
  Buffer() = default;
  /// Allocates bytes on device; throws OutOfMemory naming the request when it cannot.
  Buffer(const Device& device, std::size_t bytes);
  /// Allocates count elements of dtype; the buffer remembers its element type, which the
  /// kernel generators check against their argument specs.
  Buffer(const Device& device, std::size_t count, DType dtype);
  /// Buffer::of<float>(dev, n): count elements of T.
  template <class T>
  static Buffer of(const Device& device, std::size_t count) {
    return Buffer(device, count, dtype_of<T>);
  }
  explicit Buffer(std::shared_ptr<detail::BufferImpl> impl) : impl_(std::move(impl)) {}

  std::size_t size() const;
  Device device() const;
  /// Host-addressable memory of the buffer, or nullptr where the device's memory is not.
  void* host_ptr() const;
  /// The address kernels see: a CUDA device pointer, the host backend's host pointer; 0 on
  /// OpenCL (a cl_mem has none). For zero-copy exchange (DLPack, __cuda_array_interface__).
  std::uint64_t address() const;
  /// A buffer over bytes at address that someone else allocated on device (a CUDA device
  /// pointer, or host memory for the host backend), without a copy: owner is kept alive as
  /// long as the buffer and nothing is freed. Unsupported on OpenCL devices.
  static Buffer wrap(const Device& device, std::uint64_t address, std::size_t bytes, std::shared_ptr<void> owner);
  /// The element type it was created with, if any.
  std::optional<DType> dtype() const;
  /// Elements of dtype() it holds (size() when it has none).
  std::size_t count() const;

  explicit operator bool() const noexcept { return impl_ != nullptr; }
  const std::shared_ptr<detail::BufferImpl>& impl() const noexcept { return impl_; }

 private:
  std::shared_ptr<detail::BufferImpl> impl_;
};

}  // namespace weft
