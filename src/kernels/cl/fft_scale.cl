// weft::fft's scaling for libraries that do not scale (cuFFT): x[i] *= re for even i, im for
// odd i, over n reals starting at element offset. Interleaved complex data takes (s, s) to
// scale and (s, -s) to scale and conjugate; real data (s, s).
__kernel void weft_fft_scale_f32(__global float* x, const ulong offset, const ulong n, const float re,
                                 const float im) {
  const ulong i = get_global_id(0);
  if (i < n) x[offset + i] *= (i & 1) ? im : re;
}
