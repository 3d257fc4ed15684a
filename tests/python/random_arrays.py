"""The values and arrays of the property tests (test_properties.py,
test_properties_reductions.py): the seeds of each group of cases (WEFT_PROPERTY_SEEDS,
WEFT_PROPERTY_SCALE, WEFT_PROPERTY_SEED_BASE), the dtypes and the error bounds, random values of
every dtype with their edges, arrays made the same way in NumPy and in weft (non-contiguous
through weft's own indexing), and the node that holds a value of both."""
import math
import os

import numpy as np

import weft

SEED_BASE = int(os.environ.get("WEFT_PROPERTY_SEED_BASE", "7000000"))
SCALE = int(os.environ.get("WEFT_PROPERTY_SCALE", "1"))
_FORCED = [int(s) for s in os.environ.get("WEFT_PROPERTY_SEEDS", "").split(",") if s.strip()]

INT_DTYPES = [np.dtype(t) for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")]
FLOAT_DTYPES = [np.dtype("float32"), np.dtype("float64")]
DTYPES = [np.dtype(bool)] + INT_DTYPES + FLOAT_DTYPES

# Error bounds, relative to the result, per operation: arithmetic that rounds (a fused
# multiply-add may round once less than NumPy), and library functions (NumPy's and the
# device's each within a few ulp of the true value).
EPS = {np.dtype("float32"): float(np.finfo(np.float32).eps), np.dtype("float64"): float(np.finfo(np.float64).eps)}
ARITH_ULPS = 4
FUNC_REL = {np.dtype("float32"): 4e-6, np.dtype("float64"): 1e-13}
POW_REL = {np.dtype("float32"): 1e-5, np.dtype("float64"): 1e-13}

PY_INTS = [0, 1, 2, 3, 5, 7, -1, -2, -3, 100, -100, 127, 255, 1000, 40000, -40000, 2**31 - 1, 2**40, -(2**63)]
PY_FLOATS = [0.5, -1.5, 2.0, 0.0, -0.0, 3.25, -0.75, 1e10, math.inf, -math.inf, math.nan]


def _seeds(group, per_group, stride):
    if _FORCED:
        return _FORCED if group == 0 else []
    return [SEED_BASE + stride * group + k for k in range(per_group * SCALE)]


# ---------------------------------------------------------------------------------------------
# Values and arrays.


def _iinfo_list(dt):
    ii = np.iinfo(dt)
    vals = {ii.min, ii.min + 1, ii.max, ii.max - 1, 0, 1, 2}
    if ii.min < 0:
        vals |= {-1, -2}
    return sorted(vals)


def _values(rng, dt, shape, tame=False):
    """Random values of dtype dt: for integers small ones, the whole range and the extremes
    (overflow); for floats exact small dyadic numbers, random normals, whole numbers and the
    special values (NaN, infinities, signed zeros, large). tame: small floats only (for
    reductions, whose float accumulation order NumPy leaves open)."""
    n = int(np.prod(shape, dtype=np.int64))
    if dt == np.bool_:
        return rng.random(n).reshape(shape) < 0.5
    if dt.kind in "iu":
        ii = np.iinfo(dt)
        small = rng.integers(max(ii.min, -6), min(ii.max, 6), n, endpoint=True)
        full = rng.integers(ii.min, ii.max, n, endpoint=True, dtype=dt)
        edge = rng.choice(np.array(_iinfo_list(dt), dtype=dt), n)
        pick = rng.choice(3, n, p=[0.5, 0.25, 0.25])
        out = np.where(pick == 0, small.astype(dt), np.where(pick == 1, full, edge))
        return out.astype(dt).reshape(shape)
    if tame:
        vals = np.array([0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.0, -2.0, 0.75, -1.25, -0.0])
        out = rng.choice(vals, n)
        special = rng.random(n) < 0.04
        out = np.where(special, rng.choice(np.array([np.nan, np.inf, -np.inf]), n), out)
        return out.astype(dt).reshape(shape)
    big = 1e20 if dt == np.float32 else 1e200
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, big, -big])
    dyadic = rng.integers(-24, 24, n, endpoint=True) / 4.0
    normal = rng.standard_normal(n) * 3.0
    whole = rng.integers(-1000, 1000, n).astype(np.float64)
    pick = rng.choice(4, n, p=[0.55, 0.2, 0.1, 0.15])
    out = np.where(pick == 0, dyadic, np.where(pick == 1, normal, np.where(pick == 2, whole, rng.choice(specials, n))))
    return out.astype(dt).reshape(shape)


class Leaf:
    """An array made the same way in NumPy and in weft: data uploaded once, then viewed
    (transpose, slices with steps, an integer index, None) by weft's own indexing."""

    def __init__(self, name, rng, device, shape, dt, tame=False):
        key, base_shape = [], []
        for ext in shape:
            if ext == 1 and rng.random() < 0.2:
                key.append(None)
                continue
            step = int(rng.choice([1, 2, 3, -1, -2])) if rng.random() < 0.6 else 1
            if ext == 0:
                m = int(rng.integers(0, 3))
                s = int(rng.integers(0, m + 1))
                key.append(slice(s, s, step))
                base_shape.append(m)
                continue
            span = (ext - 1) * abs(step) + 1
            lo, hi = int(rng.integers(0, 2)), int(rng.integers(0, 2))
            base_shape.append(span + lo + hi)
            if step > 0:
                key.append(slice(lo, lo + span, step))
            else:
                start = lo + span - 1
                key.append(slice(start, start - span if start - span >= 0 else None, step))
        if rng.random() < 0.25:  # an extra axis taken away by an integer index
            pos = int(rng.integers(0, len(key) + 1))
            ext = int(rng.integers(1, 4))
            key.insert(pos, int(rng.integers(-ext, ext)))
            base_shape.insert(sum(1 for k in key[:pos] if k is not None), ext)
        nd = len(base_shape)
        perm = [int(p) for p in rng.permutation(nd)] if nd > 1 and rng.random() < 0.4 else list(range(nd))
        inv = [int(i) for i in np.argsort(perm)]
        stored = _values(rng, dt, tuple(base_shape[p] for p in perm), tame)
        self.name, self.data, self.perm, self.key = name, stored, inv, tuple(key)
        np_view = stored.transpose(inv)[self.key]
        self.n = np.asarray(np_view)
        w = weft.asarray(stored, device=device)
        if inv != list(range(nd)):
            w = w.transpose(*inv)
        # A key of one item is also given bare (a[None], a[2], a[::-1]), as users write it.
        self.w = w[self.key[0]] if len(self.key) == 1 and rng.random() < 0.5 else w[self.key]
        assert self.w.shape == self.n.shape == tuple(shape), (
            f"indexing made shape {self.w.shape}, NumPy {self.n.shape} (wanted {shape}) for {self.recipe()}")
        assert self.w.dtype == dt

    def recipe(self):
        t = f".transpose{tuple(self.perm)}" if self.perm != list(range(len(self.perm))) else ""
        data = np.array2string(self.data, separator=", ", threshold=10_000, max_line_width=10_000)
        return (f"{self.name} = weft.asarray(np.array({data}, dtype=np.{self.data.dtype}).reshape({self.data.shape}))"
                f"{t}[{_key_src(self.key)}]")


def _key_src(key):
    parts = []
    for k in key:
        if k is None:
            parts.append("None")
        elif isinstance(k, slice):
            parts.append(f"{'' if k.start is None else k.start}:{'' if k.stop is None else k.stop}:{k.step}")
        else:
            parts.append(str(k))
    if not parts:
        return "()"
    return ", ".join(parts) + ("," if len(parts) == 1 else "")


# ---------------------------------------------------------------------------------------------
# Expression nodes: NumPy's value, weft's (lazy) value, and what may be done with them.


class Node:
    """n: NumPy's value (an ndarray; a Python number for a scalar); w: weft's; src: the
    expression; exact: weft must give the same bits (up to the sign of zero); zs: the sign of
    a zero is the same in both; err: elementwise bound of |weft - NumPy| (float results)."""

    __slots__ = ("n", "w", "src", "exact", "zs", "err", "kids", "scalar", "weak", "op")

    def __init__(self, n, w, src, exact=True, zs=True, err=None, kids=(), scalar=False, weak=False):
        self.n, self.w, self.src, self.exact, self.zs = n, w, src, exact, zs
        self.err, self.kids, self.scalar, self.weak = err, tuple(kids), scalar, weak
        self.op = None  # the name of the operation that made it

    @property
    def dtype(self):
        """The dtype of an array node; for a scalar, its Python type."""
        return type(self.n) if self.scalar else self.n.dtype

    @property
    def kind(self):
        if self.scalar:
            return {bool: "b", int: "i", float: "f"}[type(self.n)]
        return self.n.dtype.kind

    def error(self):
        if self.err is None:
            return 0.0
        return self.err


def _abs64(x):
    return np.abs(np.asarray(x).astype(np.float64))


def _finite_abs(x):
    a = _abs64(x)
    return np.where(np.isfinite(a), a, 0.0)


def _w(device, *arrays):
    return [weft.asarray(np.asarray(a), device=device) for a in arrays]
