// The histogram kernel for bins too many for local memory, after histogram.cl.
#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif

// Adds v to a double through a compare-and-swap on its bits (OpenCL C 1.2 has no atomic
// floating-point add).
inline void weft_atomic_add_double(__global double *p, double v)
{
    __global long *bits = (__global long *)p;
    long seen = *bits;
    for (;;) {
        const long expected = seen;
        seen = atom_cmpxchg(bits, expected, as_long(as_double(expected) + v));
        if (seen == expected) break;
    }
}

// weft_out holds zeros when the kernel starts.
__kernel void weft_histogram_global(${ARGS}long weft_n, long weft_nbins, __global weft_acc_t *weft_out)
{
    const long weft_stride = get_global_size(0);
    for (long i = get_global_id(0); i < weft_n; i += weft_stride) {
        const long b = weft_bin(i, ${NAMES});
        if (b < 0) continue;
#if !WEFT_WEIGHTED
        atom_inc(weft_out + b);
#elif WEFT_FLOAT_WEIGHTS
        weft_atomic_add_double(weft_out + b, weft_weight(i, ${NAMES}));
#else
        atom_add(weft_out + b, weft_weight(i, ${NAMES}));
#endif
    }
}
