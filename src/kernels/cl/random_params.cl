// Element e of a generator call with array-valued parameters (src/algorithms/random_params.cpp):
// the same block and words as the scalar kernels of random.cl give element e, the same
// arithmetic, with the element's own parameters. The generated elementwise kernels call these
// once per element (i = e), after random.cl, so any n needs no partial block of its own.

// float32, four elements a block: word e % 4 of block e / 4.
inline __attribute__((always_inline)) float weft_uniform_f32_at(ulong seed, ulong base_lo, ulong base_hi, ulong e,
                                                               float low, float high)
{
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, e >> 2, w);
  return fma(high - low, weft_unit_f32(w[e & 3]), low);
}

// Words 0 and 1 give elements 4b and 4b + 1 (r cos, r sin), words 2 and 3 the next two.
inline __attribute__((always_inline)) float weft_normal_f32_at(ulong seed, ulong base_lo, ulong base_hi, ulong e,
                                                              float mean, float scale)
{
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, e >> 2, w);
  const uint k = (uint)(e & 2);
  const float2 p = weft_box_muller_f32(w[k], w[k + 1]);
  return fma(scale, (e & 1) ? p.y : p.x, mean);
}

inline __attribute__((always_inline)) float weft_exponential_f32_at(ulong seed, ulong base_lo, ulong base_hi,
                                                                   ulong e, float scale)
{
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, e >> 2, w);
  return (0.0f - weft_log_f32((w[e & 3] >> 8) + 1u)) * scale;
}

// Integers of up to 32 bits, two a block (words 0, 1 for element 2b; 2, 3 for 2b + 1), in
// [low, last]: range = last - low + 1 values (last >= low, checked by the caller).
inline __attribute__((always_inline)) ulong weft_integers_narrow_at(ulong seed, ulong base_lo, ulong base_hi,
                                                                   ulong e, ulong low, ulong last)
{
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, e >> 1, w);
  const uint k = (uint)(e & 1) << 1;
  return weft_bounded_narrow(w[k], w[k + 1], low, last - low + 1);
}

// 64-bit integers, one a block (the arithmetic of weft_integers_64); last - low + 1 wraps to
// 0 for the whole 2^64 range.
inline __attribute__((always_inline)) ulong weft_integers_64_at(ulong seed, ulong base_lo, ulong base_hi, ulong e,
                                                               ulong low, ulong last)
{
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, e, w);
  const ulong range = last - low + 1;
  const ulong x_hi = ((ulong)w[3] << 32) | (ulong)w[2];
  const ulong x_lo = ((ulong)w[1] << 32) | (ulong)w[0];
  if (range == 0) return low + x_hi;
  const ulong part = mul_hi(x_lo, range);
  const ulong sum = x_hi * range + part;
  return low + mul_hi(x_hi, range) + (sum < part ? 1 : 0);
}
