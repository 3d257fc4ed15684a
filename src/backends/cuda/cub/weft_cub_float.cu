// float32 and float64 keys alone (not in place): CUB's own float sort, which is weft's order
// but for NaNs, then the NaNs put where weft has them.
//
// CUB maps -0.0 and +0.0 to one digit (they stay in input order, bits kept) and orders NaNs by
// their bits: those with the sign bit set before -inf, the others after +inf (descending: the
// reverse). weft puts every NaN last (descending: first), all equal, in input order. So:
//   1. cub::DeviceSelect::If copies the input's NaNs, in input order, aside and counts them
//      (N), and a kernel counts those with the sign bit (S);
//   2. CUB sorts the keys into the output: ascending [S negative NaNs][the others][N - S],
//      descending [N - S positive NaNs][the others][S];
//   3. where S > 0 the non-NaN block moves (through a copy in CUB's memory) to its place, [0, n - N)
//      ascending, [N, n) descending, and the NaNs aside are written over the rest.
// Without NaNs (N = 0) steps 1 and 3 read the keys once and launch kernels that return at
// once: the counts stay on the device, nothing waits for the host.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include "weft_cub_detail.cuh"

namespace weft_cub {

namespace {

template <class K>
struct IsNan {
  static constexpr K sign = static_cast<K>(K{1} << (8 * sizeof(K) - 1));
  static constexpr K inf = sizeof(K) == 4 ? K{0x7f800000u} : static_cast<K>(0x7ff0000000000000ull);
  __host__ __device__ bool operator()(K k) const { return static_cast<K>(k & static_cast<K>(~sign)) > inf; }
};

// counts[1] = how many of the counts[0] NaNs aside have the sign bit.
template <class K>
__global__ void count_negative(const K* nans, unsigned long long* counts) {
  const unsigned long long total = counts[0];
  for (unsigned long long i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < total;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    if (nans[i] >> (8 * sizeof(K) - 1)) atomicAdd(&counts[1], 1ull);
  }
}

// Step 3's moves: phase 0 copies the non-NaN block aside, phase 1 puts it in place; both only
// where S > 0. Phase 2 writes the NaNs in input order.
template <class K>
__global__ void place(K* out, K* block, const K* nans, const unsigned long long* counts, std::uint64_t n,
                      int descending, int phase) {
  const std::uint64_t nan_count = counts[0], negative = counts[1];
  const std::uint64_t others = n - nan_count;
  const std::uint64_t first = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  if (phase == 2) {
    const std::uint64_t at = descending ? 0 : others;
    for (std::uint64_t i = first; i < nan_count; i += stride) out[at + i] = nans[i];
    return;
  }
  if (negative == 0) return;
  // Where the block is after CUB's sort, and where it goes.
  const std::uint64_t from = descending ? nan_count - negative : negative;
  const std::uint64_t to = descending ? nan_count : 0;
  for (std::uint64_t i = first; i < others; i += stride) {
    if (phase == 0) {
      block[i] = out[from + i];
    } else {
      out[to + i] = block[i];
    }
  }
}

template <class K>
struct FloatOf;
template <>
struct FloatOf<std::uint32_t> {
  using type = float;
};
template <>
struct FloatOf<std::uint64_t> {
  using type = double;
};

}  // namespace

template <class K>
int float_keys(const weft_cub_sort_job& job, void* temp, std::size_t* bytes) {
  using F = typename FloatOf<K>::type;
  const std::uint64_t n = job.count;
  const int items = static_cast<int>(n);
  cudaStream_t stream = static_cast<cudaStream_t>(job.stream);
  const auto* in = static_cast<const K*>(job.keys_in);
  auto* out = static_cast<K*>(job.keys_out);
  Arena a(Arena::aligned(temp));
  K* nans = a.take<K>(n);
  auto* counts = a.take<unsigned long long>(2);
  std::size_t select_bytes = 0, sort_bytes = 0;
  cudaError_t err = cub::DeviceSelect::If(nullptr, select_bytes, in, nans, counts, static_cast<std::int64_t>(n),
                                          IsNan<K>{}, stream);
  if (err != cudaSuccess) return err;
  auto sort = [&](void* cub_temp) {
    const F* fin = reinterpret_cast<const F*>(in);
    F* fout = reinterpret_cast<F*>(out);
    return job.descending
               ? cub::DeviceRadixSort::SortKeysDescending(cub_temp, sort_bytes, fin, fout, items, 0,
                                                          int{8 * sizeof(F)}, stream)
               : cub::DeviceRadixSort::SortKeys(cub_temp, sort_bytes, fin, fout, items, 0, int{8 * sizeof(F)},
                                                stream);
  };
  if ((err = sort(nullptr))) return err;
  // CUB's memory, then the block's scratch copy: free again once the sort has run.
  std::size_t cub_bytes = select_bytes > sort_bytes ? select_bytes : sort_bytes;
  if (cub_bytes < n * sizeof(K)) cub_bytes = n * sizeof(K);
  const std::size_t need = a.used() + cub_bytes + 256;
  if (!temp) {
    *bytes = need;
    return 0;
  }
  if (need > *bytes) return WEFT_CUB_INVALID;
  // counts[1] is added to; counts[0] is written by the select.
  if ((err = cudaMemsetAsync(counts, 0, 2 * sizeof(unsigned long long), stream))) return err;
  if ((err = cub::DeviceSelect::If(a.rest(), select_bytes, in, nans, counts, static_cast<std::int64_t>(n),
                                   IsNan<K>{}, stream))) {
    return err;
  }
  const unsigned g = grid_for(n) < 1024 ? grid_for(n) : 1024;
  count_negative<K><<<g, kBlock, 0, stream>>>(nans, counts);
  if ((err = sort(a.rest()))) return err;
  K* block = static_cast<K*>(a.rest());
  for (int phase = 0; phase < 3; ++phase) {
    place<K><<<g, kBlock, 0, stream>>>(out, block, nans, counts, n, job.descending ? 1 : 0, phase);
  }
  return cudaGetLastError();
}

template int float_keys<std::uint32_t>(const weft_cub_sort_job&, void*, std::size_t*);
template int float_keys<std::uint64_t>(const weft_cub_sort_job&, void*, std::size_t*);

}  // namespace weft_cub
