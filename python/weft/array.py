"""pyopencl.array's names, so that ``import weft.array as cl_array`` (or ``import weft.array``
after ``import weft as pyopencl``) runs PyOpenCL array code: to_device(queue, ary),
empty(queue, shape, dtype), zeros, arange(queue, ...), the ``*_like`` functions, Array and the
reductions. The constructors take weft's own forms too (a shape first, device=).

weft.array is also still NumPy's ``array(obj, dtype=None, copy=True, device=None)``: this
module is callable.

Examples
--------
>>> import weft.array as cl_array
>>> cl_array.to_device(weft.Queue(weft.Device("host")), np.arange(3)).get()
array([0, 1, 2])
>>> weft.array([1, 2]).get()
array([1, 2])
"""
from __future__ import annotations

import sys as _sys
import types as _types

from . import _creation, _functions, _ufuncs
from ._array import Array  # noqa: F401
from ._creation import (  # noqa: F401
    arange,
    empty,
    empty_like,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    to_device,
    zeros,
    zeros_like,
)
from ._functions import cumsum, dot, max, min, sum  # noqa: F401
from ._ufuncs import maximum, minimum  # noqa: F401

vdot = _functions.dot


def if_positive(criterion, then_, else_, out=None, queue=None):
    """pyopencl.array.if_positive: ``then_`` where criterion > 0, else ``else_``."""
    if out is not None:
        raise _creation._weft.Unsupported("if_positive: out= is not supported; use the result")
    return _ufuncs.where(criterion > 0, then_, else_)


class _CallableModule(_types.ModuleType):
    def __call__(self, obj, dtype=None, copy=True, device=None):
        """weft.array(obj, dtype=None, copy=True, device=None): as NumPy's array, on a device."""
        return _creation.array(obj, dtype=dtype, copy=copy, device=device)


_sys.modules[__name__].__class__ = _CallableModule
