"""The Array API standard's namespace names (2024.12 revision) that weft answers in Python over
its existing operations: the inspection object, dtype queries (finfo, iinfo, isdtype,
can_cast), constants, from_dlpack's standard signature, real and conj (the elementwise
functions with kernels of their own are in _ufuncs)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._array import Array
    from ._typing import DTypeLike, DeviceLike

import builtins as _builtins
import dataclasses as _dataclasses
import math as _math

import numpy as _np

from . import _device, _weft
from ._dtypes import dtype_name, np_dtype
from ._protocols import with_out

__array_api_version__ = "2024.12"

e, pi, inf, nan = _math.e, _math.pi, _math.inf, _math.nan
newaxis = None

# The dtypes weft arrays hold, by the standard's kinds.
_KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
_KINDS["integral"] = _KINDS["signed integer"] + _KINDS["unsigned integer"]
_KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]
_HELD = frozenset(_KINDS["bool"] + _KINDS["numeric"])


def _held_name(dtype: DTypeLike | Array, what: str) -> str:
    """The NumPy name of a weft dtype (a dtype-like or an array's), or TypeError naming what."""
    if isinstance(dtype, _weft._Array):
        return dtype._dtype
    try:
        name = dtype_name(dtype)
    except TypeError:
        raise TypeError(f"{what}: expected a dtype or a weft.Array, not {type(dtype).__name__}") from None
    if name not in _HELD:
        raise TypeError(f"{what}: {name} is not a dtype weft arrays hold ({', '.join(sorted(_HELD))})")
    return name


def isdtype(dtype: DTypeLike | Array, kind: DTypeLike | tuple[DTypeLike, ...]) -> bool:
    """Whether a dtype is of a kind, as the Array API's isdtype.

    Parameters
    ----------
    dtype : dtype or weft.Array
        The dtype (or an array's).
    kind : dtype, str or tuple
        A dtype, one of the standard's kind names ('bool', 'signed integer', 'unsigned integer',
        'integral', 'real floating', 'complex floating', 'numeric') or a tuple of those.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        An unknown kind name.
    TypeError
        A dtype weft arrays do not hold.

    Examples
    --------
    >>> weft.isdtype(np.int32, "integral"), weft.isdtype(np.float32, ("bool", "signed integer"))
    (True, False)
    """
    name = _held_name(dtype, "isdtype")
    if isinstance(kind, tuple):
        return _builtins.any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"isdtype: unknown kind {kind!r}; the kinds are {', '.join(repr(k) for k in _KINDS)}")
        return name in _KINDS[kind]
    return name == _held_name(kind, "isdtype")


@_dataclasses.dataclass(frozen=True)
class FloatInfo:
    """What finfo answers: the standard's attributes as Python numbers (NumPy's finfo gives NumPy
    scalars), and NumPy's names tiny and resolution."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: _np.dtype[Any]
    tiny: float
    resolution: float


def finfo(type: DTypeLike | Array) -> FloatInfo:  # noqa: A002  (the standard's parameter name)
    """Machine limits of a floating dtype (or a floating array's), as the Array API's and NumPy's
    finfo: bits, eps, max, min, smallest_normal, dtype.

    Parameters
    ----------
    type : dtype or weft.Array
        float32, float64, complex64 or complex128 (or an array of one); a complex type gives its
        parts' limits (complex64: float32's).

    Returns
    -------
    object
        The limits as attributes.

    Raises
    ------
    TypeError
        Not a floating dtype weft arrays hold.

    Examples
    --------
    >>> f = weft.finfo(np.float32)
    >>> f.bits, f.eps
    (32, 1.1920928955078125e-07)
    """
    name = _held_name(type, "finfo")
    if name not in _KINDS["real floating"] + _KINDS["complex floating"]:
        raise TypeError(f"finfo: {name} is not a floating dtype (use iinfo for integers)")
    f = _np.finfo(np_dtype(name))
    return FloatInfo(bits=int(f.bits), eps=float(f.eps), max=float(f.max), min=float(f.min),
                     smallest_normal=float(f.smallest_normal), dtype=f.dtype, tiny=float(f.tiny),
                     resolution=float(f.resolution))


def iinfo(type: DTypeLike | Array) -> _np.iinfo[Any]:  # noqa: A002
    """Machine limits of an integer dtype (or an integer array's), as the Array API's and NumPy's
    iinfo: bits, max, min, dtype.

    Parameters
    ----------
    type : dtype or weft.Array
        An integer dtype weft arrays hold (or an array of one).

    Returns
    -------
    object
        The limits as attributes.

    Raises
    ------
    TypeError
        Not an integer dtype weft arrays hold.

    Examples
    --------
    >>> i = weft.iinfo(np.int16)
    >>> i.bits, int(i.min), int(i.max)
    (16, -32768, 32767)
    """
    name = _held_name(type, "iinfo")
    if name not in _KINDS["integral"]:
        raise TypeError(f"iinfo: {name} is not an integer dtype (use finfo for floating dtypes)")
    return _np.iinfo(np_dtype(name))


def _kind(name: str) -> str:
    # Real and complex floating are one kind here: the standard casts float32 to complex64.
    floating = _KINDS["real floating"] + _KINDS["complex floating"]
    return "b" if name == "bool" else "f" if name in floating else "i"


def can_cast(from_: DTypeLike | Array, to: DTypeLike | Array, /) -> bool:
    """Whether the Array API's type promotion casts ``from_`` to ``to``: both of one kind (bool,
    integer, floating: real or complex) and promoting the two gives ``to``.

    Parameters
    ----------
    from_ : dtype or weft.Array
        The dtype cast from (an array's).
    to : dtype
        The dtype cast to.

    Returns
    -------
    bool

    Raises
    ------
    TypeError
        A dtype weft arrays do not hold.

    Examples
    --------
    >>> weft.can_cast(np.int8, np.int32), weft.can_cast(np.float64, np.float32)
    (True, False)
    """
    a, b = _held_name(from_, "can_cast"), _held_name(to, "can_cast")
    if _kind(a) != _kind(b):
        return False
    try:
        return _weft._result_type(a, b) == b
    except _weft.Error:
        return False


def astype(x: Array, dtype: DTypeLike, /, *, copy: bool = True, device: DeviceLike = None) -> Array:
    """x's elements converted to dtype, as the Array API's astype (NumPy's casting: floating to
    integer truncates toward zero, anything to bool is ``!= 0``).

    Parameters
    ----------
    x : weft.Array
        The input.
    dtype : dtype
        A dtype weft arrays hold.
    copy : bool, optional
        True (the default): always a new array. False: x itself when it has dtype already (and is
        on device).
    device : weft.Device or str, optional
        The result's device (x's when None): the converted elements are copied there.

    Returns
    -------
    weft.Array
        Of x's shape and the dtype, on device.

    Raises
    ------
    TypeError
        x is not a weft.Array, or dtype is not one weft arrays hold.

    Examples
    --------
    >>> a = weft.asarray(np.array([1.7, -2.5, 0.0]))
    >>> weft.astype(a, weft.int32).get()
    array([ 1, -2,  0], dtype=int32)
    >>> weft.astype(a, weft.bool).get()
    array([ True,  True, False])
    >>> weft.astype(a, a.dtype, copy=False) is a
    True
    """
    if not isinstance(x, _weft._Array):
        raise TypeError(f"astype: x must be a weft.Array, not {type(x).__name__} (weft.asarray makes one)")
    name = _held_name(dtype, "astype")
    moved = x if device is None else x.to_device(device)
    return moved.astype(name, copy=copy and moved is x)


def from_dlpack(x: object, /, *, device: DeviceLike = None, copy: bool | None = None) -> Array:
    """Another library's array as a weft.Array, as the Array API's from_dlpack: its memory without a
    copy (copy=None or False) where weft can address it (host memory, CUDA devices).

    Parameters
    ----------
    x : object
        An object with ``__dlpack__`` (NumPy, CuPy, PyTorch, JAX arrays, weft arrays).
    device : weft.Device or str, optional
        Another device: a copy there.
    copy : bool or None, optional
        True: a new array; False: never a copy (ValueError where one is needed); None: a copy only
        where needed.

    Returns
    -------
    weft.Array

    Raises
    ------
    ValueError
        copy=False but a copy is needed.
    weft.Unsupported
        The memory is on a device weft cannot use in place, or of a dtype weft arrays do not hold.

    Examples
    --------
    >>> host = np.arange(4.0)
    >>> a = weft.from_dlpack(host)
    >>> a.get()
    array([0., 1., 2., 3.])
    """
    from ._array import Array

    # A weft array on a device whose memory DLPack cannot describe (OpenCL) needs no capsule.
    a: Array = x if isinstance(x, Array) and x._dlpack_in_place() is None else _weft.from_dlpack(x)
    if device is not None and _weft.Device(device) != a.device:
        if copy is False:
            raise ValueError(f"from_dlpack: copy=False, but moving the array to {_weft.Device(device).selector} "
                             "needs a copy")
        return _weft._to_device(a, device)
    return a.copy() if copy else a


class _Info:
    """What weft.__array_namespace_info__() returns: the standard's inspection methods."""

    __module__ = "weft"

    def capabilities(self) -> dict[str, bool | None]:
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": None}

    def default_device(self) -> _weft.Device:
        return _device.current_device()

    def devices(self) -> list[_weft.Device]:
        return list(_weft.devices())

    def default_dtypes(self, *, device: DeviceLike = None) -> dict[str, _np.dtype[Any] | None]:
        return {"real floating": np_dtype("float64"), "complex floating": np_dtype("complex128"),
                "integral": np_dtype("int64"), "indexing": np_dtype("int64")}

    def dtypes(self, *, device: DeviceLike = None,
               kind: str | tuple[str, ...] | None = None) -> dict[str, _np.dtype[Any]]:
        """The dtypes weft arrays hold on device (float64 and complex128 only where the device has fp64), by name,
        of kind (a kind name, a tuple of them, or None: all)."""
        dev = _device.current_device() if device is None else _weft.Device(device)
        names = [n for n in ("bool",) + _KINDS["numeric"] if n not in ("float64", "complex128") or dev.fp64]
        if kind is not None:
            names = [n for n in names if isdtype(n, kind)]
        return {n: np_dtype(n) for n in names}


def __array_namespace_info__() -> _Info:
    return _Info()


# ---- real and conj ----------------------------------------------------------------------------------

def _real(x: Array) -> Array:
    """The real part (float32 of complex64, float64 of complex128; a real array's is itself)."""
    if not isinstance(x, _weft._Array):
        raise TypeError(f"real: expected a weft.Array, not {type(x).__name__}")
    return _weft.real(x)


def _conj(x: Array) -> Array:
    """The complex conjugate (a real array's is itself)."""
    if not isinstance(x, _weft._Array):
        raise TypeError(f"conj: expected a weft.Array, not {type(x).__name__}")
    return _weft.conj(x)


_real.__name__, _conj.__name__ = "real", "conj"
real = with_out(_real)
conj = with_out(_conj)
