"""The array memory pool (reuse, WEFT_MEMORY_LIMIT, OutOfMemory naming the request), residence
between devices (copies only where stale, once; counted), and the reductions, scans and
products NumPy users expect (argmin/argmax, var/std, cumsum/cumprod, dot and @), against NumPy."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import weft


def test_freed_memory_is_reused(device):
    weft.synchronize(device)
    weft.free_cached_memory(device)
    before = weft.memory_stats(device)
    a = weft.zeros(4096, np.float32, device=device)
    mid = weft.memory_stats(device)
    assert mid["in_use"] >= before["in_use"] + 4096 * 4
    del a
    weft.synchronize(device)
    assert weft.memory_stats(device)["cached"] >= 4096 * 4
    b = weft.full(4096, 7, np.int32, device=device)  # the same bytes as another dtype
    after = weft.memory_stats(device)
    assert after["reuses"] > before["reuses"]
    assert after["allocations"] == mid["allocations"]
    np.testing.assert_array_equal(b.get(), np.full(4096, 7, np.int32))


def test_memory_limit_refuses_a_request_and_names_it(tmp_path):
    script = textwrap.dedent("""
        import numpy as np, weft
        a = weft.zeros(100_000, np.float32, device="host")   # 400 kB: under the limit
        try:
            weft.empty((1000, 1000), np.float64, device="host")
        except weft.OutOfMemory as e:
            print("refused:", e)
        print("still usable:", float(a.sum()))
    """)
    env = dict(os.environ, WEFT_MEMORY_LIMIT="1M")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "refused:" in out.stdout, out.stdout
    assert "(1000, 1000)" in out.stdout and "float64" in out.stdout and "WEFT_MEMORY_LIMIT" in out.stdout
    assert "still usable: 0.0" in out.stdout
    env["WEFT_MEMORY_LIMIT"] = "lots"
    bad = subprocess.run([sys.executable, "-c", "import numpy, weft; weft.zeros(3)"], env=env, capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode != 0 and "WEFT_MEMORY_LIMIT='lots'" in bad.stderr


def _two_devices():
    host = [d for d in weft.devices() if d.backend == "host"]
    other = [d for d in weft.devices() if d.backend != "host"]
    return (host[0], other[0]) if host and other else (None, None)


def test_residence_copies_only_where_stale_and_once():
    host, other = _two_devices()
    if host is None:
        pytest.skip("needs the host backend and another device")
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    a = weft.asarray(x, device=host)
    t0 = weft.transfer_stats()
    g = a.to(other)  # nothing moves yet
    assert g.device == other
    assert weft.transfer_stats()["between_devices"] == t0["between_devices"]
    np.testing.assert_array_equal((g * 2).get(), x * 2)  # one copy to the other device
    np.testing.assert_array_equal((g + 1).get(), x + 1)  # none: valid there
    t1 = weft.transfer_stats()
    assert t1["between_devices"] == t0["between_devices"] + 1
    g[2:4] = -1  # written there: the host copy is stale
    got = a.get()  # one copy back
    want = x.copy()
    want[2:4] = -1
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(a[3].get(), np.full(8, -1, np.float32))  # a view: no copy
    assert weft.transfer_stats()["between_devices"] == t1["between_devices"] + 1


def test_arg_extremes_match_numpy(device):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((6, 5, 4)).astype(np.float32)
    x[1, 2, 3] = x.max()  # a tie: the first one wins
    a = weft.asarray(x, device=device)
    assert int(a.argmax()) == x.argmax() and int(np.argmin(a)) == x.argmin()
    for axis in (0, 1, 2, -1):
        np.testing.assert_array_equal(a.argmax(axis=axis).get(), x.argmax(axis=axis))
        np.testing.assert_array_equal(np.argmin(a, axis=axis).get(), x.argmin(axis=axis))
    assert a.argmax(axis=1, keepdims=True).shape == (6, 1, 4)
    y = np.array([1.0, np.nan, 3.0, np.nan])
    assert int(weft.asarray(y, device=device).argmax()) == 1 == np.argmax(y)
    assert int(weft.asarray(y, device=device).argmin()) == 1 == np.argmin(y)
    with pytest.raises(weft.InvalidArgument):
        weft.zeros(0, device=device).argmax()


def test_var_std_match_numpy(device):
    x = np.random.default_rng(4).standard_normal((7, 9)) * 10 + 3
    for dtype in (np.float32, np.float64, np.int32):
        h = x.astype(dtype)
        a = weft.asarray(h, device=device)
        for axis in (None, 0, 1, (0, 1)):
            for ddof in (0, 1):
                v = a.var(axis=axis, ddof=ddof)
                assert v.dtype == h.var(axis=axis, ddof=ddof).dtype
                np.testing.assert_allclose(v.get(), h.var(axis=axis, ddof=ddof), rtol=2e-5)
                np.testing.assert_allclose(np.std(a, axis=axis, ddof=ddof).get(), h.std(axis=axis, ddof=ddof),
                                           rtol=2e-5)


def test_cumulative_match_numpy(device):
    rng = np.random.default_rng(5)
    for dtype in (np.float32, np.float64, np.int8, np.int32, np.uint32, np.bool_):
        h = (rng.integers(-3, 4, size=(4, 6, 5))).astype(dtype)
        a = weft.asarray(h, device=device)
        for axis in (None, 0, 1, 2, -1):
            c = a.cumsum(axis=axis)
            assert c.dtype == np.cumsum(h, axis=axis).dtype, (dtype, axis)
            np.testing.assert_allclose(c.get(), np.cumsum(h, axis=axis), rtol=1e-6)
        p = np.cumprod(a[:, :3] if dtype != np.bool_ else a, axis=1)
        np.testing.assert_array_equal(p.get(), np.cumprod(h[:, :3] if dtype != np.bool_ else h, axis=1))
    x = np.arange(10.0)
    a = weft.asarray(x, device=device)
    np.testing.assert_allclose(np.cumsum(a[::-2] * 2).get(), np.cumsum(x[::-2] * 2))  # a view, an expression


def test_dot_and_matmul_match_numpy(device):
    rng = np.random.default_rng(6)
    m = rng.standard_normal((5, 7)).astype(np.float32)
    n = rng.standard_normal((7, 3)).astype(np.float32)
    v = rng.standard_normal(7).astype(np.float32)
    a, b, w = (weft.asarray(z, device=device) for z in (m, n, v))
    np.testing.assert_allclose((a @ b).get(), m @ n, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.dot(a, w).get(), m @ v, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose((w @ w).get(), v @ v, rtol=1e-5)
    np.testing.assert_allclose(a.T.dot(a).get(), m.T @ m, rtol=1e-5, atol=1e-5)  # a transposed operand
    np.testing.assert_allclose(np.matmul(a, b).get(), m @ n, rtol=1e-5, atol=1e-5)
    t = rng.integers(-5, 5, size=(2, 3, 4))
    u = rng.integers(-5, 5, size=(4, 2))
    np.testing.assert_array_equal(np.dot(weft.asarray(t, device=device), weft.asarray(u, device=device)).get(),
                                  np.dot(t, u))
    with pytest.raises(weft.InvalidArgument, match="not aligned"):
        a @ a


def test_integer_sums_are_exact(device):
    big = np.array([2**60 + 1, 2**60 + 3, -5], dtype=np.int64)
    a = weft.asarray(big, device=device)
    assert int(a.sum()) == int(big.sum())
    assert int(a.max()) == 2**60 + 3
    s = weft.asarray(np.full(1000, 100, np.int8), device=device).sum()
    assert s.dtype == np.int64 and int(s) == 100_000
