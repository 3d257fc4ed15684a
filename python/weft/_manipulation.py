"""The Array API's creation, manipulation, indexing and statistics functions (2024.12) with
NumPy's results: eye, tril, triu, meshgrid (defined in _matrices), broadcast_arrays, concat,
stack, unstack, expand_dims, squeeze, flip, moveaxis, permute_dims, repeat, roll, tile
(here), take, take_along_axis, cumulative_sum, cumulative_prod, count_nonzero and diff
(defined in _statistics); this module holds them all.

Each runs in C++ (weft/manipulation.hpp, weft/statistics.hpp) on the arrays' device: views
where NumPy gives views, else generated copy, gather and scan kernels. These modules check and
convert the arguments (NumPy's names and messages, _api_args) and nothing else."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence, SupportsIndex

import numpy as _np

from . import _weft
from ._api_args import _ArrayBase, _array, _arrays, _indices, _int, _ints
from ._matrices import eye as eye, meshgrid as meshgrid, tril as tril, triu as triu  # (re-exported)
from ._protocols import implements
from ._statistics import (  # (re-exported)
    count_nonzero as count_nonzero,
    cumulative_prod as cumulative_prod,
    cumulative_sum as cumulative_sum,
    diff as diff,
    take as take,
    take_along_axis as take_along_axis,
)

if TYPE_CHECKING:
    from ._array import Array
    from ._typing import ArrayLike


# ---- manipulation ---------------------------------------------------------------------------

def broadcast_arrays(*arrays: ArrayLike | Array) -> tuple[Array, ...]:
    """Views of the arrays broadcast against each other.

    Parameters
    ----------
    *arrays : weft.Array
        The arrays (host data is copied to the first array's device).

    Returns
    -------
    tuple of weft.Array
        Read-only views of the inputs, all of the broadcast shape.

    Raises
    ------
    weft.InvalidArgument
        The shapes do not broadcast.

    Examples
    --------
    >>> a, b = weft.broadcast_arrays(weft.asarray(np.array([[1], [2]])), weft.asarray(np.array([10, 20, 30])))
    >>> a.shape, b.shape
    ((2, 3), (2, 3))
    >>> a.get()
    array([[1, 1, 1],
           [2, 2, 2]])
    """
    return tuple(_weft._broadcast_arrays(_arrays(list(arrays), "broadcast_arrays")))


def concat(arrays: Sequence[ArrayLike | Array], /, *, axis: SupportsIndex | None = 0) -> Array:
    """The arrays joined along axis (None: flattened first), in their promoted dtype.

    Parameters
    ----------
    arrays : list or tuple of weft.Array
        The arrays, of one shape except along axis.
    axis : int or None, optional
        The axis to join along (0 by default); None flattens them first.

    Returns
    -------
    weft.Array
        A new array, in the inputs' promoted dtype.

    Raises
    ------
    TypeError
        arrays is not a list or tuple.
    weft.InvalidArgument
        The shapes differ off axis, or axis is out of range.

    Examples
    --------
    >>> a = weft.asarray(np.array([[1, 2], [3, 4]]))
    >>> b = weft.asarray(np.array([[5, 6]]))
    >>> weft.concat([a, b]).get()
    array([[1, 2],
           [3, 4],
           [5, 6]])
    >>> weft.concat([a, b], axis=None).get()
    array([1, 2, 3, 4, 5, 6])
    """
    return _weft._concat(_arrays(arrays, "concat"), None if axis is None else _int(axis, "concat", "axis"))


def concatenate(arrays: Sequence[ArrayLike | Array], axis: SupportsIndex | None = 0) -> Array:
    """NumPy's name of concat.

    Parameters
    ----------
    arrays : list or tuple of weft.Array
        The arrays, of one shape except along axis.
    axis : int or None, optional
        The axis to join along (0 by default); None flattens them first.

    Returns
    -------
    weft.Array
        A new array, in the inputs' promoted dtype.

    Raises
    ------
    TypeError
        arrays is not a list or tuple.
    weft.InvalidArgument
        The shapes differ off axis, or axis is out of range.

    Examples
    --------
    >>> a = weft.asarray(np.array([1, 2]))
    >>> weft.concatenate([a, weft.asarray(np.array([3.5]))]).get()
    array([1. , 2. , 3.5])
    """
    return concat(arrays, axis=axis)


def stack(arrays: Sequence[ArrayLike | Array], /, *, axis: SupportsIndex = 0) -> Array:
    """Arrays of one shape joined along a new axis.

    Parameters
    ----------
    arrays : list or tuple of weft.Array
        The arrays, all of one shape.
    axis : int, optional
        Where the new axis goes in the result (0 by default; negative counts from the end).

    Returns
    -------
    weft.Array
        A new array with one more dimension, in the inputs' promoted dtype.

    Raises
    ------
    TypeError
        arrays is not a list or tuple.
    weft.InvalidArgument
        The shapes differ, or axis is out of range.

    Examples
    --------
    >>> a = weft.asarray(np.array([1, 2, 3]))
    >>> b = weft.asarray(np.array([4, 5, 6]))
    >>> weft.stack([a, b]).get()
    array([[1, 2, 3],
           [4, 5, 6]])
    >>> weft.stack([a, b], axis=1).shape
    (3, 2)
    """
    return _weft._stack(_arrays(arrays, "stack"), _int(axis, "stack", "axis"))


def unstack(x: ArrayLike | Array, /, *, axis: SupportsIndex = 0) -> tuple[Array, ...]:
    """The views x[..., i, ...] along axis, as a tuple.

    Parameters
    ----------
    x : weft.Array
        The input.
    axis : int, optional
        The axis to split along (0 by default).

    Returns
    -------
    tuple of weft.Array
        x.shape[axis] views of x, each without that axis.

    Raises
    ------
    weft.InvalidArgument
        An axis is out of range.

    Examples
    --------
    >>> rows = weft.unstack(weft.asarray(np.array([[1, 2], [3, 4]])))
    >>> [r.get() for r in rows]
    [array([1, 2]), array([3, 4])]
    >>> [c.get() for c in weft.unstack(weft.asarray(np.array([[1, 2], [3, 4]])), axis=1)]
    [array([1, 3]), array([2, 4])]
    """
    return tuple(_weft._unstack(_array(x, "unstack"), _int(axis, "unstack", "axis")))


def expand_dims(x: ArrayLike | Array, /, axis: SupportsIndex | Sequence[SupportsIndex] = 0) -> Array:
    """A view of x with an extent-1 axis at axis (an int, or a tuple of them).

    Parameters
    ----------
    x : weft.Array
        The input.
    axis : int or tuple of ints, optional
        Where the new axes are in the result (0 by default).

    Returns
    -------
    weft.Array
        A view of x with len(axis) more dimensions.

    Raises
    ------
    weft.IndexOutOfRange
        An axis is outside [-N, N) for a result of N dimensions (an IndexError, as the standard
        asks).

    Examples
    --------
    >>> a = weft.asarray(np.array([1, 2, 3]))
    >>> weft.expand_dims(a, axis=0).shape
    (1, 3)
    >>> weft.expand_dims(a, axis=(0, 2)).shape
    (1, 3, 1)
    """
    x = _array(x, "expand_dims")
    axes = _ints(axis, "expand_dims", "axis")
    n = x.ndim + len(axes)
    for a in axes:
        if not -n <= a < n:
            raise _weft.IndexOutOfRange(f"expand_dims: axis {a} is out of bounds for a result of {n} dimensions "
                                        f"(x has {x.ndim}): expected -{n} <= axis < {n}")
    return _weft._expand_dims(x, axes)


def squeeze(x: ArrayLike | Array, /, axis: SupportsIndex | Sequence[SupportsIndex] | None = None) -> Array:
    """A view of x without its extent-1 axes (axis: only those, an int or a tuple).

    Parameters
    ----------
    x : weft.Array
        The input.
    axis : int or tuple of ints, optional
        The axes to remove, each of extent 1; None (the default): every axis of extent 1.

    Returns
    -------
    weft.Array
        A view of x.

    Raises
    ------
    weft.InvalidArgument
        An axis is out of range or its extent is not 1.

    Examples
    --------
    >>> a = weft.zeros((1, 3, 1))
    >>> weft.squeeze(a).shape
    (3,)
    >>> weft.squeeze(a, axis=0).shape
    (3, 1)
    """
    return _weft._squeeze(_array(x, "squeeze"), None if axis is None else _ints(axis, "squeeze", "axis"))


def flip(x: ArrayLike | Array, /, axis: SupportsIndex | Sequence[SupportsIndex] | None = None) -> Array:
    """A view of x reversed along axis (None: every axis; an int or a tuple).

    Parameters
    ----------
    x : weft.Array
        The input.
    axis : int or tuple of ints, optional
        The axes to reverse; None (the default): every axis.

    Returns
    -------
    weft.Array
        A view of x.

    Raises
    ------
    weft.InvalidArgument
        An axis is out of range.

    Examples
    --------
    >>> a = weft.asarray(np.array([[1, 2], [3, 4]]))
    >>> weft.flip(a).get()
    array([[4, 3],
           [2, 1]])
    >>> weft.flip(a, axis=1).get()
    array([[2, 1],
           [4, 3]])
    """
    return _weft._flip(_array(x, "flip"), None if axis is None else _ints(axis, "flip", "axis"))


def moveaxis(x: ArrayLike | Array, source: SupportsIndex | Sequence[SupportsIndex],
             destination: SupportsIndex | Sequence[SupportsIndex], /) -> Array:
    """A view of x with axes source moved to destination (ints or tuples of one length).

    Parameters
    ----------
    x : weft.Array
        The input.
    source : int or tuple of ints
        The axes to move.
    destination : int or tuple of ints
        Where they go in the result, as many as source.

    Returns
    -------
    weft.Array
        A view of x.

    Raises
    ------
    weft.InvalidArgument
        An axis is out of range or repeated, or source and destination differ in length.

    Examples
    --------
    >>> a = weft.zeros((2, 3, 4))
    >>> weft.moveaxis(a, 0, -1).shape
    (3, 4, 2)
    >>> weft.moveaxis(a, (0, 1), (2, 0)).shape
    (3, 4, 2)
    """
    return _weft._moveaxis(_array(x, "moveaxis"), _ints(source, "moveaxis", "source"),
                           _ints(destination, "moveaxis", "destination"))


def permute_dims(x: ArrayLike | Array, /, axes: Sequence[SupportsIndex]) -> Array:
    """A view of x with its axes in the order given (a permutation of range(x.ndim)).

    Parameters
    ----------
    x : weft.Array
        The input.
    axes : tuple of ints
        A permutation of range(x.ndim): axis i of the result is axis axes[i] of x.

    Returns
    -------
    weft.Array
        A view of x.

    Raises
    ------
    TypeError
        axes is not a tuple or list.
    weft.InvalidArgument
        axes is not a permutation of x's axes.

    Examples
    --------
    >>> a = weft.asarray(np.arange(6).reshape(1, 2, 3))
    >>> weft.permute_dims(a, (2, 0, 1)).shape
    (3, 1, 2)
    >>> weft.permute_dims(a, (0, 2, 1)).get()
    array([[[0, 3],
            [1, 4],
            [2, 5]]])
    """
    if not isinstance(axes, (tuple, list)):
        raise TypeError(f"permute_dims: axes must be a tuple of ints, not {type(axes).__name__}")
    return _weft._permute_dims(_array(x, "permute_dims"), _ints(axes, "permute_dims", "axis"))


def repeat(x: ArrayLike | Array, repeats: SupportsIndex | ArrayLike | Array, /,
           axis: SupportsIndex | None = None) -> Array:
    """Each element of x repeated along axis (None: of the flattened x): repeats (an int) times,
    or as many times as the integer array repeats says for each.

    Parameters
    ----------
    x : weft.Array
        The input.
    repeats : int or sequence or weft.Array of ints
        How many times each element is repeated: one count for all, or one per element along
        axis.
    axis : int, optional
        The axis to repeat along; None (the default) repeats the flattened x.

    Returns
    -------
    weft.Array
        A new array, of x's dtype.

    Raises
    ------
    weft.InvalidArgument
        A count is negative, there is not one count per element, or axis is out of range.

    Examples
    --------
    >>> a = weft.asarray(np.array([[1, 2], [3, 4]]))
    >>> weft.repeat(a, 2).get()
    array([1, 1, 2, 2, 3, 3, 4, 4])
    >>> weft.repeat(a, [1, 2], axis=0).get()
    array([[1, 2],
           [3, 4],
           [3, 4]])
    """
    x = _array(x, "repeat")
    axis = None if axis is None else _int(axis, "repeat", "axis")
    if isinstance(repeats, _ArrayBase) or isinstance(repeats, (list, tuple, _np.ndarray)):
        return _weft._repeat(x, _indices(repeats, x, "repeat"), axis)
    return _weft._repeat(x, _int(repeats, "repeat", "repeats"), axis)


def roll(x: ArrayLike | Array, /, shift: SupportsIndex | Sequence[SupportsIndex],
         axis: SupportsIndex | Sequence[SupportsIndex] | None = None) -> Array:
    """x's elements shifted by shift along axis (None: of the flattened x), wrapping around;
    shift and axis may be tuples (paired up; shifts on one axis add).

    Parameters
    ----------
    x : weft.Array
        The input.
    shift : int or tuple of ints
        How many places the elements move (toward the end when positive).
    axis : int or tuple of ints, optional
        The axes to roll along; None (the default) rolls the flattened x and keeps its shape.

    Returns
    -------
    weft.Array
        A new array of x's shape and dtype.

    Raises
    ------
    weft.InvalidArgument
        An axis is out of range.

    Examples
    --------
    >>> weft.roll(weft.asarray(np.arange(5)), 2).get()
    array([3, 4, 0, 1, 2])
    >>> weft.roll(weft.asarray(np.array([[1, 2, 3], [4, 5, 6]])), -1, axis=1).get()
    array([[2, 3, 1],
           [5, 6, 4]])
    """
    return _weft._roll(_array(x, "roll"), _ints(shift, "roll", "shift"),
                       None if axis is None else _ints(axis, "roll", "axis"))


def tile(x: ArrayLike | Array, repetitions: SupportsIndex | Sequence[SupportsIndex], /) -> Array:
    """x repeated along each dimension (NumPy's tile: the shorter of x.shape and repetitions
    padded with leading ones).

    Parameters
    ----------
    x : weft.Array
        The input.
    repetitions : int or tuple of ints
        How many copies along each dimension.

    Returns
    -------
    weft.Array
        A new array, of x's dtype.

    Raises
    ------
    weft.InvalidArgument
        A repetition count is negative.

    Examples
    --------
    >>> a = weft.asarray(np.array([1, 2]))
    >>> weft.tile(a, 3).get()
    array([1, 2, 1, 2, 1, 2])
    >>> weft.tile(a, (2, 2)).get()
    array([[1, 2, 1, 2],
           [1, 2, 1, 2]])
    """
    return _weft._tile(_array(x, "tile"), _ints(repetitions, "tile", "repetitions"))


_implemented: list[tuple[Callable[..., Any], Callable[..., Any]]] = [
    (_np.concatenate, concatenate), (_np.stack, stack), (_np.expand_dims, expand_dims), (_np.squeeze, squeeze),
    (_np.flip, flip), (_np.moveaxis, moveaxis), (_np.repeat, repeat), (_np.roll, roll), (_np.tile, tile),
    (_np.broadcast_arrays, broadcast_arrays)]
for _np_f, _f in _implemented:
    implements(_np_f)(_f)
if hasattr(_np, "unstack"):  # (NumPy 2.1 and later)
    implements(_np.unstack)(unstack)
del _implemented, _np_f, _f
