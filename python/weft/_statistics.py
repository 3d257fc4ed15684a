"""The Array API's indexing and statistics functions (2024.12) with NumPy's results: take,
take_along_axis, cumulative_sum, cumulative_prod, count_nonzero and diff, on the arrays' device
(C++: weft/manipulation.hpp, weft/statistics.hpp: gather and scan kernels); this module checks
and converts the arguments."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence, SupportsIndex

import builtins as _builtins

import numpy as _np

from . import _weft
from ._api_args import _array, _indices, _int, _ints
from ._dtypes import dtype_name, int64
from ._protocols import implements

if TYPE_CHECKING:
    from ._array import Array
    from ._typing import ArrayLike, DTypeLike


# ---- indexing -------------------------------------------------------------------------------

def take(x: ArrayLike | Array, indices: ArrayLike | Array, /, axis: SupportsIndex | None = None) -> Array:
    """The elements of x at integer indices along axis (None: of the flattened x); negative
    indices count from the end, one out of range is an IndexError.

    Parameters
    ----------
    x : weft.Array
        The input.
    indices : sequence or weft.Array of ints
        The indices (host data is copied to x's device).
    axis : int, optional
        The axis to index; None (the default) indexes the flattened x.

    Returns
    -------
    weft.Array
        A new array: x's shape with the extent along axis replaced by indices' shape (indices'
        shape when axis is None).

    Raises
    ------
    weft.IndexOutOfRange
        An index is out of range.
    weft.DTypeError
        indices are not integers.

    Examples
    --------
    >>> a = weft.asarray(np.array([[10, 20, 30], [40, 50, 60]]))
    >>> weft.take(a, [0, -1]).get()
    array([10, 60])
    >>> weft.take(a, [2, 0], axis=1).get()
    array([[30, 10],
           [60, 40]])
    """
    x = _array(x, "take")
    return _weft._take(x, _indices(indices, x, "take"), None if axis is None else _int(axis, "take", "axis"))


def take_along_axis(x: ArrayLike | Array, indices: ArrayLike | Array, /, axis: SupportsIndex | None = -1) -> Array:
    """x's elements at indices along axis (indices as many dimensions as x, broadcasting
    with it along the others; axis None: both flattened).

    Parameters
    ----------
    x : weft.Array
        The input.
    indices : sequence or weft.Array of ints
        As many dimensions as x (what argsort or argmax with keepdims give).
    axis : int or None, optional
        The axis to index along (-1 by default); None: both flattened.

    Returns
    -------
    weft.Array
        A new array of the broadcast of x's and indices' shapes, with indices' extent along axis.

    Raises
    ------
    weft.IndexOutOfRange
        An index is out of range.
    weft.InvalidArgument
        indices and x differ in their number of dimensions.

    Examples
    --------
    >>> a = weft.asarray(np.array([[3, 1, 2], [9, 7, 8]]))
    >>> weft.take_along_axis(a, weft.argsort(a, axis=1), axis=1).get()
    array([[1, 2, 3],
           [7, 8, 9]])
    """
    x = _array(x, "take_along_axis")
    return _weft._take_along_axis(x, _indices(indices, x, "take_along_axis"),
                                  None if axis is None else _int(axis, "take_along_axis", "axis"))


# ---- statistics -----------------------------------------------------------------------------

def _cumulative(what: str, x: ArrayLike | Array, axis: SupportsIndex | None, dtype: DTypeLike | None,
                include_initial: bool) -> Array:
    x = _array(x, what)
    return _weft._cumulative(what, x, None if axis is None else _int(axis, what, "axis"),
                             None if dtype is None else dtype_name(dtype), _builtins.bool(include_initial))


def cumulative_sum(x: ArrayLike | Array, /, *, axis: SupportsIndex | None = None, dtype: DTypeLike | None = None,
                   include_initial: bool = False) -> Array:
    """Running sums along axis (None for arrays of at most one dimension); include_initial:
    each line starts with 0. Integers widen to 64 bits unless dtype says otherwise.

    Parameters
    ----------
    x : weft.Array
        The input.
    axis : int, optional
        The axis to sum along; required when x has more than one dimension.
    dtype : dtype, optional
        The dtype to accumulate and return in.
    include_initial : bool, optional
        Start each line with 0 (the result is one longer along axis).

    Returns
    -------
    weft.Array
        A new array.

    Raises
    ------
    weft.InvalidArgument
        axis is missing for an array of more than one dimension, or is out of range.

    Examples
    --------
    >>> a = weft.asarray(np.array([[1, 2, 3], [4, 5, 6]]))
    >>> weft.cumulative_sum(a, axis=1).get()
    array([[ 1,  3,  6],
           [ 4,  9, 15]])
    >>> weft.cumulative_sum(weft.asarray(np.array([1, 2, 3])), include_initial=True).get()
    array([0, 1, 3, 6])
    """
    return _cumulative("cumulative_sum", x, axis, dtype, include_initial)


def cumulative_prod(x: ArrayLike | Array, /, *, axis: SupportsIndex | None = None, dtype: DTypeLike | None = None,
                    include_initial: bool = False) -> Array:
    """Running products along axis (None for arrays of at most one dimension); include_initial:
    each line starts with 1. Integers widen to 64 bits unless dtype says otherwise.

    Parameters
    ----------
    x : weft.Array
        The input.
    axis : int, optional
        The axis to multiply along; required when x has more than one dimension.
    dtype : dtype, optional
        The dtype to accumulate and return in.
    include_initial : bool, optional
        Start each line with 1 (the result is one longer along axis).

    Returns
    -------
    weft.Array
        A new array.

    Raises
    ------
    weft.InvalidArgument
        axis is missing for an array of more than one dimension, or is out of range.

    Examples
    --------
    >>> weft.cumulative_prod(weft.asarray(np.array([1.0, 2.0, 3.0, 4.0]))).get()
    array([ 1.,  2.,  6., 24.])
    >>> weft.cumulative_prod(weft.asarray(np.array([[1, 2], [3, 4]])), axis=0, include_initial=True).get()
    array([[1, 1],
           [1, 2],
           [3, 8]])
    """
    return _cumulative("cumulative_prod", x, axis, dtype, include_initial)


def count_nonzero(x: ArrayLike | Array, /, axis: SupportsIndex | Sequence[SupportsIndex] | None = None, *,
                  keepdims: bool = False) -> Array:
    """How many elements of x are not zero (int64), over every axis (None) or the ones given.

    Parameters
    ----------
    x : weft.Array
        The input.
    axis : int or tuple of ints, optional
        The axes to count over; None (the default): every axis.
    keepdims : bool, optional
        Keep the counted axes, with extent 1.

    Returns
    -------
    weft.Array
        int64 counts: a 0-d array when every axis is counted.

    Raises
    ------
    weft.InvalidArgument
        An axis is out of range.

    Examples
    --------
    >>> a = weft.asarray(np.array([[0, 1, 2], [3, 0, 0]]))
    >>> int(weft.count_nonzero(a))
    3
    >>> weft.count_nonzero(a, axis=1).get()
    array([2, 1])
    """
    x = _array(x, "count_nonzero")
    if axis is None:
        axes = []
    else:
        axes = _ints(axis, "count_nonzero", "axis")
        if not axes:  # axis=(): nothing counted together, as NumPy
            return (x != 0).astype(int64)
    return _weft._count_nonzero(x, axes, _builtins.bool(keepdims))


def diff(x: ArrayLike | Array, /, n: SupportsIndex = 1, axis: SupportsIndex = -1,
         prepend: ArrayLike | Array | None = None, append: ArrayLike | Array | None = None) -> Array:
    """The n-th differences along axis (!= for bool), after joining prepend before and append
    after x along axis (a number or 0-d array stands for one slice).

    Parameters
    ----------
    x : weft.Array
        The input, of at least one dimension.
    n : int, optional
        How many times to take differences (1 by default; 0 gives x's values).
    axis : int, optional
        The axis (the last by default).
    prepend, append : number or weft.Array, optional
        Values joined to x along axis before the differences are taken.

    Returns
    -------
    weft.Array
        A new array, n shorter along axis (after prepend and append).

    Raises
    ------
    weft.InvalidArgument
        n is negative, x is 0-d, or axis is out of range.

    Examples
    --------
    >>> a = weft.asarray(np.array([1, 4, 9, 16]))
    >>> weft.diff(a).get()
    array([3, 5, 7])
    >>> weft.diff(a, n=2).get()
    array([2, 2])
    >>> weft.diff(a, prepend=0).get()
    array([1, 3, 5, 7])
    """
    x = _array(x, "diff")
    n = _int(n, "diff", "n")
    ends = [None if v is None else _array(v, "diff", x.device) for v in (prepend, append)]
    return _weft._diff(x, _int(axis, "diff", "axis"), n, *ends)


_implemented: list[tuple[Callable[..., Any], Callable[..., Any]]] = [
    (_np.take, take), (_np.take_along_axis, take_along_axis), (_np.diff, diff), (_np.count_nonzero, count_nonzero)]
for _np_f, _f in _implemented:
    implements(_np_f)(_f)
for _name in ("cumulative_sum", "cumulative_prod"):  # (NumPy 2.1 and later)
    if hasattr(_np, _name):
        implements(getattr(_np, _name))(globals()[_name])
del _implemented, _np_f, _f, _name
