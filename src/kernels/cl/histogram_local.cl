// The histogram kernel of devices with work-groups and local memory, after histogram.cl.
#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif

// Adds v to a double through a compare-and-swap on its bits (OpenCL C 1.2 has no atomic
// floating-point add).
inline void weft_atomic_add_double(__local double *p, double v)
{
    __local long *bits = (__local long *)p;
    long seen = *bits;
    for (;;) {
        const long expected = seen;
        seen = atom_cmpxchg(bits, expected, as_long(as_double(expected) + v));
        if (seen == expected) break;
    }
}

// Counts without weights go in 32-bit local counters (the atomics every device has); a
// work-group meets fewer than 2^32 elements (the launch sees to it).
#if WEFT_WEIGHTED
typedef weft_acc_t weft_local_t;
#else
typedef uint weft_local_t;
#endif
__kernel void weft_histogram_local(${ARGS}long weft_n, long weft_nbins, __global weft_acc_t *weft_partials,
                                   __local weft_local_t *weft_h)
{
    const long weft_lid = get_local_id(0);
    const long weft_lsize = get_local_size(0);
    for (long b = weft_lid; b < weft_nbins; b += weft_lsize) weft_h[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const long weft_stride = get_global_size(0);
    for (long i = get_global_id(0); i < weft_n; i += weft_stride) {
        const long b = weft_bin(i, ${NAMES});
        if (b < 0) continue;
#if !WEFT_WEIGHTED
        atomic_inc(weft_h + b);
#elif WEFT_FLOAT_WEIGHTS
        weft_atomic_add_double(weft_h + b, weft_weight(i, ${NAMES}));
#else
        atom_add(weft_h + b, weft_weight(i, ${NAMES}));
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __global weft_acc_t *weft_mine = weft_partials + (long)get_group_id(0) * weft_nbins;
    for (long b = weft_lid; b < weft_nbins; b += weft_lsize) weft_mine[b] = (weft_acc_t)weft_h[b];
}
