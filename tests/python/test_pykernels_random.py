"""weft.random in Python kernels (issue 28): random_at, uniform_at, normal_at and raw_at in
@weft.kernel and @weft.jit/prange bodies give element i of a fresh weft.random.Generator(seed)'s
call, bit for bit, on every device; the Monte-Carlo estimate of pi counts exactly the points
the Generator's array gives."""
import numpy as np
import pytest

import weft


@weft.kernel
def draw32(out, seed):
    i = weft.global_id(0)
    out[0, i] = weft.random.random_at(seed, i, np.float32)
    out[1, i] = weft.random.uniform_at(seed, i, np.float32(-3.0), np.float32(5.0), np.float32)
    out[2, i] = weft.random.normal_at(seed, i, np.float32)
    out[3, i] = weft.random.normal_at(seed, i, np.float32(2.0), np.float32(0.5), np.float32)


@weft.jit
def draw64(out, raw, seed):
    for i in weft.prange(out.shape[1]):
        out[0, i] = weft.random.random_at(seed, i)
        out[1, i] = weft.random.uniform_at(seed, i, -3.0, 5.0)
        out[2, i] = weft.random.normal_at(seed, i)
        out[3, i] = weft.random.normal_at(seed, i, 2.0, 0.5, np.float64)
        raw[i] = weft.random.raw_at(seed, i)


@pytest.mark.parametrize("seed", [0, 42, 2**63 + 5])
def test_kernel_float32_equals_generator(device, seed):
    n = 37  # not a multiple of a block's elements
    out = weft.zeros((4, n), np.float32, device=device)
    draw32(device, (n,), None, out, np.uint64(seed)).wait()
    g = weft.random.Generator
    expected = [g(seed).random(n, dtype=np.float32, device=device), g(seed).uniform(-3, 5, n, np.float32, device=device),
                g(seed).normal(0, 1, n, np.float32, device=device), g(seed).normal(2, 0.5, n, np.float32, device=device)]
    for row, e in zip(out.get(), expected):
        np.testing.assert_array_equal(row.view(np.uint32), e.get().view(np.uint32))


@pytest.mark.parametrize("seed", [3, 2**40 + 1])
def test_prange_float64_and_raw_equal_generator(device, seed):
    n = 29
    out = weft.zeros((4, n), np.float64, device=device)
    raw = weft.zeros(n, np.uint32, device=device)
    draw64(out, raw, seed)
    g = weft.random.Generator
    expected = [g(seed).random(n, device=device), g(seed).uniform(-3, 5, n, device=device),
                g(seed).normal(0, 1, n, device=device), g(seed).normal(2, 0.5, n, device=device)]
    for row, e in zip(out.get(), expected):
        np.testing.assert_array_equal(row.view(np.uint64), e.get().view(np.uint64))
    np.testing.assert_array_equal(raw.get(), g(seed).random_raw(n, device=device).get())


def test_same_bits_on_every_device():
    n = 16
    results = []
    for d in weft.devices():
        out = weft.zeros((4, n), np.float64, device=d)
        raw = weft.zeros(n, np.uint32, device=d)
        draw64(out, raw, 11)
        assert np.isfinite(out.get()).all()
        results.append(out.get().view(np.uint64))
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])


def test_plain_python_calls_ask_a_generator():
    u = weft.random.default_rng(9).random(6, dtype=np.float32).get()
    assert weft.random.random_at(9, 5, np.float32) == u[5]
    z = weft.random.default_rng(9).normal(1.0, 2.0, 3).get()
    assert weft.random.normal_at(9, 2, 1.0, 2.0) == z[2]
    assert weft.random.raw_at(9, 4) == weft.random.default_rng(9).random_raw(5).get()[4]
    with pytest.raises(weft.DTypeError, match="float32 or float64"):
        weft.random.random_at(9, 0, np.int32)


def test_bad_calls_are_refused_with_the_line():
    @weft.jit
    def bad_dtype(out, seed):
        for i in weft.prange(len(out)):
            out[i] = weft.random.random_at(seed, i, np.int32)

    with pytest.raises(weft.Unsupported, match=r"test_pykernels_random.py:\d+:\d+: .*constant float32 or float64"):
        bad_dtype(weft.zeros(2), 1)

    @weft.jit
    def bad_arity(out, seed):
        for i in weft.prange(len(out)):
            out[i] = weft.random.uniform_at(seed, i)

    with pytest.raises(weft.Unsupported, match=r"uniform_at takes \(seed, i, low, high\[, dtype\]\)"):
        bad_arity(weft.zeros(2), 1)


@weft.jit
def quarter_circle(seed, n):
    hits = 0
    for i in weft.prange(n):
        x = weft.random.random_at(seed, 2 * i)
        y = weft.random.random_at(seed, 2 * i + 1)
        if x * x + y * y < 1.0:
            hits += 1
    return hits


def test_monte_carlo_pi_counts_the_generators_points(device):
    n = 20_000
    with device:  # no array argument: the current device runs it
        hits = quarter_circle(5, n)
    xy = weft.random.Generator(5).random(2 * n, device=device).get().reshape(n, 2)
    assert hits == int((xy[:, 0] ** 2 + xy[:, 1] ** 2 < 1.0).sum())
    assert abs(4 * hits / n - np.pi) < 0.05
