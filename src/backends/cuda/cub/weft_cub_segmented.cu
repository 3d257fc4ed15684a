// Many rows of equal length in one cub::DeviceSegmentedSort::StableSortPairs (weft_cub.cu's
// rows: the ordered bits with their 32-bit flat indices), in a file of its own so that nvcc
// compiles it beside the rest.
#include <cub/device/device_segmented_sort.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "weft_cub_detail.cuh"

namespace weft_cub {

namespace {

// Where row r starts: r * len.
struct RowStart {
  std::int64_t len;
  __host__ __device__ std::int64_t operator()(std::int64_t r) const { return r * len; }
};

}  // namespace

template <class K>
cudaError_t segmented_pairs(void* temp, std::size_t& bytes, const K* keys_in, K* keys_out, const std::uint32_t* values_in,
                            std::uint32_t* values_out, std::int64_t n, std::int64_t len, cudaStream_t stream) {
  const auto starts = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), RowStart{len});
  const auto ends = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(1), RowStart{len});
  return cub::DeviceSegmentedSort::StableSortPairs(temp, bytes, keys_in, keys_out, values_in, values_out, n, n / len,
                                                  starts, ends, stream);
}

#define WEFT_CUB_SEGMENTED(K)                                                                                 \
  template cudaError_t segmented_pairs<K>(void*, std::size_t&, const K*, K*, const std::uint32_t*, std::uint32_t*, \
                                          std::int64_t, std::int64_t, cudaStream_t);
WEFT_CUB_SEGMENTED(std::uint32_t)
WEFT_CUB_SEGMENTED(std::uint64_t)
#undef WEFT_CUB_SEGMENTED

}  // namespace weft_cub
