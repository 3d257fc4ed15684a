"""numpy.partition and numpy.argpartition on weft arrays (split from _sorting.py). Answered by
the stable radix sort of every device, which is a valid partition at every kth; an O(n)
selection is not written yet (docs/ALGORITHMS.md)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as _np

from . import _weft
from ._array import Array
from ._sorting import _array

if TYPE_CHECKING:
    from ._typing import ArrayLike


def _kth(kth: ArrayLike, n: int, who: str) -> None:
    ks = [kth] if _np.ndim(kth) == 0 else list(_np.asarray(kth).ravel())
    if not ks and _np.ndim(kth) != 0:
        return
    for k in ks:
        if isinstance(k, (bool, _np.bool_)) or not isinstance(k, (int, _np.integer)):
            raise TypeError(f"{who}: kth must be an integer or a sequence of integers, got {k!r}")
        if not -n <= int(k) < n:
            raise ValueError(f"{who}: kth(={int(k)}) out of bounds ({n})")


def _partition_operand(a: ArrayLike | Array, kth: ArrayLike, axis: int | None, kind: str, order: None,
                       who: str) -> tuple[Array, int]:
    # numpy.partition's checks; the operand and axis the sort then runs on.
    if kind != "introselect" or order is not None:
        raise ValueError(f"{who}: kind must be 'introselect' and order None")
    x = _array(a)
    if axis is None:
        x, axis = x.reshape(-1), -1
    if x.ndim == 0:
        raise _np.exceptions.AxisError(f"{who}: a 0-d array has no axis to partition")
    _kth(kth, x.shape[axis], who)
    return x, axis


def partition(a: ArrayLike | Array, kth: ArrayLike, axis: int | None = -1, kind: str = "introselect",
              order: None = None) -> Array:
    """A copy of a partitioned at kth, as numpy.partition: the element at each kth position is the
    one a sort would put there, with no larger ones before it and no smaller ones after.

    weft answers with the stable radix sort (a sorted array is a valid partition; O(n) selection
    is not written yet).

    Parameters
    ----------
    a : weft.Array
        The input.
    kth : int or sequence of ints
        The positions to put in place (negative ones count from the end).
    axis : int or None, optional
        The axis (the last by default); None: the flattened elements.
    kind, order : optional
        NumPy's; only the defaults are taken.

    Returns
    -------
    weft.Array
        The partitioned copy.

    Raises
    ------
    ValueError
        A kth is out of range.

    Examples
    --------
    >>> weft.partition(weft.asarray(np.array([7, 1, 5, 3])), 1).get()
    array([1, 3, 5, 7])
    """
    a, axis = _partition_operand(a, kth, axis, kind, order, "partition")
    return _weft._sort(a, axis, False)


def argpartition(a: ArrayLike | Array, kth: ArrayLike, axis: int | None = -1, kind: str = "introselect",
                 order: None = None) -> Array:
    """The int64 indices that partition a (see weft.partition), as numpy.argpartition: weft's are
    the stable argsort's.

    Parameters
    ----------
    a : weft.Array
        The input.
    kth : int or sequence of ints
        The positions to put in place.
    axis : int or None, optional
        The axis (the last by default); None: the flattened elements.
    kind, order : optional
        NumPy's; only the defaults are taken.

    Returns
    -------
    weft.Array
        int64 indices of a's shape.

    Examples
    --------
    >>> weft.argpartition(weft.asarray(np.array([7, 1, 5, 3])), 1).get()
    array([1, 3, 2, 0])
    """
    a, axis = _partition_operand(a, kth, axis, kind, order, "argpartition")
    return _weft._argsort(a, axis, False)
