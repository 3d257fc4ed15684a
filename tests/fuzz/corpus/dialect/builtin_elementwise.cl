// The ElementwiseKernel template (src/kernels/generators/elementwise.cpp substitutes the dollar-brace placeholders).
// WEFT_EXACT (the host): one work-item per element and exactly n of them, so the body has no
// bounds check and the host compiler vectorizes it. Otherwise each work-item takes
// WEFT_ITEMS elements a grid apart (coalesced, and several loads in flight per thread).
${PREAMBLE}
__kernel void ${NAME}(${ARGS}long ${N})
{
#if WEFT_EXACT
    const long i = get_global_id(0);
    {
${OPERATION};
    }
#else
    for (int weft_k = 0; weft_k < WEFT_ITEMS; ++weft_k) {
        const long i = (long)get_global_id(0) + (long)weft_k * (long)get_global_size(0);
        if (i < ${N}) {
${OPERATION};
        }
    }
#endif
}
