"""A @weft.jit call whose value a weft.prange body's last statement stores is inlined into the
kernel (python/weft/_pyk_inline.py): the results are those of the call, the kernel's text holds
the callee's loop, and bounds-checked builds keep the call."""
import re

import numpy as np

import weft


def inside(vertices, point, border_value=True):
    counter = 0
    for i, p1 in enumerate(vertices):
        if (p1[0] == point[0]) and (p1[1] == point[1]):
            return border_value
        p2 = vertices[(i + 1) % len(vertices)]
        if point[1] > min(p1[1], p2[1]) and point[1] <= max(p1[1], p2[1]) and point[0] <= max(p1[0], p2[0]):
            if p1[1] != p2[1]:
                xinters = (point[1] - p1[1]) * (p2[0] - p1[0]) / (p2[1] - p1[1]) + p1[0]
                if (p1[0] == p2[0]) or (point[0] <= xinters):
                    counter += 1
    if counter % 2 == 0:
        return False
    else:
        return True


inside_jit = weft.jit(inside)


@weft.jit
def pixels(vertices, mask, border_value):
    for y in weft.prange(mask.shape[0]):
        for x in weft.prange(mask.shape[1]):
            mask[y, x] = inside_jit(vertices, (x, y), border_value)


@weft.jit(boundscheck=True)
def pixels_checked(vertices, mask, border_value):
    for y in weft.prange(mask.shape[0]):
        for x in weft.prange(mask.shape[1]):
            mask[y, x] = inside_jit(vertices, (x, y), border_value)


def scaled(n, a, k):
    # a parameter the callee assigns, an argument that is an expression, a float return
    s = 0.0
    while n > 0:
        s += a[n % len(a)] * k
        n -= 1
    return s


scaled_jit = weft.jit(scaled)


@weft.jit
def sums(a, out):
    for i in weft.prange(len(out)):
        out[i] = scaled_jit(i + 1, a, 2)


@weft.jit
def sums_not_last(a, out, twice):
    for i in weft.prange(len(out)):
        out[i] = scaled_jit(i + 1, a, 2)
        twice[i] = out[i] * 2


@weft.jit
def spread(rows, i):
    r = rows[i]
    if r[-1] < r[0]:
        return r[0] - r[-1]
    return r[-1] - r[0] + r[1]


@weft.jit
def spreads(rows, out):
    for i in weft.prange(len(out)):
        out[i] = spread(rows, i)


def star(n):
    t = 2 * np.pi * np.arange(n) / n
    r = np.where(np.arange(n) % 2 == 1, 5.0, 11.0)
    v = np.stack([14 + r * np.cos(t), 12 + r * np.sin(t)], axis=1)
    v[::3] = np.round(v[::3])  # vertices on pixels: the early return is taken
    return v


def test_inlined_call_gives_the_calls_results(device):
    v = star(13)
    want = np.array([[inside(v, (x, y), True) for x in range(30)] for y in range(25)], dtype=np.uint8)
    assert 0 < want.sum() < want.size
    for f in (pixels, pixels_checked):
        got = np.full((25, 30), 9, np.uint8)
        with device:
            f(v, got, True)
        np.testing.assert_array_equal(got, want)
    a = np.arange(5, dtype=np.float64) - 1.5
    out, twice = np.zeros(7), np.zeros(7)
    with device:
        sums(a, out)
    np.testing.assert_allclose(out, [scaled(i + 1, a, 2) for i in range(7)])
    with device:
        sums_not_last(a, out, twice)
    np.testing.assert_allclose(twice, [2 * scaled(i + 1, a, 2) for i in range(7)])
    rows = np.array([[1.0, 5.0, 2.0], [4.0, -1.0, 3.0], [0.5, 0.25, 0.5]])
    with device:
        spreads(rows, out[:3])
    np.testing.assert_allclose(out[:3], [6.0, 1.0, 0.25])  # 2 - 1 + 5, 4 - 3, 0.5 - 0.5 + 0.25


def kernel_body(src):
    return src[src.index("__kernel"):]


def test_the_kernel_holds_the_callees_loop():
    args = (np.zeros((8, 2)), np.zeros((4, 4), np.uint8), True)
    body = kernel_body(weft.show_source(pixels, *args))
    assert not re.search(r"pyk_inside_jit_\d+\(|pyk_inside_\d+\(", body)
    assert "for (long pyk_i1_" in body and "return; }" in body
    # the rows' elements read into scalars when taken; the work-item's indices declared with their value
    assert re.search(r"pyk_i1_pyk_t\d+ = pyk_i1_p1\[1L\];", body) and not re.search(r"pyk_i1_p1\[1L\][^;]", body)
    assert "long x = ((long)get_global_id(0));" in body
    checked = kernel_body(weft.show_source(pixels_checked, *args))
    assert re.search(r"pyk_inside_\d+\(", checked)  # bounds-checked builds keep the call
    body = kernel_body(weft.show_source(sums, np.zeros(3), np.zeros(4)))
    assert "pyk_i1_n = " in body  # the parameter the callee assigns is a copy
    body = kernel_body(weft.show_source(sums_not_last, np.zeros(3), np.zeros(4), np.zeros(4)))
    assert re.search(r"pyk_scaled_\d+\(", body)  # not the body's last statement: called


@weft.jit
def _mark(a, i):
    a[i] = 1
    return i


@weft.jit
def _tenfold(a, i):
    return a[i] * 10


@weft.jit
def _target_calls(a, out):
    for i in weft.prange(len(out)):
        out[_mark(a, i)] = _tenfold(a, i)


def test_a_store_target_that_calls_a_jit_function_keeps_that_helper(device):
    # The store target's own call makes a helper after the inlined callee's: the inliner drops
    # the callee's (unused once inlined), not the last one made. The value is computed first,
    # as Python does: out[i] = a[i] * 10 before _mark sets a[i] = 1.
    a, out = np.full(4, 5), np.zeros(4, np.int64)
    with device:
        _target_calls(a, out)
    np.testing.assert_array_equal(out, [50, 50, 50, 50])
    np.testing.assert_array_equal(a, [1, 1, 1, 1])
