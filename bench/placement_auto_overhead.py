"""Device auto's cost per call on data resident on one device, against that fixed device.

Issue 27 (b): on an H200, `weft bench placement` measured auto ~130 us above staying on
NVIDIA OpenCL for data resident there at 10^5-10^6 elements, while its fastest run equalled
staying's and the model kept the work there. This runs a*b+c, sum(sqrt(a*b+c)*2) and cumsum
of three float32 arrays resident on DEVICE, fixed and automatic (the same data, two sets of
arrays), interleaved in one process (each round runs both, in alternating order), and prints
medians and minima in microseconds. A diagnostic, not a benchmark suite.

    python3 bench/placement_auto_overhead.py opencl:0:0 --reps 41 --n 100 10000 100000 1000000

`--between DEV` runs a one-element kernel on DEV (and waits for it) before each timed call,
untimed, as another variant of `weft bench placement` runs between two of auto's runs: on a
GPU that CUDA and NVIDIA OpenCL share, `--between cuda:0` with DEVICE `opencl:0:0` shows
what the first OpenCL kernel after CUDA work costs (a switch between the GPU's contexts),
for fixed and auto alike.
"""
from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

import numpy as np

import weft


def _ops() -> dict[str, Callable[[weft.Array, weft.Array, weft.Array], object]]:
    return {
        "light": lambda a, b, c: (a * b + c).evaluate(),
        "sum": lambda a, b, c: float((weft.sqrt(a * b + c) * 2).sum()),
        "cumsum": lambda a, b, c: a.cumsum(),
    }


def run(device: str, reps: int, sizes: list[int], between: str | None = None) -> None:
    """Prints one line per operation and size: fixed and auto medians, minima, their ratio.

    between: a device that runs a one-element kernel, untimed, before each timed call.

    >>> run("host", 3, [100])  # doctest: +SKIP
    light  n=100      fixed      4.1 (min     3.9)  auto      4.6 (min     4.3)  auto/fixed 1.12
    """
    for n in sizes:
        x = [np.random.default_rng(i).uniform(0.5, 1.5, n).astype(np.float32) for i in range(3)]
        fixed = [weft.asarray(v, device=device) for v in x]
        auto = [weft.asarray(v, device=device).to_auto() for v in x]
        weft.synchronize(device)
        other = weft.zeros(1, dtype=np.float32, device=between) if between else None
        for name, op in _ops().items():
            times: dict[str, list[float]] = {"fixed": [], "auto": []}
            for r in range(reps + 1):
                for which in (("fixed", "auto") if r % 2 == 0 else ("auto", "fixed")):
                    arrays = fixed if which == "fixed" else auto
                    if other is not None and between is not None:
                        other += 1
                        weft.synchronize(between)
                    t0 = time.perf_counter()
                    out = op(*arrays)
                    if isinstance(out, weft.Array):
                        weft.synchronize(out.device)
                    if r > 0:  # the first round builds the kernels
                        times[which].append((time.perf_counter() - t0) * 1e6)
                    del out
            f, a = times["fixed"], times["auto"]
            print(f"{name:6s} n={n:<8d} fixed {statistics.median(f):8.1f} (min {min(f):7.1f})  "
                  f"auto {statistics.median(a):8.1f} (min {min(a):7.1f})  "
                  f"auto/fixed {statistics.median(a) / statistics.median(f):.2f}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("device", help="where the arrays are resident, e.g. opencl:0:0")
    p.add_argument("--reps", type=int, default=41, help="timed rounds (default 41)")
    p.add_argument("--n", type=int, nargs="+", default=[100, 10_000, 100_000, 1_000_000], help="sizes")
    p.add_argument("--between", metavar="DEV", default=None,
                   help="a device that runs a one-element kernel (untimed) before each timed call, e.g. cuda:0")
    args = p.parse_args()
    run(args.device, args.reps, args.n, args.between)


if __name__ == "__main__":
    main()
