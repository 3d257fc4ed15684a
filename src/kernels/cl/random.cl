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
// two words' top 53 bits times 2^-53. normal and exponential also call log, sqrt, sin and cos,
// whose last bit differs between math libraries: there backends agree to a few ulp, not to
// the bit (docs/ALGORITHMS.md).
//
// The float64 kernels are in random_f64.cl, which follows this file in the program of a device
// with double precision.

// 2^-24, exactly.
#define WEFT_RANDOM_2_M24 5.9604644775390625e-8f

// One round: two 32x32 -> 64-bit products, their halves exchanged and keyed (Random123's
// _philox4x32round, multipliers 0xD2511F53 and 0xCD9E8D57).
uint4 weft_philox_round(uint4 c, uint k0, uint k1)
{
  ulong p0 = (ulong)0xD2511F53u * (ulong)c.x;
  ulong p1 = (ulong)0xCD9E8D57u * (ulong)c.z;
  return (uint4)((uint)(p1 >> 32) ^ c.y ^ k0, (uint)p1, (uint)(p0 >> 32) ^ c.w ^ k1, (uint)p0);
}

// Ten rounds, the key bumped by the Weyl constants 0x9E3779B9 and 0xBB67AE85 between rounds.
uint4 weft_philox4x32_10(uint4 c, uint k0, uint k1)
{
  for (int r = 0; r < 9; ++r) {
    c = weft_philox_round(c, k0, k1);
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return weft_philox_round(c, k0, k1);
}

// Block b of a call whose first block is the 128-bit counter (base_hi, base_lo); the counter's
// words are (low word of base_lo, high word of base_lo, low of base_hi, high of base_hi).
uint4 weft_philox_block(ulong seed, ulong base_lo, ulong base_hi, ulong b)
{
  ulong lo = base_lo + b;
  ulong hi = base_hi + (lo < b ? 1 : 0);
  uint4 c = (uint4)((uint)lo, (uint)(lo >> 32), (uint)hi, (uint)(hi >> 32));
  return weft_philox4x32_10(c, (uint)seed, (uint)(seed >> 32));
}

// [0, 1) and (0, 1] from one word: its top 24 bits (plus one for the second) times 2^-24.
float weft_unit_f32(uint w) { return (float)(w >> 8) * WEFT_RANDOM_2_M24; }
float weft_unit_open_f32(uint w) { return (float)((w >> 8) + 1u) * WEFT_RANDOM_2_M24; }

// Box-Muller: two standard normals from (0, 1] and [0, 1).
float2 weft_box_muller_f32(uint a, uint b)
{
  float r = sqrt(-2.0f * log(weft_unit_open_f32(a)));
  float t = 6.2831853071795864769f * weft_unit_f32(b);
  return (float2)(r * cos(t), r * sin(t));
}

// The raw words: element 4b + k is word k of block b.
__kernel void weft_random_raw(__global uint *out, ulong n, ulong seed, ulong base_lo, ulong base_hi)
{
  ulong b = get_global_id(0);
  uint4 w = weft_philox_block(seed, base_lo, base_hi, b);
  ulong i = 4 * b;
  if (i + 4 <= n) {
    vstore4(w, b, out);
    return;
  }
  if (i < n) out[i] = w.x;
  if (i + 1 < n) out[i + 1] = w.y;
  if (i + 2 < n) out[i + 2] = w.z;
}

// low + range * u, rounded once (fma: no backend may contract it differently).
__kernel void weft_uniform_f32(__global float *out, ulong n, ulong seed, ulong base_lo, ulong base_hi,
                               float low, float range)
{
  ulong b = get_global_id(0);
  uint4 w = weft_philox_block(seed, base_lo, base_hi, b);
  float4 v = (float4)(fma(range, weft_unit_f32(w.x), low), fma(range, weft_unit_f32(w.y), low),
                      fma(range, weft_unit_f32(w.z), low), fma(range, weft_unit_f32(w.w), low));
  ulong i = 4 * b;
  if (i + 4 <= n) {
    vstore4(v, b, out);
    return;
  }
  if (i < n) out[i] = v.x;
  if (i + 1 < n) out[i + 1] = v.y;
  if (i + 2 < n) out[i + 2] = v.z;
}

// mean + scale * z, z a standard normal: words (x, y) give elements 4b and 4b + 1, (z, w)
// elements 4b + 2 and 4b + 3.
__kernel void weft_normal_f32(__global float *out, ulong n, ulong seed, ulong base_lo, ulong base_hi,
                              float mean, float scale)
{
  ulong b = get_global_id(0);
  uint4 w = weft_philox_block(seed, base_lo, base_hi, b);
  float2 p = weft_box_muller_f32(w.x, w.y);
  float2 q = weft_box_muller_f32(w.z, w.w);
  float4 v = (float4)(fma(scale, p.x, mean), fma(scale, p.y, mean), fma(scale, q.x, mean), fma(scale, q.y, mean));
  ulong i = 4 * b;
  if (i + 4 <= n) {
    vstore4(v, b, out);
    return;
  }
  if (i < n) out[i] = v.x;
  if (i + 1 < n) out[i + 1] = v.y;
  if (i + 2 < n) out[i + 2] = v.z;
}

// scale * -log(u), u in (0, 1]: the inverse of the exponential distribution's CDF. 0 - log(u)
// rather than -log(u), so that u = 1 gives +0, not -0.
__kernel void weft_exponential_f32(__global float *out, ulong n, ulong seed, ulong base_lo, ulong base_hi,
                                   float scale)
{
  ulong b = get_global_id(0);
  uint4 w = weft_philox_block(seed, base_lo, base_hi, b);
  float4 v = (float4)((0.0f - log(weft_unit_open_f32(w.x))) * scale, (0.0f - log(weft_unit_open_f32(w.y))) * scale,
                      (0.0f - log(weft_unit_open_f32(w.z))) * scale, (0.0f - log(weft_unit_open_f32(w.w))) * scale);
  ulong i = 4 * b;
  if (i + 4 <= n) {
    vstore4(v, b, out);
    return;
  }
  if (i < n) out[i] = v.x;
  if (i + 1 < n) out[i + 1] = v.y;
  if (i + 2 < n) out[i + 2] = v.z;
}

// Integers in [low, low + range) for ranges up to 2^32: floor(x * range / 2^64) of a 64-bit x
// (words x, y for element 2b; z, w for 2b + 1). Each value has probability 1/range to within
// 2^-64. The sum wraps modulo 2^64 and is cut to the element's width: two's complement gives
// signed results their value.
ulong weft_bounded_narrow(uint lo, uint hi, ulong low, ulong range)
{
  return low + mul_hi(((ulong)hi << 32) | (ulong)lo, range);
}

__kernel void weft_integers_8(__global uchar *out, ulong n, ulong seed, ulong base_lo, ulong base_hi,
                              ulong low, ulong range)
{
  ulong b = get_global_id(0);
  uint4 w = weft_philox_block(seed, base_lo, base_hi, b);
  ulong i = 2 * b;
  if (i < n) out[i] = (uchar)weft_bounded_narrow(w.x, w.y, low, range);
  if (i + 1 < n) out[i + 1] = (uchar)weft_bounded_narrow(w.z, w.w, low, range);
}

__kernel void weft_integers_16(__global ushort *out, ulong n, ulong seed, ulong base_lo, ulong base_hi,
                               ulong low, ulong range)
{
  ulong b = get_global_id(0);
  uint4 w = weft_philox_block(seed, base_lo, base_hi, b);
  ulong i = 2 * b;
  if (i < n) out[i] = (ushort)weft_bounded_narrow(w.x, w.y, low, range);
  if (i + 1 < n) out[i + 1] = (ushort)weft_bounded_narrow(w.z, w.w, low, range);
}

__kernel void weft_integers_32(__global uint *out, ulong n, ulong seed, ulong base_lo, ulong base_hi,
                               ulong low, ulong range)
{
  ulong b = get_global_id(0);
  uint4 w = weft_philox_block(seed, base_lo, base_hi, b);
  ulong i = 2 * b;
  if (i < n) out[i] = (uint)weft_bounded_narrow(w.x, w.y, low, range);
  if (i + 1 < n) out[i + 1] = (uint)weft_bounded_narrow(w.z, w.w, low, range);
}

// 64-bit integers, one a block: floor(X * range / 2^128) of the block's 128 bits X (w, z the
// high words), to within 2^-128 of 1/range a value; range 0 stands for 2^64 (every value).
__kernel void weft_integers_64(__global ulong *out, ulong n, ulong seed, ulong base_lo, ulong base_hi,
                               ulong low, ulong range)
{
  ulong b = get_global_id(0);
  if (b >= n) return;
  uint4 w = weft_philox_block(seed, base_lo, base_hi, b);
  ulong x_hi = ((ulong)w.w << 32) | (ulong)w.z;
  ulong x_lo = ((ulong)w.y << 32) | (ulong)w.x;
  if (range == 0) {
    out[b] = low + x_hi;
    return;
  }
  // floor((x_hi * range + floor(x_lo * range / 2^64)) / 2^64): the high half of a 128-bit sum.
  ulong part = mul_hi(x_lo, range);
  ulong sum = x_hi * range + part;
  out[b] = low + mul_hi(x_hi, range) + (sum < part ? 1 : 0);
}
