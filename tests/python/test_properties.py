"""Seeded, randomized property tests: weft arrays against NumPy itself, for arithmetic and
promotion (reductions and indexing: test_properties_reductions.py).

Each case draws, from its own seed (numpy.random.default_rng), random shapes (0 to 4
dimensions, extents 0 to 5), arrays of every dtype weft holds made non-contiguous with weft's
own indexing (transposes, steps, negative steps, integer indices, None), and a random
expression tree over operators, comparisons, bitwise operators, where, minimum/maximum,
clip and NumPy ufuncs (dispatched to the device by __array_ufunc__), with Python scalars
(NEP 50). NumPy evaluates the same tree node by node; weft evaluates it lazily as one fused
kernel. The result's dtype must equal NumPy's exactly, integers and bools must be equal, and
floats equal within an error bound carried through the tree (exact where every operation is
exact, so that comparisons, floors and divisions are only applied where the two can agree).
The arrays are made in random_arrays.py, the trees in random_expressions.py.

A failure names the seed, the expression, how each array was made, and the smallest failing
subexpression. To rerun some cases: WEFT_PROPERTY_SEEDS=1234,5678 (they run in the first
group of each test); WEFT_PROPERTY_SCALE=4 runs four times as many cases, and
WEFT_PROPERTY_SEED_BASE=n other ones.

Known differences from NumPy are not drawn by the random tests (see `_known_bug`); each has
an isolated strict xfail test below, so that a fix shows and its exclusion can be lifted.
Differences weft has since fixed are plain regression tests at the end (test_fixed_*).
"""
import numpy as np
import pytest

import weft

from random_arrays import EPS, INT_DTYPES, POW_REL, _seeds, _w
from random_expressions import Case, _check


# ---------------------------------------------------------------------------------------------
# The random tests.


@pytest.mark.parametrize("group", range(6))
def test_random_expressions(device, group):
    for seed in _seeds(group, 5, 1000):
        case = Case(seed, device)
        root = None
        while root is None:
            root = case.expr(int(case.rng.integers(1, 5)), root=True)
        _check(case, root)


# ---------------------------------------------------------------------------------------------
# NumPy's edge semantics, every pair of edge values (one kernel per dtype: the operations
# are stacked along a leading axis with where).


INT_OPS = ("//", "%", "+", "-", "*", "min", "max", "**")


def _stacked(ops, a, b, sel, b_pow=None):
    """where(sel == 0, op0(a, b), where(sel == 1, op1(a, b), ...)): works on NumPy and weft
    (b_pow: the exponents of **, if not b)."""
    def one(o):
        if o == "min":
            return np.minimum(a, b)
        if o == "max":
            return np.maximum(a, b)
        if o == "**":
            return a ** (b if b_pow is None else b_pow)
        return eval(f"a {o} b")  # noqa: S307  (a fixed operator)
    out = one(ops[-1])
    for i in range(len(ops) - 2, -1, -1):
        out = np.where(sel == i, one(ops[i]), out)
    return out


@pytest.mark.parametrize("dt", [d.name for d in INT_DTYPES])
def test_integer_edges(device, dt):
    """Floor division and remainder with negative operands and zero divisors (NumPy: 0),
    INT_MIN // -1, wrap-around of + - * **, minimum and maximum, on all pairs of edge values."""
    dt = np.dtype(dt)
    ii = np.iinfo(dt)
    vals = sorted({ii.min, ii.min + 1, ii.max, ii.max - 1, 0, 1, 2, 3, 7} | ({-1, -2, -3, -7} if ii.min else set()))
    m, k = len(vals), len(INT_OPS)
    # Whole contiguous operands (few kernel parameters: test_known_host_many_leaves).
    a = np.broadcast_to(np.array(vals, dtype=dt)[None, :, None], (k, m, m)).copy()
    b = np.broadcast_to(np.array(vals, dtype=dt)[None, None, :], (k, m, m)).copy()
    b_pow = np.where(b < 0, ~b, b)  # -b - 1 for negative b: NumPy refuses negative powers
    sel = np.broadcast_to(np.arange(k)[:, None, None], (k, m, m)).copy()
    with np.errstate(all="ignore"):
        want = _stacked(INT_OPS, a, b, sel, b_pow)
    wa, wb, wp, wsel = (weft.asarray(v, device=device) for v in (a, b, b_pow, sel))
    g = _stacked(INT_OPS, wa, wb, wsel, wp).get()
    for i, o in enumerate(INT_OPS):
        np.testing.assert_array_equal(g[i], want[i], strict=True,
                                      err_msg=f"{dt} a {o} b, a = {vals} (rows), b = columns"
                                      + (" (b < 0 as -b - 1)" if o == "**" else ""))


FLOAT_OPS = ("//", "%", "+", "-", "*", "/", "min", "max", "**")


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_float_edges(device, dt):
    """NaN and infinity propagation through arithmetic, floor division, remainder, power and
    minimum/maximum (NaN wins); the sign of zeros from floor division and remainder."""
    dt = np.dtype(dt)
    vals = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 3.0, -0.75, 7.0, 1e30]
    m, k = len(vals), len(FLOAT_OPS)
    a = np.broadcast_to(np.array(vals, dtype=dt)[None, :, None], (k, m, m)).copy()
    b = np.broadcast_to(np.array(vals, dtype=dt)[None, None, :], (k, m, m)).copy()
    sel = np.broadcast_to(np.arange(k)[:, None, None], (k, m, m)).copy()
    with np.errstate(all="ignore"):
        want = _stacked(FLOAT_OPS, a, b, sel)
    wa, wb = weft.asarray(a, device=device), weft.asarray(b, device=device)
    got = _stacked(FLOAT_OPS, wa, wb, weft.asarray(sel, device=device))
    g = got.get()
    assert g.dtype == want.dtype
    for i, o in enumerate(FLOAT_OPS):
        rtol = {"/": 4 * EPS[dt], "**": POW_REL[dt]}.get(o, 0)
        np.testing.assert_allclose(g[i], want[i], rtol=rtol, atol=0, equal_nan=True,
                                   err_msg=f"{dt} a {o} b, a = {vals} (rows), b = columns")
    for o in ("//", "%"):
        i = FLOAT_OPS.index(o)
        numbers = ~np.isnan(want[i])
        np.testing.assert_array_equal(np.signbit(g[i])[numbers], np.signbit(want[i])[numbers],
                                      err_msg=f"{dt} the sign of a {o} b (zeros), a = {vals} (rows), b = columns")


# ---------------------------------------------------------------------------------------------
# Known differences from NumPy, each isolated (the random tests do not draw them; see
# _known_bug). strict: a fix makes these fail, so the exclusion can be lifted.


def test_fixed_int_negative_power_array_raises(device):
    """An integer array to the power of an integer array holding a negative value is refused
    when the power is written, as NumPy's ValueError (weft reduces the exponent once to know);
    non-negative exponent arrays, unsigned ones and float ones compute."""
    w, u = _w(device, np.array([2, 3], np.int32), np.array([2, 3], np.uint8))
    with pytest.raises(ValueError, match="negative integer powers"):
        w ** -w
    with pytest.raises(ValueError, match="negative integer powers"):
        w ** (w - 3)  # a lazy exponent: its values are computed to check them
    np.testing.assert_array_equal((w ** w).get(), np.array([4, 27]))
    np.testing.assert_array_equal((w ** u).get(), np.array([4, 27]))
    np.testing.assert_allclose((w ** -w.astype(np.float64)).get(), np.array([2.0 ** -2, 3.0 ** -3]))


def test_int_negative_number_power_raises(device):
    """A negative integer exponent given as a number is refused at once, as NumPy does."""
    (w,) = _w(device, np.array([2, 3], np.int32))
    with pytest.raises(ValueError, match="negative integer powers"):
        w ** -1
    assert (w ** -1.0).dtype == np.float64


# ---------------------------------------------------------------------------------------------
# Differences this file found that weft has since fixed: kept as plain regression tests.


def test_fixed_bool_arithmetic(device):
    """Was: bool + bool stores 2 in a bool array, and bool // % ** bool are bool (NumPy: logical
    or; int8)."""
    h = np.array([True, True])
    (w,) = _w(device, h)
    assert (w // w).dtype == (h // h).dtype == np.int8
    assert (w % w).dtype == (w ** w).dtype == np.int8
    np.testing.assert_array_equal(((w + w) == w).get(), (h + h) == h)  # [True, True]


def test_fixed_python_bool_scalar(device):
    """Was: a Python bool with a bool array is taken as an int (int64 result); NumPy: bool."""
    h = np.array([True, False])
    (w,) = _w(device, h)
    assert (w & True).dtype == (h & True).dtype == np.bool_
    assert (w + False).dtype == np.bool_


def test_fixed_numpy_scalars_are_strong(device):
    """Was: NumPy scalars are weak in weft; NEP 50 makes them strong: int8 + np.int64 is int64,
    float32 + np.float64 float64, int16 + np.float32 float32."""
    i8, f32, i16 = _w(device, np.array([1], np.int8), np.array([1], np.float32), np.array([1], np.int16))
    assert (i8 + np.int64(3)).dtype == np.int64
    assert (f32 + np.float64(3)).dtype == np.float64
    assert (i16 + np.float32(3)).dtype == np.float32


def test_numpy_scalar_types_remembered_keep_value_and_dtype(device):
    """Each NumPy scalar type's dtype is remembered after its first use (the operand conversion's
    fast path): later values of the same type, a Python subclass of one, and every dtype keep
    NEP 50's result types and their exact values."""
    h = np.array([1.5, -2.25, 3.0], np.float32)
    (w,) = _w(device, h)
    for _ in range(2):  # the first use learns the type, the second takes the remembered dtype
        for s in (np.float32(0.1), np.float16(0.1), np.float64(0.1), np.int8(-3), np.uint16(7),
                  np.int64(2**40 + 1), np.bool_(True)):
            want = h * s
            got = w * s
            assert got.dtype == want.dtype, (type(s).__name__, got.dtype, want.dtype)
            np.testing.assert_array_equal(got.get(), want)

    class MyFloat(np.float64):  # a heap type: not remembered, still a strong float64
        pass
    assert (w + MyFloat(0.5)).dtype == np.float64
    np.testing.assert_array_equal((w + MyFloat(0.5)).get(), h + np.float64(0.5))


def test_fixed_python_int_out_of_range_compare(device):
    """Was: comparisons and logical_and/or/xor with a Python int outside the array's dtype wrap the
    int; NumPy 2 uses its value."""
    h = np.array([0, 200, 255], np.uint8)
    (w,) = _w(device, h)
    np.testing.assert_array_equal((w == -1).get(), h == -1)  # all False
    np.testing.assert_array_equal((w < 300).get(), h < 300)  # all True
    np.testing.assert_array_equal(np.logical_and(w, 256).get(), np.logical_and(h, 256))  # [False, True, True]


def test_fixed_python_int_beyond_int64(device):
    """Was: a Python int above 2**63-1 becomes a float64; NumPy: uint64 arithmetic."""
    h = np.array([2, 3], np.uint64)
    (w,) = _w(device, h)
    r = w + (2**64 - 1)
    assert r.dtype == np.uint64
    np.testing.assert_array_equal(r.get(), h + (2**64 - 1))


def test_fixed_python_int_out_of_range_raises(device):
    """Was: an out-of-range Python int does not raise OverflowError (NEP 50): int8 + 300 wraps."""
    (w,) = _w(device, np.array([1], np.int8))
    with pytest.raises(OverflowError):
        w + 300


def test_fixed_bool_subtract_raises(device):
    """Was: bool - bool and -bool compute; NumPy raises TypeError."""
    (w,) = _w(device, np.array([True, False]))
    with pytest.raises(TypeError):
        w - w
    with pytest.raises(TypeError):
        -w


def test_fixed_int64_uint64_comparison(device):
    """Was: int64 vs uint64 comparisons go through float64; NumPy 2 compares exactly."""
    a, b = np.array([2**53 + 1, 2**63 - 1], np.int64), np.array([2**53, 2**63], np.uint64)
    wa, wb = _w(device, a, b)
    np.testing.assert_array_equal((wa > wb).get(), a > b)  # [True, False]
    np.testing.assert_array_equal((wa == wb).get(), a == b)  # [False, False]


def test_fixed_ufunc_dtypes(device):
    """Was: np.fabs, np.rint, np.reciprocal of integers and np.square of bools: dtypes unlike
    NumPy's (fabs, rint: float64; reciprocal: the integer type; square: int8)."""
    h, b = np.array([1, -2], np.int32), np.array([True, False])
    w, wb = _w(device, h, b)
    assert np.fabs(w).dtype == np.fabs(h).dtype == np.float64
    assert np.rint(w).dtype == np.rint(h).dtype == np.float64
    assert np.reciprocal(w).dtype == np.reciprocal(h).dtype == np.int32
    assert np.square(wb).dtype == np.square(b).dtype == np.int8


def test_fixed_where_scalars_weak(device):
    """Was: where(c, 3, 4) (two Python numbers) stays weak: + an int8 array gives int8 (NumPy:
    int64), + float32 gives float32 (NumPy: float64)."""
    c, x, f = _w(device, np.array([True, False]), np.array([1, 2], np.int8), np.array([1, 2], np.float32))
    assert np.where(c, 3, 4).dtype == np.int64
    assert (np.where(c, 3, 4) + x).dtype == np.int64
    assert (np.where(c, 1.5, 2.5) + f).dtype == np.float64


def test_fixed_narrow_neg_abs_unwrapped(device):
    """Was: -x and abs(x) of int8/uint8/int16/uint16 are not wrapped to their type when a wider
    operation or a reduction uses them (C's integer promotion)."""
    u8, i16, i8 = np.array([1], np.uint8), np.array([-3], np.int16), np.array([-128], np.int8)
    wu8, wi16, wi8 = _w(device, u8, i16, i8)
    np.testing.assert_array_equal(((-wu8) * wi16).get(), (-u8) * i16)  # uint8 255 * -3 = -765; weft 3
    np.testing.assert_array_equal((abs(wi8) + 0.5).get(), abs(i8) + 0.5)  # -127.5; weft 128.5
    assert (-wu8).sum().item() == (-u8).sum() == 255  # weft 2**64 - 1


def test_fixed_clip_scalar_first(device):
    """Was: np.clip(python_number, lo, hi) takes the number as weak; NumPy converts it to an
    int64/float64 array first."""
    lo, hi = np.array([1, 7], np.uint32), np.array([2, 2], np.int16)
    wlo, whi = _w(device, lo, hi)
    r = np.clip(-100, wlo, whi)
    assert r.dtype == np.clip(-100, lo, hi).dtype == np.int64
    np.testing.assert_array_equal(r.get(), np.clip(-100, lo, hi))  # [1, 2]


def test_fixed_clip_out_of_range_bound(device):
    """Was: np.clip(int8, -2**63, 0.0): weft converts the int bound to int8 first (wrapping it to
    0); NumPy clips in the common type, float64."""
    h = np.array([-127], np.int8)
    (w,) = _w(device, h)
    np.testing.assert_array_equal(np.clip(w, -(2**63), 0.0).get(), np.clip(h, -(2**63), 0.0))  # [-127.0]; weft 0


def test_fixed_small_int_true_divide(device):
    """Was: true division of int8/uint8/int16/uint16/bool gave float32; NumPy float64."""
    for dt in ("int8", "uint8", "int16", "uint16", "bool"):
        h = np.array([1, 3], dtype=dt)
        (w,) = _w(device, h)
        assert (w / w).dtype == (h / h).dtype == np.float64, dt


def test_fixed_float_remainder_zero_sign(device):
    """Was: float remainder with a zero result took the dividend's sign; NumPy the divisor's
    (2.0 % -1.0 is -0.0)."""
    a, b = np.array([2.0, -2.0]), np.array([-1.0, 1.0])
    wa, wb = _w(device, a, b)
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal((1 / (wa % wb)).get(), 1 / (a % b))  # [-inf, inf]


def test_fixed_where_float_condition(device):
    """Was: OpenCL C refuses a floating-point condition in ?: (the generated where): 'used type
    double where floating point type is not allowed'."""
    h = np.array([0.0, 1.5, np.nan])
    a, b = _w(device, h, np.array([1, 2, 3], np.int32))
    np.testing.assert_array_equal(weft.where(a, b, 0).get(), np.where(h, [1, 2, 3], 0))  # [0, 2, 3]
    np.testing.assert_array_equal(weft.where(1.5, b, 0).get(), [1, 2, 3])


def test_fixed_abs_int_min(device):
    """Was: abs(INT_MIN) computed as -x in C, undefined there: PoCL's compiler took abs(x) >= 0
    and floored 5 // abs(INT_MIN) (NumPy: 5 // INT_MIN = -1) to 0. Integers now negate in
    their unsigned type."""
    for dt in ("int32", "int64"):
        a, b = np.array([np.iinfo(dt).min, -3], dt), np.array([5, 5], dt)
        wa, wb = _w(device, a, b)
        np.testing.assert_array_equal((wb // abs(wa)).get(), b // abs(a), err_msg=dt)  # [-1, 1]


def test_fixed_python_int_beyond_64_bits(device):
    """Was: a Python int beyond 64 bits became a float64 with any array; NumPy refuses it with an
    integer array (OverflowError), uses it as a float beside floats and compares by value."""
    i, f = _w(device, np.array([1, 2], np.int64), np.array([1.0]))
    with pytest.raises(OverflowError):
        i + 2**70
    with pytest.raises(OverflowError):
        np.multiply(i, -(2**65))
    np.testing.assert_array_equal((i < 2**70).get(), [True, True])
    np.testing.assert_array_equal((f + 2**70).get(), np.array([1.0]) + 2**70)
