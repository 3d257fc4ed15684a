"""weft.Array arithmetic against NumPy: operators and type promotion, math functions and
ufuncs, NumPy arrays refused as operands, astype, the out= and dtype= keywords, matmul, and
reductions (whole and along axes)."""
import numpy as np
import pytest

import weft

from support import check, rng


def test_operators_follow_numpy(device):
    x = rng.standard_normal((4, 5)).astype(np.float32)
    y = rng.standard_normal((4, 5)).astype(np.float32)
    i = rng.integers(-50, 50, (4, 5)).astype(np.int32)
    j = rng.integers(1, 9, (4, 5)).astype(np.int32)
    a, b, ia, ja = (weft.asarray(v, device=device) for v in (x, y, i, j))
    check(a + b, x + y)
    check(a - b * 2, x - y * 2)
    check(a / b, x / y, rtol=1e-5)
    check(2.5 * a - 1, 2.5 * x - 1)
    check(-a, -x)
    check(abs(a), abs(x))
    check(a ** 2, x ** 2, rtol=1e-5)
    check(ia // ja, i // j)
    check(ia % ja, i % j)
    check(-ia // 3, -i // 3)
    check(ia / ja, i / j)  # int / int is float64
    check(ia + a, i + x)  # int32 + float32 is float64
    check(ia + 1.5, i + 1.5)
    check(ia * 2, i * 2)  # a Python int keeps int32 (NEP 50)
    check(a < b, x < y)
    check((a > 0) & (b > 0), (x > 0) & (y > 0))
    check(ia ^ ja, i ^ j)
    check(~ia, ~i)
    check(a == a, x == x)


def test_math_functions_and_ufuncs(device):
    x = rng.uniform(0.1, 2.0, 64).astype(np.float64)
    a = weft.asarray(x, device=device)
    for name in ["sqrt", "exp", "log", "log1p", "sin", "cos", "tanh", "arctan", "floor", "ceil", "cbrt"]:
        check(getattr(weft, name)(a), getattr(np, name)(x), rtol=1e-12)
        got = getattr(np, name)(a)  # __array_ufunc__: stays on the device
        assert isinstance(got, weft.Array)
        check(got, getattr(np, name)(x), rtol=1e-12)
    check(np.maximum(a, 1.0), np.maximum(x, 1.0))
    check(np.arctan2(a, a + 1), np.arctan2(x, x + 1), rtol=1e-12)
    check(weft.where(a > 1, a, -a), np.where(x > 1, x, -x))
    check(np.where(a > 1, a, 0.0), np.where(x > 1, x, 0.0))
    check(np.clip(a, 0.5, 1.5), np.clip(x, 0.5, 1.5))
    check(weft.isnan(a / 0.0 * 0.0), np.isnan(x / 0.0 * 0.0))


def test_numpy_array_operand_is_refused(device):
    a = weft.ones(3, device=device)
    with pytest.raises(TypeError, match="weft.asarray"):
        a + np.ones(3)
    with pytest.raises(TypeError, match="weft.asarray"):
        np.add(np.ones(3), a)


def test_reductions(device):
    h = rng.standard_normal((5, 7))
    a = weft.asarray(h, device=device)
    for name in ["sum", "min", "max", "mean", "prod"]:
        np.testing.assert_allclose(getattr(a, name)().get(), getattr(h, name)(), rtol=1e-10)
        for axis in [0, 1, (0, 1), -1]:
            np.testing.assert_allclose(getattr(a, name)(axis=axis).get(), getattr(h, name)(axis=axis), rtol=1e-10)
        np.testing.assert_allclose(getattr(a, name)(axis=1, keepdims=True).get(),
                                   getattr(h, name)(axis=1, keepdims=True), rtol=1e-10)
    np.testing.assert_allclose(np.sum(a * a).get(), np.sum(h * h), rtol=1e-10)  # fused into the reduction
    np.testing.assert_allclose(float(np.mean(a, axis=0)[2]), h.mean(axis=0)[2], rtol=1e-10)
    assert bool((a > 10).any()) is False and bool((a < 10).all()) is True
    i = weft.asarray(np.arange(10, dtype=np.int32), device=device)
    assert i.sum().dtype == np.int64 and i.sum().item() == 45
    assert i.max().dtype == np.int32 and int(i.max()) == 9
    assert np.add.reduce(i).item() == 45


def test_astype_and_scalars(device):
    a = weft.asarray(np.array([1.7, -2.5, 3.5]), device=device)
    np.testing.assert_array_equal(a.astype(np.int32).get(), np.array([1.7, -2.5, 3.5]).astype(np.int32))
    np.testing.assert_array_equal(np.round(a).get(), np.round(np.array([1.7, -2.5, 3.5])))
    assert float(a[0]) == 1.7 and int(a[2]) == 3 and a.tolist() == [1.7, -2.5, 3.5]
    assert len(a) == 3 and [x.item() for x in a] == [1.7, -2.5, 3.5]
    with pytest.raises(TypeError):
        float(a)


def test_out_keyword_of_functions_and_ufuncs(device):
    """out= on weft's elementwise functions and NumPy's ufuncs: written in place (one kernel),
    out returned; a wrong shape or an unsafe cast is refused before anything is written."""
    h = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
    a = weft.asarray(h, device=device)
    out = weft.zeros((3, 4), weft.float32, device=device)
    assert weft.sin(a, out=out) is out
    np.testing.assert_allclose(out.get(), np.sin(h), rtol=1e-6)
    with weft.LaunchLog(weft.array_queue(device)) as log:
        weft.multiply(a, 2, out=out)
    assert log.kernels == ["weft_expr"]
    np.testing.assert_array_equal(out.get(), h * 2)
    assert np.add(a, a, out=out) is out
    np.testing.assert_array_equal(out.get(), h + h)
    assert weft.clip(a, -1, 1, out=out) is out
    np.testing.assert_array_equal(out.get(), np.clip(h, -1, 1))
    weft.sin(a, out=a)  # in place, reading what it writes
    np.testing.assert_allclose(a.get(), np.sin(h), rtol=1e-6)
    col = weft.zeros((3, 8), weft.float64, device=device)[:, ::2]  # a strided view as out
    weft.absolute(a, out=col)
    np.testing.assert_allclose(col.get(), np.abs(np.sin(h)), rtol=1e-6)
    before = out.get()
    with pytest.raises(ValueError, match="shape"):
        weft.sin(a, out=weft.zeros((4,), weft.float32, device=device))
    with pytest.raises(ValueError, match="shape"):
        np.add(a, a, out=weft.zeros((2, 3, 4), weft.float32, device=device))
    with pytest.raises(TypeError, match="same_kind"):
        weft.sqrt(a, out=weft.zeros((3, 4), weft.int32, device=device))
    with pytest.raises(TypeError, match="weft.Array"):
        weft.sin(a, out=np.zeros((3, 4), np.float32))
    # Reductions check out= the same way.
    with pytest.raises(ValueError, match="shape"):
        a.sum(axis=0, out=weft.zeros((3,), weft.float32, device=device))
    with pytest.raises(TypeError, match="same_kind"):
        a.sum(axis=0, out=weft.zeros((4,), weft.int32, device=device))
    np.testing.assert_array_equal(out.get(), before)


def test_matmul_dtype_keyword(device):
    """dtype= on matmul, as NumPy's: the operands cast to it ('same_kind'), the product in it."""
    rng = np.random.default_rng(8)
    a = rng.integers(-1000, 1000, (3, 5, 4)).astype(np.int32)
    b = rng.integers(-1000, 1000, (4, 2)).astype(np.int32)
    wa, wb = weft.asarray(a, device=device), weft.asarray(b, device=device)
    for dt in (np.float64, np.int64, np.float32):
        want = np.matmul(a, b, dtype=dt)
        for got in (np.matmul(wa, wb, dtype=dt), weft.matmul(wa, wb, dtype=dt)):
            assert isinstance(got, weft.Array) and got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got.get(), want, rtol=1e-6)
    out = weft.empty((3, 5, 2), np.float64, device=device)
    assert weft.matmul(wa, wb, dtype=np.float64, out=out) is out
    np.testing.assert_array_equal(out.get(), np.matmul(a, b, dtype=np.float64))
    fa = weft.asarray(a.astype(np.float32), device=device)
    with pytest.raises(TypeError, match="matmul: cannot cast input 0 from float32 to int32"):
        np.matmul(fa, wb, dtype=np.int32)


def test_matmul_of_stacks_of_matrices(device):
    """@ and weft.matmul on stacks (NumPy's broadcasting of the leading dimensions, 1-D
    operands as a row or a column), NumPy's result dtypes; a float stack is one kernel."""
    rng = np.random.default_rng(3)
    cases = [((5, 3, 4), (5, 4, 2)), ((2, 1, 3, 4), (6, 4, 2)), ((4,), (7, 4, 3)), ((7, 3, 4), (4,)),
             ((3, 4), (2, 4, 5)), ((2, 3, 4), (4, 5))]
    for sa, sb in cases:
        for dt in (np.float32, np.float64, np.int32, np.bool_):
            x = (rng.standard_normal(sa) * 3).astype(dt)
            y = (rng.standard_normal(sb) * 3).astype(dt)
            got = weft.asarray(x, device=device) @ weft.asarray(y, device=device)
            want = x @ y
            assert got.shape == want.shape and got.dtype == want.dtype, (sa, sb, dt)
            np.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-5, err_msg=f"{sa} @ {sb} {dt}")
    a = weft.asarray(rng.standard_normal((64, 3, 3)).astype(np.float32), device=device)
    v = weft.asarray(rng.standard_normal((64, 3, 1)).astype(np.float32), device=device)
    (a @ v).evaluate()
    with weft.LaunchLog(weft.array_queue(device)) as log:
        r = weft.matmul(a, v).evaluate()
    assert log.kernels == ["weft_axis_reduce"]
    np.testing.assert_allclose(r.get(), a.get() @ v.get(), rtol=1e-5, atol=1e-5)
    out = weft.zeros((64, 3, 1), weft.float32, device=device)
    assert weft.matmul(a, v, out=out) is out
    np.testing.assert_allclose(out.get(), a.get() @ v.get(), rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="last dimension"):
        weft.asarray(np.ones((2, 3, 4)), device=device) @ weft.asarray(np.ones((2, 5, 2)), device=device)
    with pytest.raises(ValueError, match="do not broadcast"):
        weft.asarray(np.ones((2, 3, 4)), device=device) @ weft.asarray(np.ones((3, 4, 2)), device=device)


def test_dtype_keyword_of_functions_and_ufuncs(device):
    """dtype= as NumPy's ufuncs: the operands cast to it (same_kind), the result of it."""
    x = np.arange(6, dtype=np.int32)
    a = weft.asarray(x, device=device)
    for name, args, dtype in [("add", (1,), np.float64), ("sqrt", (), np.float32), ("multiply", (3,), np.int16),
                              ("true_divide", (4,), np.float32), ("maximum", (2,), np.float64)]:
        want = getattr(np, name)(x, *args, dtype=dtype)
        for got in (getattr(weft, name)(a, *args, dtype=dtype), getattr(np, name)(a, *args, dtype=dtype)):
            assert got.dtype == want.dtype, name
            np.testing.assert_allclose(got.get(), want, rtol=1e-6, err_msg=name)
    out = weft.zeros(6, weft.float64, device=device)
    assert weft.add(a, a, dtype=np.float64, out=out) is out
    np.testing.assert_array_equal(out.get(), (x + x).astype(np.float64))
    with pytest.raises(TypeError, match="same_kind"):
        weft.add(weft.asarray(np.ones(3), device=device), 1, dtype=np.int32)
    with pytest.raises(TypeError, match="no loop"):
        weft.less(a, 1, dtype=np.float64)


@pytest.mark.parametrize("split", ["never", "always"])
def test_axis_reductions_against_numpy(device, generator_choice, split):
    """Reductions over some axes: four accumulators per work-item, one reduced dimension
    indexed without divisions, and (GPUs by default; chosen here on every device) long
    ranges split in two stages (strided ones into pieces when outputs are few, contiguous ones
    into interleaved parts), all against NumPy,
    NaN placement for min and max included."""
    generator_choice("reduce_split", split)
    rng = np.random.default_rng(11)
    cases = [((5003, 2), 0, np.float32, ("sum", "mean", "min", "max", "var")),
             ((3, 7001), 1, np.int32, ("sum", "min", "prod", "mean")),
             ((300, 3, 17), (0, 2), np.float64, ("sum", "max", "prod")),
             ((2, 1031, 3), 1, np.bool_, ("any", "all", "sum", "min")),
             ((4, 30, 50), (1, 2), np.float32, ("sum", "max", "mean", "all"))]  # contiguous: interleaved parts
    for k, (shape, axis, dt, functions) in enumerate(cases):
        x = (rng.standard_normal(shape) * 50).astype(dt)
        if dt == np.float32:
            x.flat[rng.integers(0, x.size)] = np.nan
        for f in functions:
            xx = x
            if f == "prod":  # products that stay finite (and integers that wrap the same way)
                xx = (x % 3 + 1).astype(dt) if np.dtype(dt).kind in "iu" else (1 + x / 1e4).astype(dt)
            keepdims = (k + len(f)) % 2 == 1
            want = getattr(np, f)(xx, axis=axis, keepdims=keepdims)
            got = getattr(weft, f)(weft.asarray(xx, device=device), axis=axis, keepdims=keepdims)
            assert got.shape == want.shape and got.dtype == want.dtype, (shape, axis, dt, f)
            tol = dict(rtol=1e-3, atol=1e-3) if dt == np.float32 else dict(rtol=1e-9)
            np.testing.assert_allclose(got.get().astype(np.float64), want.astype(np.float64), **tol,
                                       err_msg=f"{f} {shape} axis={axis} {np.dtype(dt)} split={split}")
