#!/usr/bin/env python3
"""Peers of `weft bench polygon`, measured in the same run on the same polygon.

Usage: polygon_peer.py SIZE REPEAT VERTICES_FILE [WEFT_MASK.npy]

SIZE is the side of the square image, VERTICES_FILE holds one "x y" a line, WEFT_MASK.npy
is weft's mask of the same polygon: each peer's result is compared with it and the count
of differing pixels reported (matplotlib decides points on edges its own way).

Prints one line per measurement:
  record<TAB>method<TAB>device<TAB>n<TAB>dtype<TAB>median_s<TAB>min_s<TAB>bytes
"info<TAB>text" for what a reader should know, "skip<TAB>reason" for a peer that is missing.
"""
import statistics
import sys
import time

from wall_timing import timed


def emit(method, device, size, med, mn):
    print(f"record\t{method}\t{device}\t{size * size}\tuint8\t{med:.9g}\t{mn:.9g}\t{size * size}",
          flush=True)


def compare(name, mask, reference):
    if reference is None:
        return
    differ = int((mask.astype(bool) != reference.astype(bool)).sum())
    print(f"info\t{name}: {differ} pixel(s) differ from weft's mask", flush=True)


def numpy_rule(np, vertices, size):
    """The slides' insidePolygon for every pixel at once: per edge, the rows it crosses and,
    per row, the pixels left of the crossing; parity by XOR. Vertex pixels take 1."""
    ys = np.arange(size, dtype=np.float64)[:, None]
    xs = np.arange(size, dtype=np.float64)[None, :]
    inside = np.zeros((size, size), dtype=bool)
    n = len(vertices)
    for i in range(n):
        x1, y1 = vertices[i]
        x2, y2 = vertices[(i + 1) % n]
        if y1 == y2:
            continue
        rows = (ys > min(y1, y2)) & (ys <= max(y1, y2))
        if x1 == x2:
            hit = xs <= max(x1, x2)
        else:
            with np.errstate(all="ignore"):
                xinters = (ys - y1) * (x2 - x1) / (y2 - y1) + x1
            hit = (xs <= max(x1, x2)) & (xs <= xinters)
        inside ^= rows & hit
    mask = inside.astype(np.uint8)
    for x, y in vertices:
        if 0 <= x < size and 0 <= y < size and x == int(x) and y == int(y):
            mask[int(y), int(x)] = 1
    return mask


# The straightforward OpenCL port the exercise ends with: one work-item per pixel, every
# edge tested, in float as the slides advise.
PER_PIXEL_KERNEL = """
__kernel void inside_polygon(__global const float *v, int n, int width, __global uchar *mask)
{
    int x = get_global_id(0), y = get_global_id(1);
    float px = (float)x, py = (float)y;
    int counter = 0;
    for (int i = 0; i < n; ++i) {
        float x1 = v[2 * i], y1 = v[2 * i + 1];
        if (x1 == px && y1 == py) { mask[y * width + x] = 1; return; }
        int j = (i + 1) % n;
        float x2 = v[2 * j], y2 = v[2 * j + 1];
        if (py > min(y1, y2) && py <= max(y1, y2) && px <= max(x1, x2) && y1 != y2) {
            float xinters = (py - y1) * (x2 - x1) / (y2 - y1) + x1;
            if (x1 == x2 || px <= xinters) counter++;
        }
    }
    mask[y * width + x] = counter % 2;
}
"""


def pyopencl_pocl(np, vertices, size, repeat, reference):
    try:
        import pyopencl as cl
    except ImportError:
        print("skip\tPyOpenCL is not installed (pip install pyopencl)", flush=True)
        return
    try:
        platforms = [p for p in cl.get_platforms() if "Portable Computing Language" in p.name]
    except cl.Error as e:
        print(f"skip\tPyOpenCL: no OpenCL platform ({e})", flush=True)
        return
    if not platforms or not platforms[0].get_devices():
        print("skip\tPyOpenCL: no PoCL device", flush=True)
        return
    dev = platforms[0].get_devices()[0]
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    prg = cl.Program(ctx, PER_PIXEL_KERNEL).build()
    kernel = cl.Kernel(prg, "inside_polygon")
    mf = cl.mem_flags
    v = np.asarray(vertices, dtype=np.float32).ravel()
    d_v = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=v)
    d_mask = cl.Buffer(ctx, mf.WRITE_ONLY, size * size)
    kernel.set_args(d_v, np.int32(len(vertices)), np.int32(size), d_mask)

    def run():
        return cl.enqueue_nd_range_kernel(queue, kernel, (size, size), None)

    for _ in range(2):
        run().wait()
    times = []
    for _ in range(repeat):
        e = run()
        e.wait()
        times.append((e.profile.end - e.profile.start) * 1e-9)
    mask = np.empty((size, size), dtype=np.uint8)
    cl.enqueue_copy(queue, mask, d_mask)
    emit("PyOpenCL per-pixel kernel, float (event)", "pocl", size, statistics.median(times), min(times))
    compare("PyOpenCL per-pixel kernel", mask, reference)


# The same straightforward kernel in CUDA through CuPy (the GPU reference: one thread
# per pixel, every edge tested).
CUPY_KERNEL = r'''
extern "C" __global__ void inside_polygon(const float *v, int n, int width, unsigned char *mask)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= width) return;
    float px = (float)x, py = (float)y;
    int counter = 0;
    for (int i = 0; i < n; ++i) {
        float x1 = v[2 * i], y1 = v[2 * i + 1];
        if (x1 == px && y1 == py) { mask[y * width + x] = 1; return; }
        int j = (i + 1) % n;
        float x2 = v[2 * j], y2 = v[2 * j + 1];
        if (py > fminf(y1, y2) && py <= fmaxf(y1, y2) && px <= fmaxf(x1, x2) && y1 != y2) {
            float xinters = (py - y1) * (x2 - x1) / (y2 - y1) + x1;
            if (x1 == x2 || px <= xinters) counter++;
        }
    }
    mask[y * width + x] = counter % 2;
}
'''


def cupy_gpu(np, vertices, size, repeat, reference):
    try:
        import cupy as cp
        cp.cuda.runtime.getDeviceCount()
    except Exception as e:  # noqa: BLE001 - no CuPy or no GPU: nothing to compare
        print(f"skip\tCuPy: not available here ({type(e).__name__})", flush=True)
        return
    kernel = cp.RawKernel(CUPY_KERNEL, "inside_polygon")
    v = cp.asarray(np.asarray(vertices, dtype=np.float32).ravel())
    mask = cp.empty((size, size), dtype=cp.uint8)
    block = (32, 8)
    grid = ((size + 31) // 32, (size + 7) // 8)

    def run():
        kernel(grid, block, (v, np.int32(len(vertices)), np.int32(size), mask))

    start, end = cp.cuda.Event(), cp.cuda.Event()
    for _ in range(2):
        run()
    cp.cuda.Device().synchronize()
    times, host_times = [], []
    for _ in range(repeat):
        start.record()
        run()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end) * 1e-3)
        t0 = time.perf_counter()
        run()
        cp.asnumpy(mask)
        host_times.append(time.perf_counter() - t0)
    emit("CuPy per-pixel kernel, float (event)", "cuda:0 (cupy)", size, statistics.median(times), min(times))
    emit("CuPy per-pixel kernel + to host (wall)", "cuda:0 (cupy)", size, statistics.median(host_times),
         min(host_times))
    compare("CuPy per-pixel kernel", cp.asnumpy(mask), reference)


def matplotlib_contains(np, vertices, size, repeat, reference):
    try:
        from matplotlib.path import Path
    except ImportError:
        print("skip\tmatplotlib is not installed (pip install matplotlib)", flush=True)
        return
    path = Path(np.asarray(vertices, dtype=np.float64))
    yy, xx = np.mgrid[:size, :size]
    points = np.column_stack([xx.ravel(), yy.ravel()]).astype(np.float64)
    med, mn = timed(lambda: path.contains_points(points), repeat)
    emit("matplotlib Path.contains_points", "numpy", size, med, mn)
    compare("matplotlib", path.contains_points(points).reshape(size, size), reference)


def main():
    size, repeat, vertices_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    try:
        import numpy as np
    except ImportError:
        print("skip\tnumpy is not installed: no polygon peers")
        return 0
    reference = np.load(sys.argv[4]) if len(sys.argv) > 4 else None
    with open(vertices_file) as f:
        vertices = [tuple(float(t) for t in line.split()) for line in f if line.strip()]

    matplotlib_contains(np, vertices, size, repeat, reference)
    pyopencl_pocl(np, vertices, size, repeat, reference)
    cupy_gpu(np, vertices, size, repeat, reference)
    # The rule vectorized with NumPy: a few temporaries of the image's size per edge.
    med, mn = timed(lambda: numpy_rule(np, vertices, size), max(3, repeat // 4), warmup=1)
    emit("NumPy, the rule vectorized per edge", "numpy", size, med, mn)
    compare("NumPy rule", numpy_rule(np, vertices, size), reference)
    return 0


if __name__ == "__main__":
    sys.exit(main())
