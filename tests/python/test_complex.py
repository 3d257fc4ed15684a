"""complex64 and complex128 arrays against NumPy on every device (issue 24): dtypes and NumPy 2's
promotion, creation and copies, DLPack, the elementwise operations with inf/nan components
and -0.0, mixing with real arrays and Python numbers, the reductions, and the operations
refused with TypeError (ordering comparisons ...)."""
import numpy as np
import pytest

import weft

CT = [np.complex64, np.complex128]
TOL = {np.dtype(np.complex64): 2e-6, np.dtype(np.complex128): 1e-13,
       np.dtype(np.float32): 2e-6, np.dtype(np.float64): 1e-13}


def _need(device, dtype):
    if np.dtype(dtype) in (np.dtype(np.float64), np.dtype(np.complex128)) and not device.fp64:
        pytest.skip("no fp64 on this device")


def _close(got, want, rtol=None):
    """got (a weft.Array) matches want: same dtype and shape, NaN where NumPy's is (by part),
    infinities equal, the rest within rtol of the part's size."""
    assert isinstance(got, weft.Array)
    g = got.get()
    want = np.asarray(want)
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, want.dtype, g.shape, want.shape)
    tol = rtol if rtol is not None else TOL.get(want.dtype, 0)
    parts = [(g.real, want.real), (g.imag, want.imag)] if want.dtype.kind == "c" else [(g, want)]
    for gp, wp in parts:
        gp, wp = np.asarray(gp), np.asarray(wp)
        if wp.dtype.kind != "f":
            np.testing.assert_array_equal(gp, wp)
            continue
        nan = np.isnan(wp)
        np.testing.assert_array_equal(np.isnan(gp), nan)
        np.testing.assert_allclose(gp[~nan], wp[~nan], rtol=tol, atol=tol)


def _values(dtype):
    rng = np.random.default_rng(7)
    re = rng.uniform(-3, 3, 11)
    im = rng.uniform(-3, 3, 11)
    z = (re + 1j * im).astype(dtype)
    return np.concatenate([z, np.array([0, -0.0, 1j, -2, 0.6 + 0.8j], dtype=dtype)])


SPECIAL = [complex(np.inf, 0), complex(-np.inf, 1), complex(1, np.inf), complex(np.nan, 0), complex(0, np.nan),
           complex(np.inf, np.nan), complex(-0.0, -0.0), complex(0.0, -0.0), complex(-1, 0), complex(1, -0.0)]


def test_dtypes_and_promotion():
    assert weft.complex64 is np.complex64 and weft.complex128 is np.complex128
    assert weft.isdtype(weft.complex64, "complex floating") and weft.isdtype(np.complex128, "numeric")
    assert not weft.isdtype(weft.complex64, "real floating")
    assert weft.finfo(weft.complex64).bits == 32 and weft.finfo(weft.complex64).eps == np.finfo(np.float32).eps
    assert weft.finfo(np.complex128).dtype == np.float64
    assert weft.can_cast(np.float32, np.complex64) and weft.can_cast(np.complex64, np.complex128)
    assert not weft.can_cast(np.complex64, np.float32) and not weft.can_cast(np.float64, np.complex64)
    assert not weft.can_cast(np.int8, np.complex64)  # (the standard keeps kinds apart)
    for a, b in [(np.complex64, np.float64), (np.int8, np.complex64), (np.int32, np.complex64),
                 (np.uint64, np.complex64), (np.bool_, np.complex64), (np.complex64, np.complex128)]:
        assert weft.result_type(a, b) == np.result_type(a, b), (a, b)
    info = weft.__array_namespace_info__()
    assert info.default_dtypes()["complex floating"] == np.complex128
    d = info.dtypes(kind="complex floating", device="host")
    assert list(d) == ["complex64", "complex128"]


@pytest.mark.parametrize("dtype", CT)
def test_creation_copies_views(device, dtype):
    _need(device, dtype)
    host = _values(dtype).reshape(4, 4)
    a = weft.asarray(host, device=device)
    assert a.dtype == dtype
    np.testing.assert_array_equal(a.get(), host)
    np.testing.assert_array_equal(np.asarray(a), host)
    np.testing.assert_array_equal(a.T.get(), host.T)
    np.testing.assert_array_equal(a[1:3, ::2].get(), host[1:3, ::2])
    np.testing.assert_array_equal(a.reshape(2, 8).get(), host.reshape(2, 8))
    np.testing.assert_array_equal(a[2, 3].get(), host[2, 3])
    assert complex(a[0, 1]) == complex(host[0, 1])
    for f, npf in [(weft.zeros, np.zeros), (weft.ones, np.ones)]:
        _close(f((2, 3), dtype=dtype, device=device), npf((2, 3), dtype=dtype))
    _close(weft.full((3,), 1.5 - 2j, dtype=dtype, device=device), np.full((3,), 1.5 - 2j, dtype=dtype))
    assert weft.empty((2,), dtype=dtype, device=device).dtype == dtype
    # A Python complex scalar makes a complex128 array; astype both ways (the real part, as NumPy).
    s = weft.asarray(3 - 4j, device=device)
    assert s.dtype == np.complex128 and complex(s) == 3 - 4j
    r = weft.asarray(np.array([1.5, -2.0], dtype=np.float32), device=device)
    _close(r.astype(dtype), np.array([1.5, -2.0], dtype=np.float32).astype(dtype))
    with pytest.warns(np.exceptions.ComplexWarning):
        want = host.astype(np.float32)
    _close(a.astype(np.float32), want)
    _close(a.astype(bool), host.astype(bool))


@pytest.mark.parametrize("dtype", CT)
def test_dlpack(dtype):
    host = _values(dtype)
    a = weft.asarray(host, device="host")
    np.testing.assert_array_equal(np.from_dlpack(a), host)
    b = weft.from_dlpack(host)
    assert b.dtype == dtype
    np.testing.assert_array_equal(b.get(), host)


@pytest.mark.parametrize("dtype", CT)
def test_arithmetic(device, dtype):
    _need(device, dtype)
    x, y = _values(dtype), _values(dtype)[::-1].copy()
    a, b = weft.asarray(x, device=device), weft.asarray(y, device=device)
    with np.errstate(all="ignore"):
        _close(a + b, x + y)
        _close(a - b, x - y)
        _close(a * b, x * y)
        _close(a / b, x / y)
        _close(-a, -x)
        _close(+a, +x)
        _close(weft.positive(a), np.positive(x))
        _close(a == b, x == y)
        _close(a != a, x != x)
        _close(weft.equal(a, 1j), np.equal(x, 1j))
        _close(a ** 2, x ** 2)
        _close(a ** 3, x ** 3)
        _close(a ** -2, x ** -2, rtol=TOL[np.dtype(dtype)] * 10)
        _close(weft.power(a, b), np.power(x, y), rtol=TOL[np.dtype(dtype)] * 100)
        _close(weft.logical_and(a, b), np.logical_and(x, y))
        _close(weft.logical_not(a), np.logical_not(x))


@pytest.mark.parametrize("dtype", CT)
def test_functions(device, dtype):
    _need(device, dtype)
    x = _values(dtype)
    a = weft.asarray(x, device=device)
    tol = TOL[np.dtype(dtype)]
    with np.errstate(all="ignore"):
        for name in ["abs", "real", "imag", "conj", "angle", "square", "exp", "log", "sqrt", "reciprocal",
                     "sign", "isnan", "isinf", "isfinite", "log2", "log10"]:
            npf = getattr(np, name)
            want = npf(x)
            _close(getattr(weft, name)(a), want, rtol=tol * 4)
        _close(abs(a), np.abs(x))
        _close(a.real, x.real)
        _close(a.imag, x.imag)
        _close(a.conj(), x.conj())
        # NumPy's functions on weft arrays dispatch to weft's.
        for npf in [np.abs, np.sqrt, np.exp, np.conjugate, np.real, np.imag, np.angle, np.isnan]:
            r = npf(a)
            assert isinstance(r, weft.Array), npf
            _close(r, npf(x), rtol=tol * 4)


@pytest.mark.parametrize("dtype", CT)
def test_trigonometric(device, dtype):
    _need(device, dtype)
    x = np.concatenate([_values(dtype), (_values(dtype) * 1e-4).astype(dtype), np.array([2, -2, 2j, -2j], dtype=dtype)])
    a = weft.asarray(x, device=device)
    tol = TOL[np.dtype(dtype)] * 20
    with np.errstate(all="ignore"):
        for name in ["sin", "cos", "tan", "sinh", "cosh", "tanh", "expm1", "log1p", "arcsin", "arccos", "arctan",
                     "arcsinh", "arccosh", "arctanh"]:
            _close(getattr(weft, name)(a), getattr(np, name)(x), rtol=tol)


def test_elementwise_kernel_with_complex_arguments(device):
    x = _values(np.complex64)
    k = weft.ElementwiseKernel("const cfloat *x, cfloat *y, float *m",
                               "y[i] = cfloat_mul(x[i], cfloat_conj(x[i])); m[i] = cfloat_abs(x[i])", "absq")
    a = weft.asarray(x, device=device)
    y = weft.empty(x.shape, np.complex64, device=device)
    m = weft.empty(x.shape, np.float32, device=device)
    k(a, y, m).wait()
    _close(y, x * np.conj(x), rtol=1e-5)
    _close(m, np.abs(x))


@pytest.mark.parametrize("dtype", CT)
def test_special_values(device, dtype):
    _need(device, dtype)
    x = np.array(SPECIAL, dtype=dtype)
    a = weft.asarray(x, device=device)
    with np.errstate(all="ignore"):
        for name in ["abs", "isnan", "isinf", "isfinite", "real", "imag", "conj", "sqrt", "exp", "sign", "square",
                     "negative", "angle"]:
            _close(getattr(weft, name)(a), getattr(np, name)(x))
        # The zeros' signs: sqrt, conj and negative keep NumPy's.
        for name in ["sqrt", "conj", "negative"]:
            g, w = getattr(weft, name)(a).get(), getattr(np, name)(x)
            finite = np.isfinite(w)
            np.testing.assert_array_equal(np.signbit(g.real[finite]), np.signbit(w.real[finite]), err_msg=name)
            np.testing.assert_array_equal(np.signbit(g.imag[finite]), np.signbit(w.imag[finite]), err_msg=name)
        # Division by complex zeros and by infinities, as NumPy's Smith division.
        one = weft.asarray(np.ones(len(SPECIAL), dtype=dtype), device=device)
        _close(one / a, np.ones(len(SPECIAL), dtype=dtype) / x)
        _close(a / weft.asarray(np.zeros(len(SPECIAL), dtype=dtype), device=device), x / np.zeros_like(x))


@pytest.mark.parametrize("dtype", CT)
def test_mixed_promotion(device, dtype):
    _need(device, dtype)
    x = _values(dtype)
    a = weft.asarray(x, device=device)
    with np.errstate(all="ignore"):
        for other in [np.arange(16, dtype=np.float32), np.arange(16, dtype=np.int8), np.arange(16, dtype=np.int16),
                      np.arange(16, dtype=np.int32), np.arange(16, dtype=np.uint8), np.ones(16, dtype=bool)]:
            o = weft.asarray(other, device=device)
            want = x + other
            if want.dtype == np.complex128 and not device.fp64:
                continue
            _close(a + o, want)
            _close(o * a, other * x)
            _close(o / a, other / x, rtol=TOL[want.dtype] * 4)
        # Python numbers are weak: complex64 stays complex64.
        for number in [2, 2.5, 1 - 1j, True]:
            _close(a * number, x * number)
            _close(number - a, number - x)
        if device.fp64:
            d = np.linspace(-1, 1, 16)
            _close(a + weft.asarray(d, device=device), x + d)
        # A Python complex with a real array: complex of the float's width (complex128 for ints).
        f = np.linspace(-1, 1, 16, dtype=np.float32)
        _close(weft.asarray(f, device=device) * 1j, f * 1j)
        _close(weft.asarray(f, device=device) + np.complex64(2 - 1j), f + np.complex64(2 - 1j))
        if device.fp64:
            i = np.arange(16, dtype=np.int32)
            _close(weft.asarray(i, device=device) + 1j, i + 1j)
        # real / imag / conj / angle of real arrays, as NumPy's.
        r = np.array([-1.5, 0.0, 2.0], dtype=np.float32)
        w = weft.asarray(r, device=device)
        _close(weft.real(w), np.real(r))
        _close(weft.imag(w), np.imag(r))
        _close(weft.conj(w), np.conj(r))
        _close(weft.angle(w), np.angle(r).astype(np.float32))


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_ordering_refused(device, op):
    a = weft.asarray(np.array([1 + 1j], dtype=np.complex64), device=device)
    with pytest.raises(TypeError, match=op.replace("<", "<").replace(">", ">")):
        eval(f"a {op} a", {"a": a})


@pytest.mark.parametrize("name", ["maximum", "minimum", "floor_divide", "remainder", "bitwise_and", "arctan2"])
def test_binary_refused(device, name):
    a = weft.asarray(np.array([1 + 1j], dtype=np.complex64), device=device)
    with pytest.raises(TypeError, match="complex"):
        getattr(weft, name)(a, a)


@pytest.mark.parametrize("name", ["floor", "ceil", "cbrt", "signbit", "fabs"])
def test_unary_refused(device, name):
    a = weft.asarray(np.array([1 + 1j], dtype=np.complex64), device=device)
    with pytest.raises(TypeError, match="complex64"):
        getattr(weft, name)(a).get()


@pytest.mark.parametrize("dtype", CT)
def test_reductions(device, dtype):
    _need(device, dtype)
    x = _values(dtype).reshape(4, 4)
    a = weft.asarray(x, device=device)
    tol = TOL[np.dtype(dtype)] * 10
    for axis in [None, 0, 1, (0, 1)]:
        _close(weft.sum(a, axis=axis), np.sum(x, axis=axis), rtol=tol)
        _close(weft.mean(a, axis=axis), np.mean(x, axis=axis), rtol=tol)
        _close(weft.prod(a, axis=axis), np.prod(x, axis=axis), rtol=tol)
        _close(weft.any(a, axis=axis), np.any(x, axis=axis))
        _close(weft.all(a, axis=axis), np.all(x, axis=axis))
    _close(weft.sum(a, axis=0, keepdims=True), np.sum(x, axis=0, keepdims=True), rtol=tol)
    _close(weft.prod(a, keepdims=True), np.prod(x, keepdims=True), rtol=tol)
    _close(np.sum(a), np.sum(x), rtol=tol)
    _close(a.sum(axis=1), x.sum(axis=1), rtol=tol)
    _close(weft.cumsum(a, axis=1), np.cumsum(x, axis=1), rtol=tol)
    _close(weft.cumulative_sum(a, axis=0), np.cumulative_sum(x, axis=0), rtol=tol)
    _close(weft.var(a), np.var(x).astype(x.real.dtype), rtol=tol)
    # Infinite parts stay what they are (the parts are summed apart).
    s = np.array([complex(np.inf, 1), complex(2, 3)], dtype=dtype)
    _close(weft.sum(weft.asarray(s, device=device)), np.sum(s))
    with pytest.raises(TypeError):
        weft.max(a)
    with pytest.raises(TypeError):
        weft.argmin(a)


def test_split_reductions(device, generator_choice):
    """The two-stage reduction along an axis (GPUs' long ranges; forced here) of complex numbers."""
    generator_choice("reduce_split", "always")
    rng = np.random.default_rng(1)
    x = (rng.uniform(0.9, 1.1, (3, 300)) * np.exp(1j * rng.uniform(-0.01, 0.01, (3, 300)))).astype(np.complex64)
    a = weft.asarray(x, device=device)
    for name in ["sum", "prod", "mean"]:
        _close(getattr(weft, name)(a, axis=1), getattr(np, name)(x, axis=1), rtol=1e-5)
