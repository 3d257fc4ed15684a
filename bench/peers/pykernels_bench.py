#!/usr/bin/env python3
"""Python kernels (issue 28) against their peers, on one polygon: the seed's insidePolygon for
every pixel of a SIZE x SIZE image (24 vertices by default) as

- a weft Python kernel (@weft.jit, two weft.prange loops: the 2-d NDRange), on each device;
- the same per-pixel rule written by hand in OpenCL C (double, one work-item per pixel), on
  each device (issue 28 asks the Python kernel to be within 10% of it);
- Numba's @njit(parallel=True) with prange over the rows (the host's cores);
- weft.polygon_mask (the scanline algorithm: a different algorithm, for scale);
- the Python kernel with boundscheck=True (the cost of checking every index).

Usage: PYTHONPATH=build/python python3 bench/peers/pykernels_bench.py [SIZE] [REPEAT] [VERTICES]
Prints one line per measurement: method, device, median and min seconds over REPEAT runs
(after 2 warm-up runs), and whether the mask equals weft.polygon_mask's. A benchmark, not a
test: numbers are reported, never asserted.
"""
import statistics
import sys
import time

import numpy as np

import weft


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


def timed(fn, repeat):
    for _ in range(2):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)


def report(method, device, med, mn, same):
    print(f"{method:<44} {device:<14} median {med * 1e3:9.2f} ms  min {mn * 1e3:9.2f} ms  "
          f"{'mask equal' if same else 'MASK DIFFERS'}", flush=True)


def numba_peer(vertices, size, repeat, reference):
    try:
        import numba
    except ImportError:
        print("skip: numba is not installed")
        return
    inside = numba.njit(insidePolygon.__wrapped__)

    @numba.njit(parallel=True)
    def pixels(vertices, mask, border_value):
        for y in numba.prange(mask.shape[0]):
            for x in range(mask.shape[1]):
                mask[y, x] = inside(vertices, (x, y), border_value)

    mask = np.zeros((size, size), np.uint8)
    t0 = time.perf_counter()
    pixels(vertices, mask, True)
    print(f"numba: first call (compile) {time.perf_counter() - t0:.2f} s, {numba.get_num_threads()} threads")
    med, mn = timed(lambda: pixels(vertices, mask, True), repeat)
    report("Numba @njit(parallel=True) prange", "cpu", med, mn, np.array_equal(mask, reference))


NEW_PROCESS = """
import sys, time
sys.path.insert(0, {here!r})
import weft
import pykernels_bench as b
from weft._pyk_types import ArrayT, WEAK_BOOL
device = weft.Device({selector!r})
types = (ArrayT("float64", 2), ArrayT("uint8", 2), WEAK_BOOL)
t0 = time.perf_counter()
b.polygon_pixels._compiler.compiled(types)
t1 = time.perf_counter()
b.polygon_pixels._compiler.kernel(types, device)
t2 = time.perf_counter()
print(f"{{(t1 - t0) * 1e3:.2f}} {{(t2 - t1) * 1e3:.2f}}")
"""


def new_process(device):
    """Translation and kernel-ready times of the polygon kernel in fresh processes (the first one
    may compile; the later ones load the disk cache)."""
    import os
    import subprocess
    here = os.path.dirname(os.path.abspath(__file__))
    code = NEW_PROCESS.format(here=here, selector=device.selector)
    for run in range(3):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
        print(f"{device.selector}: new process {run + 1}: translate {out[0]} ms, kernel ready (build or disk "
              f"cache) {out[1]} ms", flush=True)


def main():
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 24
    vertices = weft.random_polygon(n, 1, size, size)
    reference = weft.polygon_mask(vertices, size, size, device=weft.Device("host"))
    print(f"{size}x{size} pixels, {n} vertices, {repeat} runs")
    for device in weft.devices():
        v = weft.asarray(vertices, device=device)
        mask = weft.zeros((size, size), np.uint8, device=device)
        queue = weft.array_queue(device)
        t0 = time.perf_counter()
        polygon_pixels(v, mask, True)
        queue.finish()
        print(f"{device.selector}: Python kernel first call (translate + build or disk cache) "
              f"{(time.perf_counter() - t0) * 1e3:.1f} ms")

        def py_kernel():
            polygon_pixels(v, mask, True)
            queue.finish()
        med, mn = timed(py_kernel, repeat)
        report("weft Python kernel (@weft.jit, prange)", device.selector, med, mn,
               np.array_equal(mask.get(), reference))

        def checked():
            polygon_pixels_checked(v, mask, True)  # waits for the kernel (it reads the error record)
        med, mn = timed(checked, repeat)
        report("  the same with boundscheck=True", device.selector, med, mn, np.array_equal(mask.get(), reference))

        k = weft.Program(device, OPENCL_C).build().inside_polygon
        out = weft.zeros((size, size), np.uint8, device=device)

        def c_kernel():
            k(queue, (size, size), None, v, np.int64(n), out, np.int64(size), np.uint8(1)).wait()
        med, mn = timed(c_kernel, repeat)
        report("the same kernel in OpenCL C", device.selector, med, mn, np.array_equal(out.get(), reference))

        med, mn = timed(lambda: weft.polygon_mask(vertices, size, size, device=device), repeat)
        report("weft.polygon_mask (scanline; other algorithm)", device.selector, med, mn, True)
        new_process(device)
    numba_peer(vertices, size, repeat, reference)


if __name__ == "__main__":
    main()
