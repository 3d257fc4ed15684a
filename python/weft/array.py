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

from typing import TYPE_CHECKING

from . import _creation, _functions, _ufuncs, _weft
# (re-exported: "x as x" says so to type checkers)
from ._array import Array as Array
from ._creation import (
    arange as arange,
    empty as empty,
    empty_like as empty_like,
    full as full,
    full_like as full_like,
    linspace as linspace,
    ones as ones,
    ones_like as ones_like,
    to_device as to_device,
    zeros as zeros,
    zeros_like as zeros_like,
)
from ._functions import cumsum as cumsum, dot as dot, max as max, min as min, sum as sum  # noqa: A004
from ._ufuncs import maximum as maximum, minimum as minimum

if TYPE_CHECKING:
    from ._typing import ArrayLike, ArrayOperand, DTypeLike, DeviceLike

vdot = _functions.dot


def if_positive(criterion: ArrayOperand, then_: ArrayLike | Array, else_: ArrayLike | Array, out: None = None,
                queue: object = None) -> Array:
    """pyopencl.array.if_positive: ``then_`` where criterion > 0, else ``else_``."""
    if out is not None:
        raise _weft.Unsupported("if_positive: out= is not supported; use the result")
    return _ufuncs.where(criterion > 0, then_, else_)


class _CallableModule(_types.ModuleType):
    def __call__(self, obj: ArrayLike | Array, dtype: DTypeLike | None = None, copy: bool = True,
                 device: DeviceLike = None) -> Array:
        """weft.array(obj, dtype=None, copy=True, device=None): as NumPy's array, on a device."""
        return _creation.array(obj, dtype=dtype, copy=copy, device=device)


_sys.modules[__name__].__class__ = _CallableModule
