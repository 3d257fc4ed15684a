"""nonzero, flatnonzero, argwhere, extract and compress against NumPy on every device: seeded
random arrays of several dtypes and shapes (empty, 1-d, n-d, NaN, -0.0), conditions given as
arrays or expressions, and NumPy's errors."""
import numpy as np
import pytest

import weft

SHAPES = [(0,), (1,), (7,), (5, 0), (3, 129), (2, 3, 5)]
DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64"]


def _data(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(-2, 3, size=shape).astype(dtype)
    if x.size and np.dtype(dtype).kind == "f":
        x.flat[0] = np.nan
        x.flat[-1] = -0.0
    return x


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_positions_match_numpy(device, shape, dtype):
    x = _data(shape, dtype, 11)
    a = weft.asarray(x, device=device)
    np.testing.assert_array_equal(weft.flatnonzero(a).get(), np.flatnonzero(x))
    got = weft.nonzero(a)
    want = np.nonzero(x)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == np.int64
        np.testing.assert_array_equal(g.get(), w)
    np.testing.assert_array_equal(weft.argwhere(a).get(), np.argwhere(x))
    np.testing.assert_array_equal(weft.extract(a > 0, a).get(), np.extract(x > 0, x))
    np.testing.assert_array_equal(a.nonzero()[0].get(), x.nonzero()[0])
    # NumPy's functions on a weft array stay on the device (__array_function__).
    assert isinstance(np.flatnonzero(a), weft.Array)


def test_compress_matches_numpy(device):
    x = _data((4, 6), "float64", 5)
    a = weft.asarray(x, device=device)
    for cond, axis in [([True, False, True, True], 0), ([0, 1, 1, 0, 0, 1], 1), ([1, 0, 1], 1),
                       ([True] * 24, None), ([False, True], None), ([], 0)]:
        c = np.asarray(cond, dtype=bool)
        np.testing.assert_array_equal(weft.compress(weft.asarray(c, device=device), a, axis=axis).get(),
                                      np.compress(c, x, axis=axis))
    np.testing.assert_array_equal(a.compress(weft.asarray(np.array([1, 0, 1, 0]), device=device), axis=0).get(),
                                  x.compress([1, 0, 1, 0], axis=0))
    with pytest.raises(IndexError, match="beyond axis"):
        weft.compress(weft.asarray(np.array([0, 0, 0, 0, 1]), device=device), a, axis=0)
    with pytest.raises(np.exceptions.AxisError):
        weft.compress(weft.asarray(np.array([1]), device=device), a, axis=2)
    with pytest.raises(ValueError, match="1-d"):
        weft.compress(weft.asarray(np.ones((2, 2)), device=device), a)


def test_zero_dimensional_inputs(device):
    s = weft.asarray(np.float32(3), device=device)
    assert weft.argwhere(s).shape == np.argwhere(np.float32(3)).shape == (1, 0)
    assert weft.argwhere(weft.asarray(np.float32(0), device=device)).shape == (0, 0)
    with pytest.raises(ValueError, match="0-d"):
        weft.nonzero(s)
    with pytest.raises(weft.InvalidArgument, match="elements"):
        weft.extract(weft.asarray(np.ones(3), device=device), weft.asarray(np.ones(4), device=device))


@pytest.mark.parametrize("dtype", ["int16", "float32", "float64"])
def test_partition_and_argpartition_partition(device, dtype):
    x = _data((6, 33), dtype, 9)
    a = weft.asarray(x, device=device)
    for kth in (0, 5, -1, [2, 20]):
        want = np.sort(x, axis=-1)  # the kth elements (and NaNs last) as NumPy's partition puts them
        got = weft.partition(a, kth).get()
        idx = weft.argpartition(a, kth).get()
        for k in np.atleast_1d(kth):
            np.testing.assert_array_equal(got[:, k], want[:, k])
            np.testing.assert_array_equal(np.take_along_axis(x, idx, axis=-1)[:, k], want[:, k])
        np.testing.assert_array_equal(np.sort(got, axis=-1), want)  # the same elements
    np.testing.assert_array_equal(np.partition(a, 3, axis=None).get()[3], np.sort(x, axis=None)[3])
    with pytest.raises(ValueError, match="out of bounds"):
        weft.partition(a, 33)
    with pytest.raises(TypeError, match="kth"):
        weft.argpartition(a, 1.5)
