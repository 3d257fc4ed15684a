"""Python kernels (issue 28): launching a @weft.kernel over a shape, ``k[shape](*args)`` (an
array's: ``k[a.shape](a, ...)``) or ``k[shape, local_size](*args)``, as Numba CUDA's
``k[grid, block](...)`` and Warp's ``wp.launch(k, dim=shape, ...)`` are. The shape is the global
size in work-items (an int, or 1 to 3 ints), ``weft.global_id(d)`` running over ``shape[d]``;
the kernel runs on the device of its weft array arguments (the current device where there are
none), on that device's array queue, and the launch returns the weft.Event.

    @weft.kernel
    def scale(a, s):
        i, j = weft.global_id(0), weft.global_id(1)
        a[i, j] *= s
    scale[a.shape](a, 2.0)            # == scale(a.device, a.shape, None, a, 2.0)
    scale[a.shape, (16, 16)](a, 2.0)  # work-groups of 16 x 16

A pair of ints is a 2-d shape (``k[h, w]``); a local size is given with a tuple shape
(``k[(n,), (64,)]`` or ``k[a.shape, (16, 16)]``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as _np

from . import _weft
from ._device import current_device

if TYPE_CHECKING:
    from ._pyk_api import KernelFunction


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, _np.integer)) and not isinstance(v, (bool, _np.bool_))


def launch_size(value: Any, what: str) -> tuple[int, ...]:
    """A launch shape as a tuple of 1 to 3 non-negative ints (an int n is (n,)); weft.InvalidArgument
    naming what otherwise."""
    if _is_int(value):
        value = (value,)
    if isinstance(value, (_np.ndarray, _weft._Array)):
        raise _weft.InvalidArgument(f"{what} is an array, not a shape: write k[a.shape](...) to launch over "
                                    "an array's shape")
    if not isinstance(value, (tuple, list)) or not all(_is_int(v) for v in value):
        raise _weft.InvalidArgument(f"{what} must be an int or a tuple of 1 to 3 ints (such as a.shape), "
                                    f"not {value!r}")
    if not 1 <= len(value) <= 3:
        raise _weft.InvalidArgument(f"{what} must have 1 to 3 dimensions (an NDRange), got {len(value)}: "
                                    f"{tuple(value)!r}; launch over a.reshape(...)'s shape or loop inside the kernel")
    if any(v < 0 for v in value):
        raise _weft.InvalidArgument(f"{what} must not be negative, got {tuple(int(v) for v in value)!r}")
    return tuple(int(v) for v in value)


class KernelLaunch:
    """``k[shape]`` / ``k[shape, local_size]`` of a @weft.kernel: called with the kernel's
    arguments, it launches on the device of its weft array arguments (all on one; the current
    device, weft.current_device(), where there are none) and returns the weft.Event."""

    __slots__ = ("kernel", "global_size", "local_size")

    @staticmethod
    def of(kernel: KernelFunction, key: Any) -> KernelLaunch:
        """kernel[key]: key is a shape, or (shape, local_size) where the shape is not an int."""
        if isinstance(key, tuple) and len(key) == 2 and not _is_int(key[0]):
            global_size, local_size = key
        else:
            global_size, local_size = key, None
        name = f"{kernel.__name__}[...]"
        return KernelLaunch(kernel, launch_size(global_size, f"{name}: the shape"),
                            None if local_size is None else launch_size(local_size, f"{name}: the local size"))

    def __init__(self, kernel: KernelFunction, global_size: tuple[int, ...],
                 local_size: tuple[int, ...] | None) -> None:
        if local_size is not None and len(local_size) != len(global_size):
            raise _weft.InvalidArgument(f"{kernel.__name__}[...]: the local size {local_size!r} must have as many "
                                        f"dimensions as the shape {global_size!r}")
        self.kernel, self.global_size, self.local_size = kernel, global_size, local_size

    def __call__(self, *args: Any) -> _weft.Event:
        device = None
        for a in args:
            if isinstance(a, _weft._Array):
                if device is None:
                    device = a.device
                elif a.device != device:
                    raise _weft.InvalidArgument(f"{self.kernel.__name__}[...]: the array arguments are on "
                                                f"{device.selector} and {a.device.selector}; move them to one "
                                                "device (a.to(device)) or launch with "
                                                "k(queue_or_device, global_size, local_size, *args)")
        queue = _weft.array_queue(device if device is not None else current_device())
        return self.kernel(queue, self.global_size, self.local_size, *args)

    def __repr__(self) -> str:
        return f"<weft.kernel {self.kernel.__name__}[{self.global_size!r}, {self.local_size!r}]>"
