"""NumPy's functions on weft arrays (weft.cumsum(a), weft.reshape(a, ...)), also what
np.sum(a) and the others run through __array_function__ (registered here, the reductions of
_reductions among them)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence, cast

import numbers as _numbers

import numpy as _np

from . import _weft
from ._array import Array
from ._creation import empty_like, full_like, ones_like, zeros_like
from ._dtypes import dtype_name, np_dtype
from ._linalg import matmul as _matmul
from ._protocols import deliver, implements, into, typed_call
# (re-exported: "x as x" says so to type checkers)
from ._reductions import (  # noqa: A004
    all as all, amax as amax, amin as amin, any as any, argmax as argmax, argmin as argmin, max as max,
    mean as mean, min as min, prod as prod, std as std, sum as sum, var as var)
from ._partition import argpartition, partition
from ._sorting import argsort, argwhere, compress, extract, flatnonzero, nonzero, searchsorted, sort, unique
from ._ufuncs import clip, round, where

if TYPE_CHECKING:
    from ._typing import ArrayOperand, DTypeLike, ShapeLike


def cumsum(a: ArrayOperand, axis: int | None = None, dtype: DTypeLike | None = None,
           out: Array | None = None) -> Array:
    """The cumulative sum, as numpy.cumsum: element i combines the elements up to and including i.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int, optional
        The axis to scan along; None (the default) scans the flattened array.
    dtype : dtype, optional
        The dtype to accumulate and return in (NumPy's default when None).
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).

    Returns
    -------
    weft.Array
        The running result, of a's shape (1-D when axis is None).

    Raises
    ------
    weft.InvalidArgument
        The axis is out of range, or out has the wrong shape.

    Examples
    --------
    >>> a = weft.asarray(np.array([[1, 2, 3], [4, 5, 6]]))
    >>> weft.cumsum(a).get()
    array([ 1,  3,  6, 10, 15, 21])
    >>> weft.cumsum(a, axis=1).get()
    array([[ 1,  3,  6],
           [ 4,  9, 15]])
    """
    return Array.cumsum(a, axis, dtype, out)


def cumprod(a: ArrayOperand, axis: int | None = None, dtype: DTypeLike | None = None,
            out: Array | None = None) -> Array:
    """The cumulative product, as numpy.cumprod: element i combines the elements up to and including i.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int, optional
        The axis to scan along; None (the default) scans the flattened array.
    dtype : dtype, optional
        The dtype to accumulate and return in (NumPy's default when None).
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).

    Returns
    -------
    weft.Array
        The running result, of a's shape (1-D when axis is None).

    Raises
    ------
    weft.InvalidArgument
        The axis is out of range, or out has the wrong shape.

    Examples
    --------
    >>> a = weft.asarray(np.array([1.0, 2.0, 3.0, 4.0]))
    >>> weft.cumprod(a).get()
    array([ 1.,  2.,  6., 24.])
    """
    return Array.cumprod(a, axis, dtype, out)


def dot(a: ArrayOperand, b: ArrayOperand, out: Array | None = None) -> Array:
    """The dot product, as numpy.dot: of vectors, the sum of the products (one kernel, no
    temporary); of matrices, the matrix product.

    Parameters
    ----------
    a, b : weft.Array
        The operands, on the same device.
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).

    Returns
    -------
    weft.Array
        A 0-d array for two vectors, else the product.

    Raises
    ------
    weft.InvalidArgument
        The shapes do not match, or the operands are on different devices.

    Examples
    --------
    >>> a = weft.asarray(np.array([1.0, 2.0, 3.0]))
    >>> float(weft.dot(a, a))
    14.0
    """
    return deliver(_weft._dot(a, b), None, out)


def matmul(a: ArrayOperand, b: ArrayOperand, out: Array | None = None, dtype: DTypeLike | None = None) -> Array:
    """The matrix product, as numpy.matmul (the ``@`` operator).

    Parameters
    ----------
    a, b : weft.Array
        The operands: matrices, or stacks of them (broadcast), or vectors (as NumPy's rules).
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).
    dtype : dtype, optional
        Compute in this dtype (the operands are cast under 'same_kind').

    Returns
    -------
    weft.Array
        The product.

    Raises
    ------
    weft.InvalidArgument
        The inner dimensions do not match, or the operands are on different devices.

    Examples
    --------
    >>> a = weft.asarray(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> weft.matmul(a, a).get()
    array([[ 7., 10.],
           [15., 22.]])
    >>> (a @ weft.asarray(np.array([1.0, 1.0]))).get()
    array([3., 7.])
    """
    r = _matmul(a, b) if dtype is None else typed_call(_matmul, (a, b), dtype, "matmul")
    return r if out is None else into(out, r, "matmul")


def reshape(a: ArrayOperand, /, shape: ShapeLike | None = None, *, copy: bool | None = None,
            newshape: ShapeLike | None = None) -> Array:
    """The array with a new shape, as the Array API's reshape (and numpy.reshape).

    Parameters
    ----------
    a : weft.Array
        The input.
    shape : int or tuple of ints
        The new shape; one size may be -1 (inferred).
    copy : bool or None, optional
        True gives a new array; False raises ValueError where the result could not be a view of a
        (weft makes views of C-contiguous arrays only); None (the default): a view where possible.
    newshape : int or tuple of ints, optional
        NumPy's older name of shape.

    Returns
    -------
    weft.Array
        A view of a where possible, else a copy.

    Raises
    ------
    weft.InvalidArgument
        The sizes do not match.
    ValueError
        copy=False and a view is not possible.
    TypeError
        Both shape and newshape, or neither, are given.

    Examples
    --------
    >>> a = weft.arange(6)
    >>> weft.reshape(a, (2, -1)).get()
    array([[0, 1, 2],
           [3, 4, 5]])
    """
    if newshape is not None:
        if shape is not None:
            raise TypeError("reshape: give shape or newshape, not both")
        shape = newshape
    if shape is None:
        raise TypeError("reshape: missing the shape")
    if copy is False and not a.flags_c_contiguous:
        raise ValueError("reshape: copy=False, but this array is not C-contiguous, so the result needs a copy")
    r = a.reshape(shape)
    return r.copy() if copy else r


def transpose(a: ArrayOperand, axes: Sequence[int] | None = None) -> Array:
    """The array with its axes permuted (a view: no copy), as numpy.transpose.

    Parameters
    ----------
    a : weft.Array
        The input.
    axes : tuple of ints, optional
        The new order of the axes; None (the default) reverses them.

    Returns
    -------
    weft.Array
        A view of a.

    Raises
    ------
    weft.InvalidArgument
        axes is not a permutation of a's axes.

    Examples
    --------
    >>> a = weft.asarray(np.arange(6).reshape(2, 3))
    >>> weft.transpose(a).shape
    (3, 2)
    >>> weft.transpose(a).get()
    array([[0, 3],
           [1, 4],
           [2, 5]])
    """
    return a.transpose() if axes is None else a.transpose(axes)


def ravel(a: ArrayOperand) -> Array:
    """The elements as a 1-D array, as numpy.ravel: a view when a is C-contiguous, else a copy.

    Parameters
    ----------
    a : weft.Array
        The input.

    Returns
    -------
    weft.Array
        The flattened array, in C order.

    Examples
    --------
    >>> weft.ravel(weft.asarray(np.array([[1, 2], [3, 4]]))).get()
    array([1, 2, 3, 4])
    """
    return a.ravel()


def copy(a: ArrayOperand) -> Array:
    """A copy of the array on the same device, as numpy.copy.

    Parameters
    ----------
    a : weft.Array
        The input.

    Returns
    -------
    weft.Array
        A new, C-contiguous array with a's elements.

    Examples
    --------
    >>> a = weft.asarray(np.array([1, 2, 3]))
    >>> b = weft.copy(a)
    >>> b[0] = 9
    >>> a.get(), b.get()
    (array([1, 2, 3]), array([9, 2, 3]))
    """
    return a.copy()


def broadcast_to(a: ArrayOperand, shape: ShapeLike) -> Array:
    """The array broadcast to a shape (a view: no copy), as numpy.broadcast_to.

    Parameters
    ----------
    a : weft.Array
        The input.
    shape : tuple of ints
        The shape to broadcast to, by NumPy's rules.

    Returns
    -------
    weft.Array
        A read-only view of a with the new shape.

    Raises
    ------
    weft.InvalidArgument
        a's shape does not broadcast to shape.

    Examples
    --------
    >>> weft.broadcast_to(weft.asarray(np.array([1, 2, 3])), (2, 3)).get()
    array([[1, 2, 3],
           [1, 2, 3]])
    """
    return a.broadcast_to(shape)


def result_type(*arrays_and_dtypes: Array | DTypeLike | complex) -> _np.dtype[Any]:
    """The dtype NumPy's promotion gives weft arrays and dtypes together, as numpy.result_type
    (Python numbers adopt the others' type).

    Parameters
    ----------
    *arrays_and_dtypes : weft.Array, dtype or number
        The operands.

    Returns
    -------
    numpy.dtype

    Examples
    --------
    >>> weft.result_type(weft.zeros(2, np.int8), np.float32)
    dtype('float32')
    """
    names = [x._dtype if isinstance(x, Array) else dtype_name(cast("DTypeLike", x))  # (numbers left out)
             for x in arrays_and_dtypes if not isinstance(x, _numbers.Number)]
    out = names[0]
    for n in names[1:]:
        out = _weft._result_type(out, n)
    return np_dtype(out)


_implemented: list[tuple[Callable[..., Any], Callable[..., Any]]] = [
    (_np.argmin, argmin), (_np.argmax, argmax), (_np.var, var), (_np.std, std),
    (_np.cumsum, cumsum), (_np.cumprod, cumprod), (_np.dot, dot),
    (_np.sum, sum), (_np.prod, prod), (_np.mean, mean), (_np.min, amin), (_np.max, amax),
    (_np.amin, amin), (_np.amax, amax), (_np.any, any), (_np.all, all), (_np.where, where),
    (_np.clip, clip), (_np.reshape, reshape), (_np.transpose, transpose), (_np.ravel, ravel),
    (_np.copy, copy), (_np.broadcast_to, broadcast_to), (_np.zeros_like, zeros_like),
    (_np.ones_like, ones_like), (_np.empty_like, empty_like), (_np.full_like, full_like),
    (_np.round, round), (_np.result_type, result_type), (_np.sort, sort), (_np.argsort, argsort),
    (_np.unique, unique), (_np.searchsorted, searchsorted), (_np.nonzero, nonzero),
    (_np.flatnonzero, flatnonzero), (_np.argwhere, argwhere), (_np.extract, extract),
    (_np.compress, compress), (_np.partition, partition), (_np.argpartition, argpartition),
    (_np.shape, lambda a: a.shape), (_np.ndim, lambda a: a.ndim), (_np.size, lambda a: a.size)]
for _np_f, _f in _implemented:
    implements(_np_f)(_f)
del _implemented, _np_f, _f
