// The histogram kernels (src/algorithms/histogram_kernel.cpp generates what goes before):
//   long weft_bin(long i, <arguments>)        the bin of element i, or -1 where it counts nowhere
//   weft_acc_t weft_weight(long i, <arguments>) what element i adds to its bin
//   weft_acc_t                                the type bins accumulate in: long (counts, integer
//                                             weights, exact) or double (floating weights)
//   WEFT_WEIGHTED                             1 when weights are given (else every element adds 1)
// ${ARGS} is the parameter list of both functions and ${NAMES} the names to pass them on.
//
// Pasted after it: one variant, whose file gives each worker a histogram of its own (merged
// once, so elements never contend for one global counter):
//   histogram_private.cl    devices without work-groups (the host backend): work-item g owns
//                           the region g of partials and the contiguous chunk g of the elements;
//                           plain increments, no atomics.
//   histogram_local.cl      devices with barriers: each work-group counts in __local memory
//                           (atomics there stay inside the compute unit), then writes its
//                           histogram as region g of partials.
//   histogram_global.cl     bins too many for local memory: 64-bit atomics straight into the
//                           result, which many bins spread thin.
// weft_histogram_merge adds the regions bin by bin (private and local variants).

__kernel void weft_histogram_merge(__global const weft_acc_t *weft_partials, long weft_parts, long weft_nbins,
                                   __global weft_acc_t *weft_out)
{
    const long b = get_global_id(0);
    if (b >= weft_nbins) return;
    weft_acc_t s = 0;
    for (long p = 0; p < weft_parts; ++p) s += weft_partials[p * weft_nbins + b];
    weft_out[b] = s;
}
