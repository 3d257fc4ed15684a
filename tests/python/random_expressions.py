"""The random expression trees of the property tests: operators, comparisons, bitwise
operators, where, minimum/maximum, clip and NumPy ufuncs over random arrays and Python scalars
(NEP 50), evaluated by NumPy node by node and by weft lazily as one fused kernel, each node with
the error bound carried through the tree; and the comparison of the two, which names the seed,
the expression, how each array was made and the smallest failing subexpression."""
import math
import warnings

import numpy as np
import pytest

import weft

from random_arrays import ARITH_ULPS, DTYPES, EPS, FUNC_REL, POW_REL, PY_FLOATS, PY_INTS, Leaf, Node, _finite_abs


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
                                        "tanh", "arcsinh", "arccosh", "arctanh")]
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
    strict xfail test in test_properties.py, named in the reason); None otherwise. Every
    difference the random tests found so far is fixed (test_fixed_*), so nothing is excluded;
    NumPy's refusals (integer ** negative integer among them) are skipped by _np_eval."""
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
