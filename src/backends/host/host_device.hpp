// The native CPU backend: aligned buffers in host memory (host_memory), queues that run
// commands in order on their own worker thread (host_queue), and kernels compiled by the
// system C++ compiler (host_compiler, host_api) and run on a thread pool, one contiguous
// chunk of work-items per thread. This file: the device, which owns the pool and the
// program builder.
#pragma once

#include <memory>

#include "backends/host/host_compiler.hpp"
#include "backends/host/thread_pool.hpp"
#include "runtime/backend.hpp"
#include "runtime/program_builder.hpp"

namespace weft::detail {

class HostDevice final : public DeviceImpl {
 public:
  explicit HostDevice(DeviceInfo info);
  std::shared_ptr<QueueImpl> create_queue(const QueueOptions& options) override;
  BufferPtr allocate(std::size_t bytes) override;
  BufferPtr wrap_memory(std::uint64_t address, std::size_t bytes, std::shared_ptr<void> owner) override;
  ProgramBuilder& program_builder() noexcept override { return builder_; }
  ThreadPool& pool() { return pool_; }

 private:
  ThreadPool pool_;
  HostCompiler compiler_{*this};
  ProgramBuilder builder_{compiler_};
};

}  // namespace weft::detail
