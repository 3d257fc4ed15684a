"""The complex functions' C99 Annex G special values (infinities, NaNs, signed zeros in either
part) and huge arguments against NumPy on every device, complex round, and the complex order
of sort, argsort and the unique functions (issue 24)."""
import itertools

import numpy as np
import pytest

import weft

CT = [np.complex64, np.complex128]
PARTS = [0.0, -0.0, 0.5, -1.0, 1.0, 2.5, -3.0, np.inf, -np.inf, np.nan]
FUNCTIONS = ["arccos", "arcsin", "arctan", "arccosh", "arcsinh", "arctanh", "sinh", "cosh", "tanh", "sin", "cos",
             "tan"]  # (expm1: NumPy's naive formula makes NaNs of the infinities the standard specifies)


def _need(device, dtype):
    if np.dtype(dtype) == np.dtype(np.complex128) and not device.fp64:
        pytest.skip("no fp64 on this device")


def _same(got, want, rtol, what):
    """Part by part: NaN where NumPy's is, infinities of NumPy's sign, the rest within rtol."""
    for gp, wp, part in ((got.real, want.real, "real"), (got.imag, want.imag, "imag")):
        nan = np.isnan(wp)
        np.testing.assert_array_equal(np.isnan(gp), nan, err_msg=f"{what} {part} NaNs")
        inf = np.isinf(wp)
        np.testing.assert_array_equal(gp[inf], wp[inf], err_msg=f"{what} {part} infinities")
        finite = ~nan & ~inf
        np.testing.assert_allclose(gp[finite], wp[finite], rtol=rtol, atol=rtol, err_msg=f"{what} {part}")


@pytest.mark.parametrize("dtype", CT)
def test_annex_g_special_values(device, dtype):
    _need(device, dtype)
    x = np.array([complex(r, i) for r, i in itertools.product(PARTS, PARTS)], dtype=dtype)
    a = weft.asarray(x, device=device)
    rtol = 1e-5 if dtype == np.complex64 else 1e-12
    with np.errstate(all="ignore"):
        for name in FUNCTIONS:
            want = getattr(np, name)(x)
            _same(getattr(weft, name)(a).get(), want, rtol, name)


@pytest.mark.parametrize("dtype", CT)
def test_annex_g_signs(device, dtype):
    # The standard's table entries whose signs are specified (the Array API's special cases).
    _need(device, dtype)
    inf, nan, pio2 = np.inf, np.nan, np.pi / 2
    cases = [  # (function, argument, result)
        ("acos", complex(0.0, nan), complex(pio2, nan)), ("acos", complex(1, inf), complex(pio2, -inf)),
        ("acos", complex(-inf, 1), complex(np.pi, -inf)), ("acos", complex(inf, 1), complex(0.0, -inf)),
        ("acos", complex(-inf, inf), complex(3 * np.pi / 4, -inf)), ("acos", complex(nan, inf), complex(nan, -inf)),
        ("acosh", complex(0.0, nan), complex(nan, pio2)), ("acosh", complex(inf, 1), complex(inf, 0.0)),
        ("acosh", complex(-inf, 1), complex(inf, np.pi)), ("acosh", complex(1, inf), complex(inf, pio2)),
        ("asinh", complex(inf, 1), complex(inf, 0.0)), ("asinh", complex(nan, 0.0), complex(nan, 0.0)),
        ("atanh", complex(0.0, nan), complex(0.0, nan)), ("atanh", complex(inf, 1), complex(0.0, pio2)),
        ("atanh", complex(inf, inf), complex(0.0, pio2)), ("atanh", complex(1, inf), complex(0.0, pio2)),
        ("cosh", complex(0.0, inf), complex(nan, 0.0)), ("cosh", complex(inf, 0.0), complex(inf, 0.0)),
        ("sinh", complex(0.0, inf), complex(0.0, nan)), ("sinh", complex(inf, 0.0), complex(inf, 0.0)),
        ("tanh", complex(0.0, inf), complex(0.0, nan)), ("tanh", complex(0.0, nan), complex(0.0, nan)),
        ("tanh", complex(inf, 1), complex(1, 0.0)), ("expm1", complex(-0.0, 0.0), complex(0.0, 0.0)),
    ]
    for name, z, want in cases:
        got = complex(getattr(weft, name)(weft.asarray(np.array([z], dtype=dtype), device=device)).get()[0])
        for g, w, part in ((got.real, want.real, "real"), (got.imag, want.imag, "imag")):
            if np.isnan(w):
                assert np.isnan(g), (name, z, got, part)
                continue
            assert np.isclose(g, w, rtol=1e-6) and np.signbit(g) == np.signbit(w), (name, z, got, want, part)


@pytest.mark.parametrize("dtype", CT)
def test_huge_arguments(device, dtype):
    # Beyond 1/eps the inverse functions take log(2z) and friends: no overflow of z^2.
    _need(device, dtype)
    big = 1e30 if dtype == np.complex64 else 1e300
    parts = [1e20, -3e25, big, -big, 1.0, -0.0]
    x = np.array([complex(r, i) for r, i in itertools.product(parts, parts)], dtype=dtype)
    a = weft.asarray(x, device=device)
    rtol = 1e-5 if dtype == np.complex64 else 1e-12
    for name in ["arccos", "arcsin", "arcsinh", "arccosh", "arctan", "arctanh"]:
        _same(getattr(weft, name)(a).get(), getattr(np, name)(x), rtol, name)


@pytest.mark.parametrize("dtype", CT)
def test_small_arguments(device, dtype):
    # Near 0 and near the branch points +-1, +-i: no cancellation.
    _need(device, dtype)
    parts = [0.0, 1e-9, -1e-5, 0.3, 1.0, -1.0, 1.0 + 1e-6, 1e-30]
    x = np.array([complex(r, i) for r, i in itertools.product(parts, parts)], dtype=dtype)
    a = weft.asarray(x, device=device)
    rtol = 1e-5 if dtype == np.complex64 else 1e-11
    for name in ["arccos", "arcsin", "arcsinh", "arccosh", "arctan", "arctanh"]:
        _same(getattr(weft, name)(a).get(), getattr(np, name)(x), rtol, name)


@pytest.mark.parametrize("dtype", CT)
def test_round(device, dtype):
    _need(device, dtype)
    x = np.array([0.5 + 1.5j, -2.5 - 0.5j, 3.7 + np.inf * 1j, complex(np.nan, 2.4), -0.2 + 0.2j], dtype=dtype)
    got = weft.round(weft.asarray(x, device=device)).get()
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got, np.round(x))
    # Signed zeros (-0.2 rounds to -0.0) must match; a NaN's sign bit means nothing (NumPy's
    # round happens to give -nan here, CUDA's and NVIDIA OpenCL's rint +nan).
    want = np.round(x).real
    signed = ~np.isnan(want)
    np.testing.assert_array_equal(np.signbit(got.real)[signed], np.signbit(want)[signed])


def _nan_mix(dtype, n, seed):
    rng = np.random.default_rng(seed)
    x = (rng.integers(-2, 3, n) + 1j * rng.integers(-2, 3, n)).astype(dtype)
    for k, z in zip(rng.choice(n, 4, replace=False), [complex(np.nan, 1), complex(1, np.nan),
                                                        complex(np.nan, np.nan), complex(-0.0, 0.0)]):
        x[k] = z
    return x


@pytest.mark.parametrize("dtype", CT)
def test_sort_argsort(device, dtype):
    _need(device, dtype)
    x = _nan_mix(dtype, 40, 1)
    a = weft.asarray(x, device=device)
    np.testing.assert_array_equal(weft.sort(a).get(), np.sort(x))
    np.testing.assert_array_equal(weft.argsort(a).get(), np.argsort(x, stable=True))
    m = x.reshape(5, 8)
    np.testing.assert_array_equal(weft.sort(weft.asarray(m, device=device), axis=0).get(), np.sort(m, axis=0))


@pytest.mark.parametrize("dtype", CT)
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique(device, dtype, equal_nan):
    _need(device, dtype)
    x = _nan_mix(dtype, 30, 2).reshape(5, 6)
    got = weft.unique(weft.asarray(x, device=device), True, True, True, equal_nan=equal_nan)
    want = np.unique(x, True, True, True, equal_nan=equal_nan)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.get(), w.reshape(g.shape))
    r = weft.unique_all(weft.asarray(x, device=device))
    np.testing.assert_array_equal(r.values.get()[r.inverse_indices.get()], x)
    assert weft.unique_values(weft.asarray(np.zeros(0, dtype), device=device)).shape == (0,)
