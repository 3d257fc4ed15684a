// The ReductionKernel's work-group variant (OpenCL devices, GPUs), pasted after reduction.cl.
// A work-group's items stride through the input a grid apart (coalesced), then combine in
// local memory as a tree.
#ifndef WEFT_REDUCE_LOADS
#define WEFT_REDUCE_LOADS 8
#endif
#ifndef WEFT_UNROLL
#define WEFT_UNROLL
#endif
void weft_group_reduce(weft_out_t acc, __local weft_out_t *scratch, __global weft_out_t *out)
{
    const int lid = get_local_id(0);
#if WEFT_CUDA
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

void weft_reduce_partial_body(${ARGS}long ${N}, __global weft_out_t *weft_partial,
                              __local weft_out_t *weft_scratch)
{
    // WEFT_REDUCE_LOADS loads in flight per item (independent accumulators): enough memory
    // traffic to keep HBM busy.
    const long G = get_global_size(0);
    long i = get_global_id(0);
    weft_out_t acc[WEFT_REDUCE_LOADS];
    WEFT_UNROLL
    for (int k = 0; k < WEFT_REDUCE_LOADS; ++k) acc[k] = ${NEUTRAL};
    for (; i + (WEFT_REDUCE_LOADS - 1) * G < ${N}; i += WEFT_REDUCE_LOADS * G) {
        WEFT_UNROLL
        for (int k = 0; k < WEFT_REDUCE_LOADS; ++k) acc[k] = WEFT_REDUCE(acc[k], weft_map(i + k * G, ${NAMES}${N}));
    }
    for (; i < ${N}; i += G) acc[0] = WEFT_REDUCE(acc[0], weft_map(i, ${NAMES}${N}));
    // Pairwise, as a tree.
    WEFT_UNROLL
    for (int width = 1; width < WEFT_REDUCE_LOADS; width <<= 1) {
        WEFT_UNROLL
        for (int k = 0; k + width < WEFT_REDUCE_LOADS; k += 2 * width) acc[k] = WEFT_REDUCE(acc[k], acc[k + width]);
    }
    weft_group_reduce(acc[0], weft_scratch, weft_partial + get_group_id(0));
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
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        weft_last = atomic_inc(weft_ticket) == (int)get_num_groups(0) - 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!weft_last) return;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    weft_out_t acc = ${NEUTRAL};
    const __global volatile weft_out_t *partial = weft_partial;
    for (long i = get_local_id(0); i < (long)get_num_groups(0); i += get_local_size(0)) {
        acc = WEFT_REDUCE(acc, partial[i]);
    }
    weft_group_reduce(acc, weft_scratch, weft_result);
    if (get_local_id(0) == 0) *weft_ticket = 0;
}
