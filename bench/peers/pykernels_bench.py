#!/usr/bin/env python3
"""Python kernels (issue 28) against their peers, measured by `weft bench pykernels` or run on its
own: the seed's insidePolygon, body unchanged, for every pixel of a SIZE x SIZE image (24 vertices
by default) as

- a weft Python kernel (@weft.jit, two weft.prange loops: the 2-d NDRange), on each device;
- the same with boundscheck=True (the cost of checking every index);
- the same per-pixel rule written by hand in OpenCL C (double, one work-item per pixel), on
  each device (issue 28 asks the Python kernel to be within 10% of it);
- the same rule with the loop interchanged by hand (host_interchange_probe.STRIP_KERNEL: 64
  pixels per work-item, vectorized across them), the target for issue 29's automatic transform;
- weft.polygon_mask (the scanline algorithm: a different algorithm, for scale);
- the dispatch cost of a cached launch: a 16-item axpy @weft.kernel launched LAUNCHES times
  without waiting (then one finish), per launch, and the same axpy as a @weft.jit prange
  function called from Python, against the same kernel in OpenCL C called
  through weft.Program (the Python layer's cost is the difference), and with COMPARE=1 Numba
  CUDA's @cuda.jit launch of the same axpy where a GPU is found;
- with COMPARE=1: Numba's @njit(parallel=True) with prange over the rows (the host's cores), and
  Numba CUDA (a @cuda.jit kernel, one thread per pixel, calling the same insidePolygon compiled
  as a device function) where numba.cuda finds a GPU.

Usage: pykernels_bench.py [SIZE] [REPEAT] [VERTICES] [DEVICES] [COMPARE]
DEVICES is a comma-separated list of selectors (every device weft.devices() lists by default).
Each mask is checked against weft.polygon_mask's on the host; a wrong one fails the script.
Times are the median and minimum of REPEAT runs after two untimed ones, each run waiting for its
result; the Python kernel, its checked form and the OpenCL C kernel run in turn, round after
round, so that the shared machine's load falls on the three alike. Also measured, per device:
the first call's translate+build time in this process, and in five fresh processes the time
until the kernel is ready (translation, then the program from the disk cache). Prints the harness's lines:
  record<TAB>method<TAB>device<TAB>n<TAB>dtype<TAB>median_s<TAB>min_s<TAB>bytes
and "info<TAB>text" for the ratios the issue asks about. A benchmark, not a test.
"""
import os
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import weft  # noqa: E402
from wall_timing import timed  # noqa: E402


@weft.jit
def insidePolygon(vertices, point, border_value=True):
    counter = 0
    for i, polypoint1 in enumerate(vertices):
        if (polypoint1[0] == point[0]) and (polypoint1[1] == point[1]):
            return border_value
        polypoint2 = vertices[(i+1)%len(vertices)]
        if (point[1] > min(polypoint1[1], polypoint2[1])):
            if (point[1] <= max(polypoint1[1], polypoint2[1])):
                if (point[0] <= max(polypoint1[0], polypoint2[0])):
                    if (polypoint1[1] != polypoint2[1]):
                        xinters = (point[1]-polypoint1[1])*(polypoint2[0]-polypoint1[0])/(polypoint2[1]-polypoint1[1])+polypoint1[0]
                        if (polypoint1[0] == polypoint2[0]) or (point[0] <= xinters):
                            counter+=1
    if counter % 2 == 0:
        return False
    else:
        return True


@weft.jit
def polygon_pixels(vertices, mask, border_value):
    for y in weft.prange(mask.shape[0]):
        for x in weft.prange(mask.shape[1]):
            mask[y, x] = insidePolygon(vertices, (x, y), border_value)


@weft.jit(boundscheck=True)
def polygon_pixels_checked(vertices, mask, border_value):
    for y in weft.prange(mask.shape[0]):
        for x in weft.prange(mask.shape[1]):
            mask[y, x] = insidePolygon(vertices, (x, y), border_value)


OPENCL_C = """
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void inside_polygon(__global const double *v, long n, __global uchar *mask, long width, uchar border)
{
    long x = get_global_id(0), y = get_global_id(1);
    double px = (double)x, py = (double)y;
    long counter = 0;
    for (long i = 0; i < n; ++i) {
        double x1 = v[2 * i], y1 = v[2 * i + 1];
        if (x1 == px && y1 == py) { mask[y * width + x] = border; return; }
        long j = (i + 1) % n;
        double x2 = v[2 * j], y2 = v[2 * j + 1];
        if (py > min(y1, y2) && py <= max(y1, y2) && px <= max(x1, x2) && y1 != y2) {
            double xinters = (py - y1) * (x2 - x1) / (y2 - y1) + x1;
            if (x1 == x2 || px <= xinters) counter++;
        }
    }
    mask[y * width + x] = counter % 2;
}
"""


def emit(method, device, n, med, mn):
    print(f"record\t{method}\t{device}\t{n}\tuint8\t{med:.9g}\t{mn:.9g}\t{n}", flush=True)


def info(text):
    print(f"info\t{text}", flush=True)


def check(mask, reference, what):
    if not np.array_equal(np.asarray(mask), reference):
        raise SystemExit(f"pykernels_bench: {what}: the mask differs from weft.polygon_mask's")


def numba_cpu(vertices, size, repeat, reference):
    """Numba's @njit(parallel=True) with prange over the rows; None when Numba is missing."""
    try:
        import numba
    except ImportError:
        info("Numba is not installed: no Numba peer")
        return None
    inside = numba.njit(insidePolygon.__wrapped__)

    @numba.njit(parallel=True)
    def pixels(vertices, mask, border_value):
        for y in numba.prange(mask.shape[0]):
            for x in range(mask.shape[1]):
                mask[y, x] = inside(vertices, (x, y), border_value)

    mask = np.zeros((size, size), np.uint8)
    t0 = time.perf_counter()
    pixels(vertices, mask, True)
    info(f"Numba CPU: first call (compile) {time.perf_counter() - t0:.2f} s, {numba.get_num_threads()} threads")
    check(mask, reference, "Numba @njit(parallel=True)")
    med, mn = timed(lambda: pixels(vertices, mask, True), repeat)
    emit("Numba @njit(parallel=True) prange", "cpu", size * size, med, mn)
    return med


LAUNCHES = 2000


@weft.kernel
def axpy16(y, x, a):
    i = weft.global_id(0)
    y[i] += a * x[i]


@weft.jit
def axpy16_jit(y, x, a):
    for i in weft.prange(len(y)):
        y[i] += a * x[i]


AXPY_C = "__kernel void axpy(__global float *y, long n, __global const float *x, long m, float a) " \
         "{ size_t i = get_global_id(0); y[i] += a * x[i]; }"


def cpu_seconds():
    """This process's CPU time, all its threads (the host backend's and PoCL's workers among them)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed_in_turn(fns, repeat, warmup=2, cpu=None, walls=None):
    """Runs each of fns in turn, warmup rounds untimed, then repeat rounds, each round starting one
    further along and every other len(fns) rounds in reverse order (so that each runs right after
    each other alike: all 6 orders of 3 in 6 rounds); (median, min) seconds of each.
    With lists cpu and walls, appends each one's CPU times (all threads of the process) to cpu[j]
    and its wall-clock times, round by round, to walls[j]."""
    for _ in range(warmup):
        for fn in fns:
            fn()
    times = [[] for _ in fns]
    n = len(fns)
    for r in range(repeat):
        order = [(r + k) % n for k in range(n)]
        if (r // n) % 2:  # (every other n rounds in reverse: each one runs right after each other alike)
            order.reverse()
        for j in order:
            c0 = cpu_seconds()
            t0 = time.perf_counter()
            fns[j]()
            times[j].append(time.perf_counter() - t0)
            if cpu is not None:
                cpu[j].append(cpu_seconds() - c0)
    if walls is not None:
        walls[:] = times
    return [(statistics.median(t), min(t)) for t in times]


def per_launch(launch, finish, repeat):
    """Median and minimum seconds a launch over REPEAT runs of LAUNCHES launches and one finish."""
    def run():
        for _ in range(LAUNCHES):
            launch()
        finish()
    med, mn = timed(run, repeat)
    return med / LAUNCHES, mn / LAUNCHES


def dispatch(device, repeat):
    """The cached @weft.kernel launch against the OpenCL C kernel's on one device."""
    sel = device.selector
    queue = weft.Queue(device)
    x = weft.asarray(np.ones(16, np.float32), device=device)
    y = weft.zeros(16, np.float32, device=device)
    axpy16(queue, (16,), None, y, x, 0.5).wait()
    med, mn = per_launch(lambda: axpy16(queue, (16,), None, y, x, 0.5), queue.finish, repeat)
    emit("cached @weft.kernel launch (16-item axpy), per launch", sel, 16, med, mn)
    arrays = weft.array_queue(device)  # (a @weft.jit call from Python runs on the arrays' queue)
    axpy16_jit(y, x, 0.5)
    arrays.finish()
    j_med, j_mn = per_launch(lambda: axpy16_jit(y, x, 0.5), arrays.finish, repeat)
    emit("cached @weft.jit prange call (16-item axpy), per call", sel, 16, j_med, j_mn)
    k = weft.Program(device, AXPY_C).build().axpy
    c_med, c_mn = per_launch(lambda: k(queue, (16,), None, y, 16, x, 16, 0.5), queue.finish, repeat)
    emit("  the same kernel in OpenCL C, per launch", sel, 16, c_med, c_mn)
    info(f"{sel}: a cached Python kernel launch costs {med * 1e6:.1f} us, a @weft.jit prange call "
         f"{j_med * 1e6:.1f} us, the OpenCL C kernel's {c_med * 1e6:.1f} us")


cuda = None  # numba.cuda once numba_cuda imports it: a global of the kernels (the CUDA simulator swaps those)


def numba_cuda_dispatch(repeat):
    """Numba CUDA's launch of the same 16-item axpy, per launch."""
    @cuda.jit
    def axpy(y, x, a):
        i = cuda.grid(1)
        if i < y.shape[0]:
            y[i] += a * x[i]
    x = cuda.to_device(np.ones(16, np.float32))
    y = cuda.to_device(np.zeros(16, np.float32))
    axpy[1, 16](y, x, np.float32(0.5))
    cuda.synchronize()
    med, mn = per_launch(lambda: axpy[1, 16](y, x, np.float32(0.5)), cuda.synchronize, repeat)
    emit("Numba CUDA launch (16-item axpy), per launch", "cuda", 16, med, mn)


def numba_cuda(vertices, size, repeat, reference):
    """Numba CUDA, one thread per pixel; None when numba.cuda has no GPU."""
    global cuda
    try:
        import numba
        if not hasattr(np, "row_stack"):
            # numba-cuda 0.2x registers an overload of np.row_stack, which NumPy 2.4 removed; the
            # peer needs only this alias to import (it changes nothing weft measures)
            np.row_stack = np.vstack
        from numba import cuda
        if not cuda.is_available():
            info("numba.cuda finds no GPU: no Numba CUDA peer")
            return None
    except Exception as e:  # numba or numba-cuda missing, or no driver
        info(f"no Numba CUDA peer: {e}")
        return None
    inside = cuda.jit(device=True)(insidePolygon.__wrapped__)

    @cuda.jit
    def pixels(vertices, mask, border_value):
        x, y = cuda.grid(2)
        if y < mask.shape[0] and x < mask.shape[1]:
            mask[y, x] = inside(vertices, (x, y), border_value)

    dv = cuda.to_device(vertices)
    mask = cuda.device_array((size, size), np.uint8)
    block = (32, 8)
    grid = ((size + block[0] - 1) // block[0], (size + block[1] - 1) // block[1])

    def run():
        pixels[grid, block](dv, mask, True)
        cuda.synchronize()
    t0 = time.perf_counter()
    run()
    info(f"Numba CUDA: first call (compile) {time.perf_counter() - t0:.2f} s, numba {numba.__version__}")
    check(mask.copy_to_host(), reference, "Numba CUDA")
    med, mn = timed(run, repeat)
    emit("Numba CUDA (@cuda.jit, 32x8 blocks)", "cuda", size * size, med, mn)
    numba_cuda_dispatch(repeat)
    return med


NEW_PROCESS = """
import sys, time
sys.path.insert(0, {here!r})
import weft
import pykernels_bench as b
from weft._pyk_types import ArrayT, WEAK_BOOL
device = weft.Device({selector!r})
types = (ArrayT("float64", 2, False, 2), ArrayT("uint8", 2), WEAK_BOOL)  # (vertices: n x 2)
t0 = time.perf_counter()
b.polygon_pixels._compiler.compiled(types)
t1 = time.perf_counter()
b.polygon_pixels._compiler.kernel(types, device)
t2 = time.perf_counter()
print(f"{{(t1 - t0) * 1e3:.2f}} {{(t2 - t1) * 1e3:.2f}}")
"""


def new_process(device):
    """Translation and kernel-ready times of the polygon kernel in five fresh processes (the
    first may build; the later ones load the disk cache)."""
    here = os.path.dirname(os.path.abspath(__file__))
    code = NEW_PROCESS.format(here=here, selector=device.selector)
    ready = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
        ready.append((float(out[0]) + float(out[1])) * 1e-3)
        info(f"{device.selector}: new process: translate {out[0]} ms, kernel ready (build or disk cache) {out[1]} ms")
    later = sorted(ready[1:])
    emit("new process: Python kernel ready (cached)", device.selector, 1, statistics.median(later), later[0])


def one_device(device, vertices, size, repeat, reference):
    """The weft rows of one device; returns {method: median}."""
    n = size * size
    sel = device.selector
    v = weft.asarray(vertices, device=device)
    mask = weft.zeros((size, size), np.uint8, device=device)
    queue = weft.array_queue(device)
    t0 = time.perf_counter()
    polygon_pixels(v, mask, True)
    queue.finish()
    info(f"{sel}: Python kernel first call in this process (translate + build or disk cache) "
         f"{(time.perf_counter() - t0) * 1e3:.1f} ms")
    check(mask.get(), reference, f"Python kernel on {sel}")
    out = {}

    def py_kernel():
        polygon_pixels(v, mask, True)
        queue.finish()

    polygon_pixels_checked(v, mask, True)
    check(mask.get(), reference, f"Python kernel with boundscheck on {sel}")

    def checked():
        polygon_pixels_checked(v, mask, True)  # (waits for the kernel: it reads the error record)

    k = weft.Program(device, OPENCL_C).build().inside_polygon
    c_out = weft.zeros((size, size), np.uint8, device=device)

    def c_kernel():
        # finished like the Python kernel's run (queue.finish), not through the event's wait
        k(queue, (size, size), None, v, np.int64(len(vertices)), c_out, np.int64(size), np.uint8(1))
        queue.finish()
    c_kernel()
    check(c_out.get(), reference, f"OpenCL C kernel on {sel}")
    # The same test with the loop interchanged by hand (host_interchange_probe.py): 64 pixels per
    # work-item, the vertex loop outside, a loop over the pixels inside, which both backends
    # vectorize; what issue 29's automatic transform of the kernel above must reach.
    from host_interchange_probe import STRIP, STRIP_KERNEL
    strip_source = ("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#define REAL double\n#define INT long\n"
                    + STRIP_KERNEL)
    s_k = weft.Program(device, strip_source).build().inside_polygon
    s_out = weft.zeros((size, size), np.uint8, device=device)

    def strip_kernel():
        s_k(queue, ((size + STRIP - 1) // STRIP, size), None, v, np.int64(len(vertices)), np.int64(size), s_out,
            np.uint8(1))
        queue.finish()
    strip_kernel()
    check(s_out.get(), reference, f"interchanged OpenCL C kernel on {sel}")
    # The four run in turn (REPEAT rounds, each starting one further along), so that a change in
    # the shared machine's load falls on all alike.
    cpu, walls = [[], [], [], []], []
    (out["py"], py_mn), (out["checked"], ch_mn), (out["c"], c_mn), (out["strip"], s_mn) = timed_in_turn(
        [py_kernel, checked, c_kernel, strip_kernel], repeat, cpu=cpu, walls=walls)
    emit("Python kernel (@weft.jit, prange)", sel, n, out["py"], py_mn)
    emit("  the same, boundscheck=True", sel, n, out["checked"], ch_mn)
    emit("the same kernel in OpenCL C", sel, n, out["c"], c_mn)
    emit("  the same, loop interchanged by hand (64 px/item)", sel, n, out["strip"], s_mn)

    med, mn = timed(lambda: weft.polygon_mask(vertices, size, size, device=device), repeat)
    emit("weft.polygon_mask (scanline; other algorithm)", sel, n, med, mn)
    info(f"{sel}: Python kernel / OpenCL C = {out['py'] / out['c']:.3f} (issue 28: at most 1.10); "
         f"boundscheck=True costs {out['checked'] / out['py']:.2f}x")
    # On a shared machine the wall-clock medians move with the load; the CPU time the two kernels
    # take (the process's, all worker threads) moves much less: the work each one does.
    info(f"{sel}: Python kernel / OpenCL C by CPU time (medians; the load moves it less) = "
         f"{statistics.median(cpu[0]) / statistics.median(cpu[2]):.3f} "
         f"({statistics.median(cpu[0]) * 1e3:.1f} / {statistics.median(cpu[2]) * 1e3:.1f} ms); "
         f"the median of the rounds' own ratios (the two run close in time) = "
         f"{statistics.median(p / c for p, c in zip(walls[0], walls[2])):.3f}")
    new_process(device)
    dispatch(device, repeat)
    return out


def main(argv):
    size = int(argv[1]) if len(argv) > 1 else 1024
    repeat = int(argv[2]) if len(argv) > 2 else 5
    nv = int(argv[3]) if len(argv) > 3 else 24
    devices = [weft.Device(s) for s in argv[4].split(",")] if len(argv) > 4 and argv[4] else weft.devices()
    compare = len(argv) > 5 and argv[5] == "1"
    vertices = weft.random_polygon(nv, 1, size, size)
    reference = weft.polygon_mask(vertices, size, size, device=weft.Device("host"))
    info(f"pykernels: {size}x{size} pixels, {nv} vertices, {repeat} runs")
    weft_py = {d.selector: one_device(d, vertices, size, repeat, reference)["py"] for d in devices}
    if not compare:
        return 0
    cpu = numba_cpu(vertices, size, repeat, reference)
    if cpu is not None and "host" in weft_py:
        info(f"host: Numba @njit(parallel=True) / weft Python kernel = {cpu / weft_py['host']:.2f} "
             "(issue 28: at least 1)")
    cuda_devices = [sel for sel in weft_py if sel.startswith("cuda") or "NVIDIA" in weft.Device(sel).name]
    if cuda_devices:
        gpu = numba_cuda(vertices, size, repeat, reference)
    else:
        info("no CUDA device among those measured (" + ", ".join(weft_py) + "): no Numba CUDA peer "
             "(it runs with --device cuda:0)")
        gpu = None
    for sel, t in weft_py.items():
        if gpu is not None and sel in cuda_devices:
            info(f"{sel}: Numba CUDA / weft Python kernel = {gpu / t:.2f} (issue 28: at least 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
