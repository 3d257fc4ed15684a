"""Seeded property tests of weft.sort, argsort, Array.sort, sort_by_key, unique and searchsorted
against NumPy on every device: random sizes (0, 1, non-powers of two, thousands), every dtype,
NaN/inf/-0.0, duplicates, sorted and reversed input, n-d arrays along random axes, descending
(the Array API's reverse order with ties in input order), and stability. Sorts are compared bit
for bit (a stable sort moves each element's own bits: the sign of zero, NaN payloads)."""
import numpy as np
import pytest

import weft

from random_arrays import DTYPES, SEED_BASE, SCALE

SIZES = (0, 1, 2, 3, 7, 100, 255, 256, 257, 1000, 4097, 5003)


def _values(rng, dtype, n):
    """n values of dtype: random, few distinct (duplicates), sorted or reversed; floats with
    NaNs of both signs, infinities and both zeros."""
    dtype = np.dtype(dtype)
    style = rng.integers(4)
    if dtype == np.bool_:
        x = rng.integers(0, 2, n).astype(bool)
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        if style == 0:
            x = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        else:
            x = rng.integers(max(info.min, -20), min(info.max, 20), n, endpoint=True).astype(dtype)
    else:
        x = (rng.integers(-50, 50, n) / 4).astype(dtype)
        special = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, np.finfo(dtype).max,
                            np.finfo(dtype).tiny / 2], dtype=dtype)
        pick = rng.random(n) < 0.2
        x[pick] = special[rng.integers(len(special), size=int(pick.sum()))]
    if style == 2:
        x = np.sort(x, kind="stable")
    elif style == 3:
        x = np.sort(x, kind="stable")[::-1].copy()
    return x


def _shape(rng, n):
    r = rng.integers(3)
    if r == 0 or n < 4:
        return (n,)
    rows = int(rng.integers(1, 9))
    return (rows, max(1, n // rows)) if r == 1 else (2, rows, max(1, n // (2 * rows)))


def _bits(x):
    x = np.ascontiguousarray(x)
    return x.view(f"u{x.dtype.itemsize}") if x.dtype.kind == "f" else x


def _ref_sort(x, axis, descending):
    if not descending:
        return np.sort(x, axis=axis, kind="stable")
    if axis is None:
        x, axis = x.ravel(), -1
    return np.flip(np.sort(np.flip(x, axis), axis=axis, kind="stable"), axis)


def _ref_argsort(x, axis, descending):
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    if axis is None:
        x, axis = x.ravel(), -1
    n = x.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)


def _seeds(k):
    return [SEED_BASE + 31 * k + j for j in range(3 * SCALE)]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_sort_and_argsort_match_numpy(device, dtype):
    for seed in _seeds(DTYPES.index(dtype)):
        rng = np.random.default_rng(seed)
        for n in SIZES:
            shape = _shape(rng, n)
            x = _values(rng, dtype, int(np.prod(shape))).reshape(shape)
            w = weft.asarray(x, device=device)
            axis = [None, -1, 0, x.ndim - 1][int(rng.integers(4))]
            descending = bool(rng.random() < 0.4)
            what = f"seed={seed} {dtype} shape={x.shape} axis={axis} descending={descending}"
            got = weft.sort(w, axis=axis, descending=descending).get()
            np.testing.assert_array_equal(_bits(got), _bits(_ref_sort(x, axis, descending)), err_msg=what)
            got_i = weft.argsort(w, axis=axis, descending=descending).get()
            assert got_i.dtype == np.int64
            np.testing.assert_array_equal(got_i, _ref_argsort(x, axis, descending), err_msg=what)


def test_numpy_functions_and_methods(device):
    rng = np.random.default_rng(SEED_BASE)
    x = _values(rng, np.float32, 600).reshape(20, 30)
    w = weft.asarray(x, device=device)
    # NumPy's own functions dispatch to weft (__array_function__) and return weft arrays.
    s = np.sort(w, axis=0, kind="stable")
    assert isinstance(s, weft.Array)
    np.testing.assert_array_equal(_bits(s.get()), _bits(np.sort(x, axis=0, kind="stable")))
    np.testing.assert_array_equal(np.argsort(w).get(), np.argsort(x, kind="stable"))
    np.testing.assert_array_equal(w.argsort(axis=None).get(), np.argsort(x, axis=None, kind="stable"))
    # In place, also through a view: only the view's elements move.
    v = w[:, 5:17]
    v.sort()
    want = x.copy()
    want[:, 5:17].sort(kind="stable")
    np.testing.assert_array_equal(_bits(w.get()), _bits(want))
    w.sort(axis=0)
    want.sort(axis=0, kind="stable")
    np.testing.assert_array_equal(_bits(w.get()), _bits(want))
    # Lists and NumPy arrays are taken too (copied to the default device).
    np.testing.assert_array_equal(weft.sort([3, 1, 2]).get(), [1, 2, 3])


def test_sort_by_key_moves_values_stably(device):
    rng = np.random.default_rng(SEED_BASE + 1)
    for shape in [(0,), (1,), (3001,), (7, 131)]:
        keys = rng.integers(0, 9, shape).astype(np.int16)
        for vdtype in (np.float64, np.uint8, bool):
            values = (rng.random(shape) * 100).astype(vdtype)
            for descending in (False, True):
                k, v = weft.sort_by_key(weft.asarray(keys, device=device), weft.asarray(values, device=device),
                                        descending=descending)
                order = _ref_argsort(keys, -1, descending)
                np.testing.assert_array_equal(k.get(), np.take_along_axis(keys, order, -1))
                np.testing.assert_array_equal(v.get(), np.take_along_axis(values, order, -1))


def test_large_sort_once(device):
    rng = np.random.default_rng(SEED_BASE + 2)
    x = rng.random(2**17 + 3, dtype=np.float32)
    x[::1000] = np.nan
    w = weft.asarray(x, device=device)
    np.testing.assert_array_equal(_bits(weft.sort(w).get()), _bits(np.sort(x, kind="stable")))
    np.testing.assert_array_equal(weft.argsort(w).get(), np.argsort(x, kind="stable"))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_unique_matches_numpy(device, dtype):
    for seed in _seeds(100 + DTYPES.index(dtype)):
        rng = np.random.default_rng(seed)
        for n in (0, 1, 5, 300, 4100):
            x = _values(rng, dtype, n)
            if n >= 4:
                x = x.reshape(2, n // 2) if n % 2 == 0 else x
            w = weft.asarray(x, device=device)
            what = f"seed={seed} {dtype} shape={x.shape}"
            for equal_nan in (True, False):
                got = weft.unique(w, True, True, True, equal_nan=equal_nan)
                want = np.unique(x, True, True, True, equal_nan=equal_nan)
                # Values equal (NaN == NaN, 0.0 == -0.0 as NumPy's unique compares).
                np.testing.assert_array_equal(got[0].get(), want[0], err_msg=what)
                np.testing.assert_array_equal(got[1].get(), want[1], err_msg=what)
                np.testing.assert_array_equal(got[2].get(), want[2], err_msg=what)
                assert got[2].shape == want[2].shape, what
                np.testing.assert_array_equal(got[3].get(), want[3], err_msg=what)
            np.testing.assert_array_equal(np.unique(w).get(), np.unique(x))
    u = weft.unique_all(weft.asarray(np.array([2, 1, 2, 3], dtype=np.int32), device=device))
    assert [list(t.get()) for t in u] == [[1, 2, 3], [1, 0, 3], [1, 0, 1, 2], [1, 2, 1]]
    assert list(weft.unique_counts(weft.asarray([5, 5, 1], device=device)).counts.get()) == [1, 2]


def test_array_api_unique_functions_keep_each_nan_distinct(device):
    # The standard (and NumPy 2's unique_*): NaNs compare unequal, so each is its own value with
    # a count of one; weft.unique's default (equal_nan=True) merges them as numpy.unique does.
    x = np.array([1.0, np.nan, 2.0, np.nan, 1.0], dtype=np.float32)
    w = weft.asarray(x, device=device)
    np.testing.assert_array_equal(weft.unique_values(w).get(), [1.0, 2.0, np.nan, np.nan])
    values, counts = weft.unique_counts(w)
    np.testing.assert_array_equal(counts.get(), [2, 1, 1, 1])
    values, inverse = weft.unique_inverse(w)
    np.testing.assert_array_equal(values.get()[inverse.get()], x)
    assert len(set(inverse.get()[[1, 3]])) == 2  # the two NaNs map to two values
    r = weft.unique_all(w)
    np.testing.assert_array_equal(r.indices.get(), [0, 2, 1, 3])
    np.testing.assert_array_equal(weft.unique(w).get(), [1.0, 2.0, np.nan])


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float32", "float64"])
def test_searchsorted_matches_numpy(device, dtype):
    rng = np.random.default_rng(SEED_BASE + 3)
    for n in (0, 1, 2, 9, 1000):
        a = np.sort(_values(rng, dtype, n), kind="stable")
        v = _values(rng, dtype, 57).reshape(3, 19)
        wa, wv = weft.asarray(a, device=device), weft.asarray(v, device=device)
        for side in ("left", "right"):
            np.testing.assert_array_equal(weft.searchsorted(wa, wv, side=side).get(), np.searchsorted(a, v, side))
            np.testing.assert_array_equal(np.searchsorted(wa, wv, side=side).get(), np.searchsorted(a, v, side))
        # Unsorted a through a sorter.
        u = _values(rng, dtype, n)
        order = np.argsort(u, kind="stable")
        got = weft.asarray(u, device=device).searchsorted(wv, "right", sorter=weft.asarray(order, device=device))
        np.testing.assert_array_equal(got.get(), np.searchsorted(u, v, "right", sorter=order))
    # A Python scalar needle; one of another dtype (compared in the common dtype).
    wa = weft.asarray(np.array([1, 2, 2, 5], dtype=np.int32), device=device)
    assert int(weft.searchsorted(wa, 2, side="right").get()) == 3
    np.testing.assert_array_equal(weft.searchsorted(wa, np.array([1.5, 2.0])).get(), [1, 1])


def test_bad_arguments(device):
    w = weft.asarray(np.arange(6.0).reshape(2, 3), device=device)
    with pytest.raises(ValueError, match="kind"):
        weft.sort(w, kind="bubble")
    with pytest.raises(ValueError, match="order"):
        weft.argsort(w, order="x")
    with pytest.raises(weft.InvalidArgument, match="axis 2"):
        weft.sort(w, axis=2)
    with pytest.raises(ValueError, match="side"):
        weft.searchsorted(w[0], w, side="middle")
    with pytest.raises(weft.InvalidArgument, match="1-D"):
        weft.searchsorted(w, w)
    with pytest.raises(weft.InvalidArgument, match="out of range"):
        weft.searchsorted(w[0], w, sorter=np.array([0, 5, 1]))
    with pytest.raises(np.exceptions.AxisError, match="axis 2"):
        weft.unique(w, axis=2)
    with pytest.raises(weft.InvalidArgument, match="shape"):
        weft.sort_by_key(w, w[0])
