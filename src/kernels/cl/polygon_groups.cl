// Polygon masks on devices with work-groups (OpenCL devices, CUDA GPUs), pasted after
// polygon.cl: both kernels take each edge's limit from its polygon_edge_limit, so they decide
// every pixel alike. docs/POLYGON.md derives the rule and this kernel.
//
// polygon.cl gives a row to one work-item, which suits a CPU thread but leaves a GPU with
// only `height` threads. Here a team of 2^team_log2 work-items shares a row, and a work-group
// holds teams for one or more rows:
//
// 1. The team's items split the edges; each edge the row crosses toggles bit `limit` of a
//    bitmap of the row in __local memory (atomic_xor: only the parity of the edges counting a
//    pixel matters, so equal limits cancel and any number of crossings fits). The row's
//    vertex pixels are marked in a second bitmap.
// 2. Pixel x is inside when an odd number of limits are >= x: the XOR of the bits at and
//    right of x. Each item owns one 32-bit word of the bitmap; a shift-and-XOR cascade gives
//    the suffix parity inside the word, and the parities of the words to its right (one bit
//    per word, packed) give the carry.
// 3. The items write the row coalesced, adjacent items adjacent 4-byte groups of pixels,
//    with border_value where a vertex lies, as in polygon.cl.
//
// A row wider than 32 pixels per item is done in segments of that many pixels; each segment
// visits the edges again and counts the limits right of it as one carry.
// The host backend never runs this kernel (it has barriers and __local memory).

// The largest work-group the host side asks for; the __local arrays are sized for it.
#define POLYGON_GROUP_MAX 256

// Four pixel bits (the lowest for the lowest address) as four bytes of 0 or 1, in the order
// a uint store puts them in memory.
uint polygon_bytes_of_bits(uint bits4)
{
#ifdef __ENDIAN_LITTLE__
  // bit j moves to bit 8j (the four shifted copies of a 4-bit value never overlap).
  return (bits4 * 0x00204081u) & 0x01010101u;
#else
  return ((bits4 & 1u) << 24) | ((bits4 & 2u) << 15) | ((bits4 & 4u) << 6) | ((bits4 & 8u) >> 3);
#endif
}

// params: n (x, y) vertex pairs (doubles), then nhits (y, x) int pairs, sorted, of the
// vertices that lie exactly on a pixel of the image (polygon.cl's `hits`). One buffer, so
// one upload. The work-group size is a multiple of 2^team_log2, at most POLYGON_GROUP_MAX.
__kernel void polygon_mask_groups(__global const double *params, int n, int nhits,
                                  int height, int width, uchar border_value, int team_log2,
                                  __global uchar *mask)
{
  __local uint bits[POLYGON_GROUP_MAX];    // a word per item: its team's row, 32 pixels each
  __local uint vertex[POLYGON_GROUP_MAX];  // the same pixels: 1 where a vertex lies
  __local uint parity[POLYGON_GROUP_MAX];  // per team: a bit per word, 1 if its popcount is odd
  __local uint beyond[POLYGON_GROUP_MAX];  // per team: parity of the limits right of the segment

  const int lid = get_local_id(0);
  const int team_size = 1 << team_log2;
  const int t = lid & (team_size - 1);
  const int team = lid >> team_log2;
  const int teams = (int)get_local_size(0) >> team_log2;
  const int y = (int)get_group_id(0) * teams + team;
  // Items of rows past the image still reach every barrier; they only skip the work.
  const int active = y < height;
  const int parity_words = (team_size + 31) >> 5;
  __local uint *team_bits = bits + team * team_size;
  __local uint *team_vertex = vertex + team * team_size;
  __local uint *team_parity = parity + team * parity_words;
  const int segment = 32 << team_log2;
  const double py = (double)y;
  __global uchar *row = mask + (size_t)(active ? y : 0) * (size_t)width;
  __global const int *hits = (__global const int *)(params + 2 * n);
  // Border pixels of this row lie in hits[first ...] (a row's hits are contiguous, as they are
  // sorted). Few hits: every item looks at its share of them all, independent loads with no
  // chain of dependent ones; many: a binary search for the row's first.
  int first = 0;
  if (nhits > 4 * team_size) {
    int hi = nhits;
    while (first < hi) {
      const int mid = (first + hi) / 2;
      if (hits[2 * mid] < y) first = mid + 1;
      else hi = mid;
    }
  }
  const uint border4 = (uint)border_value * 0x01010101u;

  // Every item runs the same segments (width is the same for all rows), so the barriers
  // inside the loop are reached by the whole work-group.
  for (int s0 = 0; s0 < width; s0 += segment) {
    bits[lid] = 0;
    vertex[lid] = 0;
    if (t == 0) beyond[team] = 0;
    if (t < parity_words) team_parity[t] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    // 1. Adjacent items take adjacent edges, so the vertex loads coalesce.
    if (active) {
      uint far = 0;
      for (int i = t; i < n; i += team_size) {
        const int next = i + 1 == n ? 0 : i + 1;
        const double x1 = params[2 * i];
        const double y1 = params[2 * i + 1];
        const double x2 = params[2 * next];
        const double y2 = params[2 * next + 1];
        // Horizontal edges fail "y > min and y <= max" on every row, as in the reference.
        if (py > min(y1, y2) && py <= max(y1, y2)) {
          const int limit = polygon_edge_limit(x1, y1, x2, y2, py, width);
          if (limit >= s0 + segment) {
            far ^= 1u;  // counts for every pixel of this segment
          } else if (limit >= s0) {
            atomic_xor(&team_bits[(limit - s0) >> 5], 1u << ((limit - s0) & 31));
          }
        }
      }
      if (far != 0) atomic_xor(&beyond[team], 1u);
      // The vertex pixels of this row in this segment.
      for (int k = first + t; k < nhits; k += team_size) {
        const int hy = hits[2 * k];
        if (hy > y) break;  // sorted: the rest lie below this row
        const int hx = hits[2 * k + 1] - s0;
        if (hy == y && hx >= 0 && hx < segment) atomic_or(&team_vertex[hx >> 5], 1u << (hx & 31));
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // 2. The parity of each word, packed, then each word's carry from the words right of it.
    const uint word = bits[lid];
    if ((popcount(word) & 1u) != 0) atomic_or(&team_parity[t >> 5], 1u << (t & 31));
    barrier(CLK_LOCAL_MEM_FENCE);
    uint right = (team_parity[t >> 5] >> (t & 31)) >> 1;  // two shifts: t & 31 may be 31
    for (int k = (t >> 5) + 1; k < parity_words; ++k) right ^= team_parity[k];
    const uint carry = (popcount(right) ^ beyond[team]) & 1u;
    // Bit b of suffix: the XOR of the word's bits b..31.
    uint suffix = word;
    suffix ^= suffix >> 1;
    suffix ^= suffix >> 2;
    suffix ^= suffix >> 4;
    suffix ^= suffix >> 8;
    suffix ^= suffix >> 16;
    // Each item rewrites only its own word, which no other item reads before the barrier.
    bits[lid] = carry != 0 ? ~suffix : suffix;
    barrier(CLK_LOCAL_MEM_FENCE);

    // 3. The segment's pixels, 4 bytes per item and step where rows start 4-byte aligned
    // (the buffer is, and segments start at multiples of 32 pixels), else a byte each;
    // vertex pixels take border_value, as the reference returns it before any edge test.
    if (active) {
      __global uchar *out = row + s0;
      const int len = min(segment, width - s0);
      if ((width & 3) == 0) {
        __global uint *out4 = (__global uint *)out;
        for (int k = t; k < (len >> 2); k += team_size) {
          const int shift = (k & 7) << 2;
          uint value = polygon_bytes_of_bits((team_bits[k >> 3] >> shift) & 15u);
          const uint vertices4 = (team_vertex[k >> 3] >> shift) & 15u;
          if (vertices4 != 0) {  // rare: most 4-pixel groups hold no vertex
            const uint border = polygon_bytes_of_bits(vertices4) * 0xffu;
            value = (value & ~border) | (border4 & border);
          }
          out4[k] = value;
        }
      } else {
        for (int x = t; x < len; x += team_size) {
          const uint b = x & 31;
          out[x] = ((team_vertex[x >> 5] >> b) & 1u) != 0 ? border_value : (uchar)((team_bits[x >> 5] >> b) & 1u);
        }
      }
    }
    // The next segment clears the bitmaps this one still reads (a uniform condition: every
    // item reaches this barrier or none does).
    if (s0 + segment < width) barrier(CLK_LOCAL_MEM_FENCE);
  }
}
