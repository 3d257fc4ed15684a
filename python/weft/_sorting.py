"""Sorting and searching: weft.sort, argsort, unique (and the Array API's unique_values,
unique_counts, unique_inverse, unique_all), searchsorted, with NumPy's signatures, and
sort_by_key; where the nonzero elements are: nonzero, flatnonzero, argwhere, extract, compress
(C++: weft/selection.hpp). All run the stable radix sort of every device (C++: weft/sort.hpp,
weft/unique.hpp, weft/search.hpp); NumPy's order: NaNs last, -0.0 equal to 0.0."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, overload

from collections import namedtuple as _namedtuple

import numpy as _np

from . import _complex_order, _weft
from ._array import Array
from ._creation import asarray

if TYPE_CHECKING:
    from ._typing import ArrayLike

# Every kind sorts stably (the radix sort is): a stable sort is a valid answer to each.
_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _check(kind: str | None, order: object, who: str) -> None:
    if kind not in _KINDS:
        raise ValueError(f"{who}: kind must be 'quicksort', 'mergesort', 'heapsort', 'stable' or None, not {kind!r}")
    if order is not None:
        raise ValueError(f"{who}: order= names fields of structured arrays, which weft does not have")


def _array(a: ArrayLike | Array) -> Array:
    return a if isinstance(a, Array) else asarray(a)


def sort(a: ArrayLike | Array, axis: int | None = -1, kind: str | None = None, order: None = None, *,
         descending: bool = False, stable: bool = True) -> Array:
    """A sorted copy of a along an axis, as numpy.sort and the Array API's sort.

    A stable radix sort on every backend and dtype; descending is the reverse order with ties
    kept in input order, NaNs first.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int or None, optional
        The axis to sort along (the last by default); None sorts the flattened elements.
    kind, order : None
        Accepted for NumPy's signature: only None (every sort is the stable radix sort).
    descending : bool, optional
        Sort from the largest to the smallest.
    stable : bool, optional
        Accepted for the Array API's signature; every sort is stable.

    Returns
    -------
    weft.Array
        The sorted copy (1-D when axis is None).

    Raises
    ------
    weft.InvalidArgument
        The axis is out of range.

    Examples
    --------
    >>> a = weft.asarray(np.array([[3, 1, 2], [9, 7, 8]]))
    >>> weft.sort(a).get()
    array([[1, 2, 3],
           [7, 8, 9]])
    >>> weft.sort(a, axis=None, descending=True).get()
    array([9, 8, 7, 3, 2, 1])
    """
    _check(kind, order, "sort")
    a = _array(a)
    return (_complex_order.sort if a.dtype.kind == "c" else _weft._sort)(a, axis, bool(descending))


def argsort(a: ArrayLike | Array, axis: int | None = -1, kind: str | None = None, order: None = None, *,
            descending: bool = False, stable: bool = True) -> Array:
    """The int64 indices that sort a along an axis, as numpy.argsort and the Array API's argsort.

    Always stable: equal elements keep their order.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int or None, optional
        The axis to sort along (the last by default); None: the flattened elements.
    kind, order : None
        Accepted for NumPy's signature: only None.
    descending : bool, optional
        Indices of the order from the largest to the smallest.
    stable : bool, optional
        Accepted for the Array API's signature; always stable.

    Returns
    -------
    weft.Array
        int64 indices, of a's shape (1-D when axis is None).

    Examples
    --------
    >>> a = weft.asarray(np.array([30, 10, 20, 10]))
    >>> weft.argsort(a).get()
    array([1, 3, 2, 0])
    """
    _check(kind, order, "argsort")
    a = _array(a)
    return (_complex_order.argsort if a.dtype.kind == "c" else _weft._argsort)(a, axis, bool(descending))


def sort_by_key(keys: ArrayLike | Array, values: ArrayLike | Array, axis: int | None = -1, *,
                descending: bool = False) -> tuple[Array, Array]:
    """Sorts keys along an axis and moves values with them (a key-value radix sort, stable).

    Parameters
    ----------
    keys : weft.Array
        The keys.
    values : weft.Array
        The values: keys' shape, any dtype.
    axis : int, optional
        The axis to sort along (the last by default).
    descending : bool, optional
        Sort from the largest key to the smallest.

    Returns
    -------
    tuple of weft.Array
        (the sorted keys, the values in the keys' order).

    Raises
    ------
    weft.InvalidArgument
        values has another shape than keys, or they are on different devices.

    Examples
    --------
    >>> keys = weft.asarray(np.array([3, 1, 2]))
    >>> values = weft.asarray(np.array([30.0, 10.0, 20.0]))
    >>> k, v = weft.sort_by_key(keys, values)
    >>> k.get(), v.get()
    (array([1, 2, 3]), array([10., 20., 30.]))
    """
    return _weft._sort_by_key(_array(keys), _array(values), axis, bool(descending))


def sort_in_place(a: Array, axis: int = -1, kind: str | None = None, order: None = None,
                  descending: bool = False) -> None:
    """Array.sort: a's elements sorted along axis where they are."""
    _check(kind, order, "sort")
    if axis is None or not isinstance(axis, (int, _np.integer)):
        raise TypeError(f"sort: axis must be an int, not {axis!r}")
    _weft._sort_in_place(a, int(axis), bool(descending))


@overload
def unique(ar: ArrayLike | Array, return_index: Literal[False] = False, return_inverse: Literal[False] = False,
           return_counts: Literal[False] = False, axis: None = None, *, equal_nan: bool = True,
           sorted: bool = True) -> Array: ...  # noqa: A002
@overload
def unique(ar: ArrayLike | Array, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: int | None = None, *, equal_nan: bool = True,
           sorted: bool = True) -> Any: ...  # noqa: A002  (a tuple of arrays when a flag is true)


def unique(ar: ArrayLike | Array, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: int | None = None, *, equal_nan: bool = True,
           sorted: bool = True) -> Any:  # noqa: A002 (NumPy's name)
    """The sorted distinct elements of the flattened array, as numpy.unique.

    With the flags, also the index of each distinct element's first occurrence, the inverse (of
    ar's shape: ``ar == unique[inverse]``) and the counts, in that order. With equal_nan
    (NumPy 2's default) all NaNs are one element.

    Parameters
    ----------
    ar : weft.Array
        The input.
    return_index, return_inverse, return_counts : bool, optional
        Also return the first indices, the inverse, the counts (int64 arrays).
    axis : int or None, optional
        None: the flattened array's elements. An int: the distinct slices along that axis, in
        lexicographic order (weft/_unique_axis.py); the inverse then has the axis' length.
    equal_nan : bool, optional
        Whether all NaNs are one element (True by default).
    sorted : bool, optional
        Accepted for NumPy's signature; the result is always sorted.

    Returns
    -------
    weft.Array or tuple of weft.Array
        The distinct elements, followed by the arrays asked for.

    Examples
    --------
    >>> a = weft.asarray(np.array([3, 1, 3, 2, 1, 3]))
    >>> weft.unique(a).get()
    array([1, 2, 3])
    >>> values, counts = weft.unique(a, return_counts=True)
    >>> counts.get()
    array([2, 1, 3])
    """
    a = _array(ar)
    if axis is not None and a.ndim == 1:
        # NumPy: a 1-D array's slices are its elements, NaNs merged by equal_nan.
        _unique_axis_check(axis, 1)
        axis = None
    if axis is not None:
        from ._unique_axis import unique_along  # (it imports this module)
        v, i, inv, c = unique_along(a, axis, bool(return_index), bool(return_inverse), bool(return_counts))
        extras_axis = [x for x, want in ((i, return_index), (inv, return_inverse), (c, return_counts)) if want]
        return (v, *extras_axis) if extras_axis else v
    unique_of = _complex_order.unique if a.dtype.kind == "c" else None
    u, index, inverse, counts = (unique_of(a, bool(equal_nan)) if unique_of else _weft._unique(
        a, bool(return_index), bool(return_inverse), bool(return_counts), bool(equal_nan)))
    extras = [x for x, want in ((index, return_index), (inverse, return_inverse), (counts, return_counts)) if want]
    return (u, *extras) if extras else u


def _unique_axis_check(axis: object, nd: int) -> None:
    from ._unique_axis import check_axis  # (it imports this module)
    check_axis(axis, nd)


UniqueAllResult = _namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = _namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = _namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def unique_values(x: ArrayLike | Array) -> Array:
    """The distinct elements (sorted here), each NaN distinct as the standard and NumPy 2 have
    it (NaNs compare unequal): the Array API's unique_values.

    Parameters
    ----------
    x : weft.Array
        The input (any shape; it is flattened).

    Returns
    -------
    weft.Array
        The distinct elements.

    Examples
    --------
    >>> weft.unique_values(weft.asarray(np.array([2.0, np.nan, 2.0, np.nan]))).get()
    array([ 2., nan, nan])
    """
    return unique(x, equal_nan=False)


def unique_counts(x: ArrayLike | Array) -> UniqueCountsResult:
    """The distinct elements and how often each occurs: the Array API's unique_counts.

    Parameters
    ----------
    x : weft.Array
        The input (any shape; it is flattened).

    Returns
    -------
    UniqueCountsResult
        A named tuple (values, counts) of weft arrays; counts is int64.

    Examples
    --------
    >>> r = weft.unique_counts(weft.asarray(np.array([5, 7, 5, 5])))
    >>> r.values.get(), r.counts.get()
    (array([5, 7]), array([3, 1]))
    """
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False))


def unique_inverse(x: ArrayLike | Array) -> UniqueInverseResult:
    """The distinct elements and the inverse: the Array API's unique_inverse.

    Parameters
    ----------
    x : weft.Array
        The input.

    Returns
    -------
    UniqueInverseResult
        A named tuple (values, inverse_indices): ``x == values[inverse_indices]``, the inverse of
        x's shape (int64).

    Examples
    --------
    >>> r = weft.unique_inverse(weft.asarray(np.array([5, 7, 5, 5])))
    >>> r.values.get(), r.inverse_indices.get()
    (array([5, 7]), array([0, 1, 0, 0]))
    """
    return UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False))


def unique_all(x: ArrayLike | Array) -> UniqueAllResult:
    """The distinct elements with their first indices, the inverse and the counts: the Array
    API's unique_all.

    Parameters
    ----------
    x : weft.Array
        The input.

    Returns
    -------
    UniqueAllResult
        A named tuple (values, indices, inverse_indices, counts) of weft arrays (int64 but values).

    Examples
    --------
    >>> r = weft.unique_all(weft.asarray(np.array([5, 7, 5])))
    >>> r.values.get(), r.indices.get(), r.inverse_indices.get(), r.counts.get()
    (array([5, 7]), array([0, 1]), array([0, 1, 0]), array([2, 1]))
    """
    return UniqueAllResult(*unique(x, True, True, True, equal_nan=False))


def searchsorted(a: ArrayLike | Array, v: ArrayLike | Array, side: str = "left",
                 sorter: ArrayLike | Array | None = None) -> Array:
    """Where each element of v goes in the sorted 1-D array a, as numpy.searchsorted.

    Parameters
    ----------
    a : weft.Array
        A 1-D array sorted ascending (or sorted through sorter).
    v : weft.Array or array_like
        The values to place.
    side : {'left', 'right'}, optional
        'left': the first suitable place; 'right': the last.
    sorter : weft.Array, optional
        The indices that sort a (as argsort gives them).

    Returns
    -------
    weft.Array
        int64 positions, of v's shape.

    Raises
    ------
    ValueError
        side is neither 'left' nor 'right'.

    Examples
    --------
    >>> a = weft.asarray(np.array([1, 3, 5, 7]))
    >>> weft.searchsorted(a, weft.asarray(np.array([0, 3, 6]))).get()
    array([0, 1, 3])
    >>> weft.searchsorted(a, weft.asarray(np.array([3])), side="right").get()
    array([2])
    """
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', not {side!r}")
    a = _array(a)
    if not isinstance(v, Array):
        v = asarray(_np.asarray(v), device=a.device)
    if sorter is not None:
        sorter = asarray(sorter, device=a.device)
        if sorter.dtype != _np.int64 and sorter.dtype.kind in "iu":
            sorter = sorter.astype(_np.int64)
    return _weft._searchsorted(a, v, side == "right", sorter)


def flatnonzero(a: ArrayLike | Array) -> Array:
    """The indices of the nonzero elements of the flattened array, as numpy.flatnonzero.

    Parameters
    ----------
    a : weft.Array
        The input.

    Returns
    -------
    weft.Array
        int64 indices into ``a.ravel()``.

    Examples
    --------
    >>> weft.flatnonzero(weft.asarray(np.array([[0, 5], [7, 0]]))).get()
    array([1, 2])
    """
    return _weft._flatnonzero(_array(a))


def nonzero(a: ArrayLike | Array) -> tuple[Array, ...]:
    """The indices of the nonzero elements, one int64 array per dimension, as numpy.nonzero.

    Parameters
    ----------
    a : weft.Array
        The input.

    Returns
    -------
    tuple of weft.Array
        ``a[result]`` are the nonzero elements, in C order.

    Examples
    --------
    >>> rows, cols = weft.nonzero(weft.asarray(np.array([[0, 5], [7, 0]])))
    >>> rows.get(), cols.get()
    (array([0, 1]), array([1, 0]))
    """
    a = _array(a)
    if a.ndim == 0:
        raise ValueError("nonzero: a 0-d array has no dimensions to index (NumPy 2 refuses it too); "
                         "use weft.atleast_1d(a) or argwhere")
    return _weft._nonzero(a)


def argwhere(a: ArrayLike | Array) -> Array:
    """The indices of the nonzero elements, one row per element, as numpy.argwhere.

    Parameters
    ----------
    a : weft.Array
        The input.

    Returns
    -------
    weft.Array
        int64 of shape (number of nonzero elements, a.ndim).

    Examples
    --------
    >>> weft.argwhere(weft.asarray(np.array([[0, 5], [7, 0]]))).get()
    array([[0, 1],
           [1, 0]])
    """
    return _weft._argwhere(_array(a))


def extract(condition: ArrayLike | Array, arr: ArrayLike | Array) -> Array:
    """The elements of arr where condition is nonzero, flattened in C order, as numpy.extract.

    Parameters
    ----------
    condition : weft.Array or array_like
        As many elements as arr; nonzero selects.
    arr : weft.Array
        The input.

    Returns
    -------
    weft.Array
        The selected elements, 1-D.

    Raises
    ------
    weft.InvalidArgument
        condition and arr have different sizes.

    Examples
    --------
    >>> a = weft.arange(6)
    >>> weft.extract(a % 2 == 0, a).get()
    array([0, 2, 4])
    """
    return _weft._extract(_array(condition), _array(arr))


def compress(condition: ArrayLike | Array, a: ArrayLike | Array, axis: int | None = None, out: None = None) -> Array:
    """The slices of a along an axis where the 1-D condition is true, as numpy.compress.

    A condition shorter than the axis selects among its first elements; a longer one may be true
    only within the axis.

    Parameters
    ----------
    condition : weft.Array or array_like
        A 1-D boolean (or nonzero-is-true) selector.
    a : weft.Array
        The input.
    axis : int or None, optional
        The axis to select along; None (the default): the flattened elements.
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).

    Returns
    -------
    weft.Array
        The selected slices.

    Raises
    ------
    IndexError
        The condition is true past the end of the axis.

    Examples
    --------
    >>> a = weft.asarray(np.array([[1, 2], [3, 4], [5, 6]]))
    >>> weft.compress(weft.asarray(np.array([True, False, True])), a, axis=0).get()
    array([[1, 2],
           [5, 6]])
    """
    if out is not None:
        raise TypeError("compress: out= is not supported; the result is a new weft array")
    x = _array(a)
    cond = _array(condition)
    if cond.ndim != 1:
        raise ValueError(f"compress: condition must be 1-d, got {cond.ndim} dimensions")
    if axis is None:
        x, axis = x.reshape(-1), 0
    if not isinstance(axis, int) or isinstance(axis, bool) or not -x.ndim <= axis < x.ndim:
        raise _np.exceptions.AxisError(f"compress: axis {axis!r} is out of bounds for {x.ndim} dimensions")
    axis %= x.ndim
    index = _weft._flatnonzero(cond)
    if index.size and int(index[-1].get()) >= x.shape[axis]:
        raise IndexError(f"compress: condition selects index {int(index[-1].get())}, beyond axis {axis} "
                         f"of length {x.shape[axis]}")
    return asarray(x[(slice(None),) * axis + (index,)])
