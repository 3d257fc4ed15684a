"""The current device, as CuPy's: ``with weft.Device("opencl:cpu"):`` (or ``with dev:``) makes
arrays created in the block live there, and pins device auto there (every operation on
automatic arrays runs on it, docs/PLACEMENT.md), in this thread only; blocks nest. Outside any
block the current device is weft.default_device() (WEFT_DEVICE, else auto's choice). Also
get_array_module, as CuPy's."""
from __future__ import annotations

import types

import threading as _threading

import numpy as _np

from . import _weft

_local = _threading.local()


def _stack() -> list[_weft.Device]:
    s: list[_weft.Device] | None = getattr(_local, "stack", None)
    if s is None:
        s = _local.stack = []
    return s


def block_device() -> _weft.Device | None:
    """The device of this thread's innermost ``with device:`` block, or None outside blocks."""
    s: list[_weft.Device] | None = getattr(_local, "stack", None)
    return s[-1] if s else None


def current_device() -> _weft.Device:
    """The device arrays are created on: the innermost ``with device:`` block's, else the default."""
    d = block_device()
    return d if d is not None else _weft.default_device()


def _enter(self: _weft.Device) -> _weft.Device:
    _stack().append(self)
    _weft._pin_placement(self)
    return self


def _exit(self: _weft.Device, *exc: object) -> bool:
    s = _stack()
    if not s or s[-1] is not self:
        raise RuntimeError("weft.Device: blocks must end in the order they began")
    s.pop()
    _weft._pin_placement(s[-1] if s else None)
    return False


def use(self: _weft.Device) -> _weft.Device:
    """Makes this device current for the rest of this thread (CuPy's Device.use()): arrays are
    made there and device auto's operations run there."""
    s = _stack()
    if s:
        s[-1] = self
    else:
        s.append(self)
    _weft._pin_placement(self)
    return self


def get_array_module(*args: object) -> types.ModuleType:
    """weft when any argument is a weft.Array, else numpy, as cupy.get_array_module: code written
    against the returned module runs on either.

    Parameters
    ----------
    *args : object
        The values to look at.

    Returns
    -------
    module
        The weft module or numpy.

    Examples
    --------
    >>> weft.get_array_module(weft.zeros(2)).__name__, weft.get_array_module(np.zeros(2)).__name__
    ('weft', 'numpy')
    """
    for a in args:
        if isinstance(a, _weft._Array):
            import weft
            return weft
    return _np
