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
    fixed = weft.explain(weft.asarray(np.ones(3), device="host") + 1)
    assert not fixed["automatic"] and fixed["chosen"] == "host"
