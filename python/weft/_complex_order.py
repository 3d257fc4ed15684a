"""The order of complex numbers for weft.sort, argsort and unique: lexicographic, the real parts
first and then the imaginary parts, NaNs last as NumPy sorts them (R + Rj, R + NaNj, NaN + Rj,
NaN + NaNj). Three passes of the stable radix sort: by the imaginary parts, stably by the real
parts, stably by the NaN class (0 none, 1 the imaginary part, 2 the real part, 3 both)."""
from __future__ import annotations

from typing import Any

import numpy as _np

from . import _weft
from ._array import Array


def argsort(a: Array, axis: int | None, descending: bool) -> Array:
    """The int64 indices that sort the complex array a along axis (None: flattened), stably.

    Examples
    --------
    >>> a = weft.asarray(np.array([2 + 1j, 1 + 5j, 2 - 1j]))
    >>> argsort(a, -1, False).get()
    array([1, 2, 0])
    """
    from ._statistics import take_along_axis

    if axis is None:
        a, axis = a.reshape(-1), -1
    by_imag = _weft._argsort(a.imag, axis, descending)
    reals = take_along_axis(a.real, by_imag, axis=axis)
    lexical = take_along_axis(by_imag, _weft._argsort(reals, axis, descending), axis=axis)
    ordered = take_along_axis(a, lexical, axis=axis)
    nan_class = _weft.isnan(ordered.imag).astype(_np.int8) + 2 * _weft.isnan(ordered.real).astype(_np.int8)
    return take_along_axis(lexical, _weft._argsort(nan_class, axis, descending), axis=axis)


def sort(a: Array, axis: int | None, descending: bool) -> Array:
    """A sorted copy of the complex array a along axis (None: flattened).

    Examples
    --------
    >>> sort(weft.asarray(np.array([2 + 1j, 1 + 5j, 2 - 1j])), -1, False).get()
    array([1.+5.j, 2.-1.j, 2.+1.j])
    """
    from ._statistics import take_along_axis

    if axis is None:
        a, axis = a.reshape(-1), -1
    return take_along_axis(a, argsort(a, axis, descending), axis=axis)


def unique(x: Array, equal_nan: bool) -> tuple[Array, Array, Array, Array]:
    """The distinct elements of the complex array x (flattened, in this order), the index of each
    one's first occurrence (in sorted order), the inverse (of x's shape) and the counts.

    With equal_nan, every element with a NaN part is one element (NumPy's unique).

    Examples
    --------
    >>> u, index, inverse, counts = unique(weft.asarray(np.array([1j, 2, 1j])), True)
    >>> u.get(), index.get(), inverse.get(), counts.get()
    (array([0.+1.j, 2.+0.j]), array([0, 1]), array([0, 1, 0]), array([2, 1]))
    """
    from ._creation import asarray
    from ._manipulation import concat
    from ._statistics import cumulative_sum, diff, take

    flat = x.reshape(-1)
    n = flat.size
    order = argsort(flat, -1, False)
    s = take(flat, order)
    if n == 0:
        empty = asarray(_np.zeros(0, _np.int64), device=x.device)
        return s, empty, empty.reshape(x.shape), empty
    head = s[1:]
    tail = s[:-1]
    differs: Any = head != tail
    if equal_nan:
        differs = differs & ~(_weft.isnan(head) & _weft.isnan(tail))
    first = concat([asarray(_np.ones(1, _np.bool_), device=x.device), differs])
    (starts,) = _weft._nonzero(first)
    group = cumulative_sum(first.astype(_np.int64)) - 1
    inverse = take(group, _weft._argsort(order, -1, False)).reshape(x.shape)
    ends = concat([starts, asarray(_np.array([n], _np.int64), device=x.device)])
    return take(s, starts), take(order, starts), inverse, diff(ends)
