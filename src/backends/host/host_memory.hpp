// Host memory: buffers are aligned host allocations (large ones on huge pages) or memory
// someone else allocated (wrap_memory). Pinned memory is the runtime's default, aligned host
// memory: nothing to pin on the host.
#pragma once

#include <memory>

#include "runtime/backend.hpp"

namespace weft::detail {

class HostBuffer final : public BufferImpl {
 public:
  HostBuffer(std::shared_ptr<DeviceImpl> device, std::size_t bytes);
  /// Over memory allocated by someone else, kept alive by owner and never freed.
  HostBuffer(std::shared_ptr<DeviceImpl> device, void* external, std::size_t bytes, std::shared_ptr<void> owner)
      : BufferImpl(std::move(device), bytes), external_(external), owner_(std::move(owner)) {}
  void* host_ptr() noexcept override { return external_ ? external_ : data_.get(); }

 private:
  void* external_ = nullptr;
  std::shared_ptr<void> owner_;
  struct Free {
    void operator()(void* p) const noexcept;
  };
  std::unique_ptr<void, Free> data_;
};

}  // namespace weft::detail
