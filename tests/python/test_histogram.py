"""weft.histogram, weft.bincount and weft.histogram2d against NumPy on every device: seeded
property cases over every dtype and awkward sizes (0, 1, non-powers of two), NaN, infinities
and values outside the range, equal bins and explicit edges, weights and density; the same
errors as NumPy's; an expression read by the counting kernel. test_histogram_hypothesis.py
drives more cases where Hypothesis is installed."""
import warnings

import numpy as np
import pytest

import weft
from random_arrays import _values

SIZES = [0, 1, 2, 3, 7, 64, 100, 1023, 4099]
# A kernel is generated per data dtype: a spread of them keeps the cold run short (CI).
SOME_DTYPES = [np.dtype(t) for t in ("bool", "int8", "uint16", "int64", "uint64", "float32", "float64")]


def _numpy(f, *args, **kwargs):
    """NumPy's result, or the class of the exception it raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # bool data converted to uint8; 0/0 in density
        try:
            return f(*args, **kwargs)
        except (ValueError, TypeError) as e:
            return type(e)


def _check(expected, got_call, rtol=0.0):
    if isinstance(expected, type):
        with pytest.raises(expected):
            got_call()
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = got_call()
    if not isinstance(expected, tuple):
        expected, got = (expected,), (got,)
    assert len(got) == len(expected)
    for e, g in zip(expected, got):
        assert isinstance(g, weft.Array)
        g = np.asarray(g)
        assert g.dtype == e.dtype, (g.dtype, e.dtype)
        assert g.shape == e.shape
        if rtol and e.dtype.kind == "f":
            np.testing.assert_allclose(g, e, rtol=rtol, atol=0, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, e)


def _data(rng, dt, n):
    return _values(rng, np.dtype(dt), (n,))


@pytest.mark.parametrize("dt", SOME_DTYPES, ids=str)
def test_equal_bins_match_numpy(device, dt):
    rng = np.random.default_rng(11)
    for n in SIZES:
        x = _data(rng, dt, n)
        w = weft.asarray(x, device=device)
        for bins in (1, 3, 10, 256):
            _check(_numpy(np.histogram, x, bins), lambda: weft.histogram(w, bins))
            lo, hi = sorted(rng.integers(-8, 8, 2).tolist())
            r = (lo - 0.25, hi + 0.5)
            _check(_numpy(np.histogram, x, bins, range=r), lambda: weft.histogram(w, bins, range=r))


def test_a_range_of_subnormal_width(device):
    # The range's width is subnormal: 1 / width overflows, and the value at the lower edge met
    # 0 * inf (Hypothesis found [2.2e-309, 0.0] in one bin counted once).
    for x, bins in (([2.2250738585072014e-309, 0.0], 1), ([1e-310, 0.0, 5e-311], 2), ([0.0, 4e-323, 1e-323, 0.0], 3)):
        x = np.array(x)
        _check(_numpy(np.histogram, x, bins), lambda: weft.histogram(weft.asarray(x, device=device), bins))


@pytest.mark.parametrize("dt", SOME_DTYPES, ids=str)
def test_explicit_edges_match_numpy(device, dt):
    rng = np.random.default_rng(12)
    for n in SIZES:
        x = _data(rng, dt, n)
        w = weft.asarray(x, device=device)
        for edt in ("float64", "int32"):
            edges = np.sort(rng.integers(-6, 7, int(rng.integers(1, 9)))).astype(edt)
            if edt.startswith("float"):
                edges = np.sort(edges + rng.choice([0.0, 0.5, -0.25], edges.size)).astype(edt)
            _check(_numpy(np.histogram, x, edges), lambda: weft.histogram(w, edges))
            _check(_numpy(np.histogram, x, edges), lambda: weft.histogram(w, weft.asarray(edges, device=device)))


@pytest.mark.parametrize("wdt", SOME_DTYPES, ids=str)
def test_weights_and_density(device, wdt):
    rng = np.random.default_rng(13)
    for n in (0, 1, 5, 37, 1000):
        x = rng.standard_normal(n)
        # Small weights: the integer sums stay within even int8 (NumPy sums them as doubles).
        wt = (rng.integers(0, 3, n) if n <= 40 or np.dtype(wdt).itemsize > 1 else rng.integers(0, 1, n)).astype(wdt)
        if np.dtype(wdt).kind == "f":
            wt = (rng.standard_normal(n) * 3).astype(wdt)
        dx, dw = weft.asarray(x, device=device), weft.asarray(wt, device=device)
        rtol = 1e-5 if wdt in (np.float32,) else 1e-12
        _check(_numpy(np.histogram, x, 9, weights=wt), lambda: weft.histogram(dx, 9, weights=dw), rtol)
        _check(_numpy(np.histogram, x, 9, range=(-1, 2), weights=wt, density=True),
               lambda: weft.histogram(dx, 9, range=(-1, 2), weights=dw, density=True), rtol)
        _check(_numpy(np.histogram, x, [-3, -1, 0, 0.5, 4], density=True),
               lambda: weft.histogram(dx, [-3, -1, 0, 0.5, 4], density=True), 1e-12)


def test_an_expression_is_counted_without_a_temporary(device):
    rng = np.random.default_rng(14)
    a, b = rng.standard_normal(3001), rng.standard_normal(3001)
    da, db = weft.asarray(a, device=device), weft.asarray(b, device=device)
    _check(np.histogram(a * b + 1, 32, range=(-2, 4)), lambda: weft.histogram(da * db + 1, 32, range=(-2, 4)))
    _check(np.histogram(a, 8, weights=a * b), lambda: weft.histogram(da, 8, weights=da * db), 1e-12)


def test_numpy_errors(device):
    x = weft.asarray(np.array([1.0, np.nan, 3.0]), device=device)
    with pytest.raises(ValueError):
        weft.histogram(x)  # autodetected range of [nan, nan]
    with pytest.raises(ValueError):
        weft.histogram(weft.asarray(np.array([1.0, np.inf]), device=device))
    with pytest.raises(ValueError):
        weft.histogram(x, 0, range=(0, 1))
    with pytest.raises(ValueError):
        weft.histogram(x, 3, range=(1, 0))
    with pytest.raises(ValueError):
        weft.histogram(x, [0, 2, 1])
    with pytest.raises(ValueError):
        weft.histogram(x, 3, weights=weft.asarray(np.ones(2), device=device))
    with pytest.raises(TypeError):
        weft.histogram(x, 2.5)
    np.testing.assert_array_equal(np.asarray(weft.histogram(x, 2, range=(0, 4))[0]), [1, 1])


@pytest.mark.parametrize("dt", [d for d in SOME_DTYPES if d.kind in "biu"], ids=str)
def test_bincount_matches_numpy(device, dt):
    rng = np.random.default_rng(15)
    for n in SIZES:
        x = rng.integers(0, 2 if dt == np.bool_ else 50, n).astype(dt)
        w = weft.asarray(x, device=device)
        wt = rng.standard_normal(n)
        for minlength in (0, 1, 70):
            _check(_numpy(np.bincount, x, minlength=minlength), lambda: weft.bincount(w, minlength=minlength))
            _check(_numpy(np.bincount, x, wt, minlength), lambda: weft.bincount(w, weft.asarray(wt, device=device), minlength), 1e-12)


def test_bincount_errors(device):
    with pytest.raises(ValueError):
        weft.bincount(weft.asarray(np.array([1, -1]), device=device))
    with pytest.raises(TypeError):
        weft.bincount(weft.asarray(np.array([1.0]), device=device))
    with pytest.raises(ValueError):
        weft.bincount(weft.asarray(np.array([[1]]), device=device))
    with pytest.raises(ValueError):
        weft.bincount(weft.asarray(np.array([1]), device=device), minlength=-1)
    with pytest.raises(ValueError):
        weft.bincount(weft.asarray(np.array([1, 2]), device=device), weights=np.ones(3))


@pytest.mark.parametrize("dt", ["float32", "int16"])
def test_histogram2d_matches_numpy(device, dt):
    rng = np.random.default_rng(16)
    for n in (0, 1, 9, 1000):
        x, y = _data(rng, dt, n), _data(rng, dt, n)
        if dt.startswith("float"):
            x[np.isnan(x) | np.isinf(x)] = 0.5  # an autodetected range must be finite
            y[np.isnan(y) | np.isinf(y)] = -1.0
        dx, dy = weft.asarray(x, device=device), weft.asarray(y, device=device)
        wt = rng.standard_normal(n)
        for bins in (4, [3, 5], [np.array([-2.0, 0.0, 0.5, 9.0]), 2]):
            _check(_numpy(np.histogram2d, x, y, bins), lambda: weft.histogram2d(dx, dy, bins))
            _check(_numpy(np.histogram2d, x, y, bins, range=[(-3, 3), (0, 1)], weights=wt, density=True),
                   lambda: weft.histogram2d(dx, dy, bins, range=[(-3, 3), (0, 1)], weights=wt, density=True), 1e-12)
