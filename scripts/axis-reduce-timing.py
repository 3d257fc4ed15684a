#!/usr/bin/env python3
"""Times weft.sum(a, axis=...) on tall and wide float32 arrays against NumPy in the same run
(median of 7 after one warm-up), on the host backend and the first OpenCL device.
Usage: PYTHONPATH=build/python python3 scripts/axis-reduce-timing.py"""
import weft, numpy as np, time, statistics
for sel in ["host", "opencl:0:0"]:
    d = weft.Device(sel)
    for shape, axis in [((4_000_000, 2), 0), ((2, 4_000_000), 1), ((8_000_000, 1), 0)]:
        a = weft.asarray(np.ones(shape, np.float32), device=d)
        x = np.ones(shape, np.float32)
        weft.sum(a, axis=axis).get()
        ts = []
        for _ in range(7):
            t0 = time.perf_counter(); weft.sum(a, axis=axis).get(); ts.append(time.perf_counter() - t0)
        tn = []
        for _ in range(7):
            t0 = time.perf_counter(); np.sum(x, axis=axis); tn.append(time.perf_counter() - t0)
        print(sel, shape, axis, "weft %.2f ms  numpy %.2f ms" % (statistics.median(ts)*1e3, statistics.median(tn)*1e3))
