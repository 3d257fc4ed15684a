"""weft.random under Hypothesis: any seed, counter, size and bounds give the numbers the
documented layout says (from the raw Philox words), in range, the same on every device."""
import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

import weft  # noqa: E402
from conftest import DEVICES  # noqa: E402
from weft.random import Generator  # noqa: E402

HOST = weft.Device("host")
INT_TYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
seeds = st.integers(0, 2 ** 64 - 1)
counters = st.tuples(*[st.sampled_from([0, 1, 0xfffffffe, 0xffffffff]) for _ in range(4)])


# Hypothesis draws many inputs per call: the device is a parameter, not the function-scoped fixture.
on_every_device = pytest.mark.parametrize("device", DEVICES, ids=[d.selector for d in DEVICES])


def fresh(seed, counter):
    g = Generator(seed)
    g.counter = counter
    return g


@on_every_device
@settings(max_examples=25, deadline=None)
@given(seed=seeds, counter=counters, n=st.integers(0, 70), data=st.data())
def test_integers_are_the_formula_of_the_words(device, seed, counter, n, data):
    dtype = data.draw(st.sampled_from(INT_TYPES))
    info = np.iinfo(dtype)
    low = data.draw(st.integers(int(info.min), int(info.max)))
    high = data.draw(st.integers(low, int(info.max)))
    got = np.asarray(fresh(seed, counter).integers(low, high, n, dtype=dtype, endpoint=True, device=device))
    assert got.dtype == np.dtype(dtype) and got.shape == (n,)
    wide = info.bits == 64
    words = [int(w) for w in np.asarray(fresh(seed, counter).random_raw(4 * n, device=HOST))]
    r = high - low + 1
    for i in range(n):
        if wide:
            x = words[4 * i] | words[4 * i + 1] << 32 | words[4 * i + 2] << 64 | words[4 * i + 3] << 96
            want = low + (x * r >> 128)
        else:
            want = low + ((words[2 * i] | words[2 * i + 1] << 32) * r >> 64)
        assert int(got[i]) == want


@on_every_device
@settings(max_examples=25, deadline=None)
@given(seed=seeds, counter=counters, sizes=st.lists(st.integers(0, 40), min_size=1, max_size=4),
       dtype=st.sampled_from(["float32", "float64"]), low=st.floats(-1e6, 1e6), width=st.floats(1e-3, 1e6))
def test_uniform_matches_the_host_and_stays_in_range(device, seed, counter, sizes, dtype, low, width):
    if dtype == "float64" and not device.fp64:
        return
    g, h = fresh(seed, counter), fresh(seed, counter)
    for n in sizes:
        a = np.asarray(g.uniform(low, low + width, n, dtype=dtype, device=device))
        b = np.asarray(h.uniform(low, low + width, n, dtype=dtype, device=HOST))
        np.testing.assert_array_equal(a, b)
        lo, hi = np.array(low, dtype=dtype), np.array(low + width, dtype=dtype)
        assert np.all(a >= lo) and np.all(a <= hi)  # high itself only through rounding
    assert g.counter == h.counter
