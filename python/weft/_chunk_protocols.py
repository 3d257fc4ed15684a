"""NumPy's functions that libraries built on NumPy's protocols (Dask's arrays above all, see
weft.dask) call on weft arrays, beyond those weft implements under its own names:

- creation with ``like=`` (``np.asarray(x, like=a)``, np.array, np.asanyarray,
  np.ascontiguousarray, np.empty, np.zeros, np.ones, np.full, np.arange): a weft.Array on a's
  device (a weft.Array given as the data stays where it is);
- np.empty_like, np.zeros_like, np.ones_like and np.full_like with NumPy's ``shape=`` (and its
  ``order=`` 'K', 'A', 'C' and ``subok=``, which change nothing for weft's C-ordered arrays);
- np.tensordot: one matmul of the operands' permuted, flattened views;
- np.nansum, np.nanprod, np.nanmin, np.nanmax and np.nanmean: NaNs replaced by the operation's
  identity in the fused expression the reduction reads (no temporary);
- np.percentile of the flattened elements (one sort on the device), np.isclose, np.outer, and
  np.round / np.around with decimals= (NumPy's scale, round half to even, scale back);
- np.unravel_index, np.ravel_multi_index, np.nanargmin and np.nanargmax (Dask's argmin and
  argmax chunks); a structured dtype in the *_like functions raises DTypeError, a TypeError, so
  that Dask takes its path for chunk types without structured arrays (argmin, unique), CuPy's.

Registered with weft._protocols when weft is imported; this module imports no Dask.
"""
from __future__ import annotations

import builtins as _builtins
import math as _math
import operator as _operator
from typing import TYPE_CHECKING, Any, Callable, List, Literal, Sequence, SupportsIndex, Tuple, Union, cast

import numpy as _np

from . import _weft
from ._creation import arange, asarray, empty, full, ones, zeros
from ._linalg import matmul
from ._protocols import deliver, implements, implements_like
from ._ufuncs import where

if TYPE_CHECKING:
    from ._array import Array
    from ._typing import ArrayLike, DTypeLike, ShapeLike

    # tensordot's axes=: a count, or a pair of axes (an int or a tuple or list of ints each).
    _AxisList = Union[int, Tuple[int, ...], List[int]]
    _TensordotAxes = Union[int, Tuple[_AxisList, ...], List[_AxisList]]
    # The methods weft's percentile computes (_PERCENTILE_METHODS).
    _PercentileMethod = Literal["linear", "lower", "higher", "nearest", "midpoint"]

# (every _weft._Array is a weft.Array: _array registers the class with the extension)
_ArrayBase = cast("type[Array]", _weft._Array)
# An operand of the NumPy functions below that take two: NumPy calls them with a weft.Array
# among the operands (__array_function__), a NumPy array or host data beside it possibly.
_Operand = Any


def _c_order(order: str | None, who: str) -> None:
    if order not in (None, "K", "A", "C"):
        raise ValueError(f"{who}: order={order!r} is not one weft arrays have (they are C-ordered: 'C', 'K', 'A' "
                         "or None)")


def _numpy_device(device: str | None, who: str) -> None:
    """NumPy's device= keyword: only None or 'cpu' (weft puts the result on the like array's device)."""
    if device not in (None, "cpu"):
        raise ValueError(f"{who}: device={device!r}: NumPy's device= takes None or 'cpu' here (the result goes to "
                         "the like= array's device)")


# ---- creation with like= ----------------------------------------------------------------------

@implements_like(_np.asarray)
def asarray_like(like: Array, a: ArrayLike | Array, dtype: DTypeLike | None = None, order: str | None = None, *,
                 device: str | None = None, copy: bool | None = None) -> Array:
    """np.asarray(a, like=like): a weft.Array on like's device (a weft.Array a stays where it is)."""
    _c_order(order, "asarray")
    _numpy_device(device, "asarray")
    return asarray(a, dtype=dtype, copy=copy, device=None if isinstance(a, _ArrayBase) else like.device)


@implements_like(_np.asanyarray)
def asanyarray_like(like: Array, a: ArrayLike | Array, dtype: DTypeLike | None = None, order: str | None = None, *,
                    device: str | None = None, copy: bool | None = None) -> Array:
    """np.asanyarray(a, like=like): as np.asarray's."""
    return asarray_like(like, a, dtype, order, device=device, copy=copy)


@implements_like(_np.ascontiguousarray)
def ascontiguousarray_like(like: Array, a: ArrayLike | Array, dtype: DTypeLike | None = None, *,
                           device: str | None = None) -> Array:
    """np.ascontiguousarray(a, like=like): a C-contiguous weft.Array (a copy where a is a strided view)."""
    r = asarray_like(like, a, dtype, device=device)
    return r if r.flags_c_contiguous else r.copy()


@implements_like(_np.array)
def array_like(like: Array, a: ArrayLike | Array, dtype: DTypeLike | None = None, *, copy: bool | None = True,
               order: str | None = "K", subok: bool = False, ndmin: int = 0, device: str | None = None) -> Array:
    """np.array(a, like=like): a new weft.Array (copy=True) on like's device, with at least ndmin
    dimensions."""
    _c_order(order, "array")
    r = asarray_like(like, a, dtype, device=device, copy=copy if copy is not True else True)
    if r.ndim < ndmin:
        r = r.reshape((1,) * (ndmin - r.ndim) + r.shape)
    return r


def _creation_like(make: Callable[..., Array], who: str) -> Callable[..., Array]:
    def like_call(like: Array, shape: ShapeLike, dtype: DTypeLike | None = None, order: str | None = "C", *,
                  device: str | None = None) -> Array:
        _c_order(order, who)
        _numpy_device(device, who)
        return make(shape, dtype=_np.float64 if dtype is None else dtype, device=like.device)
    like_call.__name__ = like_call.__qualname__ = f"{who}_like_call"
    like_call.__doc__ = f"np.{who}(shape, dtype, like=like): weft.{who}(shape, dtype) on like's device."
    return like_call


# (NumPy's function, weft's): typed, as NumPy's functions of different signatures have no common type
_made: list[tuple[Callable[..., Any], Callable[..., Array]]]
_made = [(_np.empty, empty), (_np.zeros, zeros), (_np.ones, ones)]
for _np_f, _make in _made:
    implements_like(_np_f)(_creation_like(_make, _np_f.__name__))
del _np_f, _make, _made


@implements_like(_np.full)
def full_like_call(like: Array, shape: ShapeLike, fill_value: complex, dtype: DTypeLike | None = None,
                   order: str | None = "C", *, device: str | None = None) -> Array:
    """np.full(shape, fill_value, like=like): weft.full(...) on like's device."""
    _c_order(order, "full")
    _numpy_device(device, "full")
    return full(shape, fill_value, dtype=dtype, device=like.device)


@implements_like(_np.arange)
def arange_like(like: Array, *args: float, dtype: DTypeLike | None = None, device: str | None = None,
                **kwargs: Any) -> Array:
    """np.arange(..., like=like): weft.arange(...) on like's device (NumPy's dtype may be the fourth
    positional argument, as Dask's arange chunks give it)."""
    _numpy_device(device, "arange")
    if len(args) == 4 and dtype is None:
        dtype, args = cast("DTypeLike", args[3]), args[:3]
    return arange(*args, dtype=dtype, device=like.device, **kwargs)


# ---- *_like with NumPy's shape= -------------------------------------------------------------

def _plain_dtype(dtype: DTypeLike | None, who: str) -> None:
    """A structured dtype raises DTypeError (a TypeError): that is how Dask tells a chunk library
    without structured arrays (CuPy's way), and then takes its other path (argmin/argmax, unique)."""
    if dtype is not None and _np.dtype(dtype).fields is not None:
        raise _weft.DTypeError(f"{who}: dtype {_np.dtype(dtype)} is structured; weft arrays hold numbers and bools "
                               "only")


def _like_with_shape(make: Callable[..., Array], who: str) -> Callable[..., Array]:
    def like(a: Array, dtype: DTypeLike | None = None, order: str | None = "K", subok: bool = True,
             shape: ShapeLike | None = None, *, device: str | None = None) -> Array:
        _c_order(order, who)
        _numpy_device(device, who)
        _plain_dtype(dtype, who)
        return make(a.shape if shape is None else shape, dtype=a.dtype if dtype is None else dtype, device=a.device)
    like.__name__ = like.__qualname__ = who
    like.__doc__ = f"np.{who}(a, ...): as weft.{who}, with NumPy's shape=, order= and subok=."
    return like


_made = [(_np.empty_like, empty), (_np.zeros_like, zeros), (_np.ones_like, ones)]
for _np_f, _make in _made:
    implements(_np_f)(_like_with_shape(_make, _np_f.__name__))
del _np_f, _make, _made


@implements(_np.full_like)
def full_like(a: Array, fill_value: complex, dtype: DTypeLike | None = None, order: str | None = "K",
              subok: bool = True, shape: ShapeLike | None = None, *, device: str | None = None) -> Array:
    """np.full_like(a, ...): as weft.full_like, with NumPy's shape=, order= and subok=."""
    _c_order(order, "full_like")
    _numpy_device(device, "full_like")
    return full(a.shape if shape is None else shape, fill_value, dtype=a.dtype if dtype is None else dtype,
                device=a.device)


# ---- tensordot --------------------------------------------------------------------------------

def _axes(axes: _TensordotAxes, a: Array, b: Array) -> Sequence[list[int]]:
    """NumPy's axes= of tensordot as two lists of non-negative axes of a and of b."""
    if isinstance(axes, (tuple, list)):
        if len(axes) != 2:
            raise ValueError(f"tensordot: axes must be an integer or a pair of axis sequences, not {axes!r}")
        pair = []
        for arr, ax in zip((a, b), axes):
            ax = [ax] if not isinstance(ax, (tuple, list)) else list(ax)
            ax = [_operator.index(i) for i in ax]
            if _builtins.any(not -arr.ndim <= i < arr.ndim for i in ax):
                raise ValueError(f"tensordot: axes {ax} out of range for an array of dimension {arr.ndim}")
            pair.append([i % arr.ndim for i in ax])
        return pair
    n = _operator.index(axes)
    if n < 0 or n > a.ndim or n > b.ndim:
        raise ValueError(f"tensordot: axes={n} does not fit operands of dimensions {a.ndim} and {b.ndim}")
    return list(range(a.ndim - n, a.ndim)), list(range(n))


@implements(_np.tensordot)
def tensordot(a: _Operand, b: _Operand, axes: _TensordotAxes = 2) -> Array:
    """np.tensordot on weft arrays: the sum of products over axes (an integer: a's last and b's
    first that many axes; a pair: the listed axes), as one matmul of (free, summed) by (summed,
    free) views; a NumPy operand is copied to the weft operand's device first."""
    if not isinstance(a, _ArrayBase):
        a = asarray(a, device=b.device)
    if not isinstance(b, _ArrayBase):
        b = asarray(b, device=a.device)
    axes_a, axes_b = _axes(axes, a, b)
    if len(axes_a) != len(axes_b) or _builtins.any(a.shape[i] != b.shape[j] for i, j in zip(axes_a, axes_b)):
        raise ValueError(f"tensordot: shape-mismatch for sum: axes {axes_a} of {a.shape} and {axes_b} of {b.shape}")
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [j for j in range(b.ndim) if j not in axes_b]
    shape = tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b)
    m = _math.prod(a.shape[i] for i in free_a)
    k = _math.prod(a.shape[i] for i in axes_a)
    n = _math.prod(b.shape[j] for j in free_b)
    dtype = _np.result_type(a.dtype, b.dtype)
    if m == 0 or n == 0 or k == 0:
        return zeros(shape, dtype=dtype, device=a.device)
    lhs = a.transpose(*(free_a + axes_a))
    rhs = b.transpose(*(axes_b + free_b))
    lhs = (lhs if lhs.flags_c_contiguous else lhs.copy()).reshape(m, k)
    rhs = (rhs if rhs.flags_c_contiguous else rhs.copy()).reshape(k, n)
    return matmul(lhs, rhs).astype(dtype, copy=False).reshape(shape)


# ---- NaN-skipping reductions --------------------------------------------------------------------

def _skip_nan(a: Array, identity: float) -> Array:
    """a with its NaNs read as identity (floating dtypes only; a lazy expression)."""
    return where(_weft.isnan(a), identity, a) if a.dtype.kind == "f" else a


def _nan_reduction(name: str, identity: float) -> Callable[..., Array]:
    def reduce(a: Array, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None,
               out: Array | None = None, keepdims: bool = False) -> Array:
        r = getattr(_skip_nan(a, identity), name)(axis=axis, keepdims=keepdims)
        if name in ("min", "max") and a.dtype.kind == "f":  # (an all-NaN slice gives NaN, as NumPy's)
            r = where(_weft.isnan(a).all(axis=axis, keepdims=keepdims), _np.nan, r)
        return deliver(r, dtype, out)
    reduce.__name__ = reduce.__qualname__ = f"nan{name}"
    reduce.__doc__ = f"np.nan{name} on a weft.Array: {name} with NaNs skipped, as NumPy's."
    return reduce


nansum = implements(_np.nansum)(_nan_reduction("sum", 0))
nanprod = implements(_np.nanprod)(_nan_reduction("prod", 1))
nanmin = implements(_np.nanmin)(_nan_reduction("min", _np.inf))
nanmax = implements(_np.nanmax)(_nan_reduction("max", -_np.inf))


@implements(_np.nanmean)
def nanmean(a: Array, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None,
            out: Array | None = None, keepdims: bool = False) -> Array:
    """np.nanmean on a weft.Array: the mean of the elements that are not NaN, as NumPy's."""
    if a.dtype.kind != "f":
        return a.mean(axis=axis, dtype=dtype, out=out, keepdims=keepdims)
    count = (~_weft.isnan(a)).sum(axis=axis, keepdims=keepdims)
    r = nansum(a, axis=axis, keepdims=keepdims) / count.astype(a.dtype)
    return deliver(r, dtype, out)


# ---- percentile, isclose, outer, round --------------------------------------------------------

_PERCENTILE_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")


@implements(_np.percentile)
def percentile(a: _Operand, q: _Operand, axis: int | tuple[int, ...] | None = None, out: Array | None = None,
               overwrite_input: bool = False, method: _PercentileMethod = "linear", keepdims: bool = False, *,
               weights: _Operand = None, interpolation: _PercentileMethod | None = None) -> Array:
    """np.percentile of the flattened elements (axis None) by NumPy's linear, lower, higher,
    nearest and midpoint methods: one sort on the device, then the ranks gathered and
    interpolated there; a weft.Array of q's shape and NumPy's result dtype."""
    from ._sorting import sort
    method = interpolation or method
    if axis is not None or keepdims or weights is not None or method not in _PERCENTILE_METHODS:
        raise _weft.Unsupported(f"percentile: weft computes axis=None, keepdims=False, weights=None with the "
                                f"methods {', '.join(_PERCENTILE_METHODS)} (not axis={axis!r}, method={method!r})")
    if not isinstance(a, _ArrayBase):
        a = asarray(a, device=q.device)
    dtype = _np.percentile(_np.zeros(1, a.dtype), q.get() if isinstance(q, _ArrayBase) else q, method=method).dtype
    qs = _np.asarray(q.get() if isinstance(q, _ArrayBase) else q, dtype=_np.float64)
    if _np.any((qs < 0) | (qs > 100)) or _np.any(_np.isnan(qs)):
        raise ValueError("percentile: q must be in the range [0, 100]")
    if a.size == 0:
        raise ValueError("percentile: the array is empty")
    s = sort(a.ravel())
    rank = qs.ravel() / 100 * (a.size - 1)
    lo, hi = _np.floor(rank).astype(_np.int64), _np.ceil(rank).astype(_np.int64)
    frac = rank - lo
    if method in ("lower", "higher", "nearest"):
        picked = {"lower": lo, "higher": hi, "nearest": _np.around(rank).astype(_np.int64)}[method]
        r = s[picked.tolist()]
    else:
        low, high = s[lo.tolist()].astype(_np.float64), s[hi.tolist()].astype(_np.float64)
        weight = asarray(_np.full(frac.shape, 0.5) if method == "midpoint" else frac, device=a.device)
        r = low + (high - low) * weight
    return deliver(r.reshape(qs.shape).astype(dtype, copy=False), None, out)


@implements(_np.isclose)
def isclose(a: _Operand, b: _Operand, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Array:
    """np.isclose on weft arrays: ``|a - b| <= atol + rtol * |b|`` elementwise (infinities close
    only to themselves; NaNs to NaNs when equal_nan)."""
    if not isinstance(a, _ArrayBase):
        a = asarray(a, device=b.device)
    if not isinstance(b, _ArrayBase):
        b = asarray(b, device=a.device)
    if a.dtype.kind != "f" and b.dtype.kind != "f":
        return _weft.equal(a, b)
    close = _weft.less_equal(_weft.abs(a - b), atol + rtol * _weft.abs(b))
    finite = _weft.logical_and(_weft.isfinite(a), _weft.isfinite(b))
    r = _weft.logical_or(_weft.logical_and(finite, close), _weft.equal(a, b))
    if equal_nan:
        r = _weft.logical_or(r, _weft.logical_and(_weft.isnan(a), _weft.isnan(b)))
    return r


@implements(_np.outer)
def outer(a: _Operand, b: _Operand, out: Array | None = None) -> Array:
    """np.outer on weft arrays: the flattened a as a column times the flattened b as a row."""
    if not isinstance(a, _ArrayBase):
        a = asarray(a, device=b.device)
    if not isinstance(b, _ArrayBase):
        b = asarray(b, device=a.device)
    return deliver(a.ravel()[:, None] * b.ravel()[None, :], None, out)


@implements(_np.round)
@implements(_np.around)
def round_decimals(a: Array, decimals: SupportsIndex = 0, out: Array | None = None) -> Array:
    """np.round(a, decimals) as NumPy computes it: half to even; with decimals, floats scaled by
    10**decimals, rounded and scaled back; integers unchanged for decimals >= 0."""
    decimals = _operator.index(decimals)
    if decimals == 0 or (a.dtype.kind in "iub" and decimals > 0):
        r = _weft.round(a) if decimals == 0 else a.copy()
    elif a.dtype.kind == "f":
        scale = float(10.0 ** _builtins.abs(decimals))
        r = _weft.round(a * scale) / scale if decimals > 0 else _weft.round(a / scale) * scale
        r = r.astype(a.dtype, copy=False)
    else:
        raise _weft.Unsupported(f"round: decimals={decimals} of integers (weft rounds integers with decimals >= 0)")
    return deliver(r, None, out)


# ---- flat indices and NaN-skipping argmin/argmax (Dask's argmin/argmax chunks) ---------------------

def _dims(shape: ShapeLike) -> list[int]:
    return [_operator.index(shape)] if not isinstance(shape, Sequence) else [_operator.index(n) for n in shape]


def _index_operand(x: _Operand, device: Any) -> Array:
    return x if isinstance(x, _ArrayBase) else asarray(_np.asarray(x), device=device)


@implements(_np.unravel_index)
def unravel_index(indices: _Operand, shape: ShapeLike, order: str = "C") -> tuple[Array, ...]:
    """np.unravel_index of weft indices: one weft array of coordinates per axis of shape (C or
    F order), computed on the indices' device; an index outside the shape raises ValueError."""
    dims = _dims(shape)
    if order not in ("C", "F"):
        raise ValueError(f"unravel_index: order must be 'C' or 'F', got {order!r}")
    flat = cast("Array", indices)
    if flat.dtype.kind not in "iu":
        raise TypeError(f"unravel_index: indices must be integers, got dtype {flat.dtype}")
    size = _math.prod(dims)
    if bool(((flat < 0) | (flat >= size)).any()):
        raise ValueError(f"unravel_index: an index is out of bounds for an array of size {size}")
    coords: list[Array] = []
    rest = flat.astype(_np.int64)
    for n in (reversed(dims) if order == "C" else dims):
        coords.append(rest % n)
        rest = rest // n
    return tuple(reversed(coords)) if order == "C" else tuple(coords)


@implements(_np.ravel_multi_index)
def ravel_multi_index(multi_index: Sequence[_Operand], dims: ShapeLike, mode: str = "raise",
                      order: str = "C") -> Array:
    """np.ravel_multi_index of weft coordinates (weft arrays or integers beside them): the flat
    index, as int64 on the coordinates' device; mode 'raise', 'wrap' or 'clip' as NumPy's."""
    shape = _dims(dims)
    if len(multi_index) != len(shape):
        raise ValueError(f"ravel_multi_index: {len(multi_index)} coordinates for {len(shape)} dimensions")
    if order not in ("C", "F"):
        raise ValueError(f"ravel_multi_index: order must be 'C' or 'F', got {order!r}")
    device = next(c.device for c in multi_index if isinstance(c, _ArrayBase))
    coords = [_index_operand(c, device).astype(_np.int64) for c in multi_index]
    modes = [mode] * len(shape) if isinstance(mode, str) else list(mode)
    for i, (c, n, m) in enumerate(zip(coords, shape, modes)):
        if m == "wrap":
            coords[i] = c % n
        elif m == "clip":
            coords[i] = where(c < 0, 0, where(c >= n, n - 1, c))
        elif m == "raise":
            if bool(((c < 0) | (c >= n)).any()):
                raise ValueError("ravel_multi_index: invalid entry in coordinates array")
        else:
            raise ValueError(f"ravel_multi_index: mode must be 'raise', 'wrap' or 'clip', got {m!r}")
    flat = coords[0] * 0
    stride = 1
    for c, n in (reversed(list(zip(coords, shape))) if order == "C" else zip(coords, shape)):
        flat = flat + c * stride
        stride *= n
    return flat


def _nan_arg(name: str, fill: float) -> Callable[..., Array]:
    def arg(a: Array, axis: int | None = None, out: Array | None = None, *, keepdims: bool = False) -> Array:
        if a.dtype.kind == "f":
            if bool(_weft.isnan(a).all(axis=axis).any()):
                raise ValueError("All-NaN slice encountered")
            a = where(_weft.isnan(a), fill, a)
        return deliver(getattr(a, name)(axis=axis, keepdims=keepdims), None, out)
    arg.__name__ = arg.__qualname__ = f"nan{name}"
    arg.__doc__ = f"np.nan{name} on a weft.Array: {name} with NaNs skipped; an all-NaN slice raises ValueError."
    return arg


nanargmin = implements(_np.nanargmin)(_nan_arg("argmin", _np.inf))
nanargmax = implements(_np.nanargmax)(_nan_arg("argmax", -_np.inf))
