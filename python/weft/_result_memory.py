"""NumPy arrays for large results copied back from a device, over host memory reused from
weft's pool (weft::result_memory in C++: pinned on CUDA, already faulted in when reused), so
that the copy does not page-fault a fresh allocation (a fresh 256 MiB NumPy array costs more
to fault in than to fill; include/weft/result_memory.hpp has the figures). Smaller results,
and any the pool cannot serve, get np.empty. The array's base gives the block back to the pool
when the last view of it goes; weft.free_cached_memory() frees the idle blocks."""
from __future__ import annotations

import math as _math
from typing import Any

import numpy as _np

from . import _weft

_MIN_BYTES: int = _weft._RESULT_BLOCK_MIN_BYTES


def result_empty(shape: tuple[int, ...], dtype: _np.dtype[Any], device: object,
                 min_bytes: int = _MIN_BYTES) -> _np.ndarray[Any, Any]:
    """An uninitialized C-contiguous array for a result of device, pooled from min_bytes (by
    default _MIN_BYTES, 4 MiB; a caller that copies straight into a pinned block, as
    polygon_mask does, asks from less).

    >>> a = result_empty((1024, 1024), _np.dtype(_np.float64), _weft.Device("host"))
    >>> a.shape, a.dtype, a.flags.c_contiguous
    ((1024, 1024), dtype('float64'), True)
    """
    nbytes = _math.prod(shape) * dtype.itemsize
    if nbytes < min_bytes:
        return _np.empty(shape, dtype=dtype)
    try:
        raw = _weft._result_block(device, nbytes)
    except _weft.OutOfMemory:  # no pinned memory left: pageable memory still works
        return _np.empty(shape, dtype=dtype)
    out: _np.ndarray[Any, Any] = raw.view(dtype).reshape(shape)
    return out
