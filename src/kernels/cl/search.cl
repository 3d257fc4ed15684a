// unique and searchsorted on sorted keys, after sort_keys.cl (which defines weft_sort_bits for
// the array's element type, weft_sort_elem here): keys compare as the radix sort orders them,
// so NaNs are equal to each other and last, and -0.0 equals 0.0, as NumPy compares.

// 1 where a run of equal keys starts in the sorted s (at 0, and where a key differs from the
// one before; with equal_nan 0, at every NaN too), else 0: a scan of these numbers the runs.
inline long weft_unique_starts(__global const weft_sort_elem *s, long i, int equal_nan)
{
  if (i == 0) return 1;
  const weft_sort_key b = weft_sort_order(weft_sort_bits(s[i]));
  if (!equal_nan && weft_sort_is_nan(weft_sort_bits(s[i]))) return 1;
  return weft_sort_order(weft_sort_bits(s[i - 1])) != b ? 1 : 0;
}

// Where x goes in the n sorted keys of a (read through sorter when has_sorter): the first
// place whose key is not less than x (right: greater than x), by binary search.
inline long weft_search(__global const weft_sort_elem *a, __global const long *sorter, long n, int has_sorter,
                        int right, weft_sort_elem x)
{
  const weft_sort_key key = weft_sort_order(weft_sort_bits(x));
  long lo = 0, hi = n;
  while (lo < hi) {
    const long mid = lo + (hi - lo) / 2;
    const weft_sort_key m = weft_sort_order(weft_sort_bits(a[has_sorter ? sorter[mid] : mid]));
    if (right ? m <= key : m < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
