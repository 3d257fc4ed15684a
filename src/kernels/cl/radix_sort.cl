// One pass of a stable LSD radix sort over 8-bit digits, without barriers or local memory, so
// it runs on every backend (the host backend has neither). sort_keys.cl comes first: the
// keys are compared as weft_sort_order(bits) ^ flip (flip: all ones for descending order).
//
// A pass is three launches, work-item w of `items` owning the keys [w * chunk, (w + 1) * chunk):
//   weft_sort_count    each work-item counts its keys' digits: counts[d * items + w]
//   weft_sort_scan     one work-item per digit d turns its row of counts into an exclusive
//                      scan over the work-items and writes the digit's total
//   weft_sort_scatter  each work-item adds the totals of the smaller digits to its row
//                      offsets (where its first key of each digit goes), then walks its keys
//                      in order and moves each to the next place of its digit
// Keys of one digit land in the order of their work-items, and within a work-item in input
// order: the pass is stable, so digit after digit sorts the keys.
//
// A payload (WEFT_SORT_PAYLOAD: its type; absent for keys alone) moves with the keys: the
// caller's values, or each key's original index (argsort), which pass 0 makes up itself
// (iota) instead of reading. Rows of row_len keys are sorted independently by sorting on the
// keys first and then, in further passes (by_row), on the row of each key's original index
// (payload: long): stable passes on the most significant "digits", the row numbers, leave
// every row in place and sorted.
#ifdef WEFT_SORT_PAYLOAD
typedef WEFT_SORT_PAYLOAD weft_sort_payload;
#else
typedef uchar weft_sort_payload;  // a placeholder: nothing is read or written through it
#endif

#define WEFT_SORT_RADIX 256

// The digit of the key at i: of its ordered bits, or (by_row) of its row.
inline uint weft_sort_digit_at(__global const weft_sort_key *keys, __global const weft_sort_payload *payload,
                               long i, int shift, int by_row, long row_len, weft_sort_key flip, int iota)
{
#ifdef WEFT_SORT_PAYLOAD
  if (by_row) {
    const long index = iota ? i : (long)payload[i];
    return (uint)(((ulong)(index / row_len) >> shift) & 255);
  }
#endif
  return (uint)(((ulong)(weft_sort_key)(weft_sort_order(keys[i]) ^ flip) >> shift) & 255);
}

__kernel void weft_sort_count(__global const weft_sort_key *keys, __global const weft_sort_payload *payload,
                              long n, long chunk, int shift, int by_row, long row_len, ulong flip, int iota,
                              long items, __global ulong *counts)
{
  const long w = get_global_id(0);
  if (w >= items) return;
  uint c[WEFT_SORT_RADIX];  // a chunk holds fewer than 2^32 keys (the caller sees to it)
  for (int d = 0; d < WEFT_SORT_RADIX; ++d) c[d] = 0;
  const long begin = w * chunk;
  const long end = min(n, begin + chunk);
  const weft_sort_key f = (weft_sort_key)flip;
  for (long i = begin; i < end; ++i) c[weft_sort_digit_at(keys, payload, i, shift, by_row, row_len, f, iota)] += 1;
  for (int d = 0; d < WEFT_SORT_RADIX; ++d) counts[(long)d * items + w] = c[d];
}

// Serial over the work-items: `items` is kept small enough (a few thousand) for that to cost
// little beside the passes over the keys.
__kernel void weft_sort_scan(long items, __global ulong *counts, __global ulong *totals)
{
  const int d = get_global_id(0);
  if (d >= WEFT_SORT_RADIX) return;
  __global ulong *row = counts + (long)d * items;
  ulong sum = 0;
  for (long w = 0; w < items; ++w) {
    const ulong c = row[w];
    row[w] = sum;
    sum += c;
  }
  totals[d] = sum;
}

__kernel void weft_sort_scatter(__global const weft_sort_key *keys, __global const weft_sort_payload *payload,
                                long n, long chunk, int shift, int by_row, long row_len, ulong flip, int iota,
                                long items, __global const ulong *offsets, __global const ulong *totals,
                                __global weft_sort_key *keys_out, __global weft_sort_payload *payload_out)
{
  const long w = get_global_id(0);
  if (w >= items) return;
  ulong next[WEFT_SORT_RADIX];
  ulong below = 0;  // keys of the smaller digits
  for (int d = 0; d < WEFT_SORT_RADIX; ++d) {
    next[d] = below + offsets[(long)d * items + w];
    below += totals[d];
  }
  const long begin = w * chunk;
  const long end = min(n, begin + chunk);
  const weft_sort_key f = (weft_sort_key)flip;
  for (long i = begin; i < end; ++i) {
    const uint d = weft_sort_digit_at(keys, payload, i, shift, by_row, row_len, f, iota);
    const ulong to = next[d];
    next[d] = to + 1;
    keys_out[to] = keys[i];
#ifdef WEFT_SORT_PAYLOAD
    payload_out[to] = iota ? (weft_sort_payload)i : payload[i];
#endif
  }
}
