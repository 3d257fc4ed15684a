"""Argument checks shared by the Array API's functions (_matrices, _manipulation, _statistics):
integers and axes as NumPy takes them (an int, or anything with __index__; never a bool), arrays
from host data, and index arrays on an array's device."""
from __future__ import annotations

import builtins as _builtins
import operator as _operator
from typing import TYPE_CHECKING, SupportsIndex, cast

import numpy as _np

from . import _weft
from ._creation import asarray

if TYPE_CHECKING:
    from ._array import Array
    from ._typing import ArrayLike, DeviceLike

# (every _weft._Array is a weft.Array: _array registers the class with the extension)
_ArrayBase = cast("type[Array]", _weft._Array)


def _int(v: object, who: str, what: str) -> int:
    """v as a Python int (an integer or anything with __index__), else TypeError naming what."""
    if isinstance(v, (_builtins.bool, _np.bool_)):
        raise TypeError(f"{who}: {what} must be an integer, not bool")
    try:
        return _operator.index(cast(SupportsIndex, v))  # (TypeError when it is not one)
    except TypeError:
        raise TypeError(f"{who}: {what} must be an integer, not {type(v).__name__}") from None


def _ints(v: object, who: str, what: str) -> list[int]:
    """An integer or a sequence of them as a list of ints."""
    if isinstance(v, (tuple, list)):
        return [_int(x, who, what) for x in v]
    return [_int(v, who, what)]


def _array(x: ArrayLike | Array, who: str, device: DeviceLike = None) -> Array:
    """x as a weft.Array: one already is; host data (a list, a NumPy array, a number) is copied to
    device (the current device when None)."""
    if isinstance(x, _ArrayBase):
        return x
    try:
        return asarray(x, device=device)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{who}: expected an array, not {type(x).__name__} ({e})") from None


def _arrays(arrays: object, who: str) -> list[Array]:
    """A sequence of arrays as weft.Arrays, host data going to the first weft.Array's device."""
    if isinstance(arrays, _ArrayBase) or not isinstance(arrays, (list, tuple)):
        raise TypeError(f"{who}: expected a sequence (list or tuple) of arrays, not {type(arrays).__name__}")
    device = next((a.device for a in arrays if isinstance(a, _ArrayBase)), None)
    return [_array(a, who, device) for a in arrays]


def _indices(indices: ArrayLike | Array, x: Array, who: str) -> Array:
    """Integer indices as a weft.Array on x's device (an empty list is int64, as NumPy takes it)."""
    if isinstance(indices, _ArrayBase):
        return indices
    host = _np.asarray(indices)
    if host.size == 0 and host.dtype.kind == "f":
        host = host.astype(_np.int64)
    return asarray(host, device=x.device)
