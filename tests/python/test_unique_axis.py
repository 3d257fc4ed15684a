"""weft.unique(axis=k) against numpy.unique on every device: distinct rows and slices of 1- to
3-D arrays along each axis, every flag, duplicates, NaN rows (never equal), -0.0 equal to 0.0,
empty and single slices; seeded cases and Hypothesis."""
import numpy as np
import pytest

import weft

DTYPES = (np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64, np.bool_)


def _same(got, want):
    """Equal values (NaN == NaN; -0.0 == 0.0 as numpy.unique compares) and shapes."""
    g = got.get()
    assert g.shape == want.shape and g.dtype == want.dtype
    np.testing.assert_array_equal(g, want)


def _check(device, x, axis):
    w = weft.asarray(x, device=device)
    got = weft.unique(w, return_index=True, return_inverse=True, return_counts=True, axis=axis)
    want = np.unique(x, return_index=True, return_inverse=True, return_counts=True, axis=axis)
    for g, e in zip(got, want):
        _same(g, e)
    _same(weft.unique(w, axis=axis), np.unique(x, axis=axis))


def _rows(rng, dtype, shape):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    x = rng.integers(0, 3, shape).astype(dtype)  # few values: many equal slices
    if dtype.kind == "f" and x.size:
        flat = x.reshape(-1)
        flat[rng.random(flat.size) < 0.1] = -0.0
        flat[rng.random(flat.size) < 0.05] = np.nan
    return x


@pytest.mark.parametrize("dtype", DTYPES)
def test_unique_axis_matches_numpy(device, dtype):
    if np.dtype(dtype) == np.float64 and not device.fp64:
        pytest.skip("no float64 on this device")
    rng = np.random.default_rng(7)
    for shape in ((0, 3), (1, 4), (9, 2), (40, 3), (5,), (6, 2, 3), (3, 7, 2)):
        x = _rows(rng, dtype, shape)
        for axis in range(-len(shape), len(shape)):
            if x.shape[axis] > 0 and x.size == 0:
                continue  # slices of no elements: NumPy refuses them
            _check(device, x, axis)


def test_unique_axis_sorted_and_reversed_rows(device):
    x = np.array([[3, 1], [2, 9], [2, 1], [0, 0], [2, 1]], dtype=np.int32)
    _check(device, x, 0)
    _check(device, x[::-1].copy(), 0)
    _check(device, np.sort(x, axis=0), 0)


def test_unique_axis_errors(device):
    w = weft.asarray(np.zeros((2, 3), np.float32), device=device)
    with pytest.raises(np.exceptions.AxisError):
        weft.unique(w, axis=2)
    with pytest.raises(TypeError):
        weft.unique(w, axis=0.5)
    with pytest.raises(weft.Unsupported, match="no elements"):
        weft.unique(weft.asarray(np.zeros((3, 0), np.float32), device=device), axis=0)


try:
    from hypothesis import given, settings, strategies as st
    from hypothesis.extra import numpy as hnp
except ImportError:  # the seeded cases above always run
    given = None

if given is not None:
    _DEVICES = weft.devices()

    @settings(max_examples=25, deadline=None)
    @given(dtype=st.sampled_from((np.int16, np.float32)), data=st.data(), dev=st.integers(0, 8))
    def test_hypothesis_unique_axis(dtype, data, dev):
        device = _DEVICES[dev % len(_DEVICES)]
        shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6))
        elements = st.sampled_from([0, 1, -1]) if dtype == np.int16 else st.sampled_from([0.0, -0.0, 1.5, np.nan])
        x = data.draw(hnp.arrays(dtype, shape, elements=elements))
        axis = data.draw(st.integers(-len(shape), len(shape) - 1))
        _check(device, x, axis)
