// The CUDA backend: the driver API and NVRTC, both opened at run time (cuda_api). Each
// device uses its primary context; queues are non-blocking streams and events are CUevents
// from a per-device pool (cuda_queue); buffers are cuMemAlloc'd (cuda_memory); programs are
// dialect source translated (dialect/translate.hpp), compiled by NVRTC for the device's
// exact architecture and kept as CUBINs in the program cache (cuda_compiler). This file: the
// backend, its devices and their registration.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "backends/cuda/cuda_api.hpp"
#include "backends/cuda/cuda_compiler.hpp"
#include "backends/cuda/cuda_queue.hpp"
#include "backends/cuda/cuda_staging.hpp"
#include "runtime/backend.hpp"
#include "runtime/program_builder.hpp"

namespace weft::detail {

class CudaDevice final : public DeviceImpl {
 public:
  CudaDevice(DeviceInfo info, cu::CUdevice device, cu::CUcontext context, std::string arch);
  ~CudaDevice() override;

  std::shared_ptr<QueueImpl> create_queue(const QueueOptions& options) override;
  BufferPtr allocate(std::size_t bytes) override;
  BufferPtr wrap_memory(std::uint64_t address, std::size_t bytes, std::shared_ptr<void> owner) override;
  ProgramBuilder& program_builder() noexcept override { return builder_; }
  ProgramBuilder* cuda_source_builder() noexcept override { return &source_builder_; }
  std::shared_ptr<PinnedImpl> allocate_pinned(std::size_t bytes) override;

  /// Makes the device's context current on the calling thread (cheap when it already is).
  void make_current() const;
  const std::string& arch() const noexcept { return arch_; }
  CudaEventPool& events() { return events_; }
  CudaCallbackThread& callbacks() { return *callbacks_; }
  /// Copies between the device and pageable host memory through pinned buffers: one stager
  /// per direction, so that an upload and a download from two threads (weft.stream_map's)
  /// both run staged at once rather than one of them falling back to a direct pageable copy.
  CudaStaging& upload_staging() { return *upload_staging_; }
  CudaStaging& download_staging() { return *download_staging_; }
  /// Host nanoseconds of a timing event: the device clock anchored to the host's, again
  /// when the anchor is older than 50 ms (the clocks drift apart by parts per million: 1.65
  /// ms after six minutes of the test suite on an H200).
  std::uint64_t host_time_of(cu::CUevent e) const;

 private:
  cu::CUdevice device_;
  cu::CUcontext context_;
  std::string arch_;
  CudaEventPool events_;
  std::unique_ptr<CudaCallbackThread> callbacks_;
  std::unique_ptr<CudaStaging> upload_staging_ = std::make_unique<CudaStaging>(*this);
  std::unique_ptr<CudaStaging> download_staging_ = std::make_unique<CudaStaging>(*this);
  void anchor() const;
  mutable std::mutex anchor_mutex_;
  mutable cu::CUevent anchor_ = nullptr;     // a timing event recorded and seen complete ...
  mutable std::uint64_t anchor_host_ns_ = 0;  // ... when the host clock read this
  mutable cu::CUevent spare_anchor_ = nullptr;  // another try at it (anchor())
  CudaCompiler compiler_{*this};
  ProgramBuilder builder_{compiler_};
  CudaCompiler source_compiler_{*this, true};  // CUDA C as written (Program::build_cuda)
  ProgramBuilder source_builder_{source_compiler_};
};

}  // namespace weft::detail
