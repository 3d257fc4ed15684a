"""unique(ar, axis=k): the distinct slices along an axis (rows of a 2-D array for axis 0), in
NumPy's lexicographic order, with the first index, inverse and counts of each.

As numpy.unique with axis: the slices are compared element by element in C order, each
element in NumPy's order (NaNs last, -0.0 equal to 0.0); two slices are equal when every pair
of their elements compares equal, so a slice holding a NaN equals no other (equal_nan does not
apply, as in NumPy, except to 1-D arrays, whose slices are their elements: those take the
flattened path, NaNs merged by equal_nan, as NumPy does). The order comes from one stable
argsort per element of a slice, the last element first (an LSD sort whose digits are the
slice's elements), so equal slices keep their order and the first of each is returned."""
from __future__ import annotations

import math as _math

import numpy as _np

from . import _weft
from ._array import Array
from ._creation import arange, zeros
from ._manipulation import concat, moveaxis
from ._sorting import argsort, flatnonzero


def check_axis(axis: object, nd: int) -> int:
    """axis as an index in [0, nd): TypeError for a non-integer, AxisError out of bounds."""
    if not isinstance(axis, (int, _np.integer)) or isinstance(axis, bool):
        raise TypeError(f"unique: axis must be an integer or None, not {type(axis).__name__}")
    if not -nd <= int(axis) < nd:
        raise _np.exceptions.AxisError(f"unique: axis {axis} is out of bounds for an array of dimension {nd}")
    return int(axis) % nd


def unique_along(a: Array, axis: int, return_index: bool, return_inverse: bool,
                 return_counts: bool) -> tuple[Array, Array | None, Array | None, Array | None]:
    """The distinct slices of a along axis and, when asked for, their first indices, the
    inverse (of length a.shape[axis]) and their counts.

    >>> import weft, numpy as np
    >>> a = weft.asarray(np.array([[1, 2], [0, 5], [1, 2]]))
    >>> weft.unique(a, axis=0).get()
    array([[0, 5],
           [1, 2]])
    """
    nd = a.ndim
    ax = check_axis(axis, nd)
    moved = moveaxis(a, ax, 0)
    n = int(moved.shape[0])
    rest = tuple(int(d) for d in moved.shape[1:])
    m = _math.prod(rest)
    if n > 0 and m == 0:
        raise _weft.Unsupported("unique: slices of no elements along the axis have no order (NumPy refuses "
                                "them too); give an array whose other axes are not empty")
    rows = moved.reshape((n, m))
    perm = arange(n, dtype="int64", device=a.device)
    for c in range(m - 1, -1, -1):
        perm = perm[argsort(rows[:, c][perm], kind="stable")]
    s = rows[perm]
    if n == 0:
        starts = zeros(0, dtype="int64", device=a.device)
        first = zeros(0, dtype="bool", device=a.device)
    else:
        first = concat([zeros(1, dtype="bool", device=a.device) == 0, (s[1:] != s[:-1]).any(axis=1)])
        starts = flatnonzero(first)
    k = int(starts.shape[0])
    values = moveaxis(s[starts].reshape((k, *rest)), 0, ax)
    index = perm[starts] if return_index else None
    inverse = None
    if return_inverse:
        inverse = zeros(n, dtype="int64", device=a.device)
        if n:
            inverse[perm] = first.cumsum(dtype="int64") - 1
    counts = None
    if return_counts:
        ends = concat([starts, zeros(1, dtype="int64", device=a.device) + n])
        counts = ends[1:] - ends[:-1]
    return values, index, inverse, counts
