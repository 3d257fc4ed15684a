// weft CUDA prelude: the OpenCL C 1.2 dialect as CUDA C++20 for NVRTC (compiled with
// -default-device, so unannotated functions are device functions). The translation unit is:
// this file's head, the shared dialect core (src/dialect/prelude/core_*.hpp), this
// file's tail (after the WEFT-CORE marker), the user's source inside namespace weft_kernel.
// It includes nothing, so NVRTC needs no toolkit headers. See docs/DIALECT.md.
#define WEFT_INLINE __forceinline__
#define WEFT_F(name) ::name##f
#define WEFT_D(name) ::name

namespace weft_core {
WEFT_INLINE int weft_clz64(unsigned long long x) noexcept { return __clzll(static_cast<long long>(x)); }
WEFT_INLINE int weft_popcount64(unsigned long long x) noexcept { return __popcll(x); }
WEFT_INLINE unsigned long long weft_mul_hi_u64(unsigned long long a, unsigned long long b) noexcept {
  return __umul64hi(a, b);
}
WEFT_INLINE long long weft_mul_hi_s64(long long a, long long b) noexcept { return __mul64hi(a, b); }
}  // namespace weft_core

namespace weft_cuda {

/// What a launch passes besides the user's arguments (the kernel's first parameter).
struct Launch {
  unsigned long long goff[3];
  unsigned work_dim;
  unsigned reserved;
};

WEFT_INLINE unsigned long long pick(const uint3& v, unsigned d) { return d == 0 ? v.x : d == 1 ? v.y : v.z; }
WEFT_INLINE unsigned long long pick(const dim3& v, unsigned d) { return d == 0 ? v.x : d == 1 ? v.y : v.z; }

/// Work-item functions over CUDA's indices. The global size is grid * block exactly: weft
/// only launches global sizes that are multiples of the work-group size (OpenCL 1.2).
struct WorkItem {
  Launch l;
  WEFT_INLINE unsigned long long global_id(unsigned d) const {
    return d < 3 ? pick(blockIdx, d) * pick(blockDim, d) + pick(threadIdx, d) + l.goff[d] : 0;
  }
  WEFT_INLINE unsigned long long global_size(unsigned d) const { return d < 3 ? pick(gridDim, d) * pick(blockDim, d) : 1; }
  WEFT_INLINE unsigned long long global_offset(unsigned d) const { return d < 3 ? l.goff[d] : 0; }
  WEFT_INLINE unsigned long long local_id(unsigned d) const { return d < 3 ? pick(threadIdx, d) : 0; }
  WEFT_INLINE unsigned long long local_size(unsigned d) const { return d < 3 ? pick(blockDim, d) : 1; }
  WEFT_INLINE unsigned long long group_id(unsigned d) const { return d < 3 ? pick(blockIdx, d) : 0; }
  WEFT_INLINE unsigned long long num_groups(unsigned d) const { return d < 3 ? pick(gridDim, d) : 1; }
  WEFT_INLINE unsigned work_dim() const { return l.work_dim; }
};

}  // namespace weft_cuda
//// WEFT-CORE ////
namespace weft_kernel {

// Dynamically sized __local memory: kernels' __local pointer parameters become offsets into it.
extern __shared__ __align__(16) unsigned char weft_dynamic_shared[];

// Helper functions (not kernels) that call work-item functions read the launch from shared
// memory; a kernel of such a program stores it there first (kernels themselves use their own
// parameter, which shadows this).
__shared__ weft_cuda::Launch weft_launch_shared;
struct weft_shared_work_item {
  WEFT_INLINE weft_cuda::WorkItem get() const { return weft_cuda::WorkItem{weft_launch_shared}; }
  WEFT_INLINE unsigned long long global_id(unsigned d) const { return get().global_id(d); }
  WEFT_INLINE unsigned long long global_size(unsigned d) const { return get().global_size(d); }
  WEFT_INLINE unsigned long long global_offset(unsigned d) const { return get().global_offset(d); }
  WEFT_INLINE unsigned long long local_id(unsigned d) const { return get().local_id(d); }
  WEFT_INLINE unsigned long long local_size(unsigned d) const { return get().local_size(d); }
  WEFT_INLINE unsigned long long group_id(unsigned d) const { return get().group_id(d); }
  WEFT_INLINE unsigned long long num_groups(unsigned d) const { return get().num_groups(d); }
  WEFT_INLINE unsigned work_dim() const { return weft_launch_shared.work_dim; }
};
__device__ const weft_shared_work_item weft_wi{};

// ---- atomics (OpenCL 1.2: on __global or __local 32-bit integers; atom_* for 64-bit) -------
// CUDA's atomics take plain pointers of int, unsigned or unsigned long long: map by size.
template <class T>
WEFT_INLINE auto weft_atomic_ptr(volatile T* p) {
  if constexpr (sizeof(T) == 8) return reinterpret_cast<unsigned long long*>(const_cast<T*>(p));
  else if constexpr (weft_std::is_signed_v<T>) return reinterpret_cast<int*>(const_cast<T*>(p));
  else return reinterpret_cast<unsigned*>(const_cast<T*>(p));
}
template <class T>
using weft_atomic_t = weft_std::conditional_t<sizeof(T) == 8, unsigned long long,
                                              weft_std::conditional_t<weft_std::is_signed_v<T>, int, unsigned>>;
#define WEFT_ATOMIC_RMW(name, cuda)                                                          \
  template <class T>                                                                         \
    requires weft_std::is_integral_v<T>                                                      \
  WEFT_INLINE T name(volatile T* p, weft_std::type_identity_t<T> v) noexcept {              \
    return static_cast<T>(cuda(weft_atomic_ptr(p), static_cast<weft_atomic_t<T>>(v)));       \
  }
WEFT_ATOMIC_RMW(atomic_add, atomicAdd)
WEFT_ATOMIC_RMW(atomic_and, atomicAnd)
WEFT_ATOMIC_RMW(atomic_or, atomicOr)
WEFT_ATOMIC_RMW(atomic_xor, atomicXor)
WEFT_ATOMIC_RMW(atom_add, atomicAdd)
WEFT_ATOMIC_RMW(atom_and, atomicAnd)
WEFT_ATOMIC_RMW(atom_or, atomicOr)
WEFT_ATOMIC_RMW(atom_xor, atomicXor)
#undef WEFT_ATOMIC_RMW
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atomic_sub(volatile T* p, weft_std::type_identity_t<T> v) noexcept {
  return static_cast<T>(atomicAdd(weft_atomic_ptr(p), static_cast<weft_atomic_t<T>>(0) - static_cast<weft_atomic_t<T>>(v)));
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atom_sub(volatile T* p, weft_std::type_identity_t<T> v) noexcept { return atomic_sub(p, v); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atomic_inc(volatile T* p) noexcept { return atomic_add(p, T(1)); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atomic_dec(volatile T* p) noexcept { return atomic_sub(p, T(1)); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atom_inc(volatile T* p) noexcept { return atomic_inc(p); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atom_dec(volatile T* p) noexcept { return atomic_dec(p); }
template <class T>
WEFT_INLINE T atomic_xchg(volatile T* p, weft_std::type_identity_t<T> v) noexcept {
  if constexpr (weft_std::is_same_v<weft_std::remove_cv_t<T>, float>) {
    return atomicExch(const_cast<float*>(p), v);
  } else {
    return static_cast<T>(atomicExch(weft_atomic_ptr(p), static_cast<weft_atomic_t<T>>(v)));
  }
}
template <class T>
WEFT_INLINE T atom_xchg(volatile T* p, weft_std::type_identity_t<T> v) noexcept { return atomic_xchg(p, v); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atomic_cmpxchg(volatile T* p, weft_std::type_identity_t<T> cmp, weft_std::type_identity_t<T> v) noexcept {
  return static_cast<T>(atomicCAS(weft_atomic_ptr(p), static_cast<weft_atomic_t<T>>(cmp), static_cast<weft_atomic_t<T>>(v)));
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atom_cmpxchg(volatile T* p, weft_std::type_identity_t<T> cmp, weft_std::type_identity_t<T> v) noexcept {
  return atomic_cmpxchg(p, cmp, v);
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atomic_min(volatile T* p, weft_std::type_identity_t<T> v) noexcept {
  if constexpr (sizeof(T) == 8 && weft_std::is_signed_v<T>) {
    return static_cast<T>(atomicMin(reinterpret_cast<long long*>(const_cast<T*>(p)), static_cast<long long>(v)));
  } else {
    return static_cast<T>(atomicMin(weft_atomic_ptr(p), static_cast<weft_atomic_t<T>>(v)));
  }
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atomic_max(volatile T* p, weft_std::type_identity_t<T> v) noexcept {
  if constexpr (sizeof(T) == 8 && weft_std::is_signed_v<T>) {
    return static_cast<T>(atomicMax(reinterpret_cast<long long*>(const_cast<T*>(p)), static_cast<long long>(v)));
  } else {
    return static_cast<T>(atomicMax(weft_atomic_ptr(p), static_cast<weft_atomic_t<T>>(v)));
  }
}
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atom_min(volatile T* p, weft_std::type_identity_t<T> v) noexcept { return atomic_min(p, v); }
template <class T>
  requires weft_std::is_integral_v<T>
WEFT_INLINE T atom_max(volatile T* p, weft_std::type_identity_t<T> v) noexcept { return atomic_max(p, v); }

// ---- synchronization ----------------------------------------------------------------------
WEFT_INLINE void barrier(int) noexcept { __syncthreads(); }
WEFT_INLINE void work_group_barrier(int) noexcept { __syncthreads(); }
WEFT_INLINE void mem_fence(int flags) noexcept {
  if (flags & 2) __threadfence();
  else __threadfence_block();
}
WEFT_INLINE void read_mem_fence(int flags) noexcept { mem_fence(flags); }
WEFT_INLINE void write_mem_fence(int flags) noexcept { mem_fence(flags); }
// weft_barrier_among(id, count) (CUDA only, for weft's generated kernels): barrier `id` (1 to
// 15) among the `count` threads (a multiple of 32) whose warps call it, ordering their memory
// as barrier() orders the work-group's; the other warps go on. The warps may call it from
// different places in the kernel (barrier.sync, not the aligned bar.sync, from compute
// capability 7.0). weft_sleep(ns): the warp idles about ns nanoseconds (7.0 and later;
// nothing before).
WEFT_INLINE void weft_barrier_among(int id, int count) noexcept {
#if __CUDA_ARCH__ >= 700
  asm volatile("barrier.sync %0, %1;\n" ::"r"(id), "r"(count) : "memory");
#else
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(count) : "memory");
#endif
}
// weft_store_pair(p, a, b) writes two 8-byte words to p (16-byte aligned, global memory) in
// one 16-byte access (relaxed, at device scope: other work-groups spin on these words);
// weft_load_pair(p, &a, &b) reads them so. Each 8-byte word is
// seen whole, but a reader may see the two words of one store apart (PTX promises nothing
// more for vector accesses, and an H200 showed it): each word must say whose it is.
template <class U>
WEFT_INLINE void weft_store_pair(volatile U* p, U a, U b) noexcept {
  static_assert(sizeof(U) == 8, "pairs of 8-byte words");
#if __CUDA_ARCH__ >= 700
  asm volatile("st.relaxed.gpu.v2.u64 [%0], {%1, %2};\n" ::"l"(p), "l"(static_cast<unsigned long long>(a)),
               "l"(static_cast<unsigned long long>(b))
               : "memory");
#else
  asm volatile("st.volatile.v2.u64 [%0], {%1, %2};\n" ::"l"(p), "l"(static_cast<unsigned long long>(a)),
               "l"(static_cast<unsigned long long>(b))
               : "memory");
#endif
}
template <class U>
WEFT_INLINE void weft_load_pair(volatile U* p, U* a, U* b) noexcept {
  static_assert(sizeof(U) == 8, "pairs of 8-byte words");
  unsigned long long x, y;
#if __CUDA_ARCH__ >= 700
  asm volatile("ld.relaxed.gpu.v2.u64 {%0, %1}, [%2];\n" : "=l"(x), "=l"(y) : "l"(p) : "memory");
#else
  asm volatile("ld.volatile.v2.u64 {%0, %1}, [%2];\n" : "=l"(x), "=l"(y) : "l"(p) : "memory");
#endif
  *a = static_cast<U>(x);
  *b = static_cast<U>(y);
}
WEFT_INLINE void weft_sleep(unsigned ns) noexcept {
#if __CUDA_ARCH__ >= 700
  __nanosleep(ns);
#else
  (void)ns;
#endif
}

// ---- warps (CUDA only, for weft's generated kernels under #if WEFT_CUDA) --------------------
// All 32 lanes of the warp must call these together. Values of any scalar type move as
// float, double, int or long long (narrower integers widen and come back unchanged).
#define WEFT_WARP_SHUFFLE(name, cuda)                                                               \
  WEFT_INLINE float name(float v, int d) noexcept { return cuda(0xffffffffu, v, d); }               \
  WEFT_INLINE double name(double v, int d) noexcept { return cuda(0xffffffffu, v, d); }             \
  template <class T>                                                                                \
  WEFT_INLINE T name(T v, int d) noexcept {                                                         \
    if constexpr (sizeof(T) == 8) return static_cast<T>(cuda(0xffffffffu, static_cast<long long>(v), d)); \
    else return static_cast<T>(cuda(0xffffffffu, static_cast<int>(v), d));                          \
  }
WEFT_WARP_SHUFFLE(weft_warp_shuffle_up, __shfl_up_sync)
WEFT_WARP_SHUFFLE(weft_warp_shuffle_down, __shfl_down_sync)
WEFT_WARP_SHUFFLE(weft_warp_shuffle, __shfl_sync)
#undef WEFT_WARP_SHUFFLE
WEFT_INLINE unsigned weft_warp_ballot(int predicate) noexcept { return __ballot_sync(0xffffffffu, predicate); }

// ---- asynchronous copies into shared memory (CUDA only, for weft's generated kernels) -------
// weft_copy_async(dst, src) starts copying *src (4, 8 or 16 bytes) into the shared-memory
// *dst without passing through registers (cp.async, compute capability 8.0 and later; a plain
// copy before). weft_copy_async_commit() closes this thread's current group of copies;
// weft_copy_async_wait_all() waits until none of its groups is in flight. The
// copies are this thread's: a barrier makes them visible to the others.
template <class T>
WEFT_INLINE void weft_copy_async(T* dst, const T* src) noexcept {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16, "cp.async copies 4, 8 or 16 bytes");
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(dst))),
               "l"(src), "n"(sizeof(T))
               : "memory");
#else
  *dst = *src;
#endif
}
// weft_copy_async16(dst, src): 16 bytes, both 16-byte aligned, past L1 (cp.async.cg).
template <class T>
WEFT_INLINE void weft_copy_async16(T* dst, const T* src) noexcept {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(dst))),
               "l"(src)
               : "memory");
#else
  for (int k = 0; k < static_cast<int>(16 / sizeof(T)); ++k) dst[k] = src[k];
#endif
}
WEFT_INLINE void weft_copy_async_commit() noexcept {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
WEFT_INLINE void weft_copy_async_wait_all() noexcept {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
#endif
}

// weft_prefetch_l2(p, bytes) asks L2 to fetch bytes (a multiple of 16) from p (16-byte
// aligned) in one bulk request and returns at once (compute capability 9.0; nothing before).
template <class T>
WEFT_INLINE void weft_prefetch_l2(const T* p, unsigned bytes) noexcept {
#if __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(p), "r"(bytes) : "memory");
#else
  (void)p;
  (void)bytes;
#endif
}

// ---- 16-byte loads and stores (CUDA only, for weft's generated kernels) ---------------------
// weft_load16(p) reads the 16 bytes at p (16-byte aligned, global or shared memory) in one
// access, as 16 / sizeof(T) elements; weft_store16(p, v) writes them.
template <class T>
struct alignas(16) weft_vector16 {
  static_assert(16 % sizeof(T) == 0, "16-byte accesses of whole elements");
  T weft_item[16 / sizeof(T)];
};
template <class T>
WEFT_INLINE weft_vector16<T> weft_load16(const T* p) noexcept {
  return *reinterpret_cast<const weft_vector16<T>*>(p);
}
template <class T>
WEFT_INLINE void weft_store16(T* p, const weft_vector16<T>& v) noexcept {
  *reinterpret_cast<weft_vector16<T>*>(p) = v;
}
// weft_load16_readonly(p): the same from global memory the kernel does not write, through
// the read-only path (ld.global.nc). The sum's 16-byte loads need it: with plain loads an
// H200 took 80 us for 2^26 floats against 66 us (git history of bench/results).
template <class T>
WEFT_INLINE weft_vector16<T> weft_load16_readonly(const T* p) noexcept {
  union {
    ::uint4 bits;
    weft_vector16<T> items;
  } u;
  u.bits = __ldg(reinterpret_cast<const ::uint4*>(p));
  return u.items;
}

// ---- work-group functions: OpenCL 1.2's asynchronous copies, OpenCL C 2.0's collectives ----
// Every thread of the block calls them alike (as OpenCL requires); they synchronize the block.
typedef int event_t;
WEFT_INLINE unsigned weft_group_thread() noexcept {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
WEFT_INLINE unsigned weft_group_threads() noexcept { return blockDim.x * blockDim.y * blockDim.z; }
template <class T>
WEFT_INLINE event_t async_work_group_copy(T* dst, const T* src, size_t n, event_t e) noexcept {
  for (size_t i = weft_group_thread(); i < n; i += weft_group_threads()) dst[i] = src[i];
  return e;
}
// Global to shared memory strides the source, shared to global the destination.
template <class T>
WEFT_INLINE event_t async_work_group_strided_copy(T* dst, const T* src, size_t n, size_t stride, event_t e) noexcept {
  const bool to_shared = __isShared(dst);
  for (size_t i = weft_group_thread(); i < n; i += weft_group_threads()) {
    if (to_shared) dst[i] = src[i * stride];
    else dst[i * stride] = src[i];
  }
  return e;
}
WEFT_INLINE void wait_group_events(int, event_t*) noexcept { __syncthreads(); }
template <class T>
WEFT_INLINE void prefetch(const T*, size_t) noexcept {}

enum class weft_group_op { add, min, max };
template <class T, weft_group_op O>
WEFT_INLINE T weft_group_combine(T a, T b) noexcept {
  if constexpr (O == weft_group_op::add) return a + b;
  else if constexpr (O == weft_group_op::min) return b < a ? b : a;
  else return a < b ? b : a;
}
template <class T, weft_group_op O>
WEFT_INLINE T weft_group_identity() noexcept {
  if constexpr (O == weft_group_op::add) return T(0);
  else if constexpr (weft_std::is_integral_v<T>) {
    return O == weft_group_op::min ? weft_std::numeric_limits<T>::max() : weft_std::numeric_limits<T>::min();
  } else {
    return O == weft_group_op::min ? T(__int_as_float(0x7f800000)) : T(-__int_as_float(0x7f800000));
  }
}
// A shuffle among the warp's `active` first lanes (the block's last warp may be partial).
template <class T>
WEFT_INLINE T weft_group_shuffle(T v, int d, bool up, unsigned active) noexcept {
  const unsigned mask = active >= 32 ? 0xffffffffu : (1u << active) - 1u;
  if constexpr (sizeof(T) == 8) {
    long long b = weft_std::bit_cast<long long>(v);
    b = up ? __shfl_up_sync(mask, b, d) : __shfl_down_sync(mask, b, d);
    v = weft_std::bit_cast<T>(b);
  } else if constexpr (sizeof(T) == 4) {
    int b = weft_std::bit_cast<int>(v);
    b = up ? __shfl_up_sync(mask, b, d) : __shfl_down_sync(mask, b, d);
    v = weft_std::bit_cast<T>(b);
  } else {
    v = static_cast<T>(up ? __shfl_up_sync(mask, static_cast<int>(v), d) : __shfl_down_sync(mask, static_cast<int>(v), d));
  }
  return v;
}
template <class T, weft_group_op O>
WEFT_INLINE T weft_group_reduce(T x) noexcept {
  __shared__ T part[32];
  const unsigned t = weft_group_thread(), n = weft_group_threads(), lane = t & 31u, warp = t >> 5;
  const unsigned warps = (n + 31u) / 32u;
  unsigned active = n - warp * 32u < 32u ? n - warp * 32u : 32u;
  T v = x;
  for (int d = 16; d > 0; d >>= 1) {
    const T o = weft_group_shuffle(v, d, false, active);
    if (lane + d < active) v = weft_group_combine<T, O>(v, o);
  }
  if (lane == 0) part[warp] = v;
  __syncthreads();
  if (warp == 0) {
    active = warps < 32u ? (n < 32u ? n : 32u) : 32u;
    v = lane < warps ? part[lane] : weft_group_identity<T, O>();
    for (int d = 16; d > 0; d >>= 1) {
      const T o = weft_group_shuffle(v, d, false, active);
      if (lane + d < active) v = weft_group_combine<T, O>(v, o);
    }
    if (lane == 0) part[0] = v;
  }
  __syncthreads();
  const T r = part[0];
  __syncthreads();
  return r;
}
template <class T, weft_group_op O, bool Inclusive>
WEFT_INLINE T weft_group_scan(T x) noexcept {
  __shared__ T part[32];
  const unsigned t = weft_group_thread(), n = weft_group_threads(), lane = t & 31u, warp = t >> 5;
  const unsigned warps = (n + 31u) / 32u;
  const unsigned active = n - warp * 32u < 32u ? n - warp * 32u : 32u;
  T v = x;  // inclusive within the warp
  for (int d = 1; d < 32; d <<= 1) {
    const T o = weft_group_shuffle(v, d, true, active);
    if (lane >= static_cast<unsigned>(d)) v = weft_group_combine<T, O>(o, v);
  }
  if (lane == active - 1u) part[warp] = v;
  __syncthreads();
  if (t == 0) {  // the warps' totals to exclusive prefixes (32 at most)
    T acc = weft_group_identity<T, O>();
    for (unsigned w = 0; w < warps; ++w) {
      const T next = weft_group_combine<T, O>(acc, part[w]);
      part[w] = acc;
      acc = next;
    }
  }
  __syncthreads();
  const T before = part[warp];
  T r;
  if constexpr (Inclusive) {
    r = weft_group_combine<T, O>(before, v);
  } else {
    const T prev = weft_group_shuffle(v, 1, true, active);
    r = lane == 0 ? before : weft_group_combine<T, O>(before, prev);
  }
  __syncthreads();
  return r;
}
#define WEFT_GROUP_FUNCTIONS(op)                                                                                      \
  template <class T>                                                                                                  \
  WEFT_INLINE T work_group_reduce_##op(T x) noexcept { return weft_group_reduce<T, weft_group_op::op>(x); }          \
  template <class T>                                                                                                  \
  WEFT_INLINE T work_group_scan_inclusive_##op(T x) noexcept { return weft_group_scan<T, weft_group_op::op, true>(x); } \
  template <class T>                                                                                                  \
  WEFT_INLINE T work_group_scan_exclusive_##op(T x) noexcept { return weft_group_scan<T, weft_group_op::op, false>(x); }
WEFT_GROUP_FUNCTIONS(add)
WEFT_GROUP_FUNCTIONS(min)
WEFT_GROUP_FUNCTIONS(max)
#undef WEFT_GROUP_FUNCTIONS
WEFT_INLINE int work_group_any(int predicate) noexcept { return __syncthreads_or(predicate) != 0; }
WEFT_INLINE int work_group_all(int predicate) noexcept { return __syncthreads_and(predicate) != 0; }
template <class T>
WEFT_INLINE T work_group_broadcast(T v, size_t x, size_t y = 0, size_t z = 0) noexcept {
  __shared__ T value;
  if (threadIdx.x == x && threadIdx.y == y && threadIdx.z == z) value = v;
  __syncthreads();
  const T r = value;
  __syncthreads();
  return r;
}

}  // namespace weft_kernel

// ---- the dialect's spellings --------------------------------------------------------------
// __kernel, __local, __constant and the unprefixed global, local, constant and private are
// rewritten token by token (cuda_translate.cpp): NVRTC's own __global__, __shared__ and
// __constant__ are macros over those words, so they must not be macros here.
#define __global
#define __private
#define __read_only
#define read_only
#define __write_only
#define write_only
#define __read_write
#define read_write
#define restrict __restrict__
#define WEFT_CUDA 1
#define WEFT_PTX 1  // the helpers of src/kernels/cl/ptx_opencl.cl, defined above for CUDA
// Full unrolling of a loop with a constant trip count (generated kernels; empty elsewhere).
#define WEFT_UNROLL _Pragma("unroll")
#define INFINITY __int_as_float(0x7f800000)
#define NAN __int_as_float(0x7fffffff)
#define HUGE_VALF INFINITY
#define HUGE_VAL __longlong_as_double(0x7ff0000000000000LL)
// What CUDA's ilogb returns for 0 and NaN.
#define FP_ILOGB0 (-2147483647 - 1)
#define FP_ILOGBNAN (-2147483647 - 1)
#ifndef NULL
#define NULL 0
#endif
