"""The Array API's elementwise functions (2024.12) against NumPy on every device: shifts for
every count (past the width and negative too) and their operators, signbit, sign, positive,
copysign and nextafter bit for bit, the inverse hyperbolic functions and logaddexp within 2
ulp, and the rules NumPy fixes for floor_divide, remainder, maximum, minimum, round, trunc and
isfinite/isinf/isnan of integers. Hypothesis cases at the end (skipped where it is missing)."""
import time

import numpy as np
import pytest

import weft

INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
FLOATS = [np.float32, np.float64]


def _need(device, dtype):
    if np.dtype(dtype) == np.float64 and not device.fp64:
        pytest.skip("no fp64 on this device")


def _bits(a):
    """The array's bytes as unsigned integers: equal bits, -0.0 and NaN's sign included."""
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.dtype.itemsize}") if a.dtype.kind == "f" else a


def _same(got, want, nan_sign=False):
    """got (a weft.Array) is want bit for bit, of its dtype and shape; NaNs only need to be NaNs
    (their payloads are the math library's), of the same sign with nan_sign (copysign, sign)."""
    assert isinstance(got, weft.Array)
    g = got.get()
    want = np.asarray(want)
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, want.dtype, g.shape, want.shape)
    if want.dtype.kind == "f":
        nan = np.isnan(want)
        np.testing.assert_array_equal(np.isnan(g), nan)
        if nan_sign:
            np.testing.assert_array_equal(np.signbit(g[nan]), np.signbit(want[nan]))
        np.testing.assert_array_equal(_bits(g[~nan]), _bits(want[~nan]))
    else:
        np.testing.assert_array_equal(g, want)


def _ulps(got, want, scale=None):
    """The largest distance in units in the last place of want (of scale, where larger: the
    magnitude a result's rounding errors follow); NaN against NaN and equal infinities are 0."""
    g = got.get() if isinstance(got, weft.Array) else got
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    ok = ~np.isnan(want)
    np.testing.assert_array_equal(np.isnan(g), ~ok)
    inf = np.isinf(want)
    np.testing.assert_array_equal(g[inf], want[inf])
    ok &= ~inf
    m = np.abs(want) if scale is None else np.maximum(np.abs(want), np.abs(scale).astype(want.dtype))
    if not ok.any():
        return 0.0
    return float(np.max(np.abs(g[ok].astype(np.float64) - want[ok]) / np.spacing(m[ok]).astype(np.float64)))


def _edges(dtype):
    f = np.finfo(dtype)
    v = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -2.5, 3.0, 1e-3, f.tiny, -f.tiny, f.smallest_subnormal,
         -f.smallest_subnormal, f.max, -f.max, np.inf, -np.inf, np.nan, -np.nan, 0.9999, 1.0001, 40.0, -88.0]
    a = np.array(v, dtype=dtype)
    a[19] = np.copysign(np.array(np.nan, dtype), -1)  # a NaN with its sign bit set
    return a


def _int_edges(dtype):
    i = np.iinfo(dtype)
    v = [0, 1, 2, 3, 7, i.max, i.min, i.max // 3, i.min + 5, 100 % (i.max + 1)]
    if i.min < 0:
        v += [-1, -2, -7, -100 % (i.min - 1)]
    return np.array(v, dtype=dtype)


# ---- shifts -------------------------------------------------------------------------------------

def _counts(dtype):
    bits = np.iinfo(dtype).bits
    c = [0, 1, 2, bits - 1, bits, bits + 1, min(100, np.iinfo(dtype).max)]
    if np.iinfo(dtype).min < 0:
        c += [-1, -bits, np.iinfo(dtype).min]
    else:
        c += [np.iinfo(dtype).max]
    return np.array([x for x in c if np.iinfo(dtype).min <= x <= np.iinfo(dtype).max], dtype=dtype)


@pytest.mark.parametrize("dtype", INTS)
def test_shifts_every_count(device, dtype):
    a, c = np.meshgrid(_int_edges(dtype), _counts(dtype))
    a, c = a.ravel(), c.ravel()
    x, n = weft.asarray(a, device=device), weft.asarray(c, device=device)
    _same(weft.bitwise_left_shift(x, n), np.left_shift(a, c))
    _same(weft.bitwise_right_shift(x, n), np.right_shift(a, c))
    _same(x << n, a << c)
    _same(x >> n, a >> c)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.uint64])
def test_shift_operators_with_numbers_and_in_place(device, dtype):
    a = _int_edges(dtype)
    x = weft.asarray(a, device=device)
    bits = np.iinfo(dtype).bits
    for k in (0, 1, bits - 1, min(bits, np.iinfo(dtype).max)):
        _same(x << k, a << dtype(k))
        _same(x >> k, a >> dtype(k))
    small = np.array([0, 1, 5, bits - 1], dtype=dtype)
    s = weft.asarray(small, device=device)
    _same(3 << s, np.left_shift(dtype(3), small))
    _same(100 >> s, np.right_shift(dtype(100), small))
    y = weft.asarray(a, device=device)
    y <<= 2
    _same(y, a << dtype(2))
    y >>= 1
    _same(y, (a << dtype(2)) >> dtype(1))
    z = weft.asarray(a, device=device)
    z[1:4] >>= weft.asarray(np.array([1, 2, 3], dtype=dtype), device=device)
    want = a.copy()
    want[1:4] >>= np.array([1, 2, 3], dtype=dtype)
    _same(z, want)


def test_shifts_promote_and_refuse_as_numpy(device):
    i8 = np.array([-128, -1, 1, 64], np.int8)
    u8 = np.array([1, 2, 200, 255], np.uint8)
    i64 = np.array([1, 2, 40, 63], np.int64)
    m = np.array([True, False, True, True])
    x8, xu8, x64, xm = (weft.asarray(v, device=device) for v in (i8, u8, i64, m))
    _same(x8 << x64, i8 << i64)       # int64
    _same(x8 >> xu8, i8 >> u8)        # int16
    _same(xm << xm, np.left_shift(m, m))  # int8
    _same(xm >> x8, np.right_shift(m, i8))
    with pytest.raises(TypeError):
        weft.asarray(np.array([1.5]), device=device) << 1
    with pytest.raises(TypeError):
        x64 >> weft.asarray(np.array([1, 2, 3, 4], np.uint64), device=device)  # promotes to float64
    with pytest.raises(OverflowError):
        x8 << 200
    with pytest.raises(OverflowError):
        x8 >> 2**70


# ---- exact sign functions ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_signbit_sign_positive_of_floats(device, dtype):
    _need(device, dtype)
    a = _edges(dtype)
    x = weft.asarray(a, device=device)
    _same(weft.signbit(x), np.signbit(a))
    _same(weft.sign(x), np.sign(a), nan_sign=True)
    p = weft.positive(x)
    assert p is not x
    _same(p, np.positive(a), nan_sign=True)
    _same(+x, +a, nan_sign=True)


@pytest.mark.parametrize("dtype", INTS + [np.bool_])
def test_signbit_sign_positive_of_integers(device, dtype):
    a = np.array([True, False]) if dtype == np.bool_ else _int_edges(dtype)
    x = weft.asarray(a, device=device)
    _same(weft.signbit(x), np.signbit(a))
    if dtype == np.bool_:
        for f in ("sign", "positive"):  # NumPy has no loop for bools either
            with pytest.raises(TypeError):
                getattr(np, f)(a)
            with pytest.raises(TypeError):
                getattr(weft, f)(x)
        return
    _same(weft.sign(x), np.sign(a))
    _same(weft.positive(x), np.positive(a))


@pytest.mark.parametrize("dtype", FLOATS)
def test_copysign_nextafter_bit_for_bit(device, dtype):
    _need(device, dtype)
    a, b = np.meshgrid(_edges(dtype), _edges(dtype))
    a, b = a.ravel(), b.ravel()
    x, y = weft.asarray(a, device=device), weft.asarray(b, device=device)
    _same(weft.copysign(x, y), np.copysign(a, b), nan_sign=True)
    _same(weft.nextafter(x, y), np.nextafter(a, b))
    _same(weft.copysign(x, -1.0), np.copysign(a, dtype(-1)), nan_sign=True)
    _same(weft.nextafter(x, np.inf), np.nextafter(a, dtype(np.inf)))


def test_copysign_nextafter_of_integers(device):
    a = np.array([-3, 0, 7], np.int32)
    x = weft.asarray(a, device=device)
    if device.fp64:
        _same(weft.copysign(x, -1), np.copysign(a, -1))  # float64, as NumPy's
        _same(weft.nextafter(x, 10), np.nextafter(a, 10))
    # An int16's result is float32 (NumPy's float16: weft arrays hold no float16).
    s = weft.copysign(weft.asarray(a.astype(np.int16), device=device), -1)
    _same(s, np.copysign(a.astype(np.float32), np.float32(-1)))


# ---- functions within 2 ulp -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("name", ["arcsinh", "arccosh", "arctanh"])
def test_inverse_hyperbolics(device, dtype, name):
    _need(device, dtype)
    rng = np.random.default_rng(3)
    a = np.concatenate([_edges(dtype), rng.uniform(-1, 1, 200).astype(dtype), rng.uniform(1, 1e4, 100).astype(dtype),
                        np.array([1 - 1e-6, -1 + 1e-6, 1e-20, 1e20], dtype)])
    x = weft.asarray(a, device=device)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(a)
    got = getattr(weft, name)(x)
    assert _ulps(got, want) <= 2, name
    # -0.0 keeps its sign through asinh and atanh, as NumPy's.
    if name != "arccosh":
        assert np.signbit(got.get()[1])


def test_inverse_hyperbolics_of_integers_and_names(device):
    a = np.array([1, 2, 30], np.int32)
    x = weft.asarray(a, device=device)
    assert weft.acosh is weft.arccosh and weft.asinh is weft.arcsinh and weft.atanh is weft.arctanh
    assert weft.bitwise_left_shift is weft.left_shift and weft.bitwise_right_shift is weft.right_shift
    r = weft.acosh(weft.asarray(a.astype(np.int16), device=device))
    assert r.dtype == np.float32  # NumPy's float16
    if device.fp64:
        assert _ulps(weft.asinh(x), np.arcsinh(a)) <= 2
    # NumPy's ufuncs on weft arrays stay weft arrays.
    assert isinstance(np.arcsinh(weft.asarray(a.astype(np.float32), device=device)), weft.Array)
    _same(np.left_shift(x, 2), np.left_shift(a, 2))
    _same(np.signbit(x), np.signbit(a))


@pytest.mark.parametrize("dtype", FLOATS)
def test_logaddexp_hypot_atan2(device, dtype):
    _need(device, dtype)
    rng = np.random.default_rng(5)
    a, b = np.meshgrid(_edges(dtype), _edges(dtype))
    a = np.concatenate([a.ravel(), (rng.normal(size=300) * 10).astype(dtype)])
    b = np.concatenate([b.ravel(), rng.normal(size=300).astype(dtype)])
    x, y = weft.asarray(a, device=device), weft.asarray(b, device=device)
    with np.errstate(all="ignore"):
        # NumPy's formula, max(a, b) + log1p(exp(-|a - b|)), cancels where the result is near 0:
        # there each term's last-place error counts in units of the larger term (the host, whose
        # math library is NumPy's, matches it bit for bit; PoCL's exp and log1p differ by 1 ulp).
        assert _ulps(weft.logaddexp(x, y), np.logaddexp(a, b), scale=np.maximum(a, b)) <= 2
        assert _ulps(weft.hypot(x, y), np.hypot(a, b)) <= 2
        assert _ulps(weft.arctan2(x, y), np.arctan2(a, b)) <= 2
    i = np.array([1, -5, 700], np.int32)
    if device.fp64:
        assert _ulps(weft.logaddexp(weft.asarray(i, device=device), 2), np.logaddexp(i, 2)) <= 2


# ---- NumPy's rules of the older functions ---------------------------------------------------------

@pytest.mark.parametrize("dtype", INTS)
def test_floor_divide_remainder_of_integers(device, dtype):
    a, b = np.meshgrid(_int_edges(dtype), _int_edges(dtype))
    a, b = a.ravel(), b.ravel()
    x, y = weft.asarray(a, device=device), weft.asarray(b, device=device)
    with np.errstate(all="ignore"):
        _same(x // y, a // b)
        _same(x % y, a % b)
        _same(weft.floor_divide(x, 3), np.floor_divide(a, dtype(3)))
        _same(weft.remainder(x, 3), np.remainder(a, dtype(3)))


@pytest.mark.parametrize("dtype", FLOATS)
def test_floor_divide_remainder_of_floats(device, dtype):
    _need(device, dtype)
    e = _edges(dtype)
    e = e[np.abs(e) != np.finfo(dtype).smallest_subnormal]  # NumPy's own fmod loop differs there
    a, b = np.meshgrid(e, e)
    a, b = a.ravel(), b.ravel()
    x, y = weft.asarray(a, device=device), weft.asarray(b, device=device)
    with np.errstate(all="ignore"):
        _same(x // y, a // b)
        _same(x % y, a % b)


@pytest.mark.parametrize("dtype", FLOATS)
def test_maximum_minimum_propagate_nan(device, dtype):
    _need(device, dtype)
    a, b = np.meshgrid(_edges(dtype), _edges(dtype))
    a, b = a.ravel(), b.ravel()
    x, y = weft.asarray(a, device=device), weft.asarray(b, device=device)
    for f in ("maximum", "minimum", "fmax", "fmin"):
        want = getattr(np, f)(a, b)
        got = getattr(weft, f)(x, y)
        g = got.get()
        np.testing.assert_array_equal(np.isnan(g), np.isnan(want), err_msg=f)
        np.testing.assert_array_equal(g[~np.isnan(want)], want[~np.isnan(want)], err_msg=f)


@pytest.mark.parametrize("dtype", FLOATS)
def test_round_trunc_floor_ceil(device, dtype):
    _need(device, dtype)
    big = 2.0 ** (np.finfo(dtype).nmant)  # from here on every float is an integer
    a = np.concatenate([_edges(dtype), np.array([2.5, 3.5, -3.5, -0.5, 0.49999997, big - 0.5, big + 1, -big + 0.5],
                                                dtype)])
    x = weft.asarray(a, device=device)
    for f in ("round", "trunc", "floor", "ceil"):
        _same(getattr(weft, f)(x), getattr(np, f)(a))


@pytest.mark.parametrize("dtype", INTS + [np.bool_])
def test_rounding_and_predicates_of_integers(device, dtype):
    a = np.array([True, False]) if dtype == np.bool_ else _int_edges(dtype)
    x = weft.asarray(a, device=device)
    for f in ("isfinite", "isinf", "isnan"):
        _same(getattr(weft, f)(x), getattr(np, f)(a))
    if dtype != np.bool_:
        for f in ("round", "trunc", "floor", "ceil"):
            _same(getattr(weft, f)(x), getattr(np, f)(a))


def test_fused_with_the_rest(device):
    """The new functions are nodes of one lazy expression like the others: one kernel."""
    a = np.linspace(1.5, 9, 16).astype(np.float32)
    i = np.arange(16, dtype=np.int32)
    x, n = weft.asarray(a, device=device), weft.asarray(i, device=device)
    want = np.copysign(np.arccosh(a) + np.logaddexp(a, -a), np.sign(a - 5)) + ((i << 2) >> 1).astype(np.float32)

    def launches() -> int:
        before = weft.elementwise_launches(device)
        r = weft.copysign(weft.acosh(x) + weft.logaddexp(x, -x), weft.sign(x - 5)) + ((n << 2) >> 1).astype(np.float32)
        np.testing.assert_allclose(r.get(), want, rtol=4e-7)
        return weft.elementwise_launches(device) - before

    # One kernel. On the host the first result of a new expression may instead be taken one
    # already-built operation at a time (one launch for each of its 11 operations) while that
    # kernel compiles in the background; once it is in, the expression is one launch.
    first = launches()
    assert first == 1 or (device.backend == "host" and first == 11)
    deadline = time.monotonic() + 120
    while (count := launches()) != 1 and time.monotonic() < deadline:
        assert count == 11
        time.sleep(0.05)
    assert count == 1


# ---- Hypothesis ---------------------------------------------------------------------------------

try:
    from hypothesis import given, settings, strategies as st
    from hypothesis.extra import numpy as hnp
except ImportError:  # the seeded cases above always run
    given = None

if given is not None:
    _DEVICES = weft.devices()
    _EXACT2 = {"copysign": np.copysign, "nextafter": np.nextafter}
    _ULP2 = {"logaddexp": np.logaddexp}
    _ULP1 = {"arcsinh": np.arcsinh, "arccosh": np.arccosh, "arctanh": np.arctanh}
    _EXACT1 = {"sign": np.sign, "signbit": np.signbit, "positive": np.positive, "round": np.round,
               "trunc": np.trunc}

    @settings(max_examples=30, deadline=None)
    @given(dtype=st.sampled_from(INTS), data=st.data(), dev=st.integers(0, 8))
    def test_hypothesis_shifts(dtype, data, dev):
        device = _DEVICES[dev % len(_DEVICES)]
        shape = data.draw(hnp.array_shapes(max_dims=2, max_side=8))
        a = data.draw(hnp.arrays(dtype, shape))
        c = data.draw(hnp.arrays(dtype, shape, elements=hnp.from_dtype(np.dtype(dtype))))
        x, n = weft.asarray(a, device=device), weft.asarray(c, device=device)
        _same(x << n, np.left_shift(a, c))
        _same(x >> n, np.right_shift(a, c))

    @settings(max_examples=40, deadline=None)
    @given(dtype=st.sampled_from(FLOATS), name=st.sampled_from(sorted({**_EXACT2, **_ULP2, **_ULP1, **_EXACT1})),
           data=st.data(), dev=st.integers(0, 8))
    def test_hypothesis_float_functions(dtype, name, data, dev):
        device = _DEVICES[dev % len(_DEVICES)]
        if np.dtype(dtype) == np.float64 and not device.fp64:
            return
        shape = data.draw(hnp.array_shapes(max_dims=2, max_side=8))
        a = data.draw(hnp.arrays(dtype, shape))
        x = weft.asarray(a, device=device)
        with np.errstate(all="ignore"):
            if name in _EXACT2 or name in _ULP2:
                b = data.draw(hnp.arrays(dtype, shape))
                want = {**_EXACT2, **_ULP2}[name](a, b)
                got = getattr(weft, name)(x, weft.asarray(b, device=device))
            else:
                want = {**_ULP1, **_EXACT1}[name](a)
                got = getattr(weft, name)(x)
        if name in _EXACT2 or name in _EXACT1:
            _same(got, want, nan_sign=name in ("copysign", "sign", "positive"))
        else:
            assert _ulps(got, want, scale=np.maximum(a, b) if name == "logaddexp" else None) <= 2, name
