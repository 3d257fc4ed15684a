"""Pickling weft arrays (``pickle``, ``copy``, Dask's and multiprocessing's transfers).

A weft.Array pickles as its elements on the host, one C-contiguous NumPy array (views and
strided arrays are gathered; its dtype and shape travel with it, and pickle's protocol 5
carries its bytes out of band, as Dask's serialization uses it), and its device's selector as a
hint. A C-contiguous array in host memory (the host backend's) is not copied: the NumPy array
is a read-only view of its memory (DLPack's, which waits for the array's pending work and keeps
it alive), so protocol 5's out-of-band PickleBuffer is the array's own memory. Unpickling copies the elements onto a device of the unpickling process:

1. the current device when that process chose one: inside a ``with device:`` block, or with
   WEFT_DEVICE set (a Dask worker started by weft.dask.local_cluster gets its own device);
2. else the hinted device, when this process has it (a pickle made and read on one machine
   comes back where it was);
3. else weft.default_device().
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import numpy as _np

from . import _device, _weft

if TYPE_CHECKING:
    from ._array import Array


def host_elements(a: Array) -> _np.ndarray[Any, Any]:
    """a's elements as a C-contiguous NumPy array: a read-only view of a's memory when a is a
    C-contiguous array in host memory, else a copy read from the device."""
    if a.device.memory_is_host and a.device.dlpack_device_type == 1 and a.flags_c_contiguous and a.size > 0:
        view = _np.from_dlpack(a)
        if view.flags.c_contiguous:
            return view
    host = _np.empty(a.shape, dtype=a.dtype)
    a._read_into(host)
    return host


def reduce(a: Array) -> tuple[Any, ...]:
    """Array.__reduce__: (rebuild, (elements on the host, the device's selector))."""
    return (rebuild, (host_elements(a), a.device.selector))


def unpickling_device(hint: str | None) -> _weft.Device:
    """The device an unpickled array lands on (the module's docstring says which)."""
    if _device.block_device() is not None or os.environ.get("WEFT_DEVICE", "").strip():
        return _device.current_device()
    if hint:
        try:
            return _weft.Device(hint)
        except (_weft.Error, ValueError):
            pass  # (a device this process does not have)
    return _device.current_device()


def rebuild(host: _np.ndarray[Any, Any], device_hint: str | None = None) -> Array:
    """A weft.Array with host's elements on unpickling_device(device_hint)."""
    if not host.flags.c_contiguous:
        host = host.copy(order="C")
    return _weft._from_host(host, host.shape, host.dtype.name, unpickling_device(device_hint))
