// The ReductionKernel's host variant, pasted after reduction.cl.
// Work-item g reduces the contiguous chunk [g * chunk, (g + 1) * chunk) with 16 independent
// accumulators: no dependency chain between neighbours, so the compiler can keep them in one
// vector register for simple operators.
__kernel void weft_reduce_partial(${ARGS}long ${N}, __global weft_out_t *weft_partial, long weft_chunk)
{
    const long g = get_global_id(0);
    const long begin = g * weft_chunk;
    const long end = min(begin + weft_chunk, (long)${N});
    weft_out_t acc[16];
    for (int k = 0; k < 16; ++k) acc[k] = ${NEUTRAL};
    long i = begin;
    for (; i + 16 <= end; i += 16) {
        for (int k = 0; k < 16; ++k) acc[k] = WEFT_REDUCE(acc[k], weft_map(i + k, ${NAMES}${N}));
    }
    for (; i < end; ++i) acc[0] = WEFT_REDUCE(acc[0], weft_map(i, ${NAMES}${N}));
    for (int k = 1; k < 16; ++k) acc[0] = WEFT_REDUCE(acc[0], acc[k]);
    weft_partial[g] = acc[0];
}

__kernel void weft_reduce_finish(__global const weft_out_t *weft_partial, long weft_count,
                                 __global weft_out_t *weft_result)
{
    weft_out_t acc = ${NEUTRAL};
    for (long i = 0; i < weft_count; ++i) acc = WEFT_REDUCE(acc, weft_partial[i]);
    weft_result[0] = acc;
}
