"""Atomics in Python kernels (issue 28): weft.atomic_add/sub/min/max/inc/xchg/cas on int32,
uint32, int64, uint64, float32 and float64 elements, global and local, in @weft.kernel and
@weft.jit prange bodies, on every device; results equal NumPy's for the same updates."""
import numpy as np
import pytest

import weft

DTYPES = [np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64]


@weft.kernel
def all_ops(acc, x, n):
    i = weft.global_id(0)
    if i < n:
        v = x[i]
        weft.atomic_add(acc, 0, v)
        weft.atomic_sub(acc, 1, v)
        weft.atomic_min(acc, 2, v)
        weft.atomic_max(acc, 3, v)
        weft.atomic_xchg(acc, 4, 7)  # every work-item stores 7
        weft.atomic_cas(acc, 5, 0, v)  # only the first work-item finds 0


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_every_op_and_dtype(device, dtype):
    n = 300
    x = (np.arange(n) % 50 + 3).astype(dtype)  # exact in float32 sums too
    start = np.array([1000, 100000, 60, 0, 0, 0], dtype)
    acc = weft.asarray(start, device=device)
    all_ops(device, (320,), (64,), acc, weft.asarray(x, device=device), n).wait()
    got = acc.get()
    assert got[0] == start[0] + x.sum(dtype=dtype)
    assert got[1] == start[1] - x.sum(dtype=dtype)
    assert got[2] == min(start[2], x.min()) and got[3] == max(start[3], x.max())
    assert got[4] == 7 and got[5] in set(x.tolist())


@weft.kernel
def histogram64(hist, x, n):
    counts = weft.local_array(8, np.int64)
    sums = weft.local_array(8, np.float64)
    lid = weft.local_id(0)
    if lid < 8:
        counts[lid] = 0
        sums[lid] = 0.0
    weft.barrier()
    i = weft.global_id(0)
    if i < n:
        b = x[i] % 8
        weft.atomic_inc(counts, b)
        weft.atomic_add(sums, b, x[i] * 0.5)
    weft.barrier()
    if lid < 8:
        weft.atomic_add(hist, (0, lid), counts[lid])
        weft.atomic_add(hist, (1, lid), weft.atomic_xchg(sums, lid, 0.0))


def test_local_int64_and_float64(device):
    x = np.random.default_rng(2).integers(0, 1000, 1000).astype(np.int64)
    h = weft.zeros((2, 8), np.float64, device=device)
    histogram64(device, (1024,), (64,), h, weft.asarray(x, device=device), len(x)).wait()
    got = h.get()
    np.testing.assert_array_equal(got[0], np.bincount(x % 8, minlength=8))
    np.testing.assert_array_equal(got[1], np.bincount(x % 8, weights=x * 0.5, minlength=8))


@weft.jit
def prange_max(x, best):
    for i in weft.prange(len(x)):
        weft.atomic_max(best, 0, x[i])
        weft.atomic_min(best, 1, x[i])


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_prange_atomics(device, dtype):
    x = np.random.default_rng(4).permutation(500).astype(dtype)
    best = weft.asarray(np.array([0, 10**6], dtype), device=device)
    prange_max(weft.asarray(x, device=device), best)
    np.testing.assert_array_equal(best.get(), np.array([x.max(), x.min()], dtype))


def test_large_int64_values(device):
    big = np.array([2**40, 2**41 + 3, -(2**50)], np.int64)
    acc = weft.asarray(np.array([2**62, 0, 0, 0, 0, 0], np.int64), device=device)
    all_ops(device, (3,), None, acc, weft.asarray(big, device=device), 3).wait()
    got = acc.get()
    assert got[0] == 2**62 + big.sum() and got[1] == -big.sum()
    assert got[2] == -(2**50) and got[3] == 2**41 + 3


def test_nvrtc_sources_are_current():
    """tests/kernels/cl/python_*.cl (compiled by NVRTC in the C++ tests) are what weft generates."""
    import pyk_nvrtc_sources
    for name, src in pyk_nvrtc_sources.sources().items():
        path = pyk_nvrtc_sources.KERNELS_DIR / name
        assert path.read_text() == src, f"{path} is stale: run tests/python/pyk_nvrtc_sources.py"


def test_nvrtc_source_kernels_run(device):
    import pyk_nvrtc_sources as s
    arrays = [weft.zeros(8, d, device=device) for d in DTYPES]
    s.every_atomic(device, (4,), (4,), *arrays).wait()
    assert arrays[0].get()[0] == 4 and arrays[3].get()[1] == 4 and arrays[4].get()[0] == 2.0
