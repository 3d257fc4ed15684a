"""NumPy's functions on weft arrays (weft.sum(a), weft.reshape(a, ...)), also what
np.sum(a) and the others run through __array_function__."""
from __future__ import annotations

import numbers as _numbers

import numpy as _np

from . import _weft
from ._array import Array
from ._creation import empty_like, full_like, ones_like, zeros_like
from ._dtypes import dtype_name, np_dtype
from ._linalg import matmul as _matmul
from ._protocols import deliver, implements, into, typed_call
from ._sorting import argpartition, argsort, argwhere, partition, compress, extract, flatnonzero, nonzero, searchsorted, sort, unique
from ._ufuncs import clip, round, where


def sum(a, axis=None, dtype=None, out=None, keepdims=False):  # noqa: A001
    return Array.sum(a, axis, dtype, out, keepdims)


def prod(a, axis=None, dtype=None, out=None, keepdims=False):
    return Array.prod(a, axis, dtype, out, keepdims)


def mean(a, axis=None, dtype=None, out=None, keepdims=False):
    return Array.mean(a, axis, dtype, out, keepdims)


def amin(a, axis=None, out=None, keepdims=False):
    return Array.min(a, axis, None, out, keepdims)


def amax(a, axis=None, out=None, keepdims=False):
    return Array.max(a, axis, None, out, keepdims)


min = amin  # noqa: A001
max = amax  # noqa: A001


def any(a, axis=None, out=None, keepdims=False):  # noqa: A001
    return Array.any(a, axis, None, out, keepdims)


def all(a, axis=None, out=None, keepdims=False):  # noqa: A001
    return Array.all(a, axis, None, out, keepdims)


def argmin(a, axis=None, out=None, *, keepdims=False):
    return Array.argmin(a, axis, out, keepdims=keepdims)


def argmax(a, axis=None, out=None, *, keepdims=False):
    return Array.argmax(a, axis, out, keepdims=keepdims)


def _ddof(ddof, correction, name):
    """The Array API's correction= is NumPy's ddof= under another name: one of them, or both equal."""
    if correction is None:
        return ddof
    if ddof != 0 and ddof != correction:
        raise ValueError(f"{name}: ddof={ddof!r} and correction={correction!r} disagree; give one of them")
    return correction


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, correction=None):
    return Array.var(a, axis, dtype, out, _ddof(ddof, correction, "var"), keepdims)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, correction=None):
    return Array.std(a, axis, dtype, out, _ddof(ddof, correction, "std"), keepdims)


def cumsum(a, axis=None, dtype=None, out=None):
    return Array.cumsum(a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    return Array.cumprod(a, axis, dtype, out)


def dot(a, b, out=None):
    return deliver(_weft._dot(a, b), None, out)


def matmul(a, b, out=None, dtype=None):
    """NumPy's matmul; dtype= computes in that dtype (operands cast under 'same_kind')."""
    r = _matmul(a, b) if dtype is None else typed_call(_matmul, (a, b), dtype, "matmul")
    return r if out is None else into(out, r, "matmul")


def reshape(a, /, shape=None, *, copy=None, newshape=None):
    """The Array API's reshape(x, shape, copy=) (also NumPy's newshape= keyword). copy=True gives a
    new array; copy=False raises ValueError where the result could not be a view of a (weft makes
    views of C-contiguous arrays only); None: a view where possible."""
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


def transpose(a, axes=None):
    return a.transpose() if axes is None else a.transpose(axes)


def ravel(a):
    return a.ravel()


def copy(a):
    return a.copy()


def broadcast_to(a, shape):
    return a.broadcast_to(shape)


def result_type(*arrays_and_dtypes):
    """NumPy's result_type for weft arrays and dtypes (Python numbers adopt the others' type)."""
    names = [x._dtype if isinstance(x, Array) else dtype_name(x)
             for x in arrays_and_dtypes if not isinstance(x, _numbers.Number)]
    out = names[0]
    for n in names[1:]:
        out = _weft._result_type(out, n)
    return np_dtype(out)


for _np_f, _f in [(_np.argmin, argmin), (_np.argmax, argmax), (_np.var, var), (_np.std, std),
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
                  (_np.shape, lambda a: a.shape), (_np.ndim, lambda a: a.ndim), (_np.size, lambda a: a.size)]:
    implements(_np_f)(_f)
del _np_f, _f
