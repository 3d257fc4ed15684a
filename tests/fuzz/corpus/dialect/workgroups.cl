// Kernels whose work-items meet at barriers and share __local memory, as users write them:
// the seed's local-memory example (shared/seeds/000), a tiled 2-D stencil, a work-group tree
// reduction with a barrier inside a loop, and a histogram counted in __local memory. The
// `weft bench workgroups` suite runs them on every device: on the host backend they are split
// at their barriers into loops (src/dialect/group_fission.hpp), PoCL does the same in LLVM.
#define LOCAL_SIZE 256
#define T 16

float external_function(float x) { return x * x + 0.5f; }

__kernel void local_mem_kernel(__global const float* a, __global float* b) {
  __local float local_a[LOCAL_SIZE];
  int i = get_global_id(0);
  int local_id = get_local_id(0);
  local_a[local_id] = a[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  local_a[local_id] = external_function(local_a[local_id]);
  barrier(CLK_LOCAL_MEM_FENCE);
  b[i] = local_a[local_id];
}

// 3x3 box filter of a w x h image in T x T tiles with a one-pixel halo (edges clamped).
__kernel void stencil(__global const float* in, __global float* out, int w, int h) {
  __local float tile[T + 2][T + 2];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x = get_global_id(0), y = get_global_id(1);
  const int x0 = get_group_id(0) * T - 1, y0 = get_group_id(1) * T - 1;
  for (int t = ly * T + lx; t < (T + 2) * (T + 2); t += T * T) {
    const int ty = t / (T + 2), tx = t % (T + 2);
    const int sx = clamp(x0 + tx, 0, w - 1), sy = clamp(y0 + ty, 0, h - 1);
    tile[ty][tx] = in[sy * w + sx];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = 0.0f;
  for (int dy = 0; dy < 3; ++dy)
    for (int dx = 0; dx < 3; ++dx) s += tile[ly + dy][lx + dx];
  out[y * w + x] = s * (1.0f / 9.0f);
}

// One partial sum per work-group.
__kernel void tree_reduce(__global const float* in, __global float* out, __local float* scratch) {
  const int lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}

// 256 bins of bytes: counted per work-group in __local memory, then added to the global bins.
__kernel void local_histogram(__global const uchar* data, uint n, __global uint* bins) {
  __local uint local_bins[256];
  const uint lid = get_local_id(0), ls = get_local_size(0);
  for (uint b = lid; b < 256; b += ls) local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&local_bins[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < 256; b += ls) atomic_add(&bins[b], local_bins[b]);
}
