// The scan template's head (src/kernels/generators/scan.cpp substitutes the dollar-brace
// placeholders), followed by one of two algorithms: scan_chunked.cl (CPUs, segmented scans)
// or scan_lookback.cl (GPUs). The user's output statement sees i, item (the inclusive
// prefix) and prev_item (the exclusive one). Segments: where the segment-start expression
// holds, the scan starts again from neutral.
${PREAMBLE}
typedef ${T} weft_scan_t;
// A function, not a macro: arguments that are expressions keep their meaning.
weft_scan_t weft_scan_op(weft_scan_t a, weft_scan_t b)
{
    return (weft_scan_t)(${SCAN});
}
#define WEFT_SCAN(a, b) weft_scan_op((a), (b))

weft_scan_t weft_input(long i, ${ARGS}long ${N})
{
    return (weft_scan_t)(${INPUT});
}

int weft_segment_start(long i, ${ARGS}long ${N})
{
    return (${SEGMENT}) ? 1 : 0;
}
