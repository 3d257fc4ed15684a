"""Is registering pageable memory with the driver (cudaHostRegister) cheaper than staging it
(issue 30)? Times register + copy + unregister, register + unregister alone, and CuPy's own
pageable copy, at 64 and 256 MiB, and the host's NumPy copy rate of the same size over 8-16
threads (at 64 MiB the data stays in a large last-level cache).

    python3 bench/peers/cupy_register_probe.py
"""
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import cupy as cp
import numpy as np

rt = cp.cuda.runtime


def med(fn, r=15, w=3):
    for _ in range(w):
        fn()
    t = []
    for _ in range(r):
        t0 = time.perf_counter()
        fn()
        t.append(time.perf_counter() - t0)
    return statistics.median(t) * 1e3, min(t) * 1e3


for mib in (64, 256):
    n = mib << 20
    a = np.ones(n, np.uint8)
    d = cp.empty(n, cp.uint8)
    ptr = a.ctypes.data

    def reg_copy_unreg():
        rt.hostRegister(ptr, n, 0)
        rt.memcpy(d.data.ptr, ptr, n, 1)
        rt.hostUnregister(ptr)

    def reg_unreg():
        rt.hostRegister(ptr, n, 0)
        rt.hostUnregister(ptr)

    def plain():
        rt.memcpy(d.data.ptr, ptr, n, 1)

    print(f"{mib} MiB: register+copy+unregister {med(reg_copy_unreg)} ms; register+unregister {med(reg_unreg)} ms; "
          f"cupy pageable copy {med(plain)} ms", flush=True)
    b = np.empty_like(a)
    b[:] = 0
    for T in (8, 12, 16):
        bounds = [(i * n // T, (i + 1) * n // T) for i in range(T)]
        ex = ThreadPoolExecutor(T)
        m = med(lambda: list(ex.map(lambda r: np.copyto(b[r[0]:r[1]], a[r[0]:r[1]]), bounds)))
        print(f"{mib} MiB host copy {T} threads: {m} ms = {n / m[0] / 1e6:.1f} GB/s", flush=True)
        ex.shutdown()
