// libweft_cub: weft's sorts through CUB (weft_cub.h). Every job's keys become weft's ordered
// bits first (ordered_keys.cuh, sort_keys.cl itself), flipped for descending, and CUB sorts
// those as unsigned integers, ascending and stable: the order of weft's own radix sort, ties
// included. Unsigned keys ascending skip that pass. What comes back:
//   integers: the sorted bits turned back into keys (the map is one to one);
//   float32/64 keys alone (not in place): CUB's own float sort (-0.0 equal to 0.0, bits kept),
//     then the NaNs, which CUB orders by their bits, put where weft's order has them
//     (weft_cub_float.cu);
//   everything else (indices, 1- and 2-byte values, float keys with values or in place,
//     float16, rows): CUB moves 32-bit indices and a gather fetches keys and values by them.
// Rows of equal length sort in one cub::DeviceSegmentedSort (8- and 16-bit keys widened to 32). Jobs of more than 2^31 - 1 keys
// are refused (WEFT_CUB_UNSUPPORTED): weft sorts them with its own kernels.
#include "weft_cub.h"

#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cub/device/device_radix_sort.cuh>
#include <cub/version.cuh>

#include "ordered_keys.cuh"
#include "weft_cub_detail.cuh"

namespace weft_cub {
namespace {

template <class K, int Kind>
__global__ void to_ordered(const K* in, K* out, std::uint64_t n, K flip) {
  WEFT_CUB_FOR_EACH(i, n) out[i] = static_cast<K>(Order<K, Kind>::bits(in[i]) ^ flip);
}

// Integers only: ordered bits back to keys (x: the flip, and the sign bit for signed keys).
template <class K>
__global__ void from_ordered(const K* in, K* out, std::uint64_t n, K x) {
  WEFT_CUB_FOR_EACH(i, n) out[i] = static_cast<K>(in[i] ^ x);
}

__global__ void iota(std::uint32_t* out, std::uint64_t n) {
  WEFT_CUB_FOR_EACH(i, n) out[i] = static_cast<std::uint32_t>(i);
}

template <class K>
__global__ void widen_keys(const K* in, std::uint32_t* out, std::uint64_t n) {
  WEFT_CUB_FOR_EACH(i, n) out[i] = in[i];
}

__global__ void widen(const std::uint32_t* idx, std::int64_t* out, std::uint64_t n) {
  WEFT_CUB_FOR_EACH(i, n) out[i] = static_cast<std::int64_t>(idx[i]);
}

template <class T>
T sign_bit() {
  return static_cast<T>(T{1} << (8 * sizeof(T) - 1));
}

// One job with keys of K. temp null: counts into *bytes. CUB's own temporary memory comes last.
template <class K>
int run(const weft_cub_sort_job& job, void* temp, std::size_t* bytes) {
  const std::uint64_t n = job.count;
  const bool rows = job.row_len != 0 && job.row_len != n;
  const int kind = job.key_kind;
  const bool floats = kind == WEFT_CUB_FLOAT;
  if (floats && sizeof(K) == 1) return WEFT_CUB_INVALID;
  if (rows && !job.payload_index) return WEFT_CUB_UNSUPPORTED;
  const int p = job.payload_index ? 0 : static_cast<int>(job.payload_bytes);
  const bool has_payload = job.payload_index || p != 0;
  const bool in_place = job.keys_in == job.keys_out;
  cudaStream_t stream = static_cast<cudaStream_t>(job.stream);
  const K flip = job.descending ? static_cast<K>(~K{0}) : K{0};
  // How CUB's values are chosen (the file's comment).
  const bool direct_keys = !rows && kind == WEFT_CUB_UNSIGNED && !job.descending && !in_place;
  const bool float_keys_alone = !rows && floats && !has_payload && !in_place && (sizeof(K) == 4 || sizeof(K) == 8);
  const bool value_pairs = !rows && !floats && (p == 4 || p == 8);
  const bool by_index = !float_keys_alone && !value_pairs && (has_payload || floats);

  // The size query allocates from a null arena, then the run from the caller's, in the same order.
  Arena a(Arena::aligned(temp));
  const auto* keys_in = static_cast<const K*>(job.keys_in);
  auto* keys_out = static_cast<K*>(job.keys_out);
  K* ordered = direct_keys ? nullptr : a.take<K>(n);
  const K* sort_in = direct_keys ? keys_in : ordered;
  const int items = static_cast<int>(n);
  std::size_t cub_bytes = 0;
  cudaError_t err = cudaSuccess;
  auto launch_order = [&] {
    if (direct_keys || !temp) return;
    const unsigned g = grid_for(n);
    switch (kind) {
      case WEFT_CUB_UNSIGNED: to_ordered<K, 0><<<g, kBlock, 0, stream>>>(keys_in, ordered, n, flip); break;
      case WEFT_CUB_SIGNED: to_ordered<K, 1><<<g, kBlock, 0, stream>>>(keys_in, ordered, n, flip); break;
      default:
        if constexpr (sizeof(K) > 1) to_ordered<K, 2><<<g, kBlock, 0, stream>>>(keys_in, ordered, n, flip);
        break;
    }
  };
  const K unorder = static_cast<K>(flip ^ (kind == WEFT_CUB_SIGNED ? sign_bit<K>() : K{0}));

  if constexpr (sizeof(K) >= 4) {
    // Floats alone: CUB's float order is weft's but for NaNs (it keeps -0.0 equal to 0.0).
    if (float_keys_alone) return float_keys<K>(job, temp, bytes);
  }
  if (!by_index) {
    // Integer keys, alone or with 4- or 8-byte values that CUB moves itself.
    auto sort = [&](auto value_tag, void* cub_temp) -> cudaError_t {
      using V = decltype(value_tag);
      if (!has_payload) {
        return cub::DeviceRadixSort::SortKeys(cub_temp, cub_bytes, sort_in, keys_out, items, 0, int{8 * sizeof(K)},
                                              stream);
      }
      const V* vin = static_cast<const V*>(job.payload_in);
      V* vout = static_cast<V*>(job.payload_out);
      return cub::DeviceRadixSort::SortPairs(cub_temp, cub_bytes, sort_in, keys_out, vin, vout, items, 0,
                                             int{8 * sizeof(K)}, stream);
    };
    const bool values_in_place = has_payload && job.payload_in == job.payload_out;
    void* values_copy = values_in_place ? (p == 4 ? static_cast<void*>(a.take<std::uint32_t>(n))
                                                  : static_cast<void*>(a.take<std::uint64_t>(n)))
                                        : nullptr;
    err = p == 8 ? sort(std::uint64_t{}, nullptr) : sort(std::uint32_t{}, nullptr);
    if (err != cudaSuccess || !temp) return *bytes = a.used() + cub_bytes + 256, static_cast<int>(err);
    if (a.used() + cub_bytes + 256 > *bytes) return WEFT_CUB_INVALID;
    weft_cub_sort_job local = job;
    if (values_in_place) {
      err = cudaMemcpyAsync(values_copy, job.payload_in, n * static_cast<std::uint64_t>(p), cudaMemcpyDeviceToDevice,
                            stream);
      if (err != cudaSuccess) return err;
      local.payload_in = values_copy;
    }
    launch_order();
    auto sort_local = [&](auto value_tag) -> cudaError_t {
      using V = decltype(value_tag);
      if (!has_payload) {
        return cub::DeviceRadixSort::SortKeys(a.rest(), cub_bytes, sort_in, keys_out, items, 0, int{8 * sizeof(K)},
                                              stream);
      }
      return cub::DeviceRadixSort::SortPairs(a.rest(), cub_bytes, sort_in, keys_out,
                                             static_cast<const V*>(local.payload_in), static_cast<V*>(local.payload_out),
                                             items, 0, int{8 * sizeof(K)}, stream);
    };
    err = p == 8 ? sort_local(std::uint64_t{}) : sort_local(std::uint32_t{});
    if (err != cudaSuccess || direct_keys || unorder == K{0}) return err;
    from_ordered<K><<<grid_for(n), kBlock, 0, stream>>>(keys_out, keys_out, n, unorder);
    return cudaGetLastError();
  }

  // By index: CUB sorts (ordered bits, 32-bit index); keys and values follow the indices.
  // Rows of 8- and 16-bit keys sort as 32-bit ones (fewer segmented sorts to compile).
  const bool wide_rows = rows && sizeof(K) < 4;
  std::uint32_t* idx = a.take<std::uint32_t>(n);
  std::uint32_t* idx_out = a.take<std::uint32_t>(n);
  std::uint32_t* wide = wide_rows ? a.take<std::uint32_t>(n) : nullptr;
  std::uint32_t* wide_out = wide_rows ? a.take<std::uint32_t>(n) : nullptr;
  K* ordered_out = wide_rows ? nullptr : a.take<K>(n);
  const bool gather_keys = floats || wide_rows;
  K* keys_copy = gather_keys && in_place ? a.take<K>(n) : nullptr;
  const bool values_in_place = p != 0 && job.payload_in == job.payload_out;
  void* values_copy = values_in_place ? a.take<std::uint64_t>(n) : nullptr;  // room for any size
  auto sort = [&](void* cub_temp) -> cudaError_t {
    if (rows) {
      const auto len = static_cast<std::int64_t>(job.row_len);
      if constexpr (sizeof(K) < 4) {
        return segmented_pairs<std::uint32_t>(cub_temp, cub_bytes, wide, wide_out, idx, idx_out,
                                              static_cast<std::int64_t>(n), len, stream);
      } else {
        return segmented_pairs<K>(cub_temp, cub_bytes, ordered, ordered_out, idx, idx_out,
                                  static_cast<std::int64_t>(n), len, stream);
      }
    }
    // sort_in: the mapped keys, or the keys themselves where no map is needed (direct_keys:
    // unsigned, ascending, not in place), when `ordered` was never taken.
    return cub::DeviceRadixSort::SortPairs(cub_temp, cub_bytes, sort_in, ordered_out, idx, idx_out, items, 0,
                                           int{8 * sizeof(K)}, stream);
  };
  err = sort(nullptr);
  if (err != cudaSuccess || !temp) return *bytes = a.used() + cub_bytes + 256, static_cast<int>(err);
  if (a.used() + cub_bytes + 256 > *bytes) return WEFT_CUB_INVALID;
  const K* key_src = keys_in;
  if (keys_copy) {
    if ((err = cudaMemcpyAsync(keys_copy, keys_in, n * sizeof(K), cudaMemcpyDeviceToDevice, stream))) return err;
    key_src = keys_copy;
  }
  const void* value_src = job.payload_in;
  if (values_copy) {
    err = cudaMemcpyAsync(values_copy, job.payload_in, n * static_cast<std::uint64_t>(p), cudaMemcpyDeviceToDevice,
                          stream);
    if (err != cudaSuccess) return err;
    value_src = values_copy;
  }
  launch_order();
  const unsigned g = grid_for(n);
  iota<<<g, kBlock, 0, stream>>>(idx, n);
  if (wide_rows) widen_keys<K><<<g, kBlock, 0, stream>>>(ordered, wide, n);
  if ((err = sort(a.rest()))) return err;
  if (gather_keys) {
    gather<K><<<g, kBlock, 0, stream>>>(key_src, idx_out, keys_out, n);
  } else {
    from_ordered<K><<<g, kBlock, 0, stream>>>(ordered_out, keys_out, n, unorder);
  }
  if (job.payload_index) {
    widen<<<g, kBlock, 0, stream>>>(idx_out, static_cast<std::int64_t*>(job.payload_out), n);
  } else {
    switch (p) {
      case 1:
        gather<std::uint8_t><<<g, kBlock, 0, stream>>>(static_cast<const std::uint8_t*>(value_src), idx_out,
                                                       static_cast<std::uint8_t*>(job.payload_out), n);
        break;
      case 2:
        gather<std::uint16_t><<<g, kBlock, 0, stream>>>(static_cast<const std::uint16_t*>(value_src), idx_out,
                                                        static_cast<std::uint16_t*>(job.payload_out), n);
        break;
      case 4:
        gather<std::uint32_t><<<g, kBlock, 0, stream>>>(static_cast<const std::uint32_t*>(value_src), idx_out,
                                                        static_cast<std::uint32_t*>(job.payload_out), n);
        break;
      case 8:
        gather<std::uint64_t><<<g, kBlock, 0, stream>>>(static_cast<const std::uint64_t*>(value_src), idx_out,
                                                        static_cast<std::uint64_t*>(job.payload_out), n);
        break;
      default: break;
    }
  }
  return cudaGetLastError();
}

int sort(const weft_cub_sort_job* job, void* temp, std::size_t* bytes) {
  if (!job || !bytes || job->struct_size < sizeof(weft_cub_sort_job)) return WEFT_CUB_INVALID;
  const weft_cub_sort_job& j = *job;
  if (j.count > static_cast<std::uint64_t>(INT_MAX)) return WEFT_CUB_UNSUPPORTED;
  if (j.key_kind < WEFT_CUB_UNSIGNED || j.key_kind > WEFT_CUB_FLOAT) return WEFT_CUB_INVALID;
  if (j.row_len && j.count % j.row_len) return WEFT_CUB_INVALID;
  const std::uint32_t p = j.payload_index ? 8 : j.payload_bytes;
  if (p != 0 && p != 1 && p != 2 && p != 4 && p != 8) return WEFT_CUB_INVALID;
  if (temp && j.count && (!j.keys_in || !j.keys_out || (p && !j.payload_out) || (p && !j.payload_index && !j.payload_in))) {
    return WEFT_CUB_INVALID;
  }
  if (j.count == 0) {
    *bytes = temp ? *bytes : 0;
    return 0;
  }
  switch (j.key_bytes) {
    case 1: return run<std::uint8_t>(j, temp, bytes);
    case 2: return run<std::uint16_t>(j, temp, bytes);
    case 4: return run<std::uint32_t>(j, temp, bytes);
    case 8: return run<std::uint64_t>(j, temp, bytes);
    default: return WEFT_CUB_INVALID;
  }
}

const char* version() {
  static char text[96];
  if (!text[0]) {
    std::snprintf(text, sizeof text, "CUB %d.%d.%d (CUDA %d.%d)", CUB_MAJOR_VERSION, CUB_MINOR_VERSION,
                  CUB_SUBMINOR_VERSION, CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
  }
  return text;
}

const char* result_name(int result) {
  if (result == WEFT_CUB_UNSUPPORTED) return "WEFT_CUB_UNSUPPORTED";
  if (result == WEFT_CUB_INVALID) return "WEFT_CUB_INVALID";
  return cudaGetErrorName(static_cast<cudaError_t>(result));
}

const weft_cub_api table = {WEFT_CUB_ABI_VERSION, version, sort, result_name};

}  // namespace
}  // namespace weft_cub

extern "C" __attribute__((visibility("default"))) const weft_cub_api* weft_cub_api_v1(void) {
  return &weft_cub::table;
}
