"""Hypothesis-driven cases of weft.histogram and weft.bincount against NumPy (skipped where
Hypothesis is not installed; test_histogram.py holds the seeded cases that always run)."""
import numpy as np
import pytest

import weft
from test_histogram import _check, _numpy

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

_DEVICES = weft.devices()


@settings(max_examples=60, deadline=None)
@given(x=hnp.arrays(st.sampled_from([np.float32, np.float64, np.int32, np.uint8]), st.integers(0, 300)),
       bins=st.integers(1, 40), lo=st.integers(-50, 0), width=st.integers(1, 60), dev=st.integers(0, 8))
def test_hypothesis_histogram(x, bins, lo, width, dev):
    device = _DEVICES[dev % len(_DEVICES)]
    w = weft.asarray(x, device=device)
    r = (lo, lo + width)
    _check(_numpy(np.histogram, x, bins, range=r), lambda: weft.histogram(w, bins, range=r))
    _check(_numpy(np.histogram, x, bins), lambda: weft.histogram(w, bins))


@settings(max_examples=40, deadline=None)
@given(x=hnp.arrays(np.int64, st.integers(0, 300), elements=st.integers(-1, 200)), minlength=st.integers(0, 300),
       dev=st.integers(0, 8))
def test_hypothesis_bincount(x, minlength, dev):
    device = _DEVICES[dev % len(_DEVICES)]
    _check(_numpy(np.bincount, x, minlength=minlength),
           lambda: weft.bincount(weft.asarray(x, device=device), minlength=minlength))
