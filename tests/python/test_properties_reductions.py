"""Seeded, randomized property tests of reductions against NumPy (sum, prod, min, max, mean,
any, all over random expressions, with random axes and keepdims, checked as test_properties.py
checks expressions), and the regression tests of reductions, indexing and many views in one
expression that the random tests found (test_fixed_*)."""
import warnings

import numpy as np
import pytest

import weft

from random_arrays import EPS, Node, _finite_abs, _seeds, _w
from random_expressions import Case, _check


REDUCTIONS = ("sum", "prod", "min", "max", "mean", "any", "all")


def _eps_of(dt):
    return EPS.get(np.dtype(dt), 0.0)


@pytest.mark.parametrize("group", range(4))
def test_random_reductions(device, group):
    for seed in _seeds(group, 3, 1000):
        case = Case(seed + 500, device, max_leaves=2, tame=True)
        rng = case.rng
        what = REDUCTIONS[int(rng.integers(len(REDUCTIONS)))]
        if rng.random() < 0.5:
            x = case.leaf()
        else:
            x = case.expr(int(rng.integers(1, 3)), root=True) or case.leaf()
            if not x.exact and what in ("prod", "any", "all"):
                x = case.leaf()
        xn = np.asarray(x.n)
        nd = xn.ndim
        r = rng.random()
        if r < 0.3 or nd == 0:
            axis = None if nd or r < 0.8 else ()
        elif r < 0.6:
            axis = int(rng.integers(-nd, nd))
        else:
            k = int(rng.integers(0, nd + 1))  # () too: no axis reduced
            axis = tuple(int(a) - (nd if rng.random() < 0.3 else 0) for a in rng.permutation(nd)[:k])
        keepdims = bool(rng.random() < 0.4)
        call = "method" if rng.random() < 0.5 else "np"
        fn = (lambda v: getattr(v, what)(axis=axis, keepdims=keepdims)) if call == "method" else (
            lambda v: getattr(np, what)(v, axis=axis, keepdims=keepdims))
        src = (f"({x.src}).{what}(axis={axis!r}, keepdims={keepdims})" if call == "method"
               else f"np.{what}({x.src}, axis={axis!r}, keepdims={keepdims})")
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                want = np.asarray(fn(xn))
            except ValueError:  # min/max of nothing: weft must refuse it too
                try:
                    fn(x.w).get()
                except ValueError:
                    continue
                pytest.fail(f"seed={case.seed} device={device.selector}: {src} gave a value; NumPy raises "
                            f"ValueError\narrays:\n{case.describe()}", pytrace=False)
        if what == "prod" and want.dtype.kind == "f":
            # Whether a float product overflows on the way (and then inf * 0 gives NaN) depends
            # on the order of the multiplications, which NumPy leaves to its loop and weft to
            # its grid: such products are not compared.
            with np.errstate(all="ignore"):
                nonzero = np.where(xn == 0, 1, np.abs(xn)).astype(np.longdouble)
                if np.any(np.prod(nonzero, axis=axis, keepdims=keepdims) > np.finfo(want.dtype).max):
                    continue
        try:
            got = fn(x.w)
        except Exception as e:  # noqa: BLE001
            pytest.fail(f"seed={case.seed} device={device.selector} reduction: {src} raised {e!r}\n"
                        f"arrays:\n{case.describe()}", pytrace=False)
        if not isinstance(got, weft.Array):
            pytest.fail(f"seed={case.seed}: {src} gave {type(got).__name__}, not a weft.Array", pytrace=False)
        # The error bound: the operand's, gathered along the reduced axes, plus the
        # accumulation's rounding, which grows with the number of elements reduced.
        count = xn.size // max(want.size, 1) if xn.size else 0
        err = None
        if want.dtype.kind == "f":
            xe = np.broadcast_to(x.error(), xn.shape) if x.err is not None else np.zeros(xn.shape)
            mag = _finite_abs(xn)
            with np.errstate(all="ignore"):
                if what in ("sum", "mean"):
                    scale = 1.0 / max(count, 1) if what == "mean" else 1.0
                    rnd = (count + 2) * max(_eps_of(want.dtype), _eps_of(xn.dtype)) * np.sum(
                        mag, axis=axis, keepdims=keepdims)
                    err = (np.sum(xe, axis=axis, keepdims=keepdims) + rnd) * scale
                elif what == "prod":
                    err = (count + 2) * _eps_of(want.dtype) * _finite_abs(want)
                else:  # min, max
                    err = np.max(xe, axis=axis, keepdims=keepdims, initial=0.0) if xe.size else 0.0
            err = np.where(np.isfinite(want), np.broadcast_to(err, want.shape), 0.0)
        node = Node(want, got, src, err=err if err is not None and np.any(err) else None)
        _check(case, node, "reduction")


# ---------------------------------------------------------------------------------------------
# Differences the random tests found that weft has since fixed: kept as plain regression tests.


def test_fixed_full_mean_int64(device):
    """Was: mean over every axis of int64/uint64 summed in 64-bit integers, which wrap; NumPy
    sums in float64."""
    a = np.array([2**62, 2**62, 2**62, 3], np.int64)
    u = np.array([2**63, 2**63, 5], np.uint64)
    wa, wu = _w(device, a, u)
    np.testing.assert_allclose(wa.mean().get(), a.mean(), rtol=1e-12)  # 3.46e18; weft gave -1.15e18
    np.testing.assert_allclose(wu.mean().get(), u.mean(), rtol=1e-12)  # 6.15e18; weft gave 1.67


def test_fixed_reduce_empty_axis_tuple(device):
    """Was: axis=() reduced every axis; NumPy reduces none."""
    h = np.arange(6.0).reshape(2, 3)
    (w,) = _w(device, h)
    assert w.sum(axis=()).shape == h.sum(axis=()).shape == (2, 3)


def test_fixed_asarray_0d(device):
    """Was: weft.asarray of a 0-d array (or a Python number) had shape (1,); NumPy ()."""
    assert weft.asarray(np.array(5.0), device=device).shape == ()
    assert weft.asarray(5, device=device).shape == ()
    assert weft.asarray(np.array(5.0), device=device).sum(keepdims=True).shape == ()


def test_fixed_empty_negative_step_slice(device):
    """Was: a negative-step slice that selects nothing from an empty axis (or starts before
    it) raised 'as_strided: negative offset -1'."""
    w, v = _w(device, np.zeros(0), np.zeros(3))
    assert w[::-1].shape == (0,)
    assert v[-10::-1].shape == (0,)


def test_fixed_index_bare_none(device):
    """Was: a[None] raised TypeError (a[None, ...] and a[(None,)] worked)."""
    (w,) = _w(device, np.arange(3.0))
    assert w[None].shape == (1, 3)


def test_fixed_many_uses_of_one_view(device):
    """Was: every use of an array in a fused expression was a kernel parameter of its own: on the
    host backend (at most 64 parameters) 12 uses of one 3-d view failed to build. The same view
    is now one parameter, and a tree too large for one kernel is cut (tests/array)."""
    h = np.ones((4, 2, 3))
    (a,) = _w(device, h)
    a = a.transpose(1, 2, 0)
    x = a
    for _ in range(11):
        x = x + a
    np.testing.assert_array_equal(x.get(), np.full((2, 3, 4), 12.0))


def test_fixed_many_distinct_views(device):
    """Twenty distinct strided views in one expression: more parameters than one kernel takes on
    the host backend, so weft evaluates part of the tree first; the result is NumPy's."""
    base = np.arange(24 * 3 * 5, dtype=np.float64).reshape(24, 3, 5)
    (w,) = _w(device, base)
    got, want = w[0:4].transpose(2, 1, 0), base[0:4].transpose(2, 1, 0)
    for k in range(1, 20):
        got = got + w[k:k + 4].transpose(2, 1, 0) * (k + 1)
        want = want + base[k:k + 4].transpose(2, 1, 0) * (k + 1)
    np.testing.assert_array_equal(got.get(), want)


def test_fixed_signed_overflow_in_reduction(device):
    """Was: int32 a + a that wraps, summed: the generated C's signed overflow was undefined and
    PoCL's compiler widened the addition to 64 bits instead of wrapping it (-2920314784)."""
    h = np.array([-1460157392], np.int32)
    (w,) = _w(device, h)
    assert (w + w).sum().item() == (h + h).sum() == 1374652512
    np.testing.assert_array_equal((w + w).sum(axis=0).get(), (h + h).sum(axis=0))
