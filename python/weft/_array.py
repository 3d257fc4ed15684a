"""weft.Array: the extension's array (C++: lazy expressions, views, arithmetic, copies) with
NumPy's conventions on top: dtype objects, copies to and from the host, scalar conversions,
reductions with dtype= and out=, advanced indexing, NumPy's protocols and printing.

The class is defined here, whole, and registered with the extension: every array the
extension makes (an operation's result, a view, a kernel generator's output) is a weft.Array.
"""
from __future__ import annotations

import types
from typing import TYPE_CHECKING, Any, Iterator, Sequence

if TYPE_CHECKING:
    from ._typing import ArrayLike, DTypeLike, DeviceLike

import builtins as _builtins
import math as _math

import numpy as _np

from . import _indexing, _protocols, _weft
from ._dtypes import dtype_name, np_dtype
from ._events import HostFuture
from ._linalg import matmul

_deliver = _protocols.deliver


class Array(_weft._Array):
    """An n-dimensional array of a NumPy dtype on one device.

    Made by weft.asarray, weft.zeros, weft.arange ... (not by calling weft.Array). Arithmetic,
    the elementwise functions and comparisons are lazy: a chain of operations runs as one
    generated kernel when its result is needed (``get()``, a reduction, a kernel argument,
    printing). Basic indexing gives views that share memory; NumPy's functions and ufuncs run on
    the device (``np.sin(a)``, ``np.sum(a)``); ``np.asarray(a)`` and ``a.get()`` copy to the host. ``ndim``, ``size``, ``nbytes``,
    ``strides`` (in bytes), ``T`` and ``mT`` are as NumPy's.

    Attributes
    ----------
    shape : tuple of int
        The array's shape.
    dtype : numpy.dtype
        The element type.
    device : weft.Device
        Where the elements live.

    Examples
    --------
    >>> a = weft.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    >>> a.shape, a.dtype, a.device.selector
    ((2, 3), dtype('float32'), 'host')
    >>> b = a[:, 1:] * 2 + 1
    >>> b.get()
    array([[ 3.,  5.],
           [ 9., 11.]], dtype=float32)
    >>> float(b.sum()), type(b).__name__
    (28.0, 'Array')
    """

    __slots__ = ()
    __module__ = "weft"
    # Arrays compare elementwise, so they are not hashable (as NumPy's). (The ignore: object's
    # __hash__ is a method to mypy; None is Python's "unhashable", as typeshed writes ndarray's.)
    __hash__ = None  # type: ignore[assignment]
    __array_priority__ = 100  # NumPy defers to weft in mixed operations

    # ---- elements on the host -----------------------------------------------------------------

    @property
    def dtype(self) -> _np.dtype[Any]:
        """The NumPy dtype of the elements."""
        return np_dtype(self._dtype)

    def get(self, queue: object = None, ary: _np.ndarray[Any, Any] | None = None) -> _np.ndarray[Any, Any]:
        """The array's elements in a new NumPy array (or in ary), waiting for them (Ctrl-C interrupts)."""
        out = ary if ary is not None else _np.empty(self.shape, dtype=np_dtype(self._dtype))
        if out.shape != self.shape or out.dtype != np_dtype(self._dtype) or not out.flags.c_contiguous:
            raise _weft.InvalidArgument(f"get: ary must be a C-contiguous {self._dtype} array of shape {self.shape}")
        self._read_into(out)
        return out

    def get_async(self) -> HostFuture:
        """Starts the copy to the host and returns a HostFuture (awaitable) at once."""
        out = _np.empty(self.shape, dtype=np_dtype(self._dtype))
        return HostFuture(self._read_async(out), out)

    def set(self, ary: ArrayLike, queue: object = None) -> None:
        """Copies the host array ary (same shape) into this array."""
        ary = _np.ascontiguousarray(ary, dtype=np_dtype(self._dtype))
        if ary.shape != self.shape:
            raise _weft.InvalidArgument(f"set: shape {ary.shape} given for an array of shape {self.shape}")
        self._set(ary)

    def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) -> _np.ndarray[Any, Any]:
        if copy is False:
            raise ValueError("a weft.Array cannot be seen as a NumPy array without a copy to the host")
        host = self.get()
        return host if dtype is None else host.astype(dtype, copy=False)

    def astype(self, dtype: DTypeLike, copy: bool = True) -> Array:
        """The elements converted to dtype, as NumPy's astype (lazy: fuses into what follows)."""
        return self._astype(dtype_name(dtype), copy)

    def item(self) -> Any:
        """The one element as a Python number."""
        if self.size != 1:
            raise TypeError("only arrays of one element can be converted to Python scalars")
        return self.get().reshape(()).item()

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __bool__(self) -> bool:
        return _builtins.bool(self.item())

    def __index__(self) -> int:
        """An integer 0-d (or one-element) array as a Python int, for indexing and range()."""
        if self.dtype.kind not in "iu":
            raise TypeError(f"only integer arrays can be used as an index, not {self._dtype}")
        return int(self.item())

    def __complex__(self) -> complex:
        return complex(self.item())

    @property
    def real(self) -> Array:
        """The real parts (float32 of complex64), as a new lazy array (NumPy's is a view)."""
        r: Array = _weft.real(self)
        return r

    @property
    def imag(self) -> Array:
        """The imaginary parts (zeros for a real array), as a new lazy array (NumPy's is a view)."""
        r: Array = _weft.imag(self)
        return r

    def conj(self) -> Array:
        """The complex conjugate (lazy; a real array's is itself)."""
        r: Array = _weft.conj(self)
        return r

    conjugate = conj

    def tolist(self) -> Any:
        return self.get().tolist()

    def __iter__(self) -> Iterator[Array]:
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        for i in range(self.shape[0]):
            yield self[i]

    def __str__(self) -> str:
        return str(self.get())

    def __format__(self, spec: str) -> str:
        if spec:
            return format(self.get(), spec)
        return (f"weft.Array({_np.array2string(self.get(), separator=', ')}, dtype={self._dtype}, "
                f"device={self.device.selector!r})")

    # ---- reductions and scans (NumPy's dtype= and out=) -------------------------------------

    def sum(self, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None, out: Array | None = None,
            keepdims: bool = False) -> Array:
        """sum over axis (None: all), as NumPy's; stays on the device."""
        return _deliver(_weft._reduce("sum", self, axis, keepdims), dtype, out)

    def prod(self, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None, out: Array | None = None,
            keepdims: bool = False) -> Array:
        """prod over axis (None: all), as NumPy's; stays on the device."""
        return _deliver(_weft._reduce("prod", self, axis, keepdims), dtype, out)

    def min(self, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None, out: Array | None = None,
            keepdims: bool = False) -> Array:
        """min over axis (None: all), as NumPy's; stays on the device."""
        return _deliver(_weft._reduce("min", self, axis, keepdims), dtype, out)

    def max(self, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None, out: Array | None = None,
            keepdims: bool = False) -> Array:
        """max over axis (None: all), as NumPy's; stays on the device."""
        return _deliver(_weft._reduce("max", self, axis, keepdims), dtype, out)

    def mean(self, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None, out: Array | None = None,
            keepdims: bool = False) -> Array:
        """mean over axis (None: all), as NumPy's; stays on the device."""
        return _deliver(_weft._reduce("mean", self, axis, keepdims), dtype, out)

    def any(self, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None, out: Array | None = None,
            keepdims: bool = False) -> Array:
        """any over axis (None: all), as NumPy's; stays on the device."""
        return _deliver(_weft._reduce("any", self, axis, keepdims), dtype, out)

    def all(self, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None, out: Array | None = None,
            keepdims: bool = False) -> Array:
        """all over axis (None: all), as NumPy's; stays on the device."""
        return _deliver(_weft._reduce("all", self, axis, keepdims), dtype, out)

    def argmin(self, axis: int | None = None, out: Array | None = None, *, keepdims: bool = False) -> Array:
        """The index of the first minimum (a NaN counts as the extreme), over every element (a flat
        index) or along axis, as NumPy's; stays on the device."""
        return _deliver(_weft._arg_extreme("argmin", self, axis, keepdims), None, out)

    def argmax(self, axis: int | None = None, out: Array | None = None, *, keepdims: bool = False) -> Array:
        """The index of the first maximum (a NaN counts as the extreme), over every element (a flat
        index) or along axis, as NumPy's; stays on the device."""
        return _deliver(_weft._arg_extreme("argmax", self, axis, keepdims), None, out)

    def var(self, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None, out: Array | None = None,
            ddof: float = 0, keepdims: bool = False, *, correction: float | None = None) -> Array:
        """var over axis (None: all) dividing by N - ddof, as NumPy's (two passes)."""
        if correction is not None:  # (the Array API's name of ddof)
            if ddof != 0 and ddof != correction:
                raise ValueError(f"var: ddof={ddof!r} and correction={correction!r} disagree; give one of them")
            ddof = correction
        return _deliver(self._moment("var", axis, ddof, keepdims), dtype, out)

    def std(self, axis: int | tuple[int, ...] | None = None, dtype: DTypeLike | None = None, out: Array | None = None,
            ddof: float = 0, keepdims: bool = False, *, correction: float | None = None) -> Array:
        """std over axis (None: all) dividing by N - ddof, as NumPy's (two passes)."""
        if correction is not None:  # (the Array API's name of ddof)
            if ddof != 0 and ddof != correction:
                raise ValueError(f"std: ddof={ddof!r} and correction={correction!r} disagree; give one of them")
            ddof = correction
        return _deliver(self._moment("std", axis, ddof, keepdims), dtype, out)

    def _moment(self, what: str, axis: int | tuple[int, ...] | None, ddof: float, keepdims: bool) -> Array:
        """var or std dividing by N - ddof (NaN or inf where that is not positive). axis=()
        reduces nothing (each element is its own sample of one, as NumPy's), and a fractional
        ddof (the standard's correction=0.5) scales the ddof=0 variance by N / (N - ddof)."""
        axes = axis if isinstance(axis, (tuple, list)) else None if axis is None else (axis,)
        if axes is not None and len(axes) == 0 and self.ndim > 0:
            z = self.astype(self._dtype if self.dtype.kind == "f" else "float64")
            v = (z - z) * (z - z) / _builtins.max(1.0 - float(ddof), 0.0)
        elif float(ddof) == int(ddof):
            return _weft._var(what, self, axis, keepdims, int(ddof))
        else:
            n = self.size if axes is None else _math.prod(self.shape[int(a)] for a in axes)
            v = _weft._var("var", self, axis, keepdims, 0) * float(n) / _builtins.max(n - float(ddof), 0.0)
        if what == "var":
            return v
        from ._ufuncs import sqrt
        return sqrt(v)

    def cumsum(self, axis: int | None = None, dtype: DTypeLike | None = None, out: Array | None = None) -> Array:
        """cumsum of the flattened elements (axis None) or along axis, as NumPy's; one scan kernel."""
        return _deliver(_weft._scan("cumsum", self, axis), dtype, out)

    def cumprod(self, axis: int | None = None, dtype: DTypeLike | None = None, out: Array | None = None) -> Array:
        """cumprod of the flattened elements (axis None) or along axis, as NumPy's; one scan kernel."""
        return _deliver(_weft._scan("cumprod", self, axis), dtype, out)

    def dot(self, other: Array, out: Array | None = None) -> Array:
        """NumPy's dot, in one kernel without a temporary."""
        return _deliver(_weft._dot(self, other), None, out)

    def __matmul__(self, other: Array) -> Array:
        return matmul(self, other) if isinstance(other, Array) else NotImplemented

    def __rmatmul__(self, other: Array) -> Array:
        return matmul(other, self) if isinstance(other, Array) else NotImplemented

    # ---- sorting ---------------------------------------------------------------------------

    def sort(self, axis: int = -1, kind: str | None = None, order: None = None, *, descending: bool = False,
             stable: bool | None = None) -> None:
        """Sorts the elements along axis in place, as NumPy's ndarray.sort (a stable radix sort)."""
        from . import _sorting
        _sorting.sort_in_place(self, axis, kind, order, descending)

    def argsort(self, axis: int | None = -1, kind: str | None = None, order: None = None, *,
                descending: bool = False, stable: bool | None = None) -> Array:
        """The int64 indices that sort the array along axis (None: flattened), as NumPy's."""
        from . import _sorting
        return _sorting.argsort(self, axis, kind, order, descending=descending)

    def nonzero(self) -> tuple[Array, ...]:
        """A tuple of int64 index arrays, one per dimension, of the nonzero elements."""
        from . import _sorting
        return _sorting.nonzero(self)

    def compress(self, condition: ArrayLike | Array, axis: int | None = None) -> Array:
        """The slices along axis (None: flattened) where the 1-D condition is true."""
        from . import _sorting
        return _sorting.compress(condition, self, axis)

    def searchsorted(self, v: ArrayLike | Array, side: str = "left", sorter: Array | None = None) -> Array:
        """Where the elements of v go in this sorted 1-D array, as NumPy's ndarray.searchsorted."""
        from . import _sorting
        return _sorting.searchsorted(self, v, side, sorter)

    # ---- rearranging (NumPy's methods of weft._manipulation's functions) ----------------------

    def squeeze(self, axis: int | tuple[int, ...] | None = None) -> Array:
        """A view without the extent-1 axes (axis: only those), as NumPy's."""
        from . import _manipulation
        return _manipulation.squeeze(self, axis)

    def repeat(self, repeats: int | Sequence[int] | Array, axis: int | None = None) -> Array:
        """Each element repeated along axis (None: flattened), as NumPy's."""
        from . import _manipulation
        return _manipulation.repeat(self, repeats, axis)

    def take(self, indices: Sequence[int] | Array, axis: int | None = None) -> Array:
        """The elements at integer indices along axis (None: flattened), as NumPy's."""
        from . import _manipulation
        return _manipulation.take(self, indices, axis)

    def swapaxes(self, axis1: int, axis2: int) -> Array:
        """A view with two axes swapped, as NumPy's."""
        from . import _manipulation
        order = list(range(self.ndim))
        for a in (axis1, axis2):
            if not -self.ndim <= a < self.ndim:
                raise ValueError(f"swapaxes: axis {a} is out of bounds for array of dimension {self.ndim}")
        order[axis1], order[axis2] = order[axis2], order[axis1]
        return _manipulation.permute_dims(self, tuple(order))

    # ---- devices, indexing and NumPy's protocols ---------------------------------------------

    def __array_namespace__(self, *, api_version: str | None = None) -> types.ModuleType:
        """The Array API's namespace of this array: the weft module."""
        if api_version is not None and api_version not in ("2021.12", "2022.12", "2023.12", "2024.12"):
            raise ValueError(f"__array_namespace__: api_version {api_version!r} is not one weft implements "
                             "(2024.12 and earlier)")
        import weft
        return weft

    @property
    def mT(self) -> Array:
        """The matrix transpose: the last two axes swapped (a view)."""
        if self.ndim < 2:
            raise ValueError(f"mT: the array must have at least 2 dimensions, not {self.ndim}")
        axes = list(range(self.ndim))
        axes[-2], axes[-1] = axes[-1], axes[-2]
        return self.transpose(tuple(axes))

    def _dlpack_in_place(self) -> tuple[int, int] | None:
        """The (DLPack device type, id) of this array's own memory when weft can export it in
        place (host: kDLCPU, CUDA: kDLCUDA); None for OpenCL buffers, which have no address."""
        d = self.device
        return (d.dlpack_device_type, d.dlpack_device_id) if d.dlpack_device_type in (1, 2) else None

    def __dlpack_device__(self) -> tuple[int, int]:
        """Where ``__dlpack__`` exports the array: its own device for host and CUDA memory, the
        host (kDLCPU, 0) for an OpenCL array, which ``__dlpack__`` exports as a host copy."""
        return self._dlpack_in_place() or (1, 0)

    def __dlpack__(self, /, *, stream: object = None,  # type: ignore[override]  # the extension's: **kwargs
                   max_version: tuple[int, int] | None = None, dl_device: tuple[int, int] | None = None,
                   copy: bool | None = None) -> Any:
        """A DLPack capsule of the array, after its pending work is done (the Array API's
        signature; stream is not needed: the export waits for weft's work). Host and CUDA arrays
        export their memory in place (copy=True: a copy's), an OpenCL array a host copy;
        dl_device=(1, 0) asks for the host (a copy from a device). copy=False where a copy is
        needed, or a dl_device weft cannot export to, raises BufferError."""
        own = self._dlpack_in_place()
        target = self.__dlpack_device__() if dl_device is None else (int(dl_device[0]), int(dl_device[1]))
        if own is not None and target == own:
            return _weft._Array.__dlpack__(self.copy() if copy else self)
        if target != (1, 0):
            where = f"its own device {own} or " if own is not None else ""
            raise BufferError(f"__dlpack__: an array on {self.device.selector} cannot be exported to DLPack device "
                              f"{target}; weft exports it to {where}the host (1, 0)")
        if copy is False:
            raise BufferError(f"__dlpack__: copy=False, but exporting the array on {self.device.selector} to the "
                              "host needs a copy")
        return _weft._Array.__dlpack__(self.to_device("host"))

    def to_device(self, device: DeviceLike, /, *, stream: None = None) -> Array:
        """The Array API's to_device: this array when it is on device already, else a copy there."""
        if stream is not None:
            raise ValueError("to_device: stream= is not supported (weft orders copies on the device's array queue)")
        if _weft.Device(device) == self.device:
            return self
        return _weft._to_device(self, device)

    def to(self, device: DeviceLike) -> Array:
        """The same memory seen from device (weft's residence): nothing is copied now; the first
        kernel that reads it there copies the allocation once, and a write on either side makes the
        other's copy stale (the next read there copies again). Unlike asarray(a, device=...), which
        makes an independent copy, writes through either array are seen by the other."""
        return _weft._to(self, device)

    def __getitem__(self, key: Any) -> Array:
        """NumPy indexing: basic indices give views (no copy); integer arrays, lists, boolean masks
        and integers beside them index as NumPy's advanced indexing, into a new array (one gather
        kernel, reading the array where it lies: no copy of a strided source)."""
        return _indexing.getitem(self, key)

    def __setitem__(self, key: Any, value: ArrayLike | Array) -> None:
        """NumPy assignment: through a basic index (a view), a boolean mask of the leading
        dimensions, or any advanced index (value broadcast to the indexed shape; where an element
        is indexed more than once, which of its values lands is unspecified, as in CuPy)."""
        _indexing.setitem(self, key, value)

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        """CUDA's array interface (CUDA devices only), for CuPy, PyTorch and Numba: no copy."""
        return self._cuda_array_interface()

    __array_ufunc__ = _protocols.array_ufunc
    __array_function__ = _protocols.array_function

    # ---- pickling and copies (weft._pickle) ------------------------------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling: the elements copied to the host (a C-contiguous NumPy array, which pickle's
        protocol 5 carries out of band) and the device's selector as a hint; see weft._pickle."""
        from . import _pickle
        return _pickle.reduce(self)

    def __copy__(self) -> Array:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Array:
        return self.copy()


_weft._set_array_class(Array)
