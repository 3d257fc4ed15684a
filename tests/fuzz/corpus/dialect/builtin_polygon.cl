// Polygon masks by scanline: the even-odd rule of the polygon exercise's insidePolygon,
// decided once per row and edge instead of once per pixel and edge. docs/POLYGON.md
// derives it.
//
// For a pixel (x, y) and an edge p1 -> p2 (p1 = vertex i, p2 = vertex (i + 1) % n), the
// reference counts the edge when
//   y > min(y1, y2)  and  y <= max(y1, y2)  and  x <= max(x1, x2)  and
//   (x1 == x2  or  x <= xinters),  xinters = (y - y1) * (x2 - x1) / (y2 - y1) + x1.
// On one row the y conditions are fixed, and for integer x the x conditions read
// "x <= limit": the edge counts for exactly the pixels at or left of floor(limit). Walking
// a row from the right, the even-odd state flips just left of each edge's limit, so the
// row is a few runs of 0 and 1 written with memset-like loops: the cost is rows times edges
// plus the bytes of the mask, never pixels times edges.
//
// One work-item per row, no barriers, no local memory: the kernel runs on every backend.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// The last pixel x an edge counts for on row py, or -1 when it counts for none. xinters is
// the reference's own expression in double, so it rounds the same way; limits past the
// image are clamped to it.
int polygon_edge_limit(double x1, double y1, double x2, double y2, double py, int width)
{
  double limit = max(x1, x2);
  if (x1 != x2) {
    double xinters = (py - y1) * (x2 - x1) / (y2 - y1) + x1;
    // Written so that a NaN (vertices so large that the product overflows) counts for no
    // pixel, as "x <= NaN" is false in the reference.
    if (!(xinters >= limit)) limit = xinters;
  }
  if (!(limit >= 0.0)) return -1;
  if (limit >= (double)(width - 1)) return width - 1;
  return (int)floor(limit);
}

// vertices: n (x, y) pairs. hits: nhits (y, x) pairs, sorted, of the vertices that lie
// exactly on a pixel of the image; those pixels take border_value, as the reference
// returns it before looking at any edge. bits: (width + 63) / 64 words of scratch per row.
__kernel void polygon_mask(__global const double *vertices, int n,
                           __global const int *hits, int nhits,
                           int height, int width, uchar border_value,
                           __global ulong *bits, __global uchar *mask)
{
  int y = get_global_id(0);
  if (y >= height) return;
  int words = (width + 63) / 64;
  __global ulong *toggles = bits + (size_t)y * (size_t)words;
  __global uchar *row = mask + (size_t)y * (size_t)width;

  // Bit x of toggles is set when an odd number of edges have their limit at x: only the
  // parity of the edges counting a pixel matters, so toggling needs neither a list nor a
  // sort. `top` is the highest word touched, where the walk below starts.
  for (int w = 0; w < words; ++w) toggles[w] = 0;
  int top = -1;
  double py = (double)y;
  double x1 = vertices[0];
  double y1 = vertices[1];
  for (int i = 0; i < n; ++i) {
    int next = i + 1 == n ? 0 : i + 1;
    double x2 = vertices[2 * next];
    double y2 = vertices[2 * next + 1];
    // Horizontal edges fail "y > min and y <= max" on every row, as in the reference.
    if (py > min(y1, y2) && py <= max(y1, y2)) {
      int limit = polygon_edge_limit(x1, y1, x2, y2, py, width);
      if (limit >= 0) {
        toggles[limit >> 6] ^= (ulong)1 << (limit & 63);
        top = max(top, limit >> 6);
      }
    }
    x1 = x2;
    y1 = y2;
  }

  // From the right: pixels past every limit are counted by no edge (outside); each limit
  // met flips the state for the pixels at and left of it.
  int end = width;
  uchar inside = 0;
  for (int w = top; w >= 0; --w) {
    ulong t = toggles[w];
    while (t != 0) {
      int bit = 63 - (int)clz(t);
      int limit = 64 * w + bit;
      for (int x = limit + 1; x < end; ++x) row[x] = inside;
      end = limit + 1;
      inside ^= 1;
      t &= ~((ulong)1 << bit);
    }
  }
  for (int x = 0; x < end; ++x) row[x] = inside;

  // The vertices on this row, found by binary search in the sorted hits.
  int lo = 0;
  int hi = nhits;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (hits[2 * mid] < y) lo = mid + 1;
    else hi = mid;
  }
  for (; lo < nhits && hits[2 * lo] == y; ++lo) row[hits[2 * lo + 1]] = border_value;
}
