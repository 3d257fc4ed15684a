"""weft.partition, weft.argpartition and weft.topk (the O(n) radix select of _partition.py)
against NumPy: every dtype, NaN/inf/-0.0, duplicates, n-d lines, kth as an int or a
sequence, on every device (host and the OpenCL devices present)."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import weft

DEVICES = [d.selector for d in weft.devices()]
DTYPES = [np.dtype(t) for t in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                "uint64", "float32", "float64")]
SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0]


def _data(dtype, shape, seed, few):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype.kind == "b":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if dtype.kind == "f":
        x = rng.standard_normal(n).astype(dtype)
        if few:
            x = np.round(x).astype(dtype)
        m = rng.random(n) < 0.2
        x[m] = rng.choice(np.array(SPECIAL, dtype=dtype), m.sum())
        return x.reshape(shape)
    info = np.iinfo(dtype)
    lo, hi = (-3, 4) if few and info.min < 0 else (0, 4) if few else (info.min, info.max)
    return rng.integers(lo, hi, n, dtype=dtype, endpoint=True).reshape(shape)


def _key(x):
    # Values as NumPy orders them, NaN last; -0.0 == 0.0.
    return np.where(np.isnan(x), np.inf, x) if x.dtype.kind == "f" else x


def _rank(x):
    # Each element's rank among the distinct values (NaNs above all, -0.0 == 0.0).
    nan = np.isnan(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool)
    su = np.unique(x[~nan])
    return np.where(nan, len(su), np.searchsorted(su, np.where(nan, 0, x))).astype(np.int64)


def _check_partition(x, p, ks, axis):
    ref = np.sort(x, axis=axis)
    p, ref = np.moveaxis(p, axis, -1), np.moveaxis(ref, axis, -1)
    assert p.shape == ref.shape
    # The same values per line.
    np.testing.assert_array_equal(np.sort(p, axis=-1), ref)
    for k in ks:
        k %= p.shape[-1]
        at = p[..., k]
        np.testing.assert_array_equal(at, ref[..., k])
        kp, ka = _key(p), _key(at)[..., None]
        nan_at = np.isnan(at)[..., None] if x.dtype.kind == "f" else np.zeros(at.shape + (1,), bool)
        before, after = kp[..., :k], kp[..., k + 1:]
        assert np.all((before <= ka) | nan_at)
        assert np.all((after >= ka) | (np.isnan(p[..., k + 1:]) if x.dtype.kind == "f" else False))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@settings(max_examples=12, deadline=None)
@given(st.data())
def test_partition_matches_numpy(device, dtype, data):
    nd = data.draw(st.integers(1, 3))
    shape = tuple(data.draw(st.lists(st.integers(1, 9), min_size=nd, max_size=nd)))
    shape = shape[:-1] + (data.draw(st.sampled_from([1, 2, 7, 31, 64, 200])),)
    axis = data.draw(st.integers(-nd, nd - 1))
    n = shape[axis]
    kth = data.draw(st.one_of(st.integers(-n, n - 1), st.lists(st.integers(-n, n - 1), min_size=1, max_size=4)))
    x = _data(dtype, shape, data.draw(st.integers(0, 2**31)), data.draw(st.booleans()))
    a = weft.asarray(x, device=device)
    ks = [kth] if np.ndim(kth) == 0 else list(kth)
    p = weft.partition(a, kth, axis=axis).get()
    _check_partition(x, p, ks, axis)
    i = weft.argpartition(a, kth, axis=axis).get()
    assert i.dtype == np.int64
    assert np.array_equal(np.sort(i, axis=axis), np.broadcast_to(
        np.arange(n).reshape([n if d == axis % nd else 1 for d in range(nd)]), shape))
    _check_partition(x, np.take_along_axis(x, i, axis=axis), ks, axis)


@pytest.mark.parametrize("device", DEVICES)
def test_partition_flat_and_large(device):
    x = np.random.default_rng(5).standard_normal((3, 4000)).astype(np.float32)
    x[0, :50] = np.nan
    p = weft.partition(weft.asarray(x, device=device), [0, 1999, 11999], axis=None).get()
    _check_partition(x.ravel(), p, [0, 1999, 11999], -1)
    view = weft.asarray(x, device=device)[:, ::3]  # not contiguous
    _check_partition(x[:, ::3], weft.partition(view, 700).get(), [700], -1)
    _check_partition(x[:, ::3], weft.partition(view, 1, axis=0).get(), [1], 0)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("largest", [True, False])
def test_topk(device, dtype, largest):
    x = _data(dtype, (3, 50), 11, True)
    for k in (0, 1, 7, 50):
        v, i = weft.topk(weft.asarray(x, device=device), k, largest=largest)
        v, i = v.get(), i.get()
        r = _rank(x)
        order = np.argsort(-r if largest else r, axis=-1, kind="stable")
        want = order[:, :k]
        np.testing.assert_array_equal(i, want)
        np.testing.assert_array_equal(v, np.take_along_axis(x, want, axis=-1))
        v2, i2 = weft.topk(weft.asarray(x, device=device), k, largest=largest, sorted=False)
        np.testing.assert_array_equal(np.sort(i2.get(), axis=-1), np.sort(want, axis=-1))


def test_topk_axis_and_errors():
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    v, i = weft.topk(weft.asarray(x), 2, axis=1)
    np.testing.assert_array_equal(v.get(), x[:, ::-1][:, :2])
    np.testing.assert_array_equal(i.get(), np.broadcast_to(np.array([2, 1])[None, :, None], (2, 2, 4)))
    with pytest.raises(ValueError, match="k must be in"):
        weft.topk(weft.asarray(x), 5)
    with pytest.raises(ValueError, match="out of bounds"):
        weft.partition(weft.asarray(x), 4)
    with pytest.raises(TypeError, match="kth must be an integer"):
        weft.partition(weft.asarray(x), 1.5)
