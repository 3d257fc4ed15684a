// Counter-based random numbers: Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel random
// numbers: as easy as 1, 2, 3", SC'11), as Random123 defines it, and the conversions of its
// words to the distributions of weft::random::Generator (include/weft/random.hpp).
//
// Work-item b computes block b of a call: philox(counter = base + b, key = seed), four 32-bit
// words, and writes the elements that block owns. Nothing here reads the work-group, the
// device or the backend, so element i of a call is the same number everywhere. The base is a
// 128-bit counter (two ulongs), the key the seed's two 32-bit halves (low half first).
//
// Conversions are exact integer arithmetic and one rounding the IEEE standard fixes (a product
// of exact values, or an explicit fma): float32 takes a word's top 24 bits times 2^-24, float64
// two words' top 53 bits times 2^-53. normal and exponential compute their log, sqrt, sin and
// cos here too (below), so that every backend gives the same bits.
//
// The float64 kernels are in random_f64.cl, which follows this file in the program of a device
// with double precision.

// 2^-24, exactly.
#define WEFT_RANDOM_2_M24 5.9604644775390625e-8f

// The helpers are always inlined: the host backend's compiler vectorizes the loop over
// work-items only through a body with no calls.

// Block b of a call whose first block is the 128-bit counter (base_hi, base_lo), into w: the
// counter's words are (low word of base_lo, high word of base_lo, low of base_hi, high of
// base_hi), the key (low word of seed, high word). Ten rounds of Random123's _philox4x32round
// (two 32x32 -> 64-bit products by 0xD2511F53 and 0xCD9E8D57, their halves exchanged and
// keyed), the key bumped by the Weyl constants 0x9E3779B9 and 0xBB67AE85 between rounds.
// Scalars and a private array rather than uint4: the host backend's compiler vectorizes the
// loop over work-items then.
inline __attribute__((always_inline)) void weft_philox_block(ulong seed, ulong base_lo, ulong base_hi, ulong b, uint *w)
{
  ulong lo = base_lo + b;
  ulong hi = base_hi + (lo < b ? 1 : 0);
  uint c0 = (uint)lo, c1 = (uint)(lo >> 32), c2 = (uint)hi, c3 = (uint)(hi >> 32);
  uint k0 = (uint)seed, k1 = (uint)(seed >> 32);
  for (int r = 0; r < 10; ++r) {
    ulong p0 = (ulong)0xD2511F53u * (ulong)c0;
    ulong p1 = (ulong)0xCD9E8D57u * (ulong)c2;
    uint n0 = (uint)(p1 >> 32) ^ c1 ^ k0;
    uint n2 = (uint)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint)p1;
    c3 = (uint)p0;
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  w[0] = c0;
  w[1] = c1;
  w[2] = c2;
  w[3] = c3;
}

// [0, 1) and (0, 1] from one word: its top 24 bits (plus one for the second) times 2^-24.
inline __attribute__((always_inline)) float weft_unit_f32(uint w) { return (float)(w >> 8) * WEFT_RANDOM_2_M24; }
inline __attribute__((always_inline)) float weft_unit_open_f32(uint w) { return (float)((w >> 8) + 1u) * WEFT_RANDOM_2_M24; }

// The math of normal and exponential, from operations every backend rounds alike: integer
// arithmetic, exact conversions, +, -, * and fma (correctly rounded everywhere, where the
// libraries' log, sin, cos and OpenCL's sqrt are not). Every product that meets a sum is an
// explicit fma, so no compiler's contraction (CUDA's --fmad, OpenCL's FP_CONTRACT) has
// anything left to fuse. The polynomials are Cephes's (S. Moshier) logf, sinf and cosf.

// log(k * 2^-24) for an integer k in [1, 2^24]: k = m * 2^e with m in (sqrt(1/2), sqrt(2)]
// taken from the bits of (float)k (exact), then log(m) = x - x^2/2 + x^3 P(x), x = m - 1 (exact).
inline __attribute__((always_inline)) float weft_log_f32(uint k)
{
  uint bits = as_uint((float)k);
  int e = (int)(bits >> 23) - 127 - 24;
  float m = as_float((bits & 0x007fffffu) | 0x3f800000u);
  bool high = m > 1.41421356f;  // selects, not branches: the host backend's loop vectorizes
  m = high ? m * 0.5f : m;
  e += high ? 1 : 0;
  float x = m - 1.0f;
  float z = x * x;
  float p = 7.0376836292E-2f;
  p = fma(p, x, -1.1514610310E-1f);
  p = fma(p, x, 1.1676998740E-1f);
  p = fma(p, x, -1.2420140846E-1f);
  p = fma(p, x, 1.4249322787E-1f);
  p = fma(p, x, -1.6668057665E-1f);
  p = fma(p, x, 2.0000714765E-1f);
  p = fma(p, x, -2.4999993993E-1f);
  p = fma(p, x, 3.3333331174E-1f);
  float fe = (float)e;
  float y = fma(fe, -2.12194440E-4f, (x * z) * p);
  y = fma(-0.5f, z, y);
  return fma(fe, 0.693359375f, x + y);
}

// sqrt(v), v >= 0 (0 included), by Newton's iterations for 1/sqrt(v) from the exponent's
// estimate, then one correction of v / sqrt(v): within an ulp, the same everywhere.
inline __attribute__((always_inline)) float weft_sqrt_f32(float v)
{
  float h = 0.5f * v;
  float y = as_float(0x5f375a86u - (as_uint(v) >> 1));
  for (int k = 0; k < 3; ++k) y = y * fma(-(h * y), y, 1.5f);
  float s = v * y;
  return fma(fma(-s, s, v), 0.5f * y, s);
}

// sin and cos of the angle 2 pi k / 2^24 for an integer k in [0, 2^24): the quadrant and the
// angle within it come from k's bits (exact), the angle is folded into [0, pi/4].
inline __attribute__((always_inline)) float2 weft_sincos_turns_f32(uint k)
{
  uint quadrant = k >> 22;
  uint r = k & 0x3fffffu;
  bool fold = r > 0x200000u;  // past pi/4: sin and cos of the complement, swapped
  float x = (float)(fold ? 0x400000u - r : r) * 3.7450702829239286e-07f;  // (pi / 2) / 2^22
  float z = x * x;
  float ps = fma(fma(-1.9515295891E-4f, z, 8.3321608736E-3f), z, -1.6666654611E-1f);
  float s = fma(ps * z, x, x);
  float pc = fma(fma(2.443315711809948E-5f, z, -1.388731625493765E-3f), z, 4.166664568298827E-2f);
  float c = fma(pc * z, z, fma(-0.5f, z, 1.0f));
  // Of the angle within the quadrant, then turned by the quadrant: (sin, cos) becomes
  // (cos, -sin), (-sin, -cos), (-cos, sin).
  bool odd = (fold ? 1u : 0u) != (quadrant & 1u);
  float sin_a = odd ? c : s;
  float cos_a = odd ? s : c;
  return (float2)(quadrant >= 2u ? -sin_a : sin_a, quadrant == 1u || quadrant == 2u ? -cos_a : cos_a);
}

// Box-Muller: two standard normals, r cos(t) and r sin(t), from words a (u1 in (0, 1]) and b
// (t = 2 pi u2, u2 in [0, 1)); a word's top 24 bits as in weft_unit_open_f32 and weft_unit_f32.
inline __attribute__((always_inline)) float2 weft_box_muller_f32(uint a, uint b)
{
  float r = weft_sqrt_f32(-2.0f * weft_log_f32((a >> 8) + 1u));
  float2 sc = weft_sincos_turns_f32(b >> 8);
  return (float2)(r * sc.y, r * sc.x);
}

// Every kernel writes the whole block b of its call, with no bounds to test (so the host
// backend's loop over work-items vectorizes and no GPU warp diverges): the caller launches the
// whole blocks into the array and a last, partial block into memory of its own.
// Kernels take (out, seed, base_lo, base_hi) and then their parameters.

// The raw words: element 4b + k is word k of block b.
__kernel void weft_random_raw(__global uint *out, ulong seed, ulong base_lo, ulong base_hi)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  vstore4((uint4)(w[0], w[1], w[2], w[3]), b, out);
}

// low + range * u, rounded once (an fma: no backend may contract it differently).
__kernel void weft_uniform_f32(__global float *out, ulong seed, ulong base_lo, ulong base_hi, float low, float range)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  vstore4((float4)(fma(range, weft_unit_f32(w[0]), low), fma(range, weft_unit_f32(w[1]), low),
                   fma(range, weft_unit_f32(w[2]), low), fma(range, weft_unit_f32(w[3]), low)),
          b, out);
}

// mean + scale * z, z a standard normal: words 0 and 1 give elements 4b and 4b + 1, words 2
// and 3 elements 4b + 2 and 4b + 3.
__kernel void weft_normal_f32(__global float *out, ulong seed, ulong base_lo, ulong base_hi, float mean, float scale)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  float2 p = weft_box_muller_f32(w[0], w[1]);
  float2 q = weft_box_muller_f32(w[2], w[3]);
  vstore4((float4)(fma(scale, p.x, mean), fma(scale, p.y, mean), fma(scale, q.x, mean), fma(scale, q.y, mean)), b,
          out);
}

// scale * -log(u), u in (0, 1]: the inverse of the exponential distribution's CDF. 0 - log(u)
// rather than -log(u), so that u = 1 gives +0, not -0.
__kernel void weft_exponential_f32(__global float *out, ulong seed, ulong base_lo, ulong base_hi, float scale)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  vstore4((float4)((0.0f - weft_log_f32((w[0] >> 8) + 1u)) * scale, (0.0f - weft_log_f32((w[1] >> 8) + 1u)) * scale,
                   (0.0f - weft_log_f32((w[2] >> 8) + 1u)) * scale, (0.0f - weft_log_f32((w[3] >> 8) + 1u)) * scale),
          b, out);
}

// Integers in [low, low + range) for ranges up to 2^32: floor(x * range / 2^64) of a 64-bit x
// (words x, y for element 2b; z, w for 2b + 1). Each value has probability 1/range to within
// 2^-64. The sum wraps modulo 2^64 and is cut to the element's width: two's complement gives
// signed results their value.
inline __attribute__((always_inline)) ulong weft_bounded_narrow(uint lo, uint hi, ulong low, ulong range)
{
  return low + mul_hi(((ulong)hi << 32) | (ulong)lo, range);
}

__kernel void weft_integers_8(__global uchar *out, ulong seed, ulong base_lo, ulong base_hi,
                              ulong low, ulong range)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  out[2 * b] = (uchar)weft_bounded_narrow(w[0], w[1], low, range);
  out[2 * b + 1] = (uchar)weft_bounded_narrow(w[2], w[3], low, range);
}

__kernel void weft_integers_16(__global ushort *out, ulong seed, ulong base_lo, ulong base_hi,
                               ulong low, ulong range)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  out[2 * b] = (ushort)weft_bounded_narrow(w[0], w[1], low, range);
  out[2 * b + 1] = (ushort)weft_bounded_narrow(w[2], w[3], low, range);
}

__kernel void weft_integers_32(__global uint *out, ulong seed, ulong base_lo, ulong base_hi,
                               ulong low, ulong range)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  out[2 * b] = (uint)weft_bounded_narrow(w[0], w[1], low, range);
  out[2 * b + 1] = (uint)weft_bounded_narrow(w[2], w[3], low, range);
}

// 64-bit integers, one a block: floor(X * range / 2^128) of the block's 128 bits X (w, z the
// high words), to within 2^-128 of 1/range a value; range 0 stands for 2^64 (every value).
__kernel void weft_integers_64(__global ulong *out, ulong seed, ulong base_lo, ulong base_hi,
                               ulong low, ulong range)
{
  ulong b = get_global_id(0);
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, b, w);
  ulong x_hi = ((ulong)w[3] << 32) | (ulong)w[2];
  ulong x_lo = ((ulong)w[1] << 32) | (ulong)w[0];
  if (range == 0) {
    out[b] = low + x_hi;
    return;
  }
  // floor((x_hi * range + floor(x_lo * range / 2^64)) / 2^64): the high half of a 128-bit sum.
  ulong part = mul_hi(x_lo, range);
  ulong sum = x_hi * range + part;
  out[b] = low + mul_hi(x_hi, range) + (sum < part ? 1 : 0);
}
