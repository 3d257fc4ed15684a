// What the plugin's files share (weft_cub.cu, weft_cub_float.cu, weft_cub_segmented.cu): the
// element-wise kernels, the arena that carves the caller's temporary memory, and the CUB calls
// kept in files of their own so that nvcc compiles them in parallel.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "weft_cub.h"

namespace weft_cub {

constexpr unsigned kBlock = 256;

inline unsigned grid_for(std::uint64_t n) {
  const std::uint64_t blocks = (n + kBlock - 1) / kBlock;
  return static_cast<unsigned>(blocks < 65536 ? (blocks ? blocks : 1) : 65536);
}

#define WEFT_CUB_FOR_EACH(i, n) \
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < (n); i += std::uint64_t{gridDim.x} * blockDim.x)

template <class T>
__global__ void gather(const T* src, const std::uint32_t* idx, T* dst, std::uint64_t n) {
  WEFT_CUB_FOR_EACH(i, n) dst[i] = src[idx[i]];
}

// Carves the caller's temporary memory into aligned pieces; with a null base it only counts.
class Arena {
 public:
  explicit Arena(void* base) : base_(static_cast<char*>(base)) {}
  template <class T>
  T* take(std::uint64_t count) {
    const std::size_t at = used_;
    used_ += (count * sizeof(T) + 255) / 256 * 256;
    return base_ ? reinterpret_cast<T*>(base_ + at) : nullptr;
  }
  void* rest() const { return base_ ? base_ + used_ : nullptr; }
  /// The caller's memory from its first 256-byte boundary (sizes ask for 256 bytes more).
  static void* aligned(void* temp) {
    return temp ? reinterpret_cast<void*>((reinterpret_cast<std::uintptr_t>(temp) + 255) / 256 * 256) : nullptr;
  }
  std::size_t used() const { return used_; }

 private:
  char* base_;
  std::size_t used_ = 0;
};

// CUB's DeviceSegmentedSort::StableSortPairs of rows of len keys (weft_cub_segmented.cu):
// K is uint32_t or uint64_t (narrower keys are widened first).
template <class K>
cudaError_t segmented_pairs(void* temp, std::size_t& bytes, const K* keys_in, K* keys_out, const std::uint32_t* values_in,
                            std::uint32_t* values_out, std::int64_t n, std::int64_t len, cudaStream_t stream);

// Float keys alone (K: uint32_t for float32, uint64_t for float64) with CUB's own float order,
// then NaNs moved to weft's places (weft_cub_float.cu). temp null: *bytes = what it needs.
template <class K>
int float_keys(const weft_cub_sort_job& job, void* temp, std::size_t* bytes);

}  // namespace weft_cub
