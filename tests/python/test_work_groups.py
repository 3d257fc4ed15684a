"""Kernels whose work-items meet at barriers and share __local memory (issue 29), on every device:
the host backend splits them into loops at their barriers (src/dialect/group_fission.hpp), OpenCL
and CUDA run them as written. Each kernel's result is checked against NumPy, so host and PoCL
agree by construction."""
import numpy as np
import pytest

import weft as cl


def _run(device, source, name, global_size, local_size, *args, options=None):
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    program = cl.Program(ctx, source).build(options=options or [])
    getattr(program, name)(queue, global_size, local_size, *args)
    queue.finish()
    return queue, ctx


def _buf(ctx, a):
    return cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=a)


def _get(queue, buf, like):
    out = np.empty_like(like)
    cl.enqueue_copy(queue, out, buf)
    return out


REDUCE = r"""
__kernel void reduce(__global const float* in, __global float* out, __local float* scratch) {
  int lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}
"""


@pytest.mark.parametrize("group", [1, 2, 64, 256])
def test_tree_reduction_with_local_memory_argument(device, group):
    rng = np.random.default_rng(1)
    a = rng.random(4096, dtype=np.float32)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, REDUCE).build()
    ab, ob = _buf(ctx, a), cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    prg.reduce(queue, (a.size,), (group,), ab, ob, cl.LocalMemory(group * 4))
    got = _get(queue, ob, a)[: a.size // group]
    np.testing.assert_allclose(got, a.reshape(-1, group).sum(1), rtol=1e-5)


STENCIL_2D = r"""
#define T 8
__kernel void blur(__global const float* in, __global float* out, int w, int h) {
  __local float tile[T + 2][T + 2];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x = get_global_id(0), y = get_global_id(1);
  // The tile and its halo: each work-item loads its pixel; the border items load the halo.
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int tx = lx + 1 + dx, ty = ly + 1 + dy;
      const bool edge = (dx == 0 || lx == (dx < 0 ? 0 : T - 1)) && (dy == 0 || ly == (dy < 0 ? 0 : T - 1));
      if (edge) {
        const int sx = clamp(x + dx, 0, w - 1), sy = clamp(y + dy, 0, h - 1);
        tile[ty][tx] = in[sy * w + sx];
      }
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = 0.0f;
  for (int dy = 0; dy < 3; ++dy)
    for (int dx = 0; dx < 3; ++dx) s += tile[ly + dy][lx + dx];
  out[y * w + x] = s / 9.0f;
}
"""


def test_tiled_2d_stencil(device):
    w, h = 32, 24
    rng = np.random.default_rng(2)
    a = rng.random((h, w), dtype=np.float32)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, STENCIL_2D).build()
    ab, ob = _buf(ctx, a), cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    prg.blur(queue, (w, h), (8, 8), ab, ob, np.int32(w), np.int32(h))
    p = np.pad(a, 1, mode="edge")
    ref = sum(p[dy:dy + h, dx:dx + w] for dy in range(3) for dx in range(3)) / 9.0
    np.testing.assert_allclose(_get(queue, ob, a), ref, rtol=1e-5)


HISTOGRAM = r"""
__kernel void hist(__global const uchar* data, uint n, __global uint* bins) {
  __local uint local_bins[256];
  const uint lid = get_local_id(0), ls = get_local_size(0);
  for (uint b = lid; b < 256; b += ls) local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&local_bins[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < 256; b += ls) atomic_add(&bins[b], local_bins[b]);
}
"""


def test_local_memory_histogram(device):
    rng = np.random.default_rng(3)
    data = rng.integers(0, 256, 10007, dtype=np.uint8)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, HISTOGRAM).build()
    bins = np.zeros(256, np.uint32)
    db, bb = _buf(ctx, data), _buf(ctx, bins)
    prg.hist(queue, (512,), (64,), db, np.uint32(data.size), bb)
    np.testing.assert_array_equal(_get(queue, bb, bins), np.bincount(data, minlength=256))


MATMUL = r"""
#define TS 4
__kernel void matmul(__global const float* A, __global const float* B, __global float* C, int n) {
  __local float As[TS][TS], Bs[TS][TS];
  const int r = get_local_id(1), c = get_local_id(0);
  const int row = get_global_id(1), col = get_global_id(0);
  float acc = 0.0f;
  int t = 0;
  while (1) {
    if (t * TS >= n) break;               // uniform: every work-item leaves together
    As[r][c] = A[row * n + t * TS + c];
    Bs[r][c] = B[(t * TS + r) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) acc += As[r][k] * Bs[k][c];
    barrier(CLK_LOCAL_MEM_FENCE);
    ++t;
  }
  C[row * n + col] = acc;
}
"""


def test_tiled_matmul_with_break_in_a_barrier_loop(device):
    n = 16
    rng = np.random.default_rng(4)
    a = rng.random((n, n), dtype=np.float32)
    b = rng.random((n, n), dtype=np.float32)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, MATMUL).build()
    ab, bb, cb = _buf(ctx, a), _buf(ctx, b), cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    prg.matmul(queue, (n, n), (4, 4), ab, bb, cb, np.int32(n))
    np.testing.assert_allclose(_get(queue, cb, a), a @ b, rtol=1e-4)


LIVE_ACROSS = r"""
float scale(float x) { return x * (float)get_local_size(0); }  // a helper reading the work-item

__kernel void live(__global const float* in, __global float4* out, __global int* extra) {
  int lid = get_local_id(0), twice = 2 * lid, unused;
  __local float shared[64];
  float priv[3];
  float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f) * in[get_global_id(0)];
  for (int i = 0; i < 3; ++i) priv[i] = in[get_global_id(0)] + i;
  shared[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  {
    int lid = 63 - get_local_id(0);  // shadows the outer lid in this block only
    shared[lid] += 0.0f;
  }
  do {
    v.x += shared[(lid + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
  } while (0);
  out[get_global_id(0)] = v + (float4)(priv[0], priv[1], priv[2], scale(1.0f));
  extra[get_global_id(0)] = twice;
}
"""


def test_private_values_live_across_barriers(device):
    rng = np.random.default_rng(5)
    a = rng.random(128, dtype=np.float32)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, LIVE_ACROSS).build()
    ab = _buf(ctx, a)
    ob = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes * 4)
    eb = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    prg.live(queue, (128,), (64,), ab, ob, eb)
    got = _get(queue, ob, np.empty((128, 4), np.float32))
    lid = np.arange(128) % 64
    nxt = a.reshape(2, 64)[:, (np.arange(64) + 1) % 64].ravel()
    ref = np.stack([a * 1 + nxt + a, a * 2 + a + 1, a * 3 + a + 2, a * 4 + 64], axis=1)
    np.testing.assert_allclose(got, ref, rtol=1e-5)
    np.testing.assert_array_equal(_get(queue, eb, np.empty(128, np.int32)), 2 * lid)


UNIFORM_RETURN = r"""
__kernel void skip(__global int* out) {
  __local int total;
  if (get_local_id(0) == 0) total = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_group_id(0) == 1) return;        // the whole group leaves
  atomic_add(&total, (int)get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < 4; ++k) {
    if (k == 2) continue;                  // uniform continue in a loop with a barrier
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (get_local_id(0) >= 30) return;       // non-uniform return after the last barrier
  out[get_global_id(0)] = total;
}
"""


def test_return_and_continue_around_barriers(device):
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, UNIFORM_RETURN).build()
    init = np.full(96, -1, np.int32)
    ob = _buf(ctx, init)
    prg.skip(queue, (96,), (32,), ob)
    got = _get(queue, ob, init)
    ref = init.copy()
    for g in (0, 2):
        ref[g * 32: g * 32 + 30] = sum(range(32))
    np.testing.assert_array_equal(got, ref)


def test_seed_local_mem_kernel_matches_numpy(device):
    src = r"""
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
"""
    a = np.random.default_rng(6).random(4096, dtype=np.float32)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, src).build(options=["-DLOCAL_SIZE=256"])
    ab, bb = _buf(ctx, a), cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    prg.local_mem_kernel(queue, (a.size,), (256,), ab, bb)
    np.testing.assert_allclose(_get(queue, bb, a), a * a + 0.5, rtol=1e-6)


def _host():
    return cl.Device("host")


def test_host_refuses_a_barrier_under_a_varying_condition():
    src = """
__kernel void bad(__global float* x) {
  int lid = get_local_id(0);
  if (lid < 4) {
    x[lid] = 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
"""
    with pytest.raises(cl.BuildError) as info:
        cl.Program(cl.Context([_host()]), src).build()
    msg = str(info.value)
    assert "line 6" in msg and "barrier" in msg and "line 4" in msg and "'lid'" in msg


def test_host_refuses_a_barrier_in_a_loop_left_by_a_varying_break():
    src = """
__kernel void bad(__global float* x) {
  for (int i = 0; i < 8; ++i) {
    if (x[get_global_id(0)] > 0.5f) break;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
"""
    with pytest.raises(cl.BuildError, match="line 5.*break or continue"):
        cl.Program(cl.Context([_host()]), src).build()


def test_host_names_a_barrier_in_a_helper():
    src = """
void sync(void) { barrier(CLK_LOCAL_MEM_FENCE); }
__kernel void k(__global float* x) { x[get_global_id(0)] = 1.0f; sync(); }
__kernel void plain(__global float* x) { x[get_global_id(0)] = 2.0f; }
"""
    ctx = cl.Context([_host()])
    prg = cl.Program(ctx, src).build()
    with pytest.raises(cl.Unsupported, match=r"barrier\(\) inside helper function sync\(\) \(line 2\)"):
        prg.k  # noqa: B018
    queue = cl.CommandQueue(ctx)
    xb = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 16)
    prg.plain(queue, (4,), None, xb)  # the program's other kernels still run
    np.testing.assert_array_equal(_get(queue, xb, np.empty(4, np.float32)), 2.0)


COLLECTIVES = r"""
__kernel void coll(__global const int* in, __global int* out, __global float* fout) {
  const int l = get_local_id(0), g = get_global_id(0);
  int v = in[g];
  int total = work_group_reduce_add(v);
  int lo = work_group_reduce_min(v), hi = work_group_reduce_max(v);
  int inc = work_group_scan_inclusive_add(v);
  int exc = work_group_scan_exclusive_add(v);
  int first = work_group_broadcast(v, 0);
  int any_big = work_group_any(v > 90), all_pos = work_group_all(v >= 0);
  float mx = work_group_scan_inclusive_max((float)v * 0.5f);
  out[g * 8 + 0] = total;
  out[g * 8 + 1] = lo;
  out[g * 8 + 2] = hi;
  out[g * 8 + 3] = inc;
  out[g * 8 + 4] = exc;
  out[g * 8 + 5] = first;
  out[g * 8 + 6] = any_big != 0;
  out[g * 8 + 7] = all_pos != 0;
  fout[g] = mx;
}
__kernel void copy_in(__global const float* in, __global float* out) {
  __local float tile[32];
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 32, 32, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[31 - get_local_id(0)];
}
"""


def test_work_group_collectives(device):
    # OpenCL C 2.0's collectives: the host backend's and CUDA's own; OpenCL devices have them
    # only where their driver compiles OpenCL C 2.0 (weft builds OpenCL C 1.2).
    if device.backend == "opencl":
        pytest.skip("OpenCL C 1.2 drivers lack the work-group collectives")
    rng = np.random.default_rng(8)
    x = rng.integers(0, 100, 64, dtype=np.int32)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, COLLECTIVES).build()
    xb = _buf(ctx, x)
    ob = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64 * 8 * 4)
    fb = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64 * 4)
    prg.coll(queue, (64,), (16,), xb, ob, fb)
    got = _get(queue, ob, np.empty((64, 8), np.int32))
    fgot = _get(queue, fb, np.empty(64, np.float32))
    for g in range(4):
        v = x[g * 16:(g + 1) * 16]
        rows = got[g * 16:(g + 1) * 16]
        np.testing.assert_array_equal(rows[:, 0], v.sum())
        np.testing.assert_array_equal(rows[:, 1], v.min())
        np.testing.assert_array_equal(rows[:, 2], v.max())
        np.testing.assert_array_equal(rows[:, 3], np.cumsum(v))
        np.testing.assert_array_equal(rows[:, 4], np.cumsum(v) - v)
        np.testing.assert_array_equal(rows[:, 5], v[0])
        np.testing.assert_array_equal(rows[:, 6], int((v > 90).any()))
        np.testing.assert_array_equal(rows[:, 7], 1)
        np.testing.assert_array_equal(fgot[g * 16:(g + 1) * 16], np.maximum.accumulate(v * 0.5))
    a = rng.random(64, dtype=np.float32)
    ab, cb = _buf(ctx, a), cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    prg.copy_in(queue, (64,), (32,), ab, cb)
    np.testing.assert_array_equal(_get(queue, cb, a), a.reshape(2, 32)[:, ::-1].ravel())


def test_async_work_group_copy_on_every_device(device):
    src = COLLECTIVES[COLLECTIVES.index("__kernel void copy_in"):]
    rng = np.random.default_rng(9)
    a = rng.random(64, dtype=np.float32)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    prg = cl.Program(ctx, src).build()
    ab, cb = _buf(ctx, a), cl.Buffer(ctx, cl.mem_flags.READ_WRITE, a.nbytes)
    prg.copy_in(queue, (64,), (32,), ab, cb)
    np.testing.assert_array_equal(_get(queue, cb, a), a.reshape(2, 32)[:, ::-1].ravel())


def test_host_messages_speak_opencl_not_cxx():
    ctx = cl.Context([_host()])
    # A helper declared and never defined: named, not a mangled symbol.
    with pytest.raises(cl.BuildError, match="function 'helper' is declared but never defined"):
        cl.Program(ctx, "float helper(float x);\n__kernel void k(__global float* a) { a[0] = helper(a[1]); }").build()
    # OpenCL's vector ?: points at select().
    with pytest.raises(cl.BuildError, match=r"select\(b, a, c\)"):
        cl.Program(ctx, "__kernel void k(__global float4* a, __global int4* c) "
                        "{ a[0] = c[0] ? a[1] : a[2]; }").build()


def test_standard_headers_are_refused_with_what_is_built_in(device):
    src = "#include <stdlib.h>\n__kernel void k(__global float* a) { a[0] = 1.0f; }"
    with pytest.raises(cl.BuildError, match=r"#include <stdlib.h> \(line 1\).*built in"):
        cl.Program(cl.Context([device]), src).build()
