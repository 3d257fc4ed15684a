"""Device auto from Python (docs/PLACEMENT.md): arrays marked with to_auto() compute the same
values wherever the cost model sends their work, and their results are automatic too."""
import numpy as np
import pytest

import weft


def test_auto_arrays_compute_right_and_stay_auto():
    x = np.linspace(0.0, 1.0, 1000, dtype=np.float32)
    a = weft.asarray(x, device="host").to_auto()
    assert a.is_auto
    assert float((a * a).sum()) == pytest.approx(float((x.astype(np.float64) ** 2).sum()), rel=1e-6)
    b = (weft.sqrt(a) * 2 + 1).evaluate()
    assert b.is_auto
    np.testing.assert_allclose(b.get(), np.sqrt(x) * 2 + 1, rtol=1e-6)


def test_explicit_arrays_are_not_auto():
    a = weft.asarray(np.arange(10.0), device="host")
    assert not a.is_auto
    assert not (a + 1).evaluate().is_auto


def test_asarray_device_auto_keeps_host_data_on_the_host_and_places_each_operation():
    x = np.arange(1000, dtype=np.float64)
    a = weft.asarray(x, device="auto")
    assert a.is_auto
    assert float(a.sum()) == float(x.sum())
    np.testing.assert_allclose((weft.sqrt(a) + a).get(), np.sqrt(x) + x)
    b = weft.asarray(a, device="auto")
    assert b is a


def test_explain_returns_the_estimates_as_data():
    a = weft.asarray(np.ones(1000, np.float32), device="auto")
    why = weft.explain(a * a, reduction=True)
    assert why["automatic"]
    assert why["text"].startswith("sum n=1000:")
    assert [d["device"] for d in why["devices"]] == [d.selector for d in weft.devices()]
    assert why["chosen"] in [d["device"] for d in why["devices"]]
    assert why["work"]["elements"] == 1000
    assert all(d["total_s"] > 0 for d in why["devices"])
    # Not the beginning of a chain seen before: decided alone, the chain's estimate its own.
    assert why["following"] == 0
    assert all(d["chain_s"] == d["total_s"] for d in why["devices"])
    fixed = weft.explain(weft.asarray(np.ones(3), device="host") + 1)
    assert not fixed["automatic"] and fixed["chosen"] == "host"


def _pocl():
    return next((d for d in weft.devices() if d.selector != "host"), None)


def test_asarray_device_auto_copies_numpy_memory_so_a_lazy_result_keeps_numpys_meaning():
    # An expression over the array is lazy: were x used in place, a NumPy write after it was
    # made would change the result NumPy computes eagerly.
    x = np.arange(1000, dtype=np.float32)
    a = weft.asarray(x, device="auto")
    assert a.is_auto and a.device.selector == "host"
    twice = a * 2
    want = float((x * 2).sum())
    x[0] = 1000.0
    assert float(twice.sum()) == want
    other = _pocl()
    if other is not None:
        with weft.Device(other):
            assert float((a * 2).sum()) == want


def test_asarray_device_auto_copies_what_it_cannot_use_in_place():
    x = np.arange(10, dtype=np.float64)
    x.flags.writeable = False
    a = weft.asarray(x, device="auto")
    assert a.is_auto and float(a.sum()) == 45.0
    strided = np.arange(20, dtype=np.float64)[::2]
    b = weft.asarray(strided, device="auto")
    strided[0] = 100.0  # a copy was made (not C-contiguous): not seen
    assert float(b.sum()) == 90.0
    c = weft.asarray(np.arange(4, dtype=np.int64), dtype=np.float32, device="auto")
    assert c.dtype == np.float32 and float(c.sum()) == 6.0


def test_asarray_device_auto_copy_false_uses_numpy_memory_in_place():
    x = np.arange(1000, dtype=np.float32)
    a = weft.asarray(x, device="auto", copy=False)
    assert a.is_auto and a.device.selector == "host"
    x[0] = 1000.0  # nothing pending: seen, as through numpy.asarray
    assert float(a.sum()) == float(x.astype(np.float64).sum())
    with pytest.raises(ValueError, match="copy=False"):
        weft.asarray(np.arange(20.0)[::2], device="auto", copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        weft.asarray(x, dtype=np.float64, device="auto", copy=False)


def test_two_views_of_one_numpy_array_share_their_copies_on_host_and_pocl():
    x = np.ones(100, dtype=np.float32)
    whole = weft.asarray(x, device="auto", copy=False)
    part = weft.asarray(x[10:60], device="auto", copy=False)
    apart = weft.asarray(x[60:], device="auto", copy=False)
    assert float(part.sum()) == 50.0
    other = _pocl()
    if other is None:
        return
    with weft.Device(other):
        assert float((part * 1).sum()) == 50.0  # part's data copied to PoCL
        assert float((whole * 1).sum()) == 100.0  # the whole's: the same record's copy, refreshed
    # Written on the host through the part: the whole's copy on PoCL goes stale.
    part[...] = 5.0
    weft.synchronize(part.device)
    assert x[10] == 5.0 and x[0] == 1.0
    with weft.Device(other):
        assert float((whole * 1).sum()) == 50 * 5.0 + 50 * 1.0
        assert float((apart * 1).sum()) == 40.0  # the slice beside the part: untouched


def test_device_block_pins_device_auto():
    other = _pocl()
    if other is None:
        pytest.skip("one device only")
    a = weft.asarray(np.ones(100, np.float32), device="auto")
    with weft.Device(other):
        why = weft.explain(a * a, reduction=True)
        assert why["pinned"] and why["chosen"] == other.selector
        b = (a * 2).evaluate()
        assert b.is_auto and b.device == other
        with weft.Device("host"):
            assert weft.explain(a * a)["chosen"] == "host"
            assert (a + 1).evaluate().device.selector == "host"
        assert weft.explain(a * a)["chosen"] == other.selector
    assert not weft.explain(a * a)["pinned"]
    np.testing.assert_array_equal(b.get(), np.full(100, 2, np.float32))


def test_weft_device_auto_makes_arrays_automatic():
    import os
    import subprocess
    import sys
    code = ("import numpy as np, weft\n"
            "x = np.ones(8, np.float32)\n"
            "a = weft.asarray(x); z = weft.zeros(3); r = weft.arange(4); e = weft.eye(2); c = weft.array(x)\n"
            "x[0] = 5\n"
            "print(a.is_auto, z.is_auto, r.is_auto, e.is_auto, c.is_auto, float(a.sum()), float(c.sum()))\n"
            "with weft.Device('host'):\n"
            "    print(weft.zeros(2).is_auto)\n")
    env = dict(os.environ, WEFT_DEVICE="auto")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True"] * 5 + ["8.0", "8.0", "False"]
    env.pop("WEFT_DEVICE")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[:5] == ["False"] * 5


def test_cumsum_sort_and_polygon_mask_on_device_auto():
    x = ((np.arange(2000) * 7919) % 1000).astype(np.float32) * 0.25 - 50
    a = weft.asarray(x, device="auto")
    c = weft.cumsum(a)
    assert c.is_auto
    np.testing.assert_allclose(c.get(), np.cumsum(x.astype(np.float64)), rtol=1e-5, atol=1e-3)
    s = weft.sort(a)
    assert s.is_auto
    np.testing.assert_array_equal(s.get(), np.sort(x))
    poly = weft.random_polygon(256, 3, 64, 48)
    np.testing.assert_array_equal(weft.polygon_mask(poly, 48, 64, device="auto"),
                                  weft.polygon_mask(poly, 48, 64, device="host"))
