// The float64 kernels of weft::random::Generator, for devices with double precision: this file
// follows random.cl in their program (its Philox blocks and conventions are there).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// 2^-53, exactly.
#define WEFT_RANDOM_2_M53 1.1102230246251565404236316680908203125e-16

// [0, 1) and (0, 1] from two words: the top 53 bits of (hi, lo) times 2^-53.
double weft_unit_f64(uint lo, uint hi) { return (double)(((((ulong)hi) << 32) | (ulong)lo) >> 11) * WEFT_RANDOM_2_M53; }
double weft_unit_open_f64(uint lo, uint hi)
{
  return (double)((((((ulong)hi) << 32) | (ulong)lo) >> 11) + 1) * WEFT_RANDOM_2_M53;
}

// Elements 2b (words x, y) and 2b + 1 (words z, w).
__kernel void weft_uniform_f64(__global double *out, ulong n, ulong seed, ulong base_lo, ulong base_hi,
                               double low, double range)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  ulong i = 2 * b;
  if (i < n) out[i] = fma(range, weft_unit_f64(w[0], w[1]), low);
  if (i + 1 < n) out[i + 1] = fma(range, weft_unit_f64(w[2], w[3]), low);
}

__kernel void weft_normal_f64(__global double *out, ulong n, ulong seed, ulong base_lo, ulong base_hi,
                              double mean, double scale)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  double r = sqrt(-2.0 * log(weft_unit_open_f64(w[0], w[1])));
  double t = 6.283185307179586476925 * weft_unit_f64(w[2], w[3]);
  ulong i = 2 * b;
  if (i < n) out[i] = fma(scale, r * cos(t), mean);
  if (i + 1 < n) out[i + 1] = fma(scale, r * sin(t), mean);
}

__kernel void weft_exponential_f64(__global double *out, ulong n, ulong seed, ulong base_lo, ulong base_hi,
                                   double scale)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  ulong i = 2 * b;
  if (i < n) out[i] = (0.0 - log(weft_unit_open_f64(w[0], w[1]))) * scale;
  if (i + 1 < n) out[i + 1] = (0.0 - log(weft_unit_open_f64(w[2], w[3]))) * scale;
}
