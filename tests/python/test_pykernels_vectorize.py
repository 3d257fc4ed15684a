"""@weft.vectorize (issue 28): a scalar Python function as a lazy elementwise operation, fused
with the operations around it (one kernel for f(a, b) * 2 and for its sum), with NumPy's
broadcasting and result types, on every device; refusals name the file, line and column."""
import math
import re

import numpy as np
import pytest

import weft


@weft.vectorize
def rel_diff(x, y):
    """|x - y| / max(|x|, |y|), 0 where both are 0."""
    d = abs(x - y)
    m = max(abs(x), abs(y))
    if m == 0:
        return 0.0 * d
    return d / m


@weft.jit
def cube(x):
    return x * x * x


@weft.vectorize
def poly(x, k):
    s = 0.0
    for i in range(k):
        s += cube(x) / (i + 1)
    return s


@weft.vectorize
def classify(x):
    if x < -1:
        return -1
    elif x > 1:
        return 1
    return 0


@weft.vectorize
def is_close(x, y, tol=1e-3):
    return abs(x - y) <= tol * (1 + abs(y))


def _rel_diff(x, y):
    d, m = np.abs(x - y), np.maximum(np.abs(x), np.abs(y))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(m == 0, 0 * d, d / m)


def test_elementwise_equals_numpy_and_keeps_float32(device):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((5, 7)).astype(np.float32)
    y = rng.standard_normal((5, 7)).astype(np.float32)
    x[0, 0] = y[0, 0] = 0
    a, b = weft.asarray(x, device=device), weft.asarray(y, device=device)
    r = rel_diff(a, b)
    assert r.dtype == np.float32 and r.shape == (5, 7)
    np.testing.assert_allclose(r.get(), _rel_diff(x, y), rtol=2e-6)
    np.testing.assert_allclose(r.get(), np.vectorize(rel_diff.__wrapped__)(x, y), rtol=2e-6)
    # float64 arrays give float64; a Python number stays weak (float32 stays float32).
    assert rel_diff(a.astype(np.float64), 1.0).dtype == np.float64
    assert rel_diff(a, 1.0).dtype == np.float32
    assert rel_diff(a, np.float64(1.0)).dtype == np.float64  # a NumPy scalar is strong
    np.testing.assert_allclose(rel_diff(a, 0.5).get(), _rel_diff(x, np.float32(0.5)), rtol=2e-6)


def test_one_kernel_for_the_expression_and_for_its_sum(device):
    x = np.linspace(-2, 3, 1000).astype(np.float32)
    y = np.linspace(1, 4, 1000).astype(np.float32)
    a, b = weft.asarray(x, device=device), weft.asarray(y, device=device)
    (rel_diff(a, b) * 2).evaluate()  # built once before counting
    with weft.LaunchLog(weft.array_queue(device)) as log:
        r = (rel_diff(a, b) * 2).evaluate()
    assert log.kernels == ["weft_expr"]
    np.testing.assert_allclose(r.get(), 2 * _rel_diff(x, y), rtol=2e-6)
    # The sum reads the function inside its reduction: the same kernels as the sum of a
    # built-in fused expression (the reduction's passes, then the 0-d result's conversion to
    # float32), no elementwise kernel evaluating the expression first.
    float((rel_diff(a, b) * 2).sum())
    float((a * b * 2).sum())
    with weft.LaunchLog(weft.array_queue(device)) as log:
        total = float((rel_diff(a, b) * 2).sum())
    with weft.LaunchLog(weft.array_queue(device)) as plain:
        float((a * b * 2).sum())
    assert log.kernels == plain.kernels and log.kernels[0].startswith("weft_reduce"), (log.kernels, plain.kernels)
    assert total == pytest.approx(float(np.sum(2 * _rel_diff(x, y).astype(np.float64))), rel=1e-5)
    # An axis reduction and a cumulative sum read it the same way.
    m = weft.asarray(x.reshape(10, 100), device=device)
    np.testing.assert_allclose(rel_diff(m, 1.5).sum(axis=1).get(),
                               _rel_diff(x.reshape(10, 100), np.float32(1.5)).sum(axis=1), rtol=1e-5)
    np.testing.assert_allclose(weft.cumsum(rel_diff(a, b)).get(), np.cumsum(_rel_diff(x, y)), rtol=1e-4)
    # A histogram reads it in its counting kernel; an assignment writes it in place.
    counts, edges = weft.histogram(rel_diff(a, b), bins=5, range=(0.0, 5.0))
    want, _ = np.histogram(_rel_diff(x, y), bins=5, range=(0.0, 5.0))
    np.testing.assert_array_equal(counts.get(), want)
    c = a.copy()
    c[...] = rel_diff(c, b) + 1
    np.testing.assert_allclose(c.get(), _rel_diff(x, y) + 1, rtol=2e-6)


def test_broadcasting_numpy_arrays_and_numbers(device):
    col = np.arange(3, dtype=np.float64).reshape(3, 1)
    row = np.arange(4, dtype=np.float64) - 1
    a = weft.asarray(col, device=device)
    r = rel_diff(a, row)  # a NumPy array goes to a's device
    assert r.shape == (3, 4) and r.device == device
    np.testing.assert_allclose(r.get(), _rel_diff(col, row))
    with pytest.raises(weft.InvalidArgument, match=r"'rel_diff': the arguments of shapes \(3, 4\), \(5,\)"):
        rel_diff(r, weft.asarray(np.ones(5), device=device))
    # Numbers only: a 0-d array, as numpy.vectorize gives.
    z = rel_diff(3.0, 1.0)
    assert z.shape == () and float(z) == pytest.approx(2 / 3)
    # Defaults, bool results and bool arguments.
    c = is_close(a, weft.asarray(col + 1e-4, device=device))
    assert c.dtype == np.bool_ and c.get().all()
    assert not is_close(a + 1, a, 1e-9).get().any()


def test_ints_branches_loops_and_jit_calls(device):
    x = np.array([-3.5, -1.0, 0.0, 0.5, 1.5, 8.0], np.float32)
    a = weft.asarray(x, device=device)
    c = classify(a)
    assert c.dtype == np.int64  # its literals' type
    np.testing.assert_array_equal(c.get(), np.vectorize(classify.__wrapped__)(x))
    p = poly(a, 3)
    assert p.dtype == np.float64  # s = 0.0 is a float64 variable
    np.testing.assert_allclose(p.get(), x.astype(np.float64) ** 3 * (1 + 1 / 2 + 1 / 3), rtol=1e-6)
    i8 = weft.asarray(np.array([-128, -1, 0, 5, 127], np.int8), device=device)
    ints = weft.vectorize(lambda_free_shift)(i8, 1)
    assert ints.dtype == np.int8  # NEP 50: int8 op a Python int stays int8
    np.testing.assert_array_equal(ints.get(), (np.array([-128, -1, 0, 5, 127], np.int8) // 2) + np.int8(1))


def lambda_free_shift(v, k):
    return v // 2 + k


def test_two_functions_of_one_name_in_one_expression(device):
    def make(k):
        @weft.vectorize
        def shift(x):
            return x + cube(x) * 0 + k
        return shift

    one, two = make(1), make(2)
    a = weft.asarray(np.arange(4, dtype=np.float32), device=device)
    np.testing.assert_array_equal((one(a) * 10 + two(a)).get(), (np.arange(4) + 1) * 10 + np.arange(4) + 2)


def test_signatures_as_numba(device):
    @weft.vectorize(["float32(float32, float32)", "float64(float64, float64)"])
    def hyp(x, y):
        return math.sqrt(x * x + y * y)

    i = weft.asarray(np.array([3, 5], np.int16), device=device)
    f = weft.asarray(np.array([4, 12], np.float32), device=device)
    assert hyp(i, f).dtype == np.float32  # int16 casts safely to float32
    np.testing.assert_allclose(hyp(i, f).get(), [5, 13])
    assert hyp(weft.asarray(np.array([3, 5]), device=device), f).dtype == np.float64  # int64: not to float32
    with pytest.raises(TypeError, match="no signature"):
        weft.vectorize(["int8(int8)"])(lambda_free_neg)(f)  # float32 does not cast to int8 safely
    with pytest.raises(TypeError, match="not of the form"):
        weft.vectorize(["float32"])(lambda_free_neg)


def lambda_free_neg(v):
    return -v


def test_called_from_jit_and_shown(device):
    @weft.jit
    def apply_all(x, out):
        for i in weft.prange(len(x)):
            out[i] = classify(x[i]) * 10

    x = np.array([-5.0, 0.0, 5.0])
    out = np.zeros(3, np.int64)
    apply_all(x, out)
    np.testing.assert_array_equal(out, [-10, 0, 10])
    src = weft.show_source(rel_diff, np.float32, np.float32)
    assert "@weft.vectorize function 'rel_diff'" in src and "float pyk_vec_rel_diff_" in src


@weft.vectorize
def returns_pair(x):
    return x, x


@weft.vectorize
def returns_nothing(x):
    y = x  # noqa: F841


def _line_of(fn, text):
    lines, first = __import__("inspect").getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def test_refusals_name_file_line_and_column(device):
    a = weft.asarray(np.ones(3, np.float32), device=device)
    with pytest.raises(weft.Unsupported, match=r"test_pykernels_vectorize\.py:\d+:\d+: .*lists are not supported"):
        @weft.vectorize
        def with_list(x):
            return [x][0]
    line = _line_of(returns_pair.__wrapped__, "def returns_pair")
    with pytest.raises(weft.Unsupported, match=rf"test_pykernels_vectorize\.py:{line}:1: .*returns a tuple"):
        returns_pair(a)
    with pytest.raises(weft.Unsupported, match="returns no value"):
        returns_nothing(a)
    with pytest.raises(TypeError, match=re.escape("argument 'x' is a str")):
        classify("x")
    with pytest.raises(TypeError, match="takes 1 arguments, 2 given"):
        classify(a, a)


@weft.vectorize
def add_k(x, k):
    return x + k


def test_weak_int_out_of_range_raises_overflow_error_like_numpy(device):
    a = weft.asarray(np.array([1, 2, 100], np.int8), device=device)
    np.testing.assert_array_equal(add_k(a, -128).get(), np.array([1, 2, 100], np.int8) + -128)
    with pytest.raises(OverflowError, match=r"Python integer 1000 \(argument 'k'\) out of bounds for int8"):
        add_k(a, 1000)
    with pytest.raises(OverflowError):
        np.int8(1) + 1000  # NumPy 2's rule, the same
    u = weft.asarray(np.array([1, 2], np.uint16), device=device)
    with pytest.raises(OverflowError, match="out of bounds for uint16"):
        add_k(u, -1)
    assert add_k(weft.asarray(np.array([1.5]), device=device), 10**15).get()[0] == 1.5 + 10**15  # floats take it


def test_out_keyword(device):
    a = weft.asarray(np.array([1, 2, 3], np.int32), device=device)
    out = weft.zeros(3, np.int64, device=device)
    assert add_k(a, 5, out=out) is out
    np.testing.assert_array_equal(out.get(), [6, 7, 8])
    host = np.zeros((2, 3))
    add_k(a, 0.5, out=host)  # broadcast into out, NumPy out written back
    np.testing.assert_array_equal(host, [[1.5, 2.5, 3.5]] * 2)
    with pytest.raises(weft.DTypeError, match="from float64 to out's int32 with casting rule 'same_kind'"):
        add_k(a, 0.5, out=weft.zeros(3, np.int32, device=device))
    with pytest.raises(weft.InvalidArgument, match=r"shape \(3,\) does not broadcast to out's shape \(2,\)"):
        add_k(a, 1, out=weft.zeros(2, np.int32, device=device))


def test_dtype_keyword(device):
    a = weft.asarray(np.array([1, 2, 3], np.int16), device=device)
    r = add_k(a, 0.25, dtype=np.float32)  # the loop for float32: inputs cast to it
    assert r.dtype == np.float32
    np.testing.assert_array_equal(r.get(), np.array([1.25, 2.25, 3.25], np.float32))
    with pytest.raises(TypeError, match="no loop for dtype=int8"):
        add_k(weft.asarray(np.array([1.5]), device=device), 1, dtype=np.int8)

    @weft.vectorize(["float32(float32, float32)", "float64(float64, float64)"])
    def mul(x, y):
        return x * y
    x = weft.asarray(np.array([3.0, 4.0], np.float32), device=device)
    assert mul(x, 2.0, dtype=np.float64).dtype == np.float64
    assert mul(x, 2.0).dtype == np.float32
