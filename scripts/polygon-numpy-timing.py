#!/usr/bin/env python3
"""Times weft.polygon_mask returned as a NumPy array (issue 30's targets: 1024x1024 with 24
vertices under 100 us, 8192x8192 with 256 under 5 ms): median and min of 41 calls after 5
warm-up calls, on each device given (default cuda:0), and checks the mask against the host's.
Usage: PYTHONPATH=build/python python3 scripts/polygon-numpy-timing.py [cuda:0 opencl:0:0 ...]"""
import statistics
import sys
import time

import numpy as np

import weft

devices = sys.argv[1:] or ["cuda:0"]
rng = np.random.default_rng(42)
for side, nv in ((1024, 24), (8192, 256)):
    ang = np.sort(rng.uniform(0, 2 * np.pi, nv))
    r = rng.uniform(0.3, 0.5, nv) * side
    v = np.stack([side / 2 + r * np.cos(ang), side / 2 + r * np.sin(ang)], 1).round()
    expected = weft.polygon_mask(v, side, side, device="host")
    for dev in devices:
        for _ in range(5):
            m = weft.polygon_mask(v, side, side, device=dev)
        del m
        ts = []
        for _ in range(41):
            t0 = time.perf_counter()
            m = weft.polygon_mask(v, side, side, device=dev)
            ts.append(time.perf_counter() - t0)
            del m
        m = weft.polygon_mask(v, side, side, device=dev)
        same = bool((m == expected).all())
        print(f"polygon_mask {side}^2/{nv} on {dev} to NumPy: median {statistics.median(ts) * 1e3:.3f} ms "
              f"min {min(ts) * 1e3:.3f} ms (same as host: {same})", flush=True)
