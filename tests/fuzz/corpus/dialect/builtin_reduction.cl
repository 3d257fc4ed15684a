// The ReductionKernel template (src/kernels/generators/reduction.cpp substitutes the dollar-brace placeholders): one pass
// that reads each input once and leaves one partial per work-group (per chunk on the host),
// then a tiny finish over the partials. REDUCE must be associative and commutative.
${PREAMBLE}
typedef ${OUT} weft_out_t;
// A function, not a macro: arguments that are expressions keep their meaning.
weft_out_t weft_reduce_op(weft_out_t a, weft_out_t b)
{
    return (weft_out_t)(${REDUCE});
}
#define WEFT_REDUCE(a, b) weft_reduce_op((a), (b))

weft_out_t weft_map(long i, ${ARGS}long ${N})
{
    return (weft_out_t)(${MAP});
}
