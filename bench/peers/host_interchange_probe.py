#!/usr/bin/env python3
"""How far the host backend is from vectorizing the per-pixel polygon kernel across work-items
(issue 29), measured on one device per process so that runs can be interleaved:

- ``plain``: the exercise's per-pixel kernel as written (polygon_peer.PER_PIXEL_KERNEL, float/int,
  and pykernels_bench.OPENCL_C, double/long), global size (SIZE, SIZE), no local size;
- ``fission``: the same source with ``barrier(CLK_LOCAL_MEM_FENCE)`` at the head of the vertex
  loop and local size (256, 1): on the host backend this is the barrier path (dialect/
  group_fission.hpp), i.e. the vertex loop outside a loop over a group's work-items, with the
  per-item state in arrays. It shows what the existing fission machinery gives a barrier-free
  kernel if the loop were split there automatically;
- ``strip``: the loop interchange written by hand in OpenCL C: one work-item per STRIP pixels of a
  row, the vertex loop outside, a loop over the strip's pixels inside with the per-pixel state in
  private arrays and the early ``return`` as a per-pixel ``done`` flag. The uniform part of the
  test keeps the reference's expressions, so the mask is bit-identical. Written this way (every
  condition inside the pixel loop, no `&&` chains computed before it) GCC 12 vectorizes the pixel
  loop; with the edge's conditions hoisted into ints before the loop it does not (it unswitches
  and keeps the hot copy scalar). This is the code an automatic transform of the plain kernel
  would have to produce.

Every mask is checked against weft.polygon_mask's; a wrong one fails the script.

Usage: host_interchange_probe.py DEVICE [SIZE] [REPEAT]
Prints one line per variant: ``probe<TAB>variant<TAB>dtype<TAB>median_wall_ms<TAB>median_cpu_ms``
(cpu = this process's CPU time over the run, all threads). A benchmark, not a test.
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import weft  # noqa: E402
from polygon_peer import PER_PIXEL_KERNEL  # noqa: E402
from pykernels_bench import OPENCL_C  # noqa: E402

STRIP = 64

STRIP_KERNEL = """
#define STRIP %(strip)d
__kernel void inside_polygon(__global const REAL *v, INT n, INT width, __global uchar *mask, uchar border)
{
    INT x0 = (INT)get_global_id(0) * STRIP, y = get_global_id(1);
    REAL py = (REAL)y;
    REAL px[STRIP];
    INT counter[STRIP];
    uchar done[STRIP];
    for (int l = 0; l < STRIP; ++l) { px[l] = (REAL)(x0 + l); counter[l] = 0; done[l] = 0; }
    for (INT i = 0; i < n; ++i) {
        REAL x1 = v[2 * i], y1 = v[2 * i + 1];
        INT j = (i + 1) %% n;
        REAL x2 = v[2 * j], y2 = v[2 * j + 1];
        for (int l = 0; l < STRIP; ++l) {
            done[l] |= x1 == px[l] && y1 == py;
            int c = py > min(y1, y2) && py <= max(y1, y2) && px[l] <= max(x1, x2) && y1 != y2;
            REAL xinters = (py - y1) * (x2 - x1) / (y2 - y1) + x1;
            counter[l] += (!done[l] && c && (x1 == x2 || px[l] <= xinters)) ? 1 : 0;
        }
    }
    for (int l = 0; l < STRIP && x0 + l < width; ++l)
        mask[y * width + x0 + l] = done[l] ? border : (uchar)(counter[l] %% 2);
}
""" % {"strip": STRIP}


def variants():
    """(name, dtype name, source, float type, int type, local size or None, strip?)."""
    b32 = "for (int i = 0; i < n; ++i) {"
    b64 = "for (long i = 0; i < n; ++i) {"
    bar = " barrier(CLK_LOCAL_MEM_FENCE);"
    fp64 = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    strip32 = "#define REAL float\n#define INT int\n" + STRIP_KERNEL
    strip64 = fp64 + "#define REAL double\n#define INT long\n" + STRIP_KERNEL
    return [
        ("plain", "float/int", PER_PIXEL_KERNEL, np.float32, np.int32, None, False),
        ("plain", "double/long", OPENCL_C, np.float64, np.int64, None, False),
        ("fission", "float/int", PER_PIXEL_KERNEL.replace(b32, b32 + bar), np.float32, np.int32, (256, 1), False),
        ("fission", "double/long", OPENCL_C.replace(b64, b64 + bar), np.float64, np.int64, (256, 1), False),
        ("strip", "float/int", strip32, np.float32, np.int32, None, True),
        ("strip", "double/long", strip64, np.float64, np.int64, None, True),
    ]


def main(argv):
    device = weft.Device(argv[1])
    size = int(argv[2]) if len(argv) > 2 else 1024
    repeat = int(argv[3]) if len(argv) > 3 else 7
    vertices = weft.random_polygon(24, 1, size, size)
    reference = np.asarray(weft.polygon_mask(vertices, size, size, device=weft.Device("host")))
    queue = weft.array_queue(device)
    for name, dname, source, real, integer, local, strip in variants():
        if name == "fission" and argv[1] != "host":
            # a barrier after an early return is undefined in OpenCL: only the host's fission
            # (which keeps returned work-items out of later regions) gives the reference mask
            continue
        kernel = weft.Program(device, source).build().inside_polygon
        v = weft.asarray(np.asarray(vertices, real).ravel(), device=device)
        out = weft.zeros((size, size), np.uint8, device=device)
        n, w = integer(len(vertices)), integer(size)
        if strip:
            def run():
                kernel(queue, ((size + STRIP - 1) // STRIP, size), None, v, n, w, out, np.uint8(1))
        elif real == np.float64:
            def run():
                kernel(queue, (size, size), local, v, n, out, w, np.uint8(1))
        else:
            def run():
                kernel(queue, (size, size), local, v, n, w, out)
        run()
        queue.finish()
        if not np.array_equal(out.get(), reference):
            raise SystemExit(f"host_interchange_probe: {name} {dname} on {argv[1]}: the mask differs")
        for _ in range(2):
            run()
            queue.finish()
        wall, cpu = [], []
        for _ in range(repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            run()
            queue.finish()
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        print(f"probe\t{name}\t{dname}\t{statistics.median(wall) * 1e3:.2f}\t{statistics.median(cpu) * 1e3:.2f}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
