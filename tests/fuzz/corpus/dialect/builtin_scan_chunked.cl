// Scans in three passes over contiguous chunks, one work-item each: chunk totals, the carry
// into each chunk (one work-item), then each chunk scanned again from its carry. For CPUs,
// where a core streams through its own range, and for segmented scans everywhere.
__kernel void weft_scan_partial(${ARGS}long ${N}, __global weft_scan_t *weft_partial,
                                __global int *weft_flags, long weft_chunk)
{
    const long weft_g = get_global_id(0);
    const long weft_begin = weft_g * weft_chunk;
    const long weft_end = min(weft_begin + weft_chunk, (long)${N});
    weft_scan_t weft_acc = ${NEUTRAL};
    int weft_flag = 0;
#if WEFT_SEGMENTED
    for (long i = weft_begin; i < weft_end; ++i) {
        if (weft_segment_start(i, ${NAMES}${N})) {
            weft_acc = ${NEUTRAL};
            weft_flag = 1;
        }
        weft_acc = WEFT_SCAN(weft_acc, weft_input(i, ${NAMES}${N}));
    }
#else
    // The chunk's total as 16 independent chains over contiguous sub-ranges, combined in
    // order: no dependency between neighbours, and no commutativity assumed.
    const long sub = (weft_end - weft_begin) / 16;
    weft_scan_t part[16];
    for (int weft_k = 0; weft_k < 16; ++weft_k) part[weft_k] = ${NEUTRAL};
    for (long weft_j = 0; weft_j < sub; ++weft_j) {
        for (int weft_k = 0; weft_k < 16; ++weft_k) part[weft_k] = WEFT_SCAN(part[weft_k], weft_input(weft_begin + weft_k * sub + weft_j, ${NAMES}${N}));
    }
    for (int weft_k = 0; weft_k < 16; ++weft_k) weft_acc = WEFT_SCAN(weft_acc, part[weft_k]);
    for (long i = weft_begin + 16 * sub; i < weft_end; ++i) weft_acc = WEFT_SCAN(weft_acc, weft_input(i, ${NAMES}${N}));
#endif
    weft_partial[weft_g] = weft_acc;
    weft_flags[weft_g] = weft_flag;
}

// In place: chunk totals become the carry into each chunk.
__kernel void weft_scan_carry(__global weft_scan_t *weft_partial, __global const int *weft_flags,
                              long weft_count)
{
    weft_scan_t acc = ${NEUTRAL};
    for (long g = 0; g < weft_count; ++g) {
        const weft_scan_t total = weft_partial[g];
        weft_partial[g] = acc;
        acc = weft_flags[g] ? total : WEFT_SCAN(acc, total);
    }
}

__kernel void weft_scan_final(${ARGS}long ${N}, __global const weft_scan_t *weft_carry, long weft_chunk)
{
    const long weft_g = get_global_id(0);
    const long weft_begin = weft_g * weft_chunk;
    const long weft_end = min(weft_begin + weft_chunk, (long)${N});
    weft_scan_t weft_acc = weft_carry[weft_g];
    for (long i = weft_begin; i < weft_end; ++i) {
        if (WEFT_SEGMENTED && weft_segment_start(i, ${NAMES}${N})) weft_acc = ${NEUTRAL};
        const weft_scan_t prev_item = weft_acc;
        weft_acc = WEFT_SCAN(weft_acc, weft_input(i, ${NAMES}${N}));
        const weft_scan_t item = weft_acc;
        {
${OUTPUT};
        }
    }
}
