"""Seeded, randomized property tests: weft arrays against NumPy itself.

Each case draws, from its own seed (numpy.random.default_rng), random shapes (0 to 4
dimensions, extents 0 to 5), arrays of every dtype weft holds made non-contiguous with weft's
own indexing (transposes, steps, negative steps, integer indices, None), and a random
expression tree over operators, comparisons, bitwise operators, where, minimum/maximum,
clip and NumPy ufuncs (dispatched to the device by __array_ufunc__), with Python scalars
(NEP 50). NumPy evaluates the same tree node by node; weft evaluates it lazily as one fused
kernel. The result's dtype must equal NumPy's exactly, integers and bools must be equal, and
floats equal within an error bound carried through the tree (exact where every operation is
exact, so that comparisons, floors and divisions are only applied where the two can agree).
Reductions (sum, prod, min, max, mean, any, all) are checked the same way with random axes
and keepdims.

A failure names the seed, the expression, how each array was made, and the smallest failing
subexpression. To rerun some cases: WEFT_PROPERTY_SEEDS=1234,5678 (they run in the first
group of each test); WEFT_PROPERTY_SCALE=4 runs four times as many cases, and
WEFT_PROPERTY_SEED_BASE=n other ones.

Known differences from NumPy are not drawn by the random tests (see `_known_bug`); each has
an isolated strict xfail test below, so that a fix shows and its exclusion can be lifted.
Differences weft has since fixed are plain regression tests at the end (test_fixed_*).
"""
import math
import os
import warnings

import numpy as np
import pytest

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


class Op:
    """name, arity, f (the same callable on NumPy values and on weft arrays), fmt (source),
    cls: 'arith' (+ - *), 'div' (/), 'fdiv' (// %), 'pow', 'cmp', 'bit', 'logic', 'minmax',
    'func' (library functions), 'round' (floor ...), 'pred' (isnan ...), 'neg', 'abs',
    'invert', 'where', 'clip', 'square'."""

    def __init__(self, name, arity, f, fmt, cls):
        self.name, self.arity, self.f, self.fmt, self.cls = name, arity, f, fmt, cls


def _bin(sym, cls):
    return Op(sym, 2, eval(f"lambda a, b: a {sym} b"), "({} " + sym + " {})", cls)


def _uf(name, arity, cls):
    f = getattr(np, name)
    return Op(name, arity, f, f"np.{name}(" + ", ".join(["{}"] * arity) + ")", cls)


BINARY = ([_bin(s, "arith") for s in "+-*"] + [_bin("/", "div"), _bin("//", "fdiv"), _bin("%", "fdiv"),
          _bin("**", "pow")] + [_bin(s, "cmp") for s in ("<", "<=", ">", ">=", "==", "!=")]
          + [_bin(s, "bit") for s in "&|^"]
          + [_uf(n, 2, "minmax") for n in ("minimum", "maximum", "fmin", "fmax")]
          + [_uf(n, 2, "logic") for n in ("logical_and", "logical_or", "logical_xor")]
          + [_uf("arctan2", 2, "func"), _uf("hypot", 2, "func")])
UNARY = ([Op("neg", 1, lambda a: -a, "(-{})", "neg"), Op("abs", 1, abs, "abs({})", "abs"),
          Op("invert", 1, lambda a: ~a, "(~{})", "invert"), _uf("logical_not", 1, "logic"),
          _uf("square", 1, "square"), _uf("fabs", 1, "abs"), _uf("reciprocal", 1, "div")]
         + [_uf(n, 1, "func") for n in ("sin", "cos", "tan", "exp", "exp2", "expm1", "log", "log2", "log10",
                                        "log1p", "sqrt", "cbrt", "arcsin", "arccos", "arctan", "sinh", "cosh",
                                        "tanh")]
         + [_uf(n, 1, "round") for n in ("floor", "ceil", "trunc", "rint")]
         + [_uf(n, 1, "pred") for n in ("isnan", "isinf", "isfinite")])
# How often each operation is drawn (arithmetic most).
_WEIGHT = {"+": 3, "-": 3, "*": 3, "/": 2, "//": 2, "%": 2, "**": 1.5, "neg": 2, "abs": 1.5, "square": 1,
           "invert": 1}
_CLASS_WEIGHT = {"cmp": 0.7, "bit": 0.8, "minmax": 0.8, "logic": 0.4, "func": 0.4, "round": 0.5, "pred": 0.4}


def _weights(ops):
    w = np.array([_WEIGHT.get(o.name, _CLASS_WEIGHT.get(o.cls, 0.5)) for o in ops])
    return w / w.sum()


BINARY_P, UNARY_P = _weights(BINARY), _weights(UNARY)
WHERE = Op("where", 3, np.where, "np.where({}, {}, {})", "where")
CLIP = Op("clip", 3, np.clip, "np.clip({}, {}, {})", "clip")

# Operations whose float operands must be exact (a last-bit difference could flip the
# result) and, for zs, whose result depends on the sign of a zero operand.
NEEDS_EXACT = {"fdiv", "pow", "cmp", "logic", "func", "round", "pred"}
NEEDS_ZS = {"fdiv", "pow", "func"}


def _known_bug(op, kids, case):
    """A reason when op on kids would hit a known difference from NumPy (each isolated in a
    strict xfail test below, named in the reason); None otherwise. Every difference this test
    found so far is fixed (test_fixed_*), so nothing is excluded; NumPy's refusals (integer **
    negative integer among them) are skipped by _np_eval."""
    return None


def _np_eval(op, kids):
    """NumPy's value (None where NumPy refuses the operation), warnings silenced."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = op.f(*[k.n for k in kids])
        except (TypeError, ValueError, OverflowError, ZeroDivisionError, np.exceptions.DTypePromotionError):
            return None
    r = np.asarray(r)
    if r.dtype.kind not in "biuf" or r.dtype == np.float16:
        return None  # float16 results (functions of small integers) are weft's documented exception
    return r


def _exact_in_higher_precision(op, kids, r):
    """Whether a rounding operation's float result r is exactly the true value: recomputed in
    a wider type from the operands as NumPy converts them."""
    hp = np.float64 if r.dtype == np.float32 else np.longdouble
    args = []
    for k in kids:
        v = np.asarray(k.n)
        if k.scalar:
            v = np.asarray(k.n, dtype=r.dtype)
        args.append(v.astype(r.dtype).astype(hp))
    with np.errstate(all="ignore"):
        wide = op.f(*args)
    return bool(np.array_equal(np.asarray(wide), r.astype(hp), equal_nan=True))


def _parameters(kids, nd, uses=1):
    """At most how many parameters weft's kernel for an expression of kids has (in nd
    dimensions): each use of an array brings its buffer, offset and strides, each number one
    (uses: how many times the operation reads its operands, 2 for np.square)."""
    leaves = uses * sum(k.leaves for k in kids if not k.scalar)
    numbers = uses * sum(k.numbers for k in kids)
    return 2 + 2 * nd + 2 + leaves * (2 + nd) + numbers


def _build(op, kids, case):
    """The node of op on kids, or None where NumPy refuses it or the test must not draw it."""
    if all(k.scalar for k in kids):
        return None
    if _known_bug(op, kids, case):
        return None
    for k in kids:
        if k.kind == "f" and not k.scalar:
            if op.cls in NEEDS_EXACT and not k.exact:
                return None
            if op.cls in NEEDS_ZS and not k.zs:
                return None
    if op.cls == "div":  # the divisor (of / and reciprocal) must be exact, with its zero's sign
        den = kids[-1]
        if den.kind == "f" and not den.scalar and not (den.exact and den.zs):
            return None
    if op.cls == "where":
        c = kids[0]
        if c.kind == "f" and not c.exact:
            return None
    r = _np_eval(op, kids)
    if r is None:
        return None
    src = op.fmt.format(*[k.src for k in kids])
    try:
        w = op.f(*[k.w for k in kids])
    except Exception as e:  # noqa: BLE001  (NumPy computes it: weft must too)
        pytest.fail(f"seed={case.seed} device={case.device.selector}: {src} raised {e!r}; NumPy gives {r.dtype} "
                    f"{r.shape}\narrays:\n{case.describe()}", pytrace=False)
    if not isinstance(w, weft.Array):
        pytest.fail(f"seed={case.seed}: {src} gave {type(w).__name__}, not a weft.Array", pytrace=False)

    exact = all(k.exact for k in kids)
    zs = all(k.zs for k in kids if k.kind == "f")
    err = None
    if r.dtype.kind == "f":
        dt = r.dtype
        absr = _finite_abs(r)
        errs = [np.broadcast_to(k.error(), r.shape) if k.err is not None else 0.0 for k in kids]
        e0 = errs[0] if errs else 0.0
        if op.cls in ("arith", "square", "div"):
            if op.cls == "div" and op.arity == 1:  # reciprocal
                exact = exact and _exact_in_higher_precision(op, kids, r)
            elif exact:
                exact = _exact_in_higher_precision(op, kids, r)
            if op.name == "*" or op.cls == "square":
                a = _finite_abs(kids[0].n)
                b = _finite_abs(kids[-1].n)
                e1 = errs[-1]
                prop = e0 * b + e1 * a + e0 * e1
            elif op.cls == "div":
                den = _finite_abs(kids[-1].n) if op.arity == 2 else 1.0
                with np.errstate(all="ignore"):
                    prop = np.where(den > 0, e0 / np.where(den > 0, den, 1.0), 0.0)
            else:
                prop = e0 + errs[1]
            err = prop + (0.0 if exact else ARITH_ULPS * EPS[dt] * absr)
        elif op.cls in ("func", "pow"):
            exact = False
            err = (FUNC_REL if op.cls == "func" else POW_REL)[dt] * absr
        elif op.cls in ("minmax", "clip"):
            zs = False  # which zero min(0.0, -0.0) gives is NumPy's loop's choice
            err = np.maximum.reduce([np.broadcast_to(e, r.shape) for e in errs]) if errs else 0.0
        elif op.cls == "where":
            cond = np.asarray(kids[0].n).astype(bool)
            err = np.where(cond, errs[1], errs[2])
        elif op.cls in ("neg", "abs"):
            err = e0
            if op.cls == "abs":
                zs = True
        elif op.cls == "fdiv":
            err = 0.0
        else:  # round
            err = 0.0
        if np.ndim(err) == 0 and float(err) == 0.0:
            err = None
        else:
            err = np.where(np.isfinite(r), np.broadcast_to(err, r.shape), 0.0)
            if not np.any(err):
                err = None
        if err is not None:
            exact = False
    else:
        if not exact:
            raise AssertionError(f"{src}: an integer or bool result of inexact operands was drawn")
        zs = True
    # weft keeps where(c, 1, 2) a weak (Python-number-like) value, and so what is computed
    # from it alone (test_known_where_scalars_weak).
    if op.cls == "where":
        weak = all(k.scalar or k.weak for k in kids[1:])
    elif op.arity == 1:
        weak = kids[0].weak and op.cls != "pred" and op.name != "logical_not"
    elif op.arity == 2:
        weak = all(k.scalar or k.weak for k in kids)
    else:
        weak = False  # where and clip give arrays, even of numbers (NumPy's where(c, 3, 4) is int64)
    node = Node(r, w, src, exact=exact, zs=zs, err=err, kids=kids, weak=weak)
    node.op = op.name
    return node


class Case:
    """One random case: its generator, its output shape and its arrays."""

    def __init__(self, seed, device, max_leaves=4, tame=False):
        self.seed, self.device, self.tame = seed, device, tame
        self.rng = np.random.default_rng(seed)
        self.leaves = []
        self.max_leaves = max_leaves
        nd = int(self.rng.integers(0, 5))
        self.shape = tuple(int(self.rng.choice([0, 1, 2, 3, 4, 5], p=[0.06, 0.2, 0.22, 0.2, 0.16, 0.16]))
                           for _ in range(nd))
        self.nd = nd
        self.same_dtype = self.rng.random() < 0.5
        self.base_dtype = DTYPES[int(self.rng.integers(len(DTYPES)))]

    def _dtype(self):
        if self.same_dtype:
            return self.base_dtype
        return DTYPES[int(self.rng.integers(len(DTYPES)))]

    def leaf(self, dt=None):
        rng = self.rng
        if self.leaves and (len(self.leaves) >= self.max_leaves or rng.random() < 0.25) and dt is None:
            lf = self.leaves[int(rng.integers(len(self.leaves)))]
            return Node(lf.n, lf.w, lf.name)
        dt = dt or self._dtype()
        # A shape that broadcasts to the case's: fewer dimensions, some extents 1.
        nd = len(self.shape)
        drop = int(rng.integers(0, nd + 1)) if rng.random() < 0.35 else 0
        shape = tuple(1 if rng.random() < 0.25 else e for e in self.shape[drop:])
        lf = Leaf(f"a{len(self.leaves)}", rng, self.device, shape, dt, self.tame)
        self.leaves.append(lf)
        return Node(lf.n, lf.w, lf.name)

    def scalar(self):
        rng = self.rng
        r = rng.random()
        if r < 0.5:
            v = PY_INTS[int(rng.integers(len(PY_INTS)))]
        elif r < 0.9:
            v = PY_FLOATS[int(rng.integers(len(PY_FLOATS)))]
        else:
            v = bool(rng.random() < 0.5)
        return Node(v, v, repr(v) if not (isinstance(v, float) and not math.isfinite(v)) else f"float('{v}')",
                    scalar=True)

    def operand(self, depth):
        if depth <= 0 or self.rng.random() < 0.25:
            return self.scalar() if self.rng.random() < 0.25 else self.leaf()
        return self.expr(depth)

    def expr(self, depth, root=False):
        """A random expression node of at most depth levels of operations."""
        rng = self.rng
        for _ in range(12):
            r = rng.random()
            if r < 0.55:
                op = BINARY[int(rng.choice(len(BINARY), p=BINARY_P))]
            elif r < 0.87:
                op = UNARY[int(rng.choice(len(UNARY), p=UNARY_P))]
            elif r < 0.95:
                op = WHERE
            else:
                op = CLIP
            kids = [self.operand(depth - 1) for _ in range(op.arity)]
            if op is WHERE and rng.random() < 0.7:
                kids[0] = self._condition(depth - 1)
            node = _build(op, kids, self)
            # Retry the same operands with other operations of the same arity before giving up.
            pool, p = ((BINARY, BINARY_P) if op.arity == 2 else (UNARY, UNARY_P) if op.arity == 1
                       else ([WHERE, CLIP], None))
            tries = 0
            while node is None and tries < 6:
                node = _build(pool[int(rng.choice(len(pool), p=p))], kids, self)
                tries += 1
            if node is not None:
                return node
        if root:
            return None
        return self.leaf()

    def _condition(self, depth):
        for _ in range(6):
            a = self.leaf() if depth <= 0 or self.rng.random() < 0.5 else self.expr(depth)
            b = self.operand(0)
            op = [o for o in BINARY if o.cls == "cmp"][int(self.rng.integers(6))]
            node = _build(op, [a, b], self)
            if node is not None:
                return node
        return self.leaf(np.dtype(bool))

    def describe(self):
        return "\n".join(lf.recipe() for lf in self.leaves)


# ---------------------------------------------------------------------------------------------
# Comparison.


def _mismatch(got, node):
    """None when weft's value got agrees with the node's NumPy value, else a description."""
    want = np.asarray(node.n)
    if got.dtype != want.dtype:
        return f"dtype: weft {got.dtype}, NumPy {want.dtype}"
    if got.shape != want.shape:
        return f"shape: weft {got.shape}, NumPy {want.shape}"
    if want.dtype.kind != "f":
        try:
            np.testing.assert_array_equal(got, want, strict=True)
        except AssertionError as e:
            return str(e)
        return None
    nan_g, nan_w = np.isnan(got), np.isnan(want)
    bad = nan_g != nan_w
    fin = ~nan_w & ~nan_g
    inf_w = fin & ~np.isfinite(want)
    bad |= inf_w & (got != want)
    err = np.zeros(want.shape) if node.err is None else np.broadcast_to(node.err, want.shape)
    g64, w64 = got.astype(np.float64), want.astype(np.float64)
    with np.errstate(all="ignore"):
        diff = np.where(fin & ~inf_w, np.abs(g64 - w64), 0.0)
    bad |= fin & ~inf_w & ~np.isfinite(got)
    bad |= diff > 2 * err
    if not bad.any():
        return None
    idx = tuple(int(i) for i in np.argwhere(bad)[0])
    return (f"{int(bad.sum())} of {bad.size} elements differ; first at {idx}: weft {got[idx]!r}, NumPy {want[idx]!r}, "
            f"allowed error {2 * err[idx]:.3g}" + ("" if node.err is not None else " (exact)")
            + f"\nweft:  {np.array2string(got, threshold=200)}\nNumPy: {np.array2string(want, threshold=200)}")


def _smallest_failing(node):
    """The deepest subexpression whose weft value disagrees with NumPy's (its operands agree)."""
    for k in node.kids:
        if not k.scalar and k.kids:
            sub = _smallest_failing(k)
            if sub is not None:
                return sub
    if _mismatch(node.w.get(), node) is not None:
        return node
    return None


def _check(case, node, what="expression"):
    try:
        got = node.w.get()
    except Exception as e:  # noqa: BLE001
        pytest.fail(f"seed={case.seed} device={case.device.selector} {what}: {node.src} raised {e!r}\n"
                    f"arrays:\n{case.describe()}", pytrace=False)
    problem = _mismatch(got, node)
    if problem is None:
        return
    detail = ""
    if node.kids:
        sub = _smallest_failing(node) or node
        ops = "; ".join(f"{k.src}: {np.asarray(k.n).dtype if not k.scalar else type(k.n).__name__} "
                        f"{np.shape(k.n)}" for k in sub.kids)
        detail = f"\nsmallest failing subexpression: {sub.src}\n  {_mismatch(sub.w.get(), sub)}\n  operands: {ops}"
    pytest.fail(f"seed={case.seed} device={case.device.selector} {what}: {node.src}\n{problem}{detail}\n"
                f"arrays:\n{case.describe()}", pytrace=False)


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


def _w(device, *arrays):
    return [weft.asarray(np.asarray(a), device=device) for a in arrays]


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


def test_fixed_where_float_condition(device):
    """Was: OpenCL C refuses a floating-point condition in ?: (the generated where): 'used type
    double where floating point type is not allowed'."""
    h = np.array([0.0, 1.5, np.nan])
    a, b = _w(device, h, np.array([1, 2, 3], np.int32))
    np.testing.assert_array_equal(weft.where(a, b, 0).get(), np.where(h, [1, 2, 3], 0))  # [0, 2, 3]
    np.testing.assert_array_equal(weft.where(1.5, b, 0).get(), [1, 2, 3])


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


def test_fixed_abs_int_min(device):
    """Was: abs(INT_MIN) computed as -x in C, undefined there: PoCL's compiler took abs(x) >= 0
    and floored 5 // abs(INT_MIN) (NumPy: 5 // INT_MIN = -1) to 0. Integers now negate in
    their unsigned type."""
    for dt in ("int32", "int64"):
        a, b = np.array([np.iinfo(dt).min, -3], dt), np.array([5, 5], dt)
        wa, wb = _w(device, a, b)
        np.testing.assert_array_equal((wb // abs(wa)).get(), b // abs(a), err_msg=dt)  # [-1, 1]


def test_fixed_signed_overflow_in_reduction(device):
    """Was: int32 a + a that wraps, summed: the generated C's signed overflow was undefined and
    PoCL's compiler widened the addition to 64 bits instead of wrapping it (-2920314784)."""
    h = np.array([-1460157392], np.int32)
    (w,) = _w(device, h)
    assert (w + w).sum().item() == (h + h).sum() == 1374652512
    np.testing.assert_array_equal((w + w).sum(axis=0).get(), (h + h).sum(axis=0))


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
