// The float64 kernels of weft::random::Generator, for devices with double precision: this file
// follows random.cl in their program (its Philox blocks and conventions are there). The math is
// written as random.cl's float32 math is, from operations every backend rounds alike (integer
// arithmetic, exact conversions, +, -, *, /, sqrt and explicit fma: OpenCL, CUDA and C++ all
// round double division and square root correctly), with fdlibm's polynomials (e_log.c,
// k_sin.c, k_cos.c as musl has them).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// 2^-53, exactly.
#define WEFT_RANDOM_2_M53 1.1102230246251565404236316680908203125e-16

// The top 53 bits of the 64-bit number (hi, lo).
inline __attribute__((always_inline)) ulong weft_top53(uint lo, uint hi) { return ((((ulong)hi) << 32) | (ulong)lo) >> 11; }

// [0, 1) from two words: their top 53 bits times 2^-53.
inline __attribute__((always_inline)) double weft_unit_f64(uint lo, uint hi) { return (double)weft_top53(lo, hi) * WEFT_RANDOM_2_M53; }

// log(k * 2^-53) for an integer k in [1, 2^53]: k = m * 2^e with m in (sqrt(1/2), sqrt(2)]
// from the bits of (double)k (exact), f = m - 1 (exact), then fdlibm's
// log(1 + f) = f - hfsq + s (hfsq + R), s = f / (2 + f), hfsq = f^2 / 2, with each product
// that meets a sum fused explicitly.
inline __attribute__((always_inline)) double weft_log_f64(ulong k)
{
  ulong bits = as_ulong((double)k);
  int e = (int)(bits >> 52) - 1023 - 53;
  double m = as_double((bits & 0x000fffffffffffffUL) | 0x3ff0000000000000UL);
  bool high = m > 1.4142135623730951;
  m = high ? m * 0.5 : m;
  e += high ? 1 : 0;
  double f = m - 1.0;
  double s = f / (2.0 + f);
  double dk = (double)e;
  double z = s * s;
  double w = z * z;
  double t1 = w * fma(w, fma(w, 1.531383769920937332e-01, 2.222219843214978396e-01), 3.999999999940941908e-01);
  double t2 = fma(w, fma(w, fma(w, 1.479819860511658591e-01, 1.818357216161805012e-01), 2.857142874366239149e-01),
                  6.666666666666735130e-01);
  double r = fma(z, t2, t1);
  double half_f = 0.5 * f;                                // exact
  double a = fma(half_f, f, r);                           // hfsq + R
  double b = fma(s, a, dk * 1.90821492927058770002e-10);  // s (hfsq + R) + dk ln2_lo
  double c = fma(half_f, f, -b);                          // hfsq - b
  return fma(dk, 6.93147180369123816490e-01, f - c);      // dk ln2_hi - (c - f)
}

// sin and cos of the angle 2 pi k / 2^53 for an integer k in [0, 2^53), as
// weft_sincos_turns_f32: quadrant and fold from k's bits, x in [0, pi/4].
inline __attribute__((always_inline)) double2 weft_sincos_turns_f64(ulong k)
{
  ulong quadrant = k >> 51;
  ulong r = k & 0x7ffffffffffffUL;
  bool fold = r > 0x4000000000000UL;
  double x = (double)(fold ? 0x8000000000000UL - r : r) * 6.975736996017264e-16;  // (pi / 2) / 2^51
  double z = x * x;
  double ps = fma(z, fma(z, fma(z, fma(z, 1.58969099521155010221e-10, -2.50507602534068634195e-08),
                                   2.75573137070700676789e-06), -1.98412698298579493134e-04),
                  8.33333333332248946124e-03);
  double s = fma(z * x, fma(z, ps, -1.66666666666666324348e-01), x);
  double pc = fma(z, fma(z, fma(z, fma(z, fma(z, -1.13596475577881948265e-11, 2.08757232129817482790e-09),
                                       -2.75573143513906633035e-07), 2.48015872894767294178e-05),
                           -1.38888888888741095749e-03), 4.16666666666666019037e-02);
  double hz = 0.5 * z;  // exact
  double v = 1.0 - hz;
  double c = v + fma(z, z * pc, (1.0 - v) - hz);
  bool odd = (fold ? 1UL : 0UL) != (quadrant & 1UL);
  double sin_a = odd ? c : s;
  double cos_a = odd ? s : c;
  return (double2)(quadrant >= 2UL ? -sin_a : sin_a, quadrant == 1UL || quadrant == 2UL ? -cos_a : cos_a);
}

// Elements 2b (words 0, 1) and 2b + 1 (words 2, 3).
__kernel void weft_uniform_f64(__global double *out, ulong seed, ulong base_lo, ulong base_hi,
                               double low, double range)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  out[2 * b] = fma(range, weft_unit_f64(w[0], w[1]), low);
  out[2 * b + 1] = fma(range, weft_unit_f64(w[2], w[3]), low);
}

// Box-Muller: u1 in (0, 1] from words 0 and 1, the angle from words 2 and 3; r cos(t) is
// element 2b, r sin(t) element 2b + 1.
__kernel void weft_normal_f64(__global double *out, ulong seed, ulong base_lo, ulong base_hi,
                              double mean, double scale)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  double r = sqrt(-2.0 * weft_log_f64(weft_top53(w[0], w[1]) + 1));
  double2 sc = weft_sincos_turns_f64(weft_top53(w[2], w[3]));
  out[2 * b] = fma(scale, r * sc.y, mean);
  out[2 * b + 1] = fma(scale, r * sc.x, mean);
}

// scale * -log(u), u in (0, 1] (0 - log(u): u = 1 gives +0).
__kernel void weft_exponential_f64(__global double *out, ulong seed, ulong base_lo, ulong base_hi,
                                   double scale)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  out[2 * b] = (0.0 - weft_log_f64(weft_top53(w[0], w[1]) + 1)) * scale;
  out[2 * b + 1] = (0.0 - weft_log_f64(weft_top53(w[2], w[3]) + 1)) * scale;
}
