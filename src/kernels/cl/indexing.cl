// NumPy's advanced indexing on the device: the functions the array layer's gather, scatter,
// compress and expand kernels call (src/array/indexing.cpp builds those kernels, one set per
// dtype, with weft_elem defined as the element type before this file).
//
// Gather and scatter. An advanced index is planned (python/weft/_indexing.py) as two tables
// of element offsets into the indexed array's allocation: off, one entry per position of the
// broadcast index arrays (nb of them), and roff, one per position of the dimensions that are
// not indexed. With post the number of result elements after the broadcast dimensions,
// element i of the result (C order) lies at
//
//     off[i / post % nb] + roff[i / (post * nb) * post + i % post]
//
// i / post % nb is i's position among the broadcast dimensions; the rest of i (the
// dimensions before them, i / (post * nb), and after them, i % post) picks the roff entry.
inline long weft_indexed_offset(long i, __global const long *off, __global const long *roff, long nb, long post)
{
  return off[i / post % nb] + roff[i / (post * nb) * post + i % post];
}

// Compress and expand. A boolean mask over an array's leading dimensions selects rows of
// `inner` consecutive elements (inner: the product of the other dimensions); a scan of the
// mask numbers the selected rows, and each moves as a whole: row `from` of src becomes row
// `to` of dst.
inline void weft_move_row(__global weft_elem *dst, long to, __global const weft_elem *src, long from, long inner)
{
  __global weft_elem *d = dst + to * inner;
  __global const weft_elem *s = src + from * inner;
  for (long q = 0; q < inner; ++q) d[q] = s[q];
}
