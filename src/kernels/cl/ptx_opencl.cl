// PTX helpers for OpenCL C on NVIDIA GPUs (compute capability 7.0 and later), pasted before
// the generated scan and reduction kernels. NVIDIA's OpenCL compiler takes inline PTX as CUDA
// does, so weft's generated kernels use the same helpers through either backend: the CUDA
// prelude (src/dialect/prelude/cuda_prelude.cuh) defines them for CUDA, this file for OpenCL. The
// generator sets WEFT_PTX=1 for NVIDIA's OpenCL devices only (device_style), with
// WEFT_PTX_ARCH the compute capability (90 for sm_90); everywhere else this file is empty.
//
// What a generated kernel may use under WEFT_PTX:
//   weft_barrier_among(id, count)   barrier `id` (1-15) among `count` work-items (whole warps)
//   weft_sleep(ns)                  the warp idles about ns nanoseconds
//   weft_device_fence()             orders this work-item's global accesses at device scope
//   weft_load16_nc(address)         16 bytes of read-only global memory as a uint4
//   weft_warp_ballot(predicate)     the warp's predicates as a 32-bit mask (lane 0: bit 0)
//   weft_ffs(x)                     the lowest set bit's position from 1 (0 for 0)
//   weft_store_pair / weft_load_pair  two 8-byte global words in one 16-byte access
//   weft_copy_async(dst, src), weft_copy_async16(dst, src), weft_copy_async_commit(),
//   weft_copy_async_wait_all()      global to local memory past registers (WEFT_PTX_ARCH >= 80)
//   weft_prefetch_l2(p, bytes)      one bulk request into L2 (WEFT_PTX_ARCH >= 90)
//   WEFT_PTX_WARP_FUNCTIONS(T)      defines weft_warp_shuffle, _up and _down for type T
//                                   (templates in CUDA; OpenCL C needs one set per type)
//   WEFT_PTX_VECTOR16(T, name)      a union of 16 bytes of T, accessed 16 bytes at a time
#if WEFT_PTX && !WEFT_CUDA
#define WEFT_UNROLL _Pragma("unroll")

inline void weft_barrier_among(int id, int count)
{
    asm volatile("barrier.sync %0, %1;" :: "r"(id), "r"(count) : "memory");
}

inline void weft_sleep(uint ns)
{
    asm volatile("nanosleep.u32 %0;" :: "r"(ns));
}

inline void weft_device_fence(void)
{
    asm volatile("membar.gl;" ::: "memory");
}

// The position of the lowest set bit, counted from 1 (CUDA's __ffs); 0 for 0.
inline int weft_ffs(uint x)
{
    int r;
    asm("{ .reg .b32 t; brev.b32 t, %1; clz.b32 %0, t; }" : "=r"(r) : "r"(x));
    return x ? r + 1 : 0;
}

inline uint weft_warp_ballot(int predicate)
{
    uint r;
    asm volatile("{ .reg .pred p; setp.ne.s32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }"
                 : "=r"(r) : "r"(predicate));
    return r;
}

inline void weft_store_pair(__global volatile ulong *p, ulong a, ulong b)
{
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" :: "l"(p), "l"(a), "l"(b) : "memory");
}

inline void weft_load_pair(__global volatile ulong *p, ulong *a, ulong *b)
{
    ulong x, y;
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(x), "=l"(y) : "l"(p) : "memory");
    *a = x;
    *b = y;
}

#if WEFT_PTX_ARCH >= 80
// A local pointer's value is its offset in the shared window, as cp.async wants it.
inline void weft_copy_async_bytes(uint dst, ulong src, uint bytes)
{
    if (bytes == 4) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(dst), "l"(src) : "memory");
    else if (bytes == 8) asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(dst), "l"(src) : "memory");
    else asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(src) : "memory");
}
#define weft_copy_async(dst, src) weft_copy_async_bytes((uint)(ulong)(dst), (ulong)(src), (uint)sizeof(*(dst)))
#define weft_copy_async16(dst, src) \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"((uint)(ulong)(dst)), "l"((ulong)(src)) : "memory")

inline void weft_copy_async_commit(void)
{
    asm volatile("cp.async.commit_group;" ::: "memory");
}

inline void weft_copy_async_wait_all(void)
{
    asm volatile("cp.async.wait_group 0;" ::: "memory");
}
#endif

// 16 bytes from global memory the kernel does not write, through the read-only path.
inline uint4 weft_load16_nc(ulong p)
{
    uint a, b, c, d;
    asm("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(p));
    return (uint4)(a, b, c, d);
}

#if WEFT_PTX_ARCH >= 90
#define weft_prefetch_l2(p, bytes) \
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" :: "l"((ulong)(p)), "r"((uint)(bytes)) : "memory")
#endif

// Shuffles of any type, a 4-byte word at a time (all 32 lanes call them together).
#define WEFT_PTX_SHUFFLE(T, name, mode, c)                                                              \
    inline T name(T v, int d)                                                                           \
    {                                                                                                   \
        union { T value; uint word[(sizeof(T) + 3) / 4]; } u;                                          \
        u.value = v;                                                                                    \
        _Pragma("unroll")                                                                               \
        for (int k = 0; k < (int)((sizeof(T) + 3) / 4); ++k)                                            \
            asm volatile("shfl.sync." mode ".b32 %0, %1, %2, " c ", 0xffffffff;" : "=r"(u.word[k]) : "r"(u.word[k]), "r"(d)); \
        return u.value;                                                                                 \
    }
#define WEFT_PTX_WARP_FUNCTIONS(T)                                  \
    WEFT_PTX_SHUFFLE(T, weft_warp_shuffle, "idx", "0x1f")           \
    WEFT_PTX_SHUFFLE(T, weft_warp_shuffle_up, "up", "0")            \
    WEFT_PTX_SHUFFLE(T, weft_warp_shuffle_down, "down", "0x1f")
// WEFT_PTX_VECTOR16(T, name): a type of 16 bytes of T elements (.weft_item[k]) that moves
// as one 16-byte access (.weft_bits); CUDA has the template weft_vector16<T> instead.
#define WEFT_PTX_VECTOR16(T, name) typedef union { uint4 weft_bits; T weft_item[16 / sizeof(T)]; } name;
#define WEFT_DEVICE_FENCE() weft_device_fence()
#endif
// WEFT_DEVICE_FENCE(): a fence at device scope, between a value published for other
// work-groups and the flag that announces it (and between reading the flag and the value).
// Through NVIDIA's OpenCL, OpenCL C's own mem_fence may order within the work-group only.
#ifndef WEFT_DEVICE_FENCE
#define WEFT_DEVICE_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
