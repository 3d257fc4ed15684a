"""CuPy's ``cupy.cuda`` names that seed 004 uses, for CUDA devices:
``with weft.cuda.Device(0):`` is ``with weft.Device("cuda:0"):`` (weft.Device takes any
selector: ``"host"``, ``"opencl:gpu"`` ...).

Examples
--------
>>> weft.cuda.is_available() in (True, False)
True
"""
from __future__ import annotations

from . import _weft


def Device(device: int | _weft.Device | None = None) -> _weft.Device:  # noqa: N802  (CuPy's class name)
    """CUDA device number `device` (a weft.Device, usable as ``with``); None: the current device."""
    if device is None:
        from ._device import current_device
        return current_device()
    if isinstance(device, _weft.Device):
        return device
    return _weft.Device(f"cuda:{int(device)}")


def is_available() -> bool:
    """Whether weft sees a CUDA device."""
    return any(d.backend == "cuda" for d in _weft.devices())
