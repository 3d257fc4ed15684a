#!/usr/bin/env python3
"""The work-group shape's effect on the seed's polygon test as a weft Python kernel (issue 28):
the kernel @weft.jit generates for polygon_pixels (pykernels_bench.py) launched directly with
local sizes None (the backend's choice) and 256x4, 256x1, 32x8, 64x4, 128x2, with
``--repeat`` runs each (after two untimed), every mask checked against weft.polygon_mask's.
Numba CUDA launches 32x8 blocks; weft's CUDA backend chose 256x4 (1024 items) for a 2-d launch
without a local size before it capped the group at 256 items. A probe, not a test.

Usage: pykernels_geometry.py [DEVICE] [SIZE] [REPEAT]   (defaults: cuda:0 1024 21)
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import weft  # noqa: E402
import pykernels_bench as b  # noqa: E402


def main(argv):
    device = weft.Device(argv[1] if len(argv) > 1 else "cuda:0")
    size = int(argv[2]) if len(argv) > 2 else 1024
    repeat = int(argv[3]) if len(argv) > 3 else 21
    vertices = weft.random_polygon(24, 1, size, size)  # (as pykernels_bench.py's)
    reference = weft.polygon_mask(vertices, size, size, device=weft.Device("host"))
    v = weft.asarray(vertices, device=device)
    mask = weft.zeros((size, size), np.uint8, device=device)
    b.polygon_pixels(v, mask, True)  # translation, build, the plan
    plan = next(p for (sig, d), p in b.polygon_pixels._plans.items() if d == device)
    flat = plan.arguments((v, mask, True)) + [0, 1, 0, 1]
    queue = weft.array_queue(device)
    print(f"# {device.selector}, {size}x{size} pixels, 24 vertices, {repeat} runs; "
          f"private bytes per item {plan.kernel.private_bytes_per_item}")
    for local in (None, (256, 4), (256, 1), (32, 8), (64, 4), (128, 2)):
        if local is not None and (size % local[0] or size % local[1]):
            continue
        mask[...] = 7
        plan.kernel(queue, (size, size), local, *flat)
        queue.finish()
        if not np.array_equal(mask.get(), reference):
            raise SystemExit(f"local size {local}: the mask differs from weft.polygon_mask's")
        times = []
        for r in range(repeat + 2):
            t0 = time.perf_counter()
            plan.kernel(queue, (size, size), local, *flat)
            queue.finish()
            if r >= 2:
                times.append(time.perf_counter() - t0)
        print(f"local size {str(local):10s}: median {statistics.median(times) * 1e6:8.1f} us, "
              f"min {min(times) * 1e6:8.1f} us")


if __name__ == "__main__":
    main(sys.argv)
