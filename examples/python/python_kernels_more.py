"""More Python kernels (issue 28): a stencil, a histogram with local memory and atomics, and a
Monte-Carlo estimate of pi with a prange reduction, each checked against NumPy, on the device
WEFT_DEVICE names (the host CPU when unset):

    WEFT_DEVICE=opencl:0:0 python3 examples/python/python_kernels_more.py

- the stencil is a @weft.jit function whose two weft.prange loops are the 2-d NDRange;
- the histogram is a @weft.kernel, launched like an OpenCL C kernel with a work-group size:
  each group counts into weft.local_array memory with weft.atomic_inc, meets at
  weft.barrier(), then adds its counts to the global histogram with weft.atomic_add;
- the Monte-Carlo estimate counts the points inside the quarter circle with ``hits += 1`` in a
  prange loop: a reduction, combined on the device (the points come from NumPy's generator
  here; monte_carlo_pi.py draws them inside the kernel with weft.random).
"""
from __future__ import annotations

import numpy as np
import numpy.typing as npt

import weft

BINS = 16


@weft.jit
def blur(a: npt.NDArray[np.float64], out: npt.NDArray[np.float64]) -> None:
    for y in weft.prange(1, a.shape[0] - 1):
        for x in weft.prange(1, a.shape[1] - 1):
            out[y, x] = (a[y, x] * 4 + a[y - 1, x] + a[y + 1, x] + a[y, x - 1] + a[y, x + 1]) / 8


@weft.kernel
def histogram(hist: npt.NDArray[np.int32], x: npt.NDArray[np.int32], n: int) -> None:
    counts = weft.local_array(BINS, np.int32)
    lid = weft.local_id(0)
    if lid < BINS:
        counts[lid] = 0
    weft.barrier()
    i = weft.global_id(0)
    if i < n:
        weft.atomic_inc(counts, x[i] % BINS)
    weft.barrier()
    if lid < BINS:
        weft.atomic_add(hist, lid, counts[lid])


@weft.jit
def quarter_circle_hits(xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64]) -> int:
    hits = 0
    for i in weft.prange(len(xs)):
        if xs[i] * xs[i] + ys[i] * ys[i] <= 1.0:
            hits += 1
    return hits


def main() -> None:
    device = weft.default_device()

    a = np.random.default_rng(0).random((64, 48))
    out = a.copy()
    blur(a, out)  # NumPy arrays: copied to the device and back
    expected = a.copy()
    expected[1:-1, 1:-1] = (4 * a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]) / 8
    assert np.allclose(out, expected, rtol=1e-15, atol=0)

    data = np.random.default_rng(1).integers(0, 1000, 10_000).astype(np.int32)
    hist = weft.zeros(BINS, np.int32, device=device)
    histogram(device, (10_240,), (256,), hist, weft.asarray(data, device=device), len(data)).wait()
    assert np.array_equal(hist.get(), np.bincount(data % BINS, minlength=BINS))

    rng = np.random.default_rng(7)
    n = 200_000
    px, py = rng.random(n), rng.random(n)
    hits = quarter_circle_hits(weft.asarray(px, device=device), weft.asarray(py, device=device))
    assert hits == int((px * px + py * py <= 1.0).sum())
    print(f"{device.selector}: blur of 64x48 and a {BINS}-bin histogram of {len(data)} values equal NumPy's; "
          f"pi ~ {4 * hits / n:.4f} from {n} points")


if __name__ == "__main__":
    main()
