"""The Array API's matrices and grids (2024.12) with NumPy's results: eye, tril, triu and
meshgrid, on the arrays' device (C++: weft/manipulation.hpp); this module checks and converts
the arguments."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, SupportsIndex

import numpy as _np

from . import _weft
from ._api_args import _array, _arrays, _int
from ._creation import _made, _where
from ._dtypes import dtype_name, float64
from ._protocols import implements

if TYPE_CHECKING:
    from ._array import Array
    from ._typing import ArrayLike, DTypeLike, DeviceLike


# ---- creation -------------------------------------------------------------------------------

def eye(n_rows: SupportsIndex, n_cols: SupportsIndex | None = None, k: SupportsIndex = 0,
        dtype: DTypeLike | None = None, device: DeviceLike = None) -> Array:
    """An n_rows x n_cols (n_rows when None) array with ones on diagonal k and zeros elsewhere.

    Parameters
    ----------
    n_rows : int
        The number of rows.
    n_cols : int, optional
        The number of columns; n_rows when None.
    k : int, optional
        The diagonal: 0 (the default) the main one, positive above it, negative below.
    dtype : dtype, optional
        The dtype (float64 when None).
    device : weft.Device, weft.Queue or str, optional
        Where the array lives (the current device when None).

    Returns
    -------
    weft.Array
        A new n_rows x n_cols array.

    Raises
    ------
    TypeError
        A size or k is not an integer.
    weft.InvalidArgument
        A size is negative.

    Examples
    --------
    >>> weft.eye(3, k=1).get()
    array([[0., 1., 0.],
           [0., 0., 1.],
           [0., 0., 0.]])
    >>> weft.eye(2, 3, dtype=np.int32).get()
    array([[1, 0, 0],
           [0, 1, 0]], dtype=int32)
    """
    n_rows = _int(n_rows, "eye", "n_rows")
    n_cols = None if n_cols is None else _int(n_cols, "eye", "n_cols")
    d, auto = _where(device)
    return _made(_weft._eye(n_rows, n_cols, _int(k, "eye", "k"), dtype_name(float64 if dtype is None else dtype), d),
                 auto)


def tril(x: ArrayLike | Array, /, k: SupportsIndex = 0) -> Array:
    """x with the elements above diagonal k of its last two axes zeroed (a new array).

    Parameters
    ----------
    x : weft.Array
        The input, of at least two dimensions (a stack of matrices in its last two).
    k : int, optional
        The diagonal: 0 (the default) the main one, positive above it, negative below.

    Returns
    -------
    weft.Array
        A new array of x's shape and dtype.

    Examples
    --------
    >>> a = weft.asarray(np.arange(1, 10).reshape(3, 3))
    >>> weft.tril(a).get()
    array([[1, 0, 0],
           [4, 5, 0],
           [7, 8, 9]])
    >>> weft.tril(a, k=-1).get()
    array([[0, 0, 0],
           [4, 0, 0],
           [7, 8, 0]])
    """
    return _weft._tril(_array(x, "tril"), _int(k, "tril", "k"))


def triu(x: ArrayLike | Array, /, k: SupportsIndex = 0) -> Array:
    """x with the elements below diagonal k of its last two axes zeroed (a new array).

    Parameters
    ----------
    x : weft.Array
        The input, of at least two dimensions (a stack of matrices in its last two).
    k : int, optional
        The diagonal: 0 (the default) the main one, positive above it, negative below.

    Returns
    -------
    weft.Array
        A new array of x's shape and dtype.

    Examples
    --------
    >>> a = weft.asarray(np.arange(1, 10).reshape(3, 3))
    >>> weft.triu(a).get()
    array([[1, 2, 3],
           [0, 5, 6],
           [0, 0, 9]])
    >>> weft.triu(a, k=1).get()
    array([[0, 2, 3],
           [0, 0, 6],
           [0, 0, 0]])
    """
    return _weft._triu(_array(x, "triu"), _int(k, "triu", "k"))


def meshgrid(*arrays: ArrayLike | Array, indexing: str = "xy") -> tuple[Array, ...]:
    """Coordinate arrays of 1-D arrays (new arrays): 'xy' (Cartesian, the default) or 'ij'
    (matrix) indexing, as NumPy's meshgrid.

    Parameters
    ----------
    *arrays : weft.Array
        1-D arrays, the coordinates along each axis.
    indexing : {'xy', 'ij'}, optional
        'xy' (the default): the first two outputs have shape (len(y), len(x), ...); 'ij': the
        shape follows the order of the inputs.

    Returns
    -------
    tuple of weft.Array
        One coordinate array per input, all of one shape.

    Raises
    ------
    ValueError
        indexing is neither 'xy' nor 'ij'.

    Examples
    --------
    >>> xs, ys = weft.meshgrid(weft.asarray(np.array([1, 2, 3])), weft.asarray(np.array([10, 20])))
    >>> xs.get()
    array([[1, 2, 3],
           [1, 2, 3]])
    >>> ys.get()
    array([[10, 10, 10],
           [20, 20, 20]])
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', not {indexing!r}")
    return tuple(_weft._meshgrid(_arrays(list(arrays), "meshgrid"), indexing == "ij"))


_implemented: list[tuple[Callable[..., Any], Callable[..., Any]]] = [
    (_np.tril, tril), (_np.triu, triu), (_np.meshgrid, meshgrid)]
for _np_f, _f in _implemented:
    implements(_np_f)(_f)
del _implemented, _np_f, _f
