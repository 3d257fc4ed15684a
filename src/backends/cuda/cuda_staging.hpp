// Pageable host memory at pinned speed: a copy between a device and pageable (NumPy, malloc)
// memory of at least kStageMinBytes goes through three pinned 8 MiB buffers, the host side
// copied by the process's ParallelMemcpy threads while the copy engine moves the chunk before
// (measured on an H100 machine, 64-256 MiB: direct pageable 9-16 GB/s; staged with 8 threads and
// 8 MiB chunks 39-49 GB/s; pinned 49-55 GB/s). Host memory the driver already knows as pinned
// or registered is copied directly. One stager per device; a copy that finds it busy (another
// thread's copy) goes direct rather than wait.
#pragma once

#include <array>
#include <cstddef>
#include <mutex>

#include "backends/cuda/cuda_api.hpp"

namespace weft::detail {

class CudaDevice;

class CudaStaging {
 public:
  static constexpr std::size_t kStageMinBytes = std::size_t{8} << 20;
  static constexpr std::size_t kChunkBytes = std::size_t{8} << 20;

  explicit CudaStaging(const CudaDevice& device) : device_(device) {}
  ~CudaStaging();
  CudaStaging(const CudaStaging&) = delete;
  CudaStaging& operator=(const CudaStaging&) = delete;

  /// Enqueues dst <- src on stream in chunks and returns once src has been read (as a
  /// pageable cuMemcpyHtoDAsync does); false when it did not copy (small, pinned source, busy,
  /// or no pinned memory to stage through): the caller copies directly.
  bool write(cu::CUstream stream, cu::CUdeviceptr dst, const void* src, std::size_t bytes);
  /// dst <- src after the work before it on stream; returns when dst holds the data. false as
  /// write's.
  bool read(cu::CUstream stream, void* dst, cu::CUdeviceptr src, std::size_t bytes);

 private:
  static constexpr std::size_t kBuffers = 3;
  bool worth_staging(const void* host, std::size_t bytes) const;
  bool ready();  // the pinned buffers and their events, made on first use
  void reuse(std::size_t k);  // waits until buffer k's last copy (of any call) is done
  void record(std::size_t k, cu::CUstream stream);

  const CudaDevice& device_;
  std::mutex busy_;
  bool failed_ = false;  // pinning failed once: copy directly from then on
  std::array<void*, kBuffers> buffers_{};
  std::array<cu::CUevent, kBuffers> events_{};
  std::array<bool, kBuffers> recorded_{};
};

}  // namespace weft::detail
