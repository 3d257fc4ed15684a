"""A Monte-Carlo estimate of pi with weft.random inside a Python kernel (issue 28), on the device
WEFT_DEVICE names (the host CPU when unset):

    WEFT_DEVICE=opencl:0:0 python3 examples/python/monte_carlo_pi.py

Each iteration of the weft.prange loop draws its point where it runs: ``weft.random.random_at(seed,
i)`` is element i of ``weft.random.Generator(seed).random(n)``, computed in the work-item by the
generator's own Philox4x32-10 code, so no array of random numbers is made and the count is the
same on every device. ``hits += 1`` is a reduction, combined on the device. The script checks
the count against the points the Generator gives as an array, and the same seed's count in
float32 (a @weft.kernel with 64-bit atomics).
"""
from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

import weft


@weft.jit
def quarter_circle_hits(seed: np.uint64, n: int) -> int:
    hits = 0
    for i in weft.prange(n):
        x = weft.random.random_at(seed, 2 * i)
        y = weft.random.random_at(seed, 2 * i + 1)
        if x * x + y * y < 1.0:
            hits += 1
    return hits


@weft.kernel
def quarter_circle_hits32(hits: npt.NDArray[np.int64], seed: np.uint64, n: int) -> None:
    i = weft.global_id(0)
    if i < n:
        x = weft.random.random_at(seed, 2 * i, np.float32)
        y = weft.random.random_at(seed, 2 * i + 1, np.float32)
        if x * x + y * y < np.float32(1.0):
            weft.atomic_inc(hits, 0)


def main() -> None:
    device = weft.default_device()
    seed, n = np.uint64(2026), 1_000_000
    with device:
        hits = quarter_circle_hits(seed, n)
    # The same points as arrays from the Generator: element 2i is x, 2i + 1 is y.
    xy = weft.random.Generator(int(seed)).random(2 * n, device=device).get().reshape(n, 2)
    assert hits == int((xy[:, 0] ** 2 + xy[:, 1] ** 2 < 1.0).sum())
    estimate = 4 * hits / n
    assert abs(estimate - math.pi) < 0.01

    hits32 = weft.zeros(1, np.int64, device=device)
    quarter_circle_hits32(device, (n,), None, hits32, seed, n).wait()
    xy32 = weft.random.Generator(int(seed)).random(2 * n, dtype=np.float32, device=device).get().reshape(n, 2)
    assert int(hits32.get()[0]) == int((xy32[:, 0] * xy32[:, 0] + xy32[:, 1] * xy32[:, 1] < np.float32(1)).sum())
    print(f"{device.selector}: pi ~ {estimate:.5f} from {n} points drawn in the kernel (float64), "
          f"{4 * int(hits32.get()[0]) / n:.5f} (float32); both counts equal the Generator's arrays'")


if __name__ == "__main__":
    main()
