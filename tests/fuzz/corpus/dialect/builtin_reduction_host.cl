// The ReductionKernel's host variant, pasted after reduction.cl.
// Work-item g reduces the contiguous chunk [g * chunk, (g + 1) * chunk) with WEFT_LANES
// independent accumulators: no dependency chain between neighbours, so the compiler keeps them
// in vector registers for simple operators. 32 rather than 16: with AVX-512, 16 float lanes
// are one register and every step waits on the previous add; two or more registers keep more
// loads in flight (2-core VM, interleaved: 11% less time on the host backend, 31-38% less on
// PoCL; 64 to 256 lanes gave no more). -DWEFT_LANES=K in the kernel's options overrides it.
#ifndef WEFT_LANES
#define WEFT_LANES 32
#endif
__kernel void weft_reduce_partial(${ARGS}long ${N}, __global weft_out_t *weft_partial, long weft_chunk)
{
    const long weft_g = get_global_id(0);
    const long weft_begin = weft_g * weft_chunk;
    const long weft_end = min(weft_begin + weft_chunk, (long)${N});
    weft_out_t weft_acc[WEFT_LANES];
    for (int weft_k = 0; weft_k < WEFT_LANES; ++weft_k) weft_acc[weft_k] = ${NEUTRAL};
    long i = weft_begin;
    for (; i + WEFT_LANES <= weft_end; i += WEFT_LANES) {
        for (int weft_k = 0; weft_k < WEFT_LANES; ++weft_k) weft_acc[weft_k] = WEFT_REDUCE(weft_acc[weft_k], weft_map(i + weft_k, ${NAMES}${N}));
    }
    for (; i < weft_end; ++i) weft_acc[0] = WEFT_REDUCE(weft_acc[0], weft_map(i, ${NAMES}${N}));
    for (int weft_k = 1; weft_k < WEFT_LANES; ++weft_k) weft_acc[0] = WEFT_REDUCE(weft_acc[0], weft_acc[weft_k]);
    weft_partial[weft_g] = weft_acc[0];
}

__kernel void weft_reduce_finish(__global const weft_out_t *weft_partial, long weft_count,
                                 __global weft_out_t *weft_result)
{
    weft_out_t acc = ${NEUTRAL};
    for (long i = 0; i < weft_count; ++i) acc = WEFT_REDUCE(acc, weft_partial[i]);
    weft_result[0] = acc;
}
