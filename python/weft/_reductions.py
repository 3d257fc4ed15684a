"""NumPy's reductions on weft arrays: weft.sum, prod, mean, min/amin, max/amax, any, all,
argmin, argmax, var and std (also what np.sum(a) and the others run through
__array_function__: _functions registers them)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ._array import Array

if TYPE_CHECKING:
    from ._typing import ArrayOperand, DTypeLike


def sum(a: ArrayOperand, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None,  # noqa: A001
        out: Array | None = None, keepdims: bool = False) -> Array:
    """The sum of the elements, as numpy.sum.

    The reduction fuses the expression it reads: ``weft.sum(a * b)`` reads a and b once and
    makes no temporary.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int or tuple of ints, optional
        The axes to reduce; None (the default) reduces all of them.
    dtype : dtype, optional
        The dtype to accumulate and return in (NumPy's default when None).
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).
    keepdims : bool, optional
        Keep the reduced axes, with size 1, so that the result broadcasts against a.

    Returns
    -------
    weft.Array
        The result: a 0-d array when every axis is reduced (``float(r)`` or ``r.get()`` reads it).

    Raises
    ------
    weft.InvalidArgument
        An axis is out of range.
    ValueError
        out has another shape than the result.

    Examples
    --------
    >>> a = weft.asarray(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> float(weft.sum(a))
    10.0
    >>> weft.sum(a, axis=0).get()
    array([4., 6.])
    >>> weft.sum(a * a, axis=1, keepdims=True).get()
    array([[ 5.],
           [25.]])
    """
    return Array.sum(a, axis, dtype, out, keepdims)


def prod(a: ArrayOperand, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None,
         out: Array | None = None, keepdims: bool = False) -> Array:
    """The product of the elements, as numpy.prod.

    The reduction fuses the expression it reads: ``weft.prod(a * b)`` reads a and b once and
    makes no temporary.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int or tuple of ints, optional
        The axes to reduce; None (the default) reduces all of them.
    dtype : dtype, optional
        The dtype to accumulate and return in (NumPy's default when None).
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).
    keepdims : bool, optional
        Keep the reduced axes, with size 1, so that the result broadcasts against a.

    Returns
    -------
    weft.Array
        The result: a 0-d array when every axis is reduced (``float(r)`` or ``r.get()`` reads it).

    Raises
    ------
    weft.InvalidArgument
        An axis is out of range.
    ValueError
        out has another shape than the result.

    Examples
    --------
    >>> a = weft.asarray(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> float(weft.prod(a))
    24.0
    >>> weft.prod(a, axis=1).get()
    array([ 2., 12.])
    """
    return Array.prod(a, axis, dtype, out, keepdims)


def mean(a: ArrayOperand, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None,
         out: Array | None = None, keepdims: bool = False) -> Array:
    """The arithmetic mean of the elements, as numpy.mean.

    The reduction fuses the expression it reads: ``weft.mean(a * b)`` reads a and b once and
    makes no temporary.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int or tuple of ints, optional
        The axes to reduce; None (the default) reduces all of them.
    dtype : dtype, optional
        The dtype to accumulate and return in (NumPy's default when None).
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).
    keepdims : bool, optional
        Keep the reduced axes, with size 1, so that the result broadcasts against a.

    Returns
    -------
    weft.Array
        The result: a 0-d array when every axis is reduced (``float(r)`` or ``r.get()`` reads it).

    Raises
    ------
    weft.InvalidArgument
        An axis is out of range.
    ValueError
        out has another shape than the result.

    Examples
    --------
    >>> a = weft.asarray(np.array([[1.0, 2.0], [3.0, 5.0]]))
    >>> float(weft.mean(a))
    2.75
    >>> weft.mean(a, axis=0).get()
    array([2. , 3.5])
    """
    return Array.mean(a, axis, dtype, out, keepdims)


def amin(a: ArrayOperand, axis: int | tuple[int, ...] | None = None, out: Array | None = None,
         keepdims: bool = False) -> Array:
    """The smallest element (NaN if any is NaN); weft.min is the same function, as numpy.min.

    The reduction fuses the expression it reads: ``weft.min(a * b)`` reads a and b once and
    makes no temporary.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int or tuple of ints, optional
        The axes to reduce; None (the default) reduces all of them.
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).
    keepdims : bool, optional
        Keep the reduced axes, with size 1, so that the result broadcasts against a.

    Returns
    -------
    weft.Array
        The result: a 0-d array when every axis is reduced (``float(r)`` or ``r.get()`` reads it).

    Raises
    ------
    weft.InvalidArgument
        An axis is out of range.
    ValueError
        out has another shape than the result.

    Examples
    --------
    >>> a = weft.asarray(np.array([[4, 2], [3, 7]]))
    >>> int(weft.min(a))
    2
    >>> weft.min(a, axis=0).get()
    array([3, 2])
    """
    return Array.min(a, axis, None, out, keepdims)


def amax(a: ArrayOperand, axis: int | tuple[int, ...] | None = None, out: Array | None = None,
         keepdims: bool = False) -> Array:
    """The largest element (NaN if any is NaN); weft.max is the same function, as numpy.max.

    The reduction fuses the expression it reads: ``weft.max(a * b)`` reads a and b once and
    makes no temporary.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int or tuple of ints, optional
        The axes to reduce; None (the default) reduces all of them.
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).
    keepdims : bool, optional
        Keep the reduced axes, with size 1, so that the result broadcasts against a.

    Returns
    -------
    weft.Array
        The result: a 0-d array when every axis is reduced (``float(r)`` or ``r.get()`` reads it).

    Raises
    ------
    weft.InvalidArgument
        An axis is out of range.
    ValueError
        out has another shape than the result.

    Examples
    --------
    >>> a = weft.asarray(np.array([[4, 2], [3, 7]]))
    >>> int(weft.max(a))
    7
    >>> weft.max(a, axis=1).get()
    array([4, 7])
    """
    return Array.max(a, axis, None, out, keepdims)


min = amin  # noqa: A001
max = amax  # noqa: A001


def any(a: ArrayOperand, axis: int | tuple[int, ...] | None = None, out: Array | None = None,  # noqa: A001
        keepdims: bool = False) -> Array:
    """Whether any element is true (nonzero), as numpy.any.

    The reduction fuses the expression it reads: ``weft.any(a * b)`` reads a and b once and
    makes no temporary.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int or tuple of ints, optional
        The axes to reduce; None (the default) reduces all of them.
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).
    keepdims : bool, optional
        Keep the reduced axes, with size 1, so that the result broadcasts against a.

    Returns
    -------
    weft.Array
        The result: a 0-d array when every axis is reduced (``float(r)`` or ``r.get()`` reads it).

    Raises
    ------
    weft.InvalidArgument
        An axis is out of range.
    ValueError
        out has another shape than the result.

    Examples
    --------
    >>> a = weft.asarray(np.array([[0, 0], [0, 5]]))
    >>> bool(weft.any(a))
    True
    >>> weft.any(a, axis=1).get()
    array([False,  True])
    """
    return Array.any(a, axis, None, out, keepdims)


def all(a: ArrayOperand, axis: int | tuple[int, ...] | None = None, out: Array | None = None,  # noqa: A001
        keepdims: bool = False) -> Array:
    """Whether every element is true (nonzero), as numpy.all.

    The reduction fuses the expression it reads: ``weft.all(a * b)`` reads a and b once and
    makes no temporary.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int or tuple of ints, optional
        The axes to reduce; None (the default) reduces all of them.
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).
    keepdims : bool, optional
        Keep the reduced axes, with size 1, so that the result broadcasts against a.

    Returns
    -------
    weft.Array
        The result: a 0-d array when every axis is reduced (``float(r)`` or ``r.get()`` reads it).

    Raises
    ------
    weft.InvalidArgument
        An axis is out of range.
    ValueError
        out has another shape than the result.

    Examples
    --------
    >>> a = weft.asarray(np.array([[1, 2], [0, 5]]))
    >>> bool(weft.all(a))
    False
    >>> weft.all(a, axis=0).get()
    array([False,  True])
    """
    return Array.all(a, axis, None, out, keepdims)


def argmin(a: ArrayOperand, axis: int | None = None, out: Array | None = None, *, keepdims: bool = False) -> Array:
    """The index of the smallest element, as numpy.argmin.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int, optional
        The axis to search along; None (the default) searches the flattened array.
    out : weft.Array, optional
        An int64 array of the result's shape to write into (it is returned).
    keepdims : bool, optional
        Keep the searched axis, with size 1.

    Returns
    -------
    weft.Array
        int64 indices: a 0-d array when axis is None. The first occurrence wins ties.

    Raises
    ------
    weft.InvalidArgument
        The array is empty, or the axis is out of range.

    Examples
    --------
    >>> a = weft.asarray(np.array([[4.0, 2.0], [1.0, 7.0]]))
    >>> int(weft.argmin(a))
    2
    >>> weft.argmin(a, axis=1).get()
    array([1, 0])
    """
    return Array.argmin(a, axis, out, keepdims=keepdims)


def argmax(a: ArrayOperand, axis: int | None = None, out: Array | None = None, *, keepdims: bool = False) -> Array:
    """The index of the largest element, as numpy.argmax.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int, optional
        The axis to search along; None (the default) searches the flattened array.
    out : weft.Array, optional
        An int64 array of the result's shape to write into (it is returned).
    keepdims : bool, optional
        Keep the searched axis, with size 1.

    Returns
    -------
    weft.Array
        int64 indices: a 0-d array when axis is None. The first occurrence wins ties.

    Raises
    ------
    weft.InvalidArgument
        The array is empty, or the axis is out of range.

    Examples
    --------
    >>> a = weft.asarray(np.array([[4.0, 2.0], [1.0, 7.0]]))
    >>> int(weft.argmax(a))
    3
    >>> weft.argmax(a, axis=0).get()
    array([0, 1])
    """
    return Array.argmax(a, axis, out, keepdims=keepdims)


def _ddof(ddof: float, correction: float | None, name: str) -> float:
    """The Array API's correction= is NumPy's ddof= under another name: one of them, or both equal."""
    if correction is None:
        return ddof
    if ddof != 0 and ddof != correction:
        raise ValueError(f"{name}: ddof={ddof!r} and correction={correction!r} disagree; give one of them")
    return correction


def var(a: ArrayOperand, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None,
        out: Array | None = None, ddof: float = 0, keepdims: bool = False, *,
        correction: float | None = None) -> Array:
    """The variance of the elements, as numpy.var.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int or tuple of ints, optional
        The axes to reduce; None (the default) reduces all of them.
    dtype : dtype, optional
        The dtype to compute in (float64 for integer input, else the input's, when None).
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).
    ddof : number, optional
        Delta degrees of freedom: the divisor is ``N - ddof`` (0 by default).
    keepdims : bool, optional
        Keep the reduced axes, with size 1.
    correction : number, optional
        The Array API's name of ddof; give one of them (or both equal).

    Returns
    -------
    weft.Array
        The result: a 0-d array when every axis is reduced.

    Raises
    ------
    ValueError
        ddof and correction disagree.

    Examples
    --------
    >>> a = weft.asarray(np.array([[1.0, 2.0], [3.0, 6.0]]))
    >>> float(weft.var(a))
    3.5
    >>> weft.var(a, axis=0, ddof=1).get()
    array([2., 8.])
    """
    return Array.var(a, axis, dtype, out, _ddof(ddof, correction, "var"), keepdims)


def std(a: ArrayOperand, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None,
        out: Array | None = None, ddof: float = 0, keepdims: bool = False, *,
        correction: float | None = None) -> Array:
    """The standard deviation of the elements, as numpy.std.

    Parameters
    ----------
    a : weft.Array
        The input.
    axis : int or tuple of ints, optional
        The axes to reduce; None (the default) reduces all of them.
    dtype : dtype, optional
        The dtype to compute in (float64 for integer input, else the input's, when None).
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).
    ddof : number, optional
        Delta degrees of freedom: the divisor is ``N - ddof`` (0 by default).
    keepdims : bool, optional
        Keep the reduced axes, with size 1.
    correction : number, optional
        The Array API's name of ddof; give one of them (or both equal).

    Returns
    -------
    weft.Array
        The result: a 0-d array when every axis is reduced.

    Raises
    ------
    ValueError
        ddof and correction disagree.

    Examples
    --------
    >>> a = weft.asarray(np.array([1.0, 2.0, 3.0, 4.0]))
    >>> round(float(weft.std(a)), 6)
    1.118034
    >>> round(float(weft.std(a, correction=1)), 6)
    1.290994
    """
    return Array.std(a, axis, dtype, out, _ddof(ddof, correction, "std"), keepdims)
