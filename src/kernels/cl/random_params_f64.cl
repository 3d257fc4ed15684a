// float64 elements with array-valued parameters (after random_params.cl and random_f64.cl):
// two elements a block, words 0 and 1 for element 2b, 2 and 3 for 2b + 1, as random_f64.cl.
inline __attribute__((always_inline)) double weft_uniform_f64_at(ulong seed, ulong base_lo, ulong base_hi, ulong e,
                                                                double low, double high)
{
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, e >> 1, w);
  const uint k = (uint)(e & 1) << 1;
  return fma(high - low, weft_unit_f64(w[k], w[k + 1]), low);
}

// Box-Muller over the whole block: r cos(t) is element 2b, r sin(t) element 2b + 1.
inline __attribute__((always_inline)) double weft_normal_f64_at(ulong seed, ulong base_lo, ulong base_hi, ulong e,
                                                               double mean, double scale)
{
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, e >> 1, w);
  const double r = sqrt(-2.0 * weft_log_f64(weft_top53(w[0], w[1]) + 1));
  const double2 sc = weft_sincos_turns_f64(weft_top53(w[2], w[3]));
  return fma(scale, (e & 1) ? r * sc.x : r * sc.y, mean);
}

inline __attribute__((always_inline)) double weft_exponential_f64_at(ulong seed, ulong base_lo, ulong base_hi,
                                                                    ulong e, double scale)
{
  uint w[4];
  weft_philox_block(seed, base_lo, base_hi, e >> 1, w);
  const uint k = (uint)(e & 1) << 1;
  return (0.0 - weft_log_f64(weft_top53(w[k], w[k + 1]) + 1)) * scale;
}
