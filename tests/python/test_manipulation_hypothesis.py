"""Hypothesis-driven cases of the rearranging functions against NumPy: random shapes, axes,
counts, shifts, tiles and indices (skipped where Hypothesis is not installed;
test_manipulation.py holds the cases that always run)."""
import numpy as np
import pytest

import weft
from test_manipulation import _same, _w

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

_DEVICES = weft.devices()

_shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4)


@settings(max_examples=25, deadline=None)
@given(shape=_shapes, data=st.data(), dev=st.integers(0, 8), strided=st.booleans())
def test_hypothesis_rearranging(shape, data, dev, strided):
    device = _DEVICES[dev % len(_DEVICES)]
    h = np.arange(int(np.prod(shape)), dtype=np.int16).reshape(shape)
    x = _w(h, device, strided)
    nd = len(shape)
    axis = data.draw(st.integers(-nd, nd - 1))
    reps = data.draw(st.integers(0, 3))
    _same(weft.repeat(x, reps, axis=axis), np.repeat(h, reps, axis=axis))
    counts = data.draw(hnp.arrays(np.int64, (shape[axis],), elements=st.integers(0, 3)))
    _same(weft.repeat(x, _w(counts, device), axis=axis), np.repeat(h, counts, axis=axis))
    shift = data.draw(st.integers(-9, 9))
    _same(weft.roll(x, shift, axis=axis), np.roll(h, shift, axis=axis))
    tiles = data.draw(st.lists(st.integers(0, 3), max_size=4))
    _same(weft.tile(x, tuple(tiles)), np.tile(h, tuple(tiles)))
    _same(weft.flip(x, axis=axis), np.flip(h, axis=axis))
    _same(weft.concat([x, x], axis=axis), np.concat([h, h], axis=axis))
    if shape[axis]:
        idx = data.draw(hnp.arrays(np.int32, data.draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0,
                                                                         max_side=3)),
                                   elements=st.integers(-shape[axis], shape[axis] - 1)))
        _same(weft.take(x, _w(idx, device), axis=axis), np.take(h, idx, axis=axis))
    _same(weft.cumulative_sum(x, axis=axis, include_initial=True), np.cumulative_sum(h, axis=axis,
                                                                                     include_initial=True))
    n = data.draw(st.integers(0, 3))
    _same(weft.diff(x, n=n, axis=axis), np.diff(h, n=n, axis=axis))
