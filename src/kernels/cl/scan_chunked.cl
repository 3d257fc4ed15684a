// Scans in three passes over contiguous chunks, one work-item each: chunk totals, the carry
// into each chunk (one work-item), then each chunk scanned again from its carry. For CPUs,
// where a core streams through its own range, and for segmented scans everywhere.
__kernel void weft_scan_partial(${ARGS}long ${N}, __global weft_scan_t *weft_partial,
                                __global int *weft_flags, long weft_chunk)
{
    const long g = get_global_id(0);
    const long begin = g * weft_chunk;
    const long end = min(begin + weft_chunk, (long)${N});
    weft_scan_t acc = ${NEUTRAL};
    int flag = 0;
#if WEFT_SEGMENTED
    for (long i = begin; i < end; ++i) {
        if (weft_segment_start(i, ${NAMES}${N})) {
            acc = ${NEUTRAL};
            flag = 1;
        }
        acc = WEFT_SCAN(acc, weft_input(i, ${NAMES}${N}));
    }
#else
    // The chunk's total as 16 independent chains over contiguous sub-ranges, combined in
    // order: no dependency between neighbours, and no commutativity assumed.
    const long sub = (end - begin) / 16;
    weft_scan_t part[16];
    for (int k = 0; k < 16; ++k) part[k] = ${NEUTRAL};
    for (long j = 0; j < sub; ++j) {
        for (int k = 0; k < 16; ++k) part[k] = WEFT_SCAN(part[k], weft_input(begin + k * sub + j, ${NAMES}${N}));
    }
    for (int k = 0; k < 16; ++k) acc = WEFT_SCAN(acc, part[k]);
    for (long i = begin + 16 * sub; i < end; ++i) acc = WEFT_SCAN(acc, weft_input(i, ${NAMES}${N}));
#endif
    weft_partial[g] = acc;
    weft_flags[g] = flag;
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
    const long g = get_global_id(0);
    const long begin = g * weft_chunk;
    const long end = min(begin + weft_chunk, (long)${N});
    weft_scan_t acc = weft_carry[g];
    for (long i = begin; i < end; ++i) {
        if (WEFT_SEGMENTED && weft_segment_start(i, ${NAMES}${N})) acc = ${NEUTRAL};
        const weft_scan_t prev_item = acc;
        acc = WEFT_SCAN(acc, weft_input(i, ${NAMES}${N}));
        const weft_scan_t item = acc;
        {
${OUTPUT};
        }
    }
}
