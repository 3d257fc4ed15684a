// The ReductionKernel's work-group variant (OpenCL devices, GPUs), pasted after reduction.cl.
// A work-group's items stride through the input a grid apart (coalesced), then combine in
// local memory as a tree.
#ifndef WEFT_REDUCE_LOADS
#define WEFT_REDUCE_LOADS 8
#endif
#ifndef WEFT_UNROLL
#define WEFT_UNROLL
#endif
#if WEFT_PTX && !WEFT_CUDA
WEFT_PTX_WARP_FUNCTIONS(weft_out_t)
#endif
void weft_group_reduce(weft_out_t acc, __local weft_out_t *scratch, __global weft_out_t *out)
{
    const int lid = get_local_id(0);
#if WEFT_PTX
    // Warps fold by shuffles, then the first warp folds the warps' results: two barriers'
    // worth of waiting instead of a tree's eight (this is every work-group's tail).
    if (get_local_size(0) % 32 == 0) {
        for (int offset = 16; offset > 0; offset >>= 1) acc = WEFT_REDUCE(acc, weft_warp_shuffle_down(acc, offset));
        const int warps = get_local_size(0) / 32;
        if ((lid & 31) == 0) scratch[lid >> 5] = acc;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < 32) {
            acc = lid < warps ? scratch[lid] : scratch[0];
            for (int offset = 16; offset > 0; offset >>= 1) {
                const weft_out_t other = weft_warp_shuffle_down(acc, offset);
                if (lid + offset < warps) acc = WEFT_REDUCE(acc, other);
            }
            if (lid == 0) *out = acc;
        }
        return;
    }
#endif
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s) scratch[lid] = WEFT_REDUCE(scratch[lid], scratch[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) *out = scratch[0];
}

// WEFT_REDUCE_SOURCE (set by the generator when the map is `x[i]` of the result's own 4- or
// 8-byte type) names the array read: on NVIDIA GPUs (PTX) it is read 16 bytes per load where it starts on
// a 16-byte boundary, WEFT_REDUCE_VECTORS loads in flight per item (0: element by element),
// each element of a load into its own accumulator. On an H200 (measured in an experiment; see the git
// history of bench/lab) two 16-byte loads per item stream faster than eight 4-byte ones, and
// than one, three or four 16-byte ones.
#ifndef WEFT_REDUCE_VECTORS
#define WEFT_REDUCE_VECTORS 2
#endif
#if WEFT_PTX && defined(WEFT_REDUCE_SOURCE) && WEFT_REDUCE_VECTORS > 0
#define WEFT_REDUCE_WIDE 1
#else
#define WEFT_REDUCE_WIDE 0
#endif
#if WEFT_REDUCE_WIDE
// 16 bytes of elements: weft_vector16 in CUDA, a union in OpenCL C.
#if WEFT_CUDA
#define WEFT_OUT_VEC16 weft_vector16<weft_out_t>
#define weft_load16_source(p) weft_load16_readonly(p)
#else
WEFT_PTX_VECTOR16(weft_out_t, weft_out_vec16)
#define WEFT_OUT_VEC16 weft_out_vec16
weft_out_vec16 weft_load16_source(__global const weft_out_t *p)
{
    weft_out_vec16 v;
    v.weft_bits = weft_load16_nc((ulong)p);
    return v;
}
#endif
#define WEFT_PER_VECTOR (16 / (int)sizeof(weft_out_t))
#define WEFT_VECTOR_ACCS (WEFT_REDUCE_VECTORS * WEFT_PER_VECTOR)
weft_out_t weft_reduce_vectors(${ARGS}long ${N})
{
    // The grid is one wave of work-groups: its size fits an int, and 32-bit steps keep the
    // registers (and so the work-groups a compute unit holds) where they were planned.
    const int weft_G = (int)get_global_size(0);
    const long weft_vectors = ${N} / WEFT_PER_VECTOR;
    long weft_v = get_global_id(0);
    weft_out_t weft_acc[WEFT_VECTOR_ACCS];
    WEFT_UNROLL
    for (int weft_k = 0; weft_k < WEFT_VECTOR_ACCS; ++weft_k) weft_acc[weft_k] = ${NEUTRAL};
    const long weft_whole = weft_vectors - (WEFT_REDUCE_VECTORS - 1) * weft_G;
    for (; weft_v < weft_whole; weft_v += WEFT_REDUCE_VECTORS * weft_G) {
        WEFT_OUT_VEC16 weft_r[WEFT_REDUCE_VECTORS];
        WEFT_UNROLL
        for (int weft_k = 0; weft_k < WEFT_REDUCE_VECTORS; ++weft_k) weft_r[weft_k] = weft_load16_source(WEFT_REDUCE_SOURCE + (weft_v + (long)(weft_k * weft_G)) * WEFT_PER_VECTOR);
        WEFT_UNROLL
        for (int weft_k = 0; weft_k < WEFT_REDUCE_VECTORS; ++weft_k) {
            WEFT_UNROLL
            for (int weft_e = 0; weft_e < WEFT_PER_VECTOR; ++weft_e) weft_acc[weft_k * WEFT_PER_VECTOR + weft_e] = WEFT_REDUCE(weft_acc[weft_k * WEFT_PER_VECTOR + weft_e], weft_r[weft_k].weft_item[weft_e]);
        }
    }
    for (; weft_v < weft_vectors; weft_v += weft_G) {
        const WEFT_OUT_VEC16 weft_r = weft_load16_source(WEFT_REDUCE_SOURCE + weft_v * WEFT_PER_VECTOR);
        WEFT_UNROLL
        for (int weft_e = 0; weft_e < WEFT_PER_VECTOR; ++weft_e) weft_acc[weft_e] = WEFT_REDUCE(weft_acc[weft_e], weft_r.weft_item[weft_e]);
    }
    // The elements past the last whole vector.
    for (long i = weft_vectors * WEFT_PER_VECTOR + get_global_id(0); i < ${N}; i += weft_G) weft_acc[0] = WEFT_REDUCE(weft_acc[0], weft_map(i, ${NAMES}${N}));
    WEFT_UNROLL
    for (int weft_width = 1; weft_width < WEFT_VECTOR_ACCS; weft_width <<= 1) {
        WEFT_UNROLL
        for (int weft_k = 0; weft_k + weft_width < WEFT_VECTOR_ACCS; weft_k += 2 * weft_width) weft_acc[weft_k] = WEFT_REDUCE(weft_acc[weft_k], weft_acc[weft_k + weft_width]);
    }
    return weft_acc[0];
}
#endif

void weft_reduce_partial_body(${ARGS}long ${N}, __global weft_out_t *weft_partial,
                              __local weft_out_t *weft_scratch)
{
#if WEFT_REDUCE_WIDE
    if (((ulong)WEFT_REDUCE_SOURCE & 15) == 0) {
        weft_group_reduce(weft_reduce_vectors(${NAMES}${N}), weft_scratch, weft_partial + get_group_id(0));
        return;
    }
#endif
    // WEFT_REDUCE_LOADS loads in flight per item (independent accumulators): enough memory
    // traffic to keep HBM busy.
    const long weft_G = get_global_size(0);
    long i = get_global_id(0);
    weft_out_t weft_acc[WEFT_REDUCE_LOADS];
    WEFT_UNROLL
    for (int weft_k = 0; weft_k < WEFT_REDUCE_LOADS; ++weft_k) weft_acc[weft_k] = ${NEUTRAL};
    for (; i + (WEFT_REDUCE_LOADS - 1) * weft_G < ${N}; i += WEFT_REDUCE_LOADS * weft_G) {
        WEFT_UNROLL
        for (int weft_k = 0; weft_k < WEFT_REDUCE_LOADS; ++weft_k) weft_acc[weft_k] = WEFT_REDUCE(weft_acc[weft_k], weft_map(i + weft_k * weft_G, ${NAMES}${N}));
    }
    for (; i < ${N}; i += weft_G) weft_acc[0] = WEFT_REDUCE(weft_acc[0], weft_map(i, ${NAMES}${N}));
    // Pairwise, as a tree.
    WEFT_UNROLL
    for (int weft_width = 1; weft_width < WEFT_REDUCE_LOADS; weft_width <<= 1) {
        WEFT_UNROLL
        for (int weft_k = 0; weft_k + weft_width < WEFT_REDUCE_LOADS; weft_k += 2 * weft_width) weft_acc[weft_k] = WEFT_REDUCE(weft_acc[weft_k], weft_acc[weft_k + weft_width]);
    }
    weft_group_reduce(weft_acc[0], weft_scratch, weft_partial + get_group_id(0));
}

__kernel void weft_reduce_partial(${ARGS}long ${N}, __global weft_out_t *weft_partial,
                                  __local weft_out_t *weft_scratch)
{
    weft_reduce_partial_body(${NAMES}${N}, weft_partial, weft_scratch);
}

__kernel void weft_reduce_finish(__global const weft_out_t *weft_partial, long weft_count,
                                 __global weft_out_t *weft_result, __local weft_out_t *weft_scratch)
{
    weft_out_t acc = ${NEUTRAL};
    for (long i = get_local_id(0); i < weft_count; i += get_local_size(0)) {
        acc = WEFT_REDUCE(acc, weft_partial[i]);
    }
    weft_group_reduce(acc, weft_scratch, weft_result);
}

// One launch instead of two, where fences reach the whole device: each work-group leaves its
// partial, and the last one to finish (an atomic ticket, after a device-scope fence) combines
// them all and resets the ticket for the next launch.
__kernel void weft_reduce_fused(${ARGS}long ${N}, __global weft_out_t *weft_partial,
                                __global weft_out_t *weft_result, __global volatile int *weft_ticket,
                                __local weft_out_t *weft_scratch)
{
    __local int weft_last;
    weft_reduce_partial_body(${NAMES}${N}, weft_partial, weft_scratch);
    if (get_local_id(0) == 0) {
        WEFT_DEVICE_FENCE();
        weft_last = atomic_inc(weft_ticket) == (int)get_num_groups(0) - 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!weft_last) return;
    WEFT_DEVICE_FENCE();
    weft_out_t weft_acc = ${NEUTRAL};
    const __global volatile weft_out_t *weft_partials = weft_partial;
    for (long i = get_local_id(0); i < (long)get_num_groups(0); i += get_local_size(0)) {
        weft_acc = WEFT_REDUCE(weft_acc, weft_partials[i]);
    }
    weft_group_reduce(weft_acc, weft_scratch, weft_result);
    if (get_local_id(0) == 0) *weft_ticket = 0;
}
