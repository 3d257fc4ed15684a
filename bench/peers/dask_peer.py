#!/usr/bin/env python3
"""weft arrays as Dask chunks (issue 31), measured by `weft bench dask` or run on its own.

Usage: dask_peer.py N REPEAT [DEVICES]

The workloads: ``(sin(x) * 2 + 1).sum(axis=0)`` (arithmetic-bound) and ``(x * 2 + 1).sum(axis=0)``
(memory-bound) over a float32 matrix of about N elements (a square of side floor(sqrt(N)), in
chunks of a quarter of its rows), the elementwise part fused into the reduction. Measured, each
as the median and minimum of REPEAT runs after two untimed ones:

- weft in one process, the whole matrix on each device of DEVICES (a comma-separated list of
  selectors; every device weft.devices() lists by default);
- dask.array with weft chunks on weft.dask.local_cluster(DEVICES): one worker process per
  device, the chunks persisted on the workers first (so the data is not moved each run);
- dask.array with NumPy chunks on the same cluster, persisted the same way.

The cluster's throughput is compared with the sum of the one-process throughputs of its
workers' devices (the issue asks for 80% of it) and with the NumPy chunks'. Every result is
checked against NumPy's. Prints the harness's lines:
  record<TAB>method<TAB>device<TAB>n<TAB>dtype<TAB>median_s<TAB>min_s<TAB>bytes
"info<TAB>text" for what a reader should know, "skip<TAB>reason" when Dask is missing.
"""
import math
import os
import sys
import warnings

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

from wall_timing import timed  # noqa: E402


def emit(method, device, n, med, mn, nbytes):
    print(f"record\t{method}\t{device}\t{n}\tfloat32\t{med:.9g}\t{mn:.9g}\t{nbytes}", flush=True)


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 1 << 24
    repeat = int(argv[2]) if len(argv) > 2 else 5
    try:
        import dask.array as da
        import distributed
        import weft
        import weft.dask
    except ImportError as e:
        print(f"skip\tdask: {e}", flush=True)
        return 0
    # (from_numpy keeps the matrix in the graph, as dask.array.from_array does; it is sent once,
    # by the untimed persist)
    warnings.filterwarnings("ignore", message="Sending large graph")
    side = max(4, math.isqrt(n))
    n = side * side
    x = np.random.default_rng(31).random((side, side), dtype=np.float32)
    nbytes = x.nbytes
    chunks = (max(1, side // 4), side)
    devices = argv[3].split(",") if len(argv) > 3 and argv[3] else [d.selector for d in weft.devices()]
    # name: (the expression on an array module's arrays, what NumPy in float64 says)
    workloads = {
        "(sin(x)*2+1).sum(0)": (lambda m, a: (m.sin(a) * 2 + 1).sum(axis=0),
                                (np.sin(x.astype(np.float64)) * 2 + 1).sum(axis=0)),
        "(x*2+1).sum(0)": (lambda m, a: (a * 2 + 1).sum(axis=0), (x.astype(np.float64) * 2 + 1).sum(axis=0)),
    }

    def check(got, want, what):
        np.testing.assert_allclose(np.asarray(got, dtype=np.float64), want, rtol=1e-3, atol=1e-2 * math.sqrt(side),
                                   err_msg=what)

    one = {}
    for sel in devices:
        a = weft.asarray(x, device=sel)
        for name, (f, want) in workloads.items():
            check(f(weft, a).get(), want, f"weft on {sel}")
            med, mn = timed(lambda: f(weft, a).get(), repeat)
            one[name, sel] = med
            emit(f"{name}: weft, one process", sel, n, med, mn, nbytes)

    label = "+".join(devices)
    cluster_med = {}
    with weft.dask.local_cluster(devices, dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        dw = client.persist(weft.dask.from_numpy(x, chunks=chunks))
        dn = client.persist(da.from_array(x, chunks=chunks))
        distributed.wait([dw, dn])
        for name, (f, want) in workloads.items():
            for chunk_kind, d in [("weft", dw), ("NumPy", dn)]:
                check(weft.dask.to_numpy(f(da, d)), want, f"{name} on {chunk_kind} chunks")
                med, mn = timed(lambda: weft.dask.to_numpy(f(da, d)), repeat)
                cluster_med[name, chunk_kind] = med
                emit(f"{name}: dask, {chunk_kind} chunks, {len(devices)} workers", label, n, med, mn, nbytes)
    for name in workloads:
        ideal = sum(1 / one[name, s] for s in devices)  # runs per second of the devices side by side
        print(f"info\tdask {name}: weft chunks on {len(devices)} workers reach "
              f"{100 / cluster_med[name, 'weft'] / ideal:.0f}% of the devices' one-process throughput summed, and run "
              f"{cluster_med[name, 'NumPy'] / cluster_med[name, 'weft']:.2f}x as fast as NumPy chunks on the same "
              "cluster", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
