"""Element types: NumPy's dtype objects under weft's names, and the conversions the rest of
the package makes on every call (a dtype-like to its NumPy name, a name to its np.dtype),
cached because np.dtype() is slow next to a dictionary lookup."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as _np

if TYPE_CHECKING:
    from ._typing import DTypeLike

bool_ = _np.bool_
bool = _np.bool_  # noqa: A001  (the Array API's name; this module never calls the builtin)
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float32, float64 = _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128

# The kernel dialect's (OpenCL C's) names of the dtypes weft arrays hold.
C_NAMES = {"int8": "char", "int16": "short", "int32": "int", "int64": "long", "uint8": "uchar",
           "uint16": "ushort", "uint32": "uint", "uint64": "ulong", "float32": "float", "float64": "double",
           "complex64": "cfloat", "complex128": "cdouble"}

_NAMES: dict[Any, str] = {}
_NP_DTYPES: dict[str, _np.dtype[Any]] = {}


def dtype_name(dtype: DTypeLike) -> str:
    """The NumPy name of a dtype-like (np.float32, 'f4', float, np.dtype)."""
    try:
        return _NAMES[dtype]
    except (KeyError, TypeError):
        pass
    name = _np.dtype(dtype).name
    try:
        _NAMES[dtype] = name
    except TypeError:
        pass
    return name


def np_dtype(name: str) -> _np.dtype[Any]:
    """The np.dtype of a NumPy dtype name."""
    t = _NP_DTYPES.get(name)
    if t is None:
        t = _NP_DTYPES[name] = _np.dtype(name)
    return t
