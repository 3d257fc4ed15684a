"""weft.Array: the extension's array, plus NumPy's protocols and conventions (copies to and
from the host, dtype objects, reductions with dtype= and out=, indexing, printing)."""
from __future__ import annotations

import numpy as _np

from . import _indexing, _protocols, _weft
from ._dtypes import dtype_name, np_dtype
from ._events import HostFuture, await_event
from ._linalg import matmul

Array = _weft.Array


def _array_dtype(self):
    return np_dtype(self._dtype)


def _get(self, queue=None, ary=None):
    """The array's elements in a new NumPy array (or in ary), waiting for them (Ctrl-C interrupts)."""
    out = ary if ary is not None else _np.empty(self.shape, dtype=np_dtype(self._dtype))
    if out.shape != self.shape or out.dtype != np_dtype(self._dtype) or not out.flags.c_contiguous:
        raise _weft.InvalidArgument(f"get: ary must be a C-contiguous {self._dtype} array of shape {self.shape}")
    self._read_into(out)
    return out


def _get_async(self):
    """Starts the copy to the host and returns a HostFuture (awaitable) at once."""
    out = _np.empty(self.shape, dtype=np_dtype(self._dtype))
    return HostFuture(self._read_async(out), out)


def _array(self, dtype=None, copy=None):
    if copy is False:
        raise ValueError("a weft.Array cannot be seen as a NumPy array without a copy to the host")
    host = _get(self)
    return host if dtype is None else host.astype(dtype, copy=False)


def _astype(self, dtype, copy=True):
    return self._astype(dtype_name(dtype), copy)


def _set(self, ary, queue=None):
    """Copies the host array ary (same shape) into this array."""
    ary = _np.ascontiguousarray(ary, dtype=np_dtype(self._dtype))
    if ary.shape != self.shape:
        raise _weft.InvalidArgument(f"set: shape {ary.shape} given for an array of shape {self.shape}")
    self._set(ary)


def _scalar(self):
    if self.size != 1:
        raise TypeError("only arrays of one element can be converted to Python scalars")
    return _get(self).reshape(()).item()


def _reduction(what):
    def method(self, axis=None, dtype=None, out=None, keepdims=False):
        return _protocols.deliver(_weft._reduce(what, self, axis, keepdims), dtype, out)

    method.__name__ = what
    method.__doc__ = f"{what} over axis (None: all), as NumPy's; stays on the device."
    return method


def _arg_extreme(what):
    def method(self, axis=None, out=None, *, keepdims=False):
        return _protocols.deliver(_weft._arg_extreme(what, self, axis, keepdims), None, out)

    method.__name__ = what
    method.__doc__ = (f"The index of the first {what[3:]}imum (a NaN counts as the extreme), over every element "
                      "(a flat index) or along axis, as NumPy's; stays on the device.")
    return method


def _spread(what):
    def method(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return _protocols.deliver(_weft._var(what, self, axis, keepdims, int(ddof)), dtype, out)

    method.__name__ = what
    method.__doc__ = f"{what} over axis (None: all) dividing by N - ddof, as NumPy's (two passes)."
    return method


def _cumulative(what):
    def method(self, axis=None, dtype=None, out=None):
        return _protocols.deliver(_weft._scan(what, self, axis), dtype, out)

    method.__name__ = what
    method.__doc__ = f"{what} of the flattened elements (axis None) or along axis, as NumPy's; one scan kernel."
    return method


def _dot(self, other, out=None):
    return _protocols.deliver(_weft._dot(self, other), None, out)


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    for i in range(self.shape[0]):
        yield self[i]


def _to(self, device) -> "Array":
    """The same memory seen from device (weft's residence): nothing is copied now; the first
    kernel that reads it there copies the allocation once, and a write on either side makes the
    other's copy stale (the next read there copies again). Unlike asarray(a, device=...), which
    makes an independent copy, writes through either array are seen by the other."""
    return _weft._to(self, device)


def _format(self):
    return f"weft.Array({_np.array2string(_get(self), separator=', ')}, dtype={self._dtype}, device={self.device.selector!r})"


Array.__getitem__ = _indexing.getitem
Array.__setitem__ = _indexing.setitem
Array.argmin = _arg_extreme("argmin")
Array.argmax = _arg_extreme("argmax")
Array.var = _spread("var")
Array.std = _spread("std")
Array.cumsum = _cumulative("cumsum")
Array.cumprod = _cumulative("cumprod")
Array.dot = _dot
Array.__matmul__ = lambda self, other: matmul(self, other) if isinstance(other, Array) else NotImplemented
Array.__rmatmul__ = lambda self, other: matmul(other, self) if isinstance(other, Array) else NotImplemented
Array.to = _to
Array.dtype = property(_array_dtype, doc="The NumPy dtype of the elements.")
Array.get = _get
Array.get_async = _get_async
Array.__array__ = _array
Array.astype = _astype
Array.set = _set
Array.__float__ = lambda self: float(_scalar(self))
Array.__int__ = lambda self: int(_scalar(self))
Array.__bool__ = lambda self: bool(_scalar(self))
Array.__complex__ = lambda self: complex(_scalar(self))
Array.item = _scalar
Array.tolist = lambda self: _get(self).tolist()
Array.__iter__ = _iter
Array.__hash__ = None
Array.__cuda_array_interface__ = property(
    lambda self: self._cuda_array_interface(),
    doc="CUDA's array interface (CUDA devices only), for CuPy, PyTorch and Numba: no copy.")
Array.__array_priority__ = 100
for _name in ("sum", "prod", "min", "max", "mean", "any", "all"):
    setattr(Array, _name, _reduction(_name))
Array.__str__ = lambda self: str(_get(self))
Array.__format__ = lambda self, spec: format(_get(self), spec) if spec else _format(self)
Array.__array_ufunc__ = _protocols.array_ufunc
Array.__array_function__ = _protocols.array_function
_weft.Event.__await__ = await_event
