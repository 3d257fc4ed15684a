// The float64 form of fft_scale.cl, for devices with double precision.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void weft_fft_scale_f64(__global double* x, const ulong offset, const ulong n, const double re,
                                 const double im) {
  const ulong i = get_global_id(0);
  if (i < n) x[offset + i] *= (i & 1) ? im : re;
}
