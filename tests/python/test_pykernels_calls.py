"""@weft.jit calls from Python (python/weft/_pyk_jitcall.py): tuple returns (from helpers, from a
function called from Python, and of prange reductions) and their refusals; NumPy arrays and
strided NumPy views used in place on the host backend (copied elsewhere); the launch plans of
repeated calls."""
import inspect
import re

import numpy as np
import pytest

import weft


@weft.jit
def minmax(a, b):
    if a < b:
        return a, b
    return b, a


@weft.jit
def sort_pairs(x, lo, hi):
    for i in weft.prange(len(x) - 1):
        small, big = minmax(x[i], x[i + 1])
        lo[i] = small
        hi[i] = big


@weft.kernel
def sort_pairs_kernel(x, lo, hi):
    i = weft.global_id(0)
    p = minmax(x[i], x[i + 1])
    lo[i], hi[i] = p[0], p[1]


def test_tuple_returns_into_prange_and_kernels(device):
    x = np.array([3.0, -1.0, 4.0, 1.0, 5.0])
    lo, hi = np.zeros(4), np.zeros(4)
    with device:
        sort_pairs(x, lo, hi)
    np.testing.assert_array_equal(lo, np.minimum(x[:-1], x[1:]))
    np.testing.assert_array_equal(hi, np.maximum(x[:-1], x[1:]))
    w = weft.asarray(x, device=device)
    wl, wh = weft.zeros(4, device=device), weft.zeros(4, device=device)
    sort_pairs_kernel(device, (4,), None, w, wl, wh).wait()
    np.testing.assert_array_equal(wl.get(), lo)
    np.testing.assert_array_equal(wh.get(), hi)


@weft.jit
def stats(n, flag):
    s = 0
    for i in range(n):
        s += i
    if flag:
        return s, s / n, n > 2
    return s, 0, False  # (the second item is float at the other return: promoted)


def test_tuple_return_to_python(device):
    with device:
        got = stats(5, True)
        assert got == (10, 2.0, True)
        assert isinstance(got, tuple) and isinstance(got[2], bool)
        assert got[1].dtype == np.float64 and got[0].dtype == np.int64
        assert stats(5, False) == (10, 0.0, False)
        assert stats(2, False) == stats.__wrapped__(2, False)


@weft.jit
def sum_and_max(a):
    s = 0.0
    m = -np.inf
    for i in weft.prange(len(a)):
        s += a[i]
        m = max(m, a[i])
    return s, m


def test_reductions_returned_as_a_tuple(device):
    a = np.array([1.5, -2.0, 7.25, 3.0])
    with device:
        s, m = sum_and_max(a)
        assert (s, m) == (a.sum(), a.max())
        assert sum_and_max(weft.asarray(a, device=device)) == (a.sum(), a.max())


@weft.jit
def returns_array_in_tuple(a):
    return a, 1


@weft.jit
def returns_mixed(x):
    if x > 0:
        return x, 1
    return x


@weft.jit
def unpacks_three(x):
    a, b, c = minmax(x, 1)
    return a + b + c


@weft.jit
def returns_after_prange(a, out):
    s = 0.0
    for i in weft.prange(len(a)):
        s += a[i]
        out[i] = a[i]
    return s, out[0]


@weft.kernel
def kernel_returns_tuple(x):
    return x[0], x[1]


def _at(fn, text):
    lines, first = inspect.getsourcelines(fn.__wrapped__)
    k = next(i for i, line in enumerate(lines) if text in line)
    return first + k, lines[k].index(text) + 1


@pytest.mark.parametrize("fn, args, text, what", [
    (returns_array_in_tuple, (np.ones(2),), "a, 1", "a tuple's item is float64"),
    (returns_mixed, (1.0,), "return x\n", "must return tuples everywhere"),
    (unpacks_three, (2.0,), "a, b, c = ", "unpacking (float64, float64) into 3 names"),
    (returns_after_prange, (np.ones(2), np.ones(2)), "return s, out[0]", "statements after the function's weft.prange"),
])
def test_tuple_refusals_name_file_line_and_column(device, fn, args, text, what):
    line, col = _at(fn, text)
    with device, pytest.raises(weft.Unsupported, match=rf"test_pykernels_calls\.py:{line}:{col}: .*{re.escape(what)}"):
        fn(*args)


def test_kernel_tuple_return_is_refused(device):
    line, col = _at(kernel_returns_tuple, "return x[0], x[1]")
    w = weft.zeros(2, device=device)
    with pytest.raises(weft.Unsupported, match=rf"test_pykernels_calls\.py:{line}:{col}: .*returns no value"):
        kernel_returns_tuple(device, (1,), None, w)


@weft.jit
def add_rows(a, out):
    for i, j in weft.prange(a.shape[0], a.shape[1]):
        out[i, j] = a[i, j] + 10 * i + j


@weft.kernel
def scale2d(a, f):
    i, j = weft.global_id(1), weft.global_id(0)
    a[i, j] = a[i, j] * f


@pytest.mark.parametrize("view", [lambda x: x[:, ::2], lambda x: x.T, lambda x: x[::-1, 1:], lambda x: x[1:3, ::-2]])
def test_strided_numpy_views(device, view):
    base = np.arange(48.0).reshape(6, 8)
    x = base.copy()
    v = view(x)
    out = np.zeros((v.shape[1], v.shape[0])).T  # a strided output too
    with device:
        add_rows(v, out)
    i, j = np.indices(v.shape)
    np.testing.assert_array_equal(out, view(base) + 10 * i + j)
    scale2d(device, v.shape[::-1], None, v, 3.0)  # written in place (host) or copied back
    expected = base.copy()
    view(expected)[...] *= 3.0
    np.testing.assert_array_equal(x, expected)


def test_host_uses_numpy_memory_in_place(monkeypatch):
    import weft._pyk_api as api
    host = weft.Device("host")
    x = np.arange(12.0).reshape(3, 4)
    seen = {}

    @weft.jit
    def probe(a, out):
        for i, j in weft.prange(a.shape[0], a.shape[1]):
            out[i, j] = a[i, j]

    real = api.borrow

    def spy(t, a):
        flat = real(t, a)
        seen[id(a)] = (t.strided, flat[0].size)
        return flat
    monkeypatch.setattr(api, "borrow", spy)
    v = x[:, 1::2]
    o = np.zeros((3, 2))
    with host:
        probe(v, o)
    np.testing.assert_array_equal(o, x[:, 1::2])
    # the view's own memory (elements 1 to 11 of x), not a contiguous copy of its 6 elements
    assert seen[id(v)] == (True, 11)
    assert seen[id(o)] == (False, 6)


@weft.jit
def axpy(y, x, a):
    for i in weft.prange(len(y)):
        y[i] += a * x[i]


@weft.jit
def dot_of(x, y, n):
    s = 0.0
    for i in weft.prange(n // 2, n):
        s += x[i] * y[i]
    return s


def test_jit_plans_are_kept_and_reused(device):
    x = weft.asarray(np.arange(8, dtype=np.float32), device=device)
    y = weft.zeros(8, np.float32, device=device)
    for a in (1.0, 2.0, np.float32(0.5), 3):
        axpy(y, x, a)
    np.testing.assert_array_equal(y.get(), np.arange(8, dtype=np.float32) * 6.5)
    assert sum(1 for _, d in axpy._plans if d == device) == 3  # float, np.float32, int
    axpy(y[::2], x[::2], 1.0)  # a strided view: its own plan
    assert sum(1 for _, d in axpy._plans if d == device) == 4
    np.testing.assert_array_equal(y.get(), np.arange(8, dtype=np.float32) * np.tile([7.5, 6.5], 4))
    xs = weft.asarray(np.arange(6.0), device=device)
    for n in (6, 4, 0):  # the bounds come from the call's values each time
        assert dot_of(xs, xs, n) == sum(float(i * i) for i in range(n // 2, n))
    assert len(dot_of._plans) >= 1
    with pytest.raises(ValueError, match="step of 0"):
        step_of(xs, 0)
    with pytest.raises(ValueError, match="step of 0"):
        step_of(xs, 0)  # with the plan too


@weft.jit
def step_of(a, s):
    for i in weft.prange(0, len(a), s):
        a[i] = 1.0


@weft.jit
def literal_bounds(a, out):
    for i in weft.prange(7, -1, -2):  # literal bounds are written into the kernel
        out[i] = a[i] * 2


@weft.jit
def literal_start(a, out):
    for i in weft.prange(3, len(a)):
        out[i] = a[i] + 1


def test_literal_prange_bounds(device):
    a = np.arange(8.0)
    out = np.zeros(8)
    with device:
        literal_bounds(a, out)
    np.testing.assert_array_equal(out, [0, 2, 0, 6, 0, 10, 0, 14])
    out[:] = 0
    with device:
        literal_start(a, out)
    np.testing.assert_array_equal(out, [0, 0, 0, 4, 5, 6, 7, 8])
    src = weft.show_source(literal_start, "float64[:]", "float64[:]")
    assert "(3 + (long)get_global_id(0))" in src


def test_plan_keeps_the_one_device_check():
    devices = weft.devices()
    if len(devices) < 2:
        pytest.skip("needs two devices")
    a, b = (weft.zeros(4, device=d) for d in devices[:2])
    x = weft.asarray(np.ones(4), device=devices[0])
    axpy(a, x, 1.0)  # the plan of (float64[:], float64[:], float) on devices[0]
    with pytest.raises(weft.InvalidArgument, match="move them to one device"):
        axpy(a, b, 1.0)
    np.testing.assert_array_equal(a.get(), np.ones(4))


@weft.jit
def row_sums(a, out):
    for i in weft.prange(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j]
        out[i] = s


@weft.kernel
def last_of_rows(a, out):
    i = weft.global_id(0)
    out[i] = a[i][a.shape[1] - 1]


def test_small_last_extents_have_translations_of_their_own(device):
    # (n, 1..4) C-contiguous arrays carry their last extent in their type: a constant in the code
    for cols in (2, 3, 2, 5, 4):
        a = np.arange(4.0 * cols).reshape(4, cols)
        w, out = weft.asarray(a, device=device), weft.zeros(4, device=device)
        row_sums(w, out)  # the plan's signature tells the extents apart too
        np.testing.assert_array_equal(out.get(), a.sum(axis=1))
        last_of_rows(device, (4,), None, w, out).wait()
        np.testing.assert_array_equal(out.get(), a[:, -1])
    assert {t[0].inner for t in row_sums._compiler.sources} == {2, 3, 4, 0}


def test_bounds_check_names_the_constant_axis(device):
    @weft.jit(boundscheck=True)
    def third(a, out):
        for i in weft.prange(a.shape[0]):
            out[i] = a[i][2]

    a = weft.asarray(np.ones((3, 2)), device=device)
    with pytest.raises(weft.IndexOutOfRange, match=r"index 2 is out of bounds for axis 1 with size 2 of 'a\[i\]'"):
        third(a, weft.zeros(3, device=device))


@weft.jit
def fill_with(a, v=7.0):
    for i in weft.prange(len(a)):
        a[i] = v


def test_defaults_use_the_plan(device):
    a = weft.zeros(3, device=device)
    fill_with(a)
    fill_with(a)  # the plan of (float64[:], float): the default bound first
    np.testing.assert_array_equal(a.get(), [7.0] * 3)
    fill_with(a, 2.0)
    np.testing.assert_array_equal(a.get(), [2.0] * 3)
    assert len([k for k in fill_with._plans if k[1] == device]) == 1
    with pytest.raises(TypeError, match="takes 2 arguments, 3 given"):
        fill_with(a, 1.0, 2.0)


def test_read_only_numpy_arrays_are_not_written():
    host = weft.Device("host")
    a = np.zeros(3)
    a.flags.writeable = False
    with host, pytest.raises(ValueError, match="argument 'a' is a read-only NumPy array"):
        fill_with(a)

    @weft.kernel
    def put(x):
        x[weft.global_id(0)] = 1.0
    with pytest.raises(ValueError, match="argument 'x' is a read-only NumPy array"):
        put(host, (3,), None, a)
    np.testing.assert_array_equal(a, 0)
    out = np.zeros(3)
    with host:
        add_one_into(a, out)  # read only: fine
    np.testing.assert_array_equal(out, 1)


@weft.jit
def add_one_into(a, out):
    for i in weft.prange(len(a)):
        out[i] = a[i] + 1
