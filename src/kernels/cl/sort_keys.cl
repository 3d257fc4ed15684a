// Keys as unsigned integers whose order is the sort's order: what the radix sort, unique and
// searchsorted compare (src/algorithms/sort.cpp builds each with these macros):
//   WEFT_SORT_KEY   the key's bits as an unsigned type: uchar, ushort, uint or ulong
//   WEFT_SORT_KIND  0 unsigned integers and bool, 1 signed integers, 2 IEEE floats
//   WEFT_SORT_SIGN  the sign bit (1 << (bits - 1)), as a WEFT_SORT_KEY constant
//   WEFT_SORT_INF   the bits of +infinity (floats only)
//
// Signed integers: flipping the sign bit turns two's complement order into unsigned order.
// Floats (NumPy's order): a positive float's bits order as unsigned integers already, so the
// sign bit is set to put them above the negatives; a negative float's bits order backwards,
// so all of them are flipped. Two cases first, as NumPy compares: every NaN (either sign,
// any payload) takes the largest key, so NaNs sort last and, being equal keys, keep their
// order; -0.0 takes +0.0's key, so the two stay in input order as np.sort(kind='stable')
// keeps them.
typedef WEFT_SORT_KEY weft_sort_key;

inline weft_sort_key weft_sort_order(weft_sort_key k)
{
#if WEFT_SORT_KIND == 0
  return k;
#elif WEFT_SORT_KIND == 1
  return (weft_sort_key)(k ^ WEFT_SORT_SIGN);
#else
  const weft_sort_key magnitude = (weft_sort_key)(k & (weft_sort_key)~WEFT_SORT_SIGN);
  if (magnitude > WEFT_SORT_INF) return (weft_sort_key)~(weft_sort_key)0;
  if (magnitude == 0) return WEFT_SORT_SIGN;
  return (k & WEFT_SORT_SIGN) ? (weft_sort_key)~k : (weft_sort_key)(k | WEFT_SORT_SIGN);
#endif
}

// Whether key bits k are a NaN's (never, for integers).
inline int weft_sort_is_nan(weft_sort_key k)
{
#if WEFT_SORT_KIND == 2
  return (weft_sort_key)(k & (weft_sort_key)~WEFT_SORT_SIGN) > WEFT_SORT_INF;
#else
  return 0;
#endif
}
