"""The Array API's creation, manipulation, indexing and statistics functions (2024.12) with
NumPy's results: eye, tril, triu, meshgrid, broadcast_arrays, concat, stack, unstack,
expand_dims, squeeze, flip, moveaxis, permute_dims, repeat, roll, tile, take,
take_along_axis, cumulative_sum, cumulative_prod, count_nonzero and diff.

Each runs in C++ (weft/manipulation.hpp, weft/statistics.hpp) on the arrays' device: views
where NumPy gives views, else generated copy, gather and scan kernels. This module checks and
converts the arguments (NumPy's names and messages) and nothing else."""
from __future__ import annotations

import builtins as _builtins
import operator as _operator

import numpy as _np

from . import _weft
from ._creation import _dev, asarray
from ._dtypes import dtype_name, float64, int64
from ._protocols import implements

_ArrayBase = _weft._Array


def _int(v, who, what):
    """v as a Python int (an integer or anything with __index__), else TypeError naming what."""
    if isinstance(v, (_builtins.bool, _np.bool_)):
        raise TypeError(f"{who}: {what} must be an integer, not bool")
    try:
        return _operator.index(v)
    except TypeError:
        raise TypeError(f"{who}: {what} must be an integer, not {type(v).__name__}") from None


def _ints(v, who, what):
    """An integer or a sequence of them as a list of ints."""
    if isinstance(v, (tuple, list)):
        return [_int(x, who, what) for x in v]
    return [_int(v, who, what)]


def _array(x, who, device=None):
    """x as a weft.Array: one already is; host data (a list, a NumPy array, a number) is copied to
    device (the current device when None)."""
    if isinstance(x, _ArrayBase):
        return x
    try:
        return asarray(x, device=device)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{who}: expected an array, not {type(x).__name__} ({e})") from None


def _arrays(arrays, who):
    """A sequence of arrays as weft.Arrays, host data going to the first weft.Array's device."""
    if isinstance(arrays, _ArrayBase) or not isinstance(arrays, (list, tuple)):
        raise TypeError(f"{who}: expected a sequence (list or tuple) of arrays, not {type(arrays).__name__}")
    device = next((a.device for a in arrays if isinstance(a, _ArrayBase)), None)
    return [_array(a, who, device) for a in arrays]


def _indices(indices, x, who):
    """Integer indices as a weft.Array on x's device (an empty list is int64, as NumPy takes it)."""
    if isinstance(indices, _ArrayBase):
        return indices
    host = _np.asarray(indices)
    if host.size == 0 and host.dtype.kind == "f":
        host = host.astype(_np.int64)
    return asarray(host, device=x.device)


# ---- creation -------------------------------------------------------------------------------

def eye(n_rows, n_cols=None, k=0, dtype=None, device=None):
    """An n_rows x n_cols (n_rows when None) array with ones on diagonal k and zeros elsewhere.

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
    return _weft._eye(n_rows, n_cols, _int(k, "eye", "k"), dtype_name(float64 if dtype is None else dtype),
                      _dev(device))


def tril(x, /, k=0):
    """x with the elements above diagonal k of its last two axes zeroed (a new array).

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


def triu(x, /, k=0):
    """x with the elements below diagonal k of its last two axes zeroed (a new array).

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


def meshgrid(*arrays, indexing="xy"):
    """Coordinate arrays of 1-D arrays (new arrays): 'xy' (Cartesian, the default) or 'ij'
    (matrix) indexing, as NumPy's meshgrid.

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


# ---- manipulation ---------------------------------------------------------------------------

def broadcast_arrays(*arrays):
    """Views of the arrays broadcast against each other.

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


def concat(arrays, /, *, axis=0):
    """The arrays joined along axis (None: flattened first), in their promoted dtype.

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


def concatenate(arrays, axis=0):
    """NumPy's name of concat.

    Examples
    --------
    >>> a = weft.asarray(np.array([1, 2]))
    >>> weft.concatenate([a, weft.asarray(np.array([3.5]))]).get()
    array([1. , 2. , 3.5])
    """
    return concat(arrays, axis=axis)


def stack(arrays, /, *, axis=0):
    """Arrays of one shape joined along a new axis.

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


def unstack(x, /, *, axis=0):
    """The views x[..., i, ...] along axis, as a tuple.

    Examples
    --------
    >>> rows = weft.unstack(weft.asarray(np.array([[1, 2], [3, 4]])))
    >>> [r.get() for r in rows]
    [array([1, 2]), array([3, 4])]
    >>> [c.get() for c in weft.unstack(weft.asarray(np.array([[1, 2], [3, 4]])), axis=1)]
    [array([1, 3]), array([2, 4])]
    """
    return tuple(_weft._unstack(_array(x, "unstack"), _int(axis, "unstack", "axis")))


def expand_dims(x, /, axis=0):
    """A view of x with an extent-1 axis at axis (an int, or a tuple of them).

    Examples
    --------
    >>> a = weft.asarray(np.array([1, 2, 3]))
    >>> weft.expand_dims(a, axis=0).shape
    (1, 3)
    >>> weft.expand_dims(a, axis=(0, 2)).shape
    (1, 3, 1)
    """
    return _weft._expand_dims(_array(x, "expand_dims"), _ints(axis, "expand_dims", "axis"))


def squeeze(x, /, axis=None):
    """A view of x without its extent-1 axes (axis: only those, an int or a tuple).

    Examples
    --------
    >>> a = weft.zeros((1, 3, 1))
    >>> weft.squeeze(a).shape
    (3,)
    >>> weft.squeeze(a, axis=0).shape
    (3, 1)
    """
    return _weft._squeeze(_array(x, "squeeze"), None if axis is None else _ints(axis, "squeeze", "axis"))


def flip(x, /, axis=None):
    """A view of x reversed along axis (None: every axis; an int or a tuple).

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


def moveaxis(x, source, destination, /):
    """A view of x with axes source moved to destination (ints or tuples of one length).

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


def permute_dims(x, /, axes):
    """A view of x with its axes in the order given (a permutation of range(x.ndim)).

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


def repeat(x, repeats, /, axis=None):
    """Each element of x repeated along axis (None: of the flattened x): repeats (an int) times,
    or as many times as the integer array repeats says for each.

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


def roll(x, /, shift, axis=None):
    """x's elements shifted by shift along axis (None: of the flattened x), wrapping around;
    shift and axis may be tuples (paired up; shifts on one axis add).

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


def tile(x, repetitions, /):
    """x repeated along each dimension (NumPy's tile: the shorter of x.shape and repetitions
    padded with leading ones).

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


# ---- indexing -------------------------------------------------------------------------------

def take(x, indices, /, axis=None):
    """The elements of x at integer indices along axis (None: of the flattened x); negative
    indices count from the end, one out of range is an IndexError.

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


def take_along_axis(x, indices, /, axis=-1):
    """x's elements at indices along axis (indices as many dimensions as x, broadcasting
    with it along the others; axis None: both flattened).

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

def _cumulative(what, x, axis, dtype, include_initial):
    x = _array(x, what)
    return _weft._cumulative(what, x, None if axis is None else _int(axis, what, "axis"),
                             None if dtype is None else dtype_name(dtype), _builtins.bool(include_initial))


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running sums along axis (None for arrays of at most one dimension); include_initial:
    each line starts with 0. Integers widen to 64 bits unless dtype says otherwise.

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


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    """Running products along axis (None for arrays of at most one dimension); include_initial:
    each line starts with 1. Integers widen to 64 bits unless dtype says otherwise.

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


def count_nonzero(x, /, axis=None, *, keepdims=False):
    """How many elements of x are not zero (int64), over every axis (None) or the ones given.

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


def diff(x, /, n=1, axis=-1, prepend=None, append=None):
    """The n-th differences along axis (!= for bool), after joining prepend before and append
    after x along axis (a number or 0-d array stands for one slice).

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


for _np_f, _f in [(_np.concatenate, concatenate), (_np.stack, stack), (_np.expand_dims, expand_dims),
                  (_np.squeeze, squeeze), (_np.flip, flip), (_np.moveaxis, moveaxis), (_np.repeat, repeat),
                  (_np.roll, roll), (_np.tile, tile), (_np.take, take), (_np.take_along_axis, take_along_axis),
                  (_np.diff, diff), (_np.tril, tril), (_np.triu, triu), (_np.meshgrid, meshgrid),
                  (_np.broadcast_arrays, broadcast_arrays), (_np.count_nonzero, count_nonzero)]:
    implements(_np_f)(_f)
for _name in ("unstack", "cumulative_sum", "cumulative_prod"):  # (NumPy 2.1 and later)
    if hasattr(_np, _name):
        implements(getattr(_np, _name))(globals()[_name])
del _np_f, _f, _name
