"""Strided views as Python kernel arguments (issue 28): weft array views (offsets, steps,
negative steps, transposes) are passed without a copy, with their offset and strides; writes
reach the original array; bounds checks name the view's shape and write nothing outside it."""
import numpy as np
import pytest

import weft


@weft.kernel
def add_index(a):
    i = weft.global_id(0)
    a[i] += i


@weft.jit
def scale_rows(m, f):
    for y in weft.prange(m.shape[0]):
        for x in weft.prange(m.shape[1]):
            m[y, x] = m[y, x] * f + y


@weft.jit
def row_sum(row):
    s = 0.0
    for v in row:
        s += v
    return s


@weft.jit
def sums(m, out):
    for y in weft.prange(m.shape[0]):
        out[y] = row_sum(m[y])


VIEWS = {
    "offset": lambda x: x[3:9],
    "step": lambda x: x[1::3],
    "reversed": lambda x: x[::-1],
    "reversed_step": lambda x: x[-2:0:-4],
}


@pytest.mark.parametrize("view", list(VIEWS), ids=list(VIEWS))
def test_kernel_on_1d_views_writes_the_original(device, view):
    base = np.arange(20.0)
    x = weft.asarray(base, device=device)
    v = VIEWS[view](x)
    add_index(device, (v.shape[0],), None, v).wait()
    expected = base.copy()
    VIEWS[view](expected)[...] += np.arange(len(VIEWS[view](expected)))
    np.testing.assert_array_equal(x.get(), expected)


@pytest.mark.parametrize("view", ["T", "cols", "flipped"])
def test_jit_on_2d_views_writes_the_original(device, view):
    base = np.arange(42.0).reshape(6, 7)
    pick = {"T": lambda a: a.T, "cols": lambda a: a[1:5, ::2], "flipped": lambda a: a[::-1, 2:][:, ::-2]}[view]
    x = weft.asarray(base, device=device)
    scale_rows(pick(x), 2.0)
    expected = base.copy()
    e = pick(expected)
    e[...] = e * 2.0 + np.arange(e.shape[0])[:, None]
    np.testing.assert_array_equal(x.get(), expected)


def test_views_reach_helpers_and_row_loops(device):
    base = np.arange(30.0).reshape(5, 6)
    x = weft.asarray(base, device=device)
    out = weft.zeros(6, np.float64, device=device)
    sums(x.T, out)  # each row of the transpose is a strided column
    np.testing.assert_array_equal(out.get(), base.sum(axis=0))


def test_contiguous_and_strided_are_separate_specialisations():
    x = weft.asarray(np.arange(8.0))
    src = weft.show_source(add_index, x[::2])
    assert "long pyk_o_a" in src and "pyk_s_a_0" in src
    assert "pyk_s_a_0" not in weft.show_source(add_index, x)


@weft.kernel(boundscheck=True)
def write_past(a, n):
    i = weft.global_id(0)
    a[i + n] = 1.0


def test_bounds_checked_views(device):
    x = weft.asarray(np.zeros(12), device=device)
    v = x[10:1:-3]  # elements 10, 7, 4
    with pytest.raises(weft.IndexOutOfRange, match=r"index 3 is out of bounds for axis 0 with size 3.*shape \(3,\)"):
        write_past(device, (3,), None, v, 1)
    got = x.get()
    np.testing.assert_array_equal(np.flatnonzero(got), [4, 7])  # the good accesses only
