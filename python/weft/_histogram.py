"""NumPy's histograms on weft arrays: weft.histogram, weft.bincount and weft.histogram2d
(also np.histogram(a) and the others through __array_function__). The results are weft
arrays on the data's device, edges included, as CuPy's are device arrays."""
from __future__ import annotations

import operator as _operator
from typing import TYPE_CHECKING, Any, Sequence, SupportsIndex, cast, overload

import numpy as _np

from . import _weft
from ._array import Array
from ._creation import asarray
from ._protocols import implements

if TYPE_CHECKING:
    from ._typing import ArrayLike


def _data(a: ArrayLike | Array, who: str) -> Array:
    if isinstance(a, Array):
        return a
    return asarray(a)


@overload
def _same_device(x: None, data: Array) -> None: ...
@overload
def _same_device(x: ArrayLike | Array, data: Array) -> Array: ...


def _same_device(x: ArrayLike | Array | None, data: Array) -> Array | None:
    """x (an array-like, or None) as a weft array on data's device."""
    if x is None:
        return None
    return asarray(x, device=data.device)


def _bins(bins: ArrayLike | Array, data: Array, who: str, what: str = "bins") -> int | Array:
    if isinstance(bins, str):
        raise _weft.InvalidArgument(f"{who}: bin estimators by name ({bins!r}) are not supported; "
                                    f"give a number of bins or the edges")
    if _np.ndim(bins) == 0 and not isinstance(bins, Array):
        try:
            return _operator.index(cast(SupportsIndex, bins))  # (TypeError when it is not one)
        except TypeError as e:
            raise TypeError(f"`{what}` must be an integer, a string, or an array") from e
    edges = _same_device(bins, data)
    if edges.ndim != 1:
        raise _weft.InvalidArgument(f"`{what}` must be 1d, when an array")
    return edges


def _range(r: tuple[float, float] | None, who: str) -> tuple[float, float] | None:
    if r is None:
        return None
    lo, hi = r
    return float(lo), float(hi)


def histogram(a: ArrayLike | Array, bins: ArrayLike | Array = 10,
              range: tuple[float, float] | None = None,  # noqa: A002  (NumPy's name)
              density: bool | None = None, weights: ArrayLike | Array | None = None) -> tuple[Array, Array]:
    """A histogram of the data, as numpy.histogram, counted on the device.

    The data may be an expression (``weft.histogram(a * b)``): it is read once, in the counting
    kernel. Values outside the range (or the edges) and NaN are not counted; the last bin holds
    its right edge.

    Parameters
    ----------
    a : weft.Array
        The data (flattened).
    bins : int or array_like, optional
        A number of equal bins (10 by default) or the bins' edges, increasing.
    range : (float, float), optional
        The lower and upper edge of the equal bins; the data's min and max by default.
    density : bool, optional
        Return a probability density (counts over the total and the bin widths) as float64.
    weights : weft.Array, optional
        A weight per element (a's shape): the bins hold the weights' sums.

    Returns
    -------
    counts : weft.Array
        The count (or sum of weights, or density) of each bin.
    edges : weft.Array
        The bins' edges, one more than the bins.

    Raises
    ------
    weft.InvalidArgument
        bins or range is malformed, or weights is on another device or of another shape (a
        ValueError, as NumPy raises).

    Examples
    --------
    >>> a = weft.asarray(np.array([0.5, 1.5, 1.7, 2.5, 9.0]))
    >>> counts, edges = weft.histogram(a, bins=3, range=(0, 3))
    >>> counts.get(), edges.get()
    (array([1, 2, 1]), array([0., 1., 2., 3.]))
    """
    a = _data(a, "histogram")
    w = _same_device(weights, a)
    return _weft._histogram(a, _bins(bins, a, "histogram"), _range(range, "histogram"), w, bool(density))


def bincount(x: ArrayLike | Array, weights: ArrayLike | Array | None = None, minlength: SupportsIndex = 0) -> Array:
    """The number of occurrences of each value 0 ... max(x), as numpy.bincount.

    Parameters
    ----------
    x : weft.Array
        A one-dimensional array of non-negative integers.
    weights : weft.Array, optional
        A weight per element: each bin holds the float64 sum of its elements' weights.
    minlength : int, optional
        At least this many bins.

    Returns
    -------
    weft.Array
        int64 counts (float64 sums with weights), max(max(x) + 1, minlength) of them.

    Raises
    ------
    TypeError
        x is not of an integer dtype, or minlength is None.
    weft.InvalidArgument
        x holds a negative value or is not one-dimensional (a ValueError, as NumPy raises).

    Examples
    --------
    >>> weft.bincount(weft.asarray(np.array([0, 1, 1, 3]))).get()
    array([1, 2, 0, 1])
    >>> weft.bincount(weft.asarray(np.array([0, 1, 1])), minlength=4).get()
    array([1, 2, 0, 0])
    """
    x = _data(x, "bincount")
    if x.dtype.kind not in "biu":
        raise TypeError(f"Cannot cast array data from dtype('{x.dtype}') to dtype('int64') according to the rule 'safe'")
    if minlength is None:
        raise TypeError("use 0 instead of None for minlength")
    return _weft._bincount(x, _same_device(weights, x), _operator.index(minlength))


def histogram2d(x: ArrayLike | Array, y: ArrayLike | Array, bins: ArrayLike | Array | Sequence[ArrayLike | Array] = 10,
                range: Sequence[tuple[float, float] | None] | None = None,  # noqa: A002
                density: bool | None = None,
                weights: ArrayLike | Array | None = None) -> tuple[Array, Array, Array]:
    """A two-dimensional histogram of the points (x, y), as numpy.histogram2d, counted on the device.

    Parameters
    ----------
    x, y : weft.Array
        The points' coordinates (same size).
    bins : int, [int, int], array_like or [array_like, array_like], optional
        The number of equal bins (10 by default) or the edges, per dimension or for both.
    range : [[xmin, xmax], [ymin, ymax]], optional
        The equal bins' outer edges; the data's by default.
    density : bool, optional
        Return a probability density.
    weights : weft.Array, optional
        A weight per point.

    Returns
    -------
    H : weft.Array
        float64 counts, x along the first axis.
    xedges, yedges : weft.Array
        The bins' edges.

    Raises
    ------
    weft.InvalidArgument
        The shapes or bins are malformed (a ValueError, as NumPy raises).

    Examples
    --------
    >>> x = weft.asarray(np.array([0.1, 0.6, 0.7]))
    >>> y = weft.asarray(np.array([0.2, 0.3, 0.9]))
    >>> H, xedges, yedges = weft.histogram2d(x, y, bins=2, range=[[0, 1], [0, 1]])
    >>> H.get()
    array([[1., 0.],
           [1., 1.]])
    """
    x = _data(x, "histogram2d")
    y = _same_device(y, x)
    # NumPy's reading: two items are the bins of x and of y; anything else serves both.
    spec: Any = bins  # (read at run time: a number has no len(), an array or a pair does)
    try:
        n = len(spec)
    except TypeError:
        n = 1
    xb, yb = spec if n == 2 else (spec, spec)
    xr = yr = None
    if range is not None:
        xr, yr = range
    return _weft._histogram2d(x, y, _bins(xb, x, "histogram2d", "bins[0]"), _bins(yb, x, "histogram2d", "bins[1]"),
                              _range(xr, "histogram2d"), _range(yr, "histogram2d"),
                              _same_device(weights, x), bool(density))


implements(_np.histogram)(histogram)
implements(_np.bincount)(bincount)
implements(_np.histogram2d)(histogram2d)
