// The histogram kernel of devices without work-groups (the host backend), after histogram.cl.
__kernel void weft_histogram_private(${ARGS}long weft_n, long weft_nbins, long weft_chunk,
                                     __global weft_acc_t *weft_partials)
{
    const long weft_g = get_global_id(0);
    __global weft_acc_t *weft_h = weft_partials + weft_g * weft_nbins;
    for (long b = 0; b < weft_nbins; ++b) weft_h[b] = 0;
    const long weft_begin = weft_g * weft_chunk;
    const long weft_end = min(weft_begin + weft_chunk, weft_n);
    for (long i = weft_begin; i < weft_end; ++i) {
        const long b = weft_bin(i, ${NAMES});
#if WEFT_WEIGHTED
        if (b >= 0) weft_h[b] += weft_weight(i, ${NAMES});
#else
        if (b >= 0) weft_h[b] += 1;
#endif
    }
}
