// weft's key order (src/kernels/cl/sort_keys.cl) as CUDA device functions: the same file,
// included once per key type and kind, so CUB sorts exactly the keys weft's own radix sort
// sorts (NaNs last and equal, -0.0 equal to 0.0). Order<K, KIND>::bits(k) is its
// weft_sort_order(k).
#pragma once

#include <cstdint>

namespace weft_cub {

typedef std::uint8_t uchar;
typedef std::uint16_t ushort;
typedef std::uint32_t uint;
typedef std::uint64_t ulong;

template <class K, int Kind>
struct Order;

}  // namespace weft_cub

// sort_keys.cl's `inline` functions become device functions here.
#define inline __device__ __forceinline__

// One inclusion of sort_keys.cl per (type, kind), each in a namespace of its own.
#define WEFT_SORT_KEY uchar
#define WEFT_SORT_SIGN ((uchar)0x80U)
#define WEFT_SORT_INF ((uchar)0U)
#define WEFT_SORT_KIND 0
namespace weft_cub { namespace u8u {
#include "sort_keys.cl"
} template <> struct Order<uchar, 0> { static __device__ __forceinline__ uchar bits(uchar k) { return u8u::weft_sort_order(k); } }; }
#undef WEFT_SORT_KIND
#define WEFT_SORT_KIND 1
namespace weft_cub { namespace u8s {
#include "sort_keys.cl"
} template <> struct Order<uchar, 1> { static __device__ __forceinline__ uchar bits(uchar k) { return u8s::weft_sort_order(k); } }; }
#undef WEFT_SORT_KIND
#undef WEFT_SORT_KEY
#undef WEFT_SORT_SIGN
#undef WEFT_SORT_INF

#define WEFT_SORT_KEY ushort
#define WEFT_SORT_SIGN ((ushort)0x8000U)
#define WEFT_SORT_INF ((ushort)0x7c00U)
#define WEFT_SORT_KIND 0
namespace weft_cub { namespace u16u {
#include "sort_keys.cl"
} template <> struct Order<ushort, 0> { static __device__ __forceinline__ ushort bits(ushort k) { return u16u::weft_sort_order(k); } }; }
#undef WEFT_SORT_KIND
#define WEFT_SORT_KIND 1
namespace weft_cub { namespace u16s {
#include "sort_keys.cl"
} template <> struct Order<ushort, 1> { static __device__ __forceinline__ ushort bits(ushort k) { return u16s::weft_sort_order(k); } }; }
#undef WEFT_SORT_KIND
#define WEFT_SORT_KIND 2
namespace weft_cub { namespace u16f {
#include "sort_keys.cl"
} template <> struct Order<ushort, 2> { static __device__ __forceinline__ ushort bits(ushort k) { return u16f::weft_sort_order(k); } }; }
#undef WEFT_SORT_KIND
#undef WEFT_SORT_KEY
#undef WEFT_SORT_SIGN
#undef WEFT_SORT_INF

#define WEFT_SORT_KEY uint
#define WEFT_SORT_SIGN ((uint)0x80000000U)
#define WEFT_SORT_INF ((uint)0x7f800000U)
#define WEFT_SORT_KIND 0
namespace weft_cub { namespace u32u {
#include "sort_keys.cl"
} template <> struct Order<uint, 0> { static __device__ __forceinline__ uint bits(uint k) { return u32u::weft_sort_order(k); } }; }
#undef WEFT_SORT_KIND
#define WEFT_SORT_KIND 1
namespace weft_cub { namespace u32s {
#include "sort_keys.cl"
} template <> struct Order<uint, 1> { static __device__ __forceinline__ uint bits(uint k) { return u32s::weft_sort_order(k); } }; }
#undef WEFT_SORT_KIND
#define WEFT_SORT_KIND 2
namespace weft_cub { namespace u32f {
#include "sort_keys.cl"
} template <> struct Order<uint, 2> { static __device__ __forceinline__ uint bits(uint k) { return u32f::weft_sort_order(k); } }; }
#undef WEFT_SORT_KIND
#undef WEFT_SORT_KEY
#undef WEFT_SORT_SIGN
#undef WEFT_SORT_INF

#define WEFT_SORT_KEY ulong
#define WEFT_SORT_SIGN ((ulong)0x8000000000000000ULL)
#define WEFT_SORT_INF ((ulong)0x7ff0000000000000ULL)
#define WEFT_SORT_KIND 0
namespace weft_cub { namespace u64u {
#include "sort_keys.cl"
} template <> struct Order<ulong, 0> { static __device__ __forceinline__ ulong bits(ulong k) { return u64u::weft_sort_order(k); } }; }
#undef WEFT_SORT_KIND
#define WEFT_SORT_KIND 1
namespace weft_cub { namespace u64s {
#include "sort_keys.cl"
} template <> struct Order<ulong, 1> { static __device__ __forceinline__ ulong bits(ulong k) { return u64s::weft_sort_order(k); } }; }
#undef WEFT_SORT_KIND
#define WEFT_SORT_KIND 2
namespace weft_cub { namespace u64f {
#include "sort_keys.cl"
} template <> struct Order<ulong, 2> { static __device__ __forceinline__ ulong bits(ulong k) { return u64f::weft_sort_order(k); } }; }
#undef WEFT_SORT_KIND
#undef WEFT_SORT_KEY
#undef WEFT_SORT_SIGN
#undef WEFT_SORT_INF

#undef inline
