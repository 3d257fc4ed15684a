// The ReductionKernel's host variant, pasted after reduction.cl.
// Work-item g reduces the contiguous chunk [g * chunk, (g + 1) * chunk) with 16 independent
// accumulators: no dependency chain between neighbours, so the compiler can keep them in one
// vector register for simple operators.
__kernel void weft_reduce_partial(${ARGS}long ${N}, __global weft_out_t *weft_partial, long weft_chunk)
{
    const long weft_g = get_global_id(0);
    const long weft_begin = weft_g * weft_chunk;
    const long weft_end = min(weft_begin + weft_chunk, (long)${N});
    weft_out_t weft_acc[16];
    for (int weft_k = 0; weft_k < 16; ++weft_k) weft_acc[weft_k] = ${NEUTRAL};
    long i = weft_begin;
    for (; i + 16 <= weft_end; i += 16) {
        for (int weft_k = 0; weft_k < 16; ++weft_k) weft_acc[weft_k] = WEFT_REDUCE(weft_acc[weft_k], weft_map(i + weft_k, ${NAMES}${N}));
    }
    for (; i < weft_end; ++i) weft_acc[0] = WEFT_REDUCE(weft_acc[0], weft_map(i, ${NAMES}${N}));
    for (int weft_k = 1; weft_k < 16; ++weft_k) weft_acc[0] = WEFT_REDUCE(weft_acc[0], weft_acc[weft_k]);
    weft_partial[weft_g] = weft_acc[0];
}

__kernel void weft_reduce_finish(__global const weft_out_t *weft_partial, long weft_count,
                                 __global weft_out_t *weft_result)
{
    weft_out_t acc = ${NEUTRAL};
    for (long i = 0; i < weft_count; ++i) acc = WEFT_REDUCE(acc, weft_partial[i]);
    weft_result[0] = acc;
}
