"""NumPy's protocols: np.sin(a) and np.sum(a) stay on the device and return a weft.Array
(__array_ufunc__ and __array_function__), and NumPy's out= and dtype= keywords."""
from __future__ import annotations

import builtins as _builtins
from typing import TYPE_CHECKING, Any, Callable, Collection, Sequence, TypeVar, cast

import numpy as _np

from . import _weft
from ._creation import asarray
from ._linalg import matmul

if TYPE_CHECKING:
    from ._array import Array
    from ._typing import ArrayLike, DTypeLike

_F = TypeVar("_F", bound=Callable[..., Any])

# (every _weft._Array is a weft.Array: _array registers the class with the extension)
_ArrayBase = cast("type[Array]", _weft._Array)

# NumPy's ufuncs by name, and the weft function that computes each.
UFUNCS: dict[str, Callable[..., Any]] = {
    "add": _weft.add, "subtract": _weft.subtract, "multiply": _weft.multiply, "divide": _weft.true_divide,
    "true_divide": _weft.true_divide, "floor_divide": _weft.floor_divide, "remainder": _weft.remainder,
    "mod": _weft.remainder, "power": _weft.power, "negative": _weft.negative, "positive": _weft.positive,
    "absolute": _weft.abs, "fabs": _weft.fabs, "sqrt": _weft.sqrt, "cbrt": _weft.cbrt, "exp": _weft.exp,
    "exp2": _weft.exp2, "expm1": _weft.expm1, "log": _weft.log, "log2": _weft.log2, "log10": _weft.log10,
    "log1p": _weft.log1p, "sin": _weft.sin, "cos": _weft.cos, "tan": _weft.tan, "arcsin": _weft.arcsin,
    "arccos": _weft.arccos, "arctan": _weft.arctan, "sinh": _weft.sinh, "cosh": _weft.cosh, "tanh": _weft.tanh,
    "arctan2": _weft.arctan2, "hypot": _weft.hypot, "minimum": _weft.minimum, "maximum": _weft.maximum,
    "fmin": _weft.fmin, "fmax": _weft.fmax, "less": _weft.less, "less_equal": _weft.less_equal,
    "greater": _weft.greater, "greater_equal": _weft.greater_equal, "equal": _weft.equal,
    "not_equal": _weft.not_equal, "logical_and": _weft.logical_and, "logical_or": _weft.logical_or,
    "logical_xor": _weft.logical_xor, "logical_not": _weft.logical_not, "bitwise_and": _weft.bitwise_and,
    "bitwise_or": _weft.bitwise_or, "bitwise_xor": _weft.bitwise_xor, "invert": _weft.invert,
    "isnan": _weft.isnan, "isinf": _weft.isinf, "isfinite": _weft.isfinite, "floor": _weft.floor,
    "ceil": _weft.ceil, "trunc": _weft.trunc, "rint": _weft.rint, "square": _weft.square,
    "reciprocal": _weft.reciprocal, "arcsinh": _weft.arcsinh, "arccosh": _weft.arccosh,
    "arctanh": _weft.arctanh, "copysign": _weft.copysign, "nextafter": _weft.nextafter,
    "logaddexp": _weft.logaddexp, "sign": _weft.sign, "signbit": _weft.signbit,
    "left_shift": _weft.left_shift, "right_shift": _weft.right_shift, "conjugate": _weft.conj,
}
# ufunc.reduce of these is a weft reduction.
UFUNC_REDUCE: dict[str, str] = {"add": "sum", "multiply": "prod", "minimum": "min", "maximum": "max",
                                "logical_and": "all", "logical_or": "any"}


def into(out: object, r: ArrayLike | Array, name: str) -> Array:
    """NumPy's out=: the result written into out (a weft.Array of the result's shape, of a
    dtype the result casts to under NumPy's 'same_kind' rule) in one kernel; out returned."""
    if not isinstance(out, _ArrayBase):
        raise TypeError(f"{name}: out= must be a weft.Array, not {type(out).__name__} (weft makes no copy you did "
                        "not ask for)")
    r = r if isinstance(r, _ArrayBase) else asarray(r, device=out.device)
    if out.shape != r.shape:
        raise ValueError(f"{name}: out= has shape {out.shape}, but the result has shape {r.shape}")
    if not _np.can_cast(r.dtype, out.dtype, "same_kind"):
        raise TypeError(f"{name}: cannot cast the result from {r.dtype} to out='s {out.dtype} with casting rule "
                        "'same_kind'")
    out[...] = r
    return out


def deliver(r: Array, dtype: DTypeLike | None = None, out: Array | None = None) -> Array:
    """NumPy's dtype= and out= of a reduction or scan: cast, then write into out if given."""
    if dtype is not None:
        r = r.astype(dtype, copy=False)
    if out is not None:
        return into(out, r, "out=")
    return r


def typed_call(f: Callable[..., Any], args: Sequence[Any], dtype: DTypeLike, name: str | None = None) -> Any:
    """f(*args) computed in dtype, as a NumPy ufunc's dtype=: array operands cast to it first
    (under NumPy's 'same_kind' rule; numbers adapt as they always do), and the result must be
    of that dtype (a comparison's bool result is not)."""
    dtype = _np.dtype(dtype)
    name = name or f.__name__
    cast = []
    for i, x in enumerate(args):
        if isinstance(x, _ArrayBase):
            if not _np.can_cast(x.dtype, dtype, "same_kind"):
                raise TypeError(f"{name}: cannot cast input {i} from {x.dtype} to {dtype} with casting rule "
                                "'same_kind'")
            x = x.astype(dtype, copy=False)
        cast.append(x)
    r = f(*cast)
    if isinstance(r, _ArrayBase) and r.dtype != dtype:
        raise TypeError(f"{name}: no loop computes {dtype} (its result is {r.dtype})")
    return r


def with_out(f: Callable[..., Array]) -> Callable[..., Array]:
    """f with NumPy's out= and dtype= keywords."""
    def ufunc(*args: Any, out: Array | None = None, dtype: DTypeLike | None = None) -> Array:
        r: Array = f(*args) if dtype is None else typed_call(f, args, dtype)
        return r if out is None else into(out, r, f.__name__)
    ufunc.__name__ = ufunc.__qualname__ = f.__name__
    ufunc.__doc__ = f.__doc__
    return ufunc


def array_ufunc(self: Array, ufunc: _np.ufunc, method: str, *inputs: Any, out: Any = None, **kwargs: Any) -> Any:
    """weft.Array.__array_ufunc__: NumPy's ufuncs (calls, and reduce of those weft reduces)."""
    if _builtins.any(isinstance(x, _np.ndarray) for x in inputs):
        raise TypeError(f"np.{ufunc.__name__} with a NumPy array and a weft.Array: move the NumPy array with "
                        "weft.asarray() first (weft makes no copy you did not ask for)")
    dtype = kwargs.pop("dtype", None) if method == "__call__" else None
    if kwargs.get("where", True) is not True or (kwargs.get("dtype") is not None):
        return NotImplemented
    if method == "__call__" and ufunc.__name__ == "matmul":
        r = matmul(*inputs) if dtype is None else typed_call(matmul, inputs, dtype, "matmul")
    elif method == "__call__":
        f = UFUNCS.get(ufunc.__name__)
        if f is None:
            return NotImplemented
        r = f(*inputs) if dtype is None else typed_call(f, inputs, dtype)
    elif method == "reduce" and ufunc.__name__ in UFUNC_REDUCE:
        r = _weft._reduce(UFUNC_REDUCE[ufunc.__name__], inputs[0], kwargs.get("axis", 0),
                          kwargs.get("keepdims", False))
    else:
        return NotImplemented
    if out is not None:
        return into(out[0] if isinstance(out, tuple) else out, r, f"np.{ufunc.__name__}")
    return r


# NumPy's functions weft implements (np.sum(a) -> weft.sum(a)), filled by implements().
FUNCTIONS: dict[Callable[..., Any], Callable[..., Any]] = {}


def implements(np_func: Callable[..., Any]) -> Callable[[_F], _F]:
    """Registers f as weft's np_func for __array_function__."""
    def register(f: _F) -> _F:
        FUNCTIONS[np_func] = f
        return f
    return register


# NumPy's creation functions called with like=a weft.Array (np.asarray(x, like=a)), filled by
# implements_like(): each takes the like array first and makes its result on that array's device.
LIKE_FUNCTIONS: dict[Callable[..., Any], Callable[..., Any]] = {}


def implements_like(np_func: Callable[..., Any]) -> Callable[[_F], _F]:
    """Registers f(like, *args, **kwargs) as weft's np_func(*args, like=like, **kwargs)."""
    def register(f: _F) -> _F:
        LIKE_FUNCTIONS[np_func] = f
        return f
    return register


def array_function(self: Array, func: Callable[..., Any], types: Collection[type], args: Sequence[Any],
                   kwargs: dict[str, Any]) -> Any:
    """weft.Array.__array_function__: the functions registered with implements(), and with
    implements_like() those NumPy calls for like=self."""
    if func in LIKE_FUNCTIONS:  # (NumPy dispatches these only for like=)
        return LIKE_FUNCTIONS[func](self, *args, **kwargs)
    f = FUNCTIONS.get(func)
    if f is None:
        return NotImplemented
    if not _builtins.all(issubclass(t, (_ArrayBase, _np.ndarray)) for t in types):
        return NotImplemented
    return f(*args, **kwargs)
