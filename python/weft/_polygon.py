"""The polygon exercise: masks of polygons (even-odd rule) and its random polygons."""
from __future__ import annotations

import numpy as _np

from . import _weft


def polygon_mask(vertices, height, width, device=None, border_value=1):
    """The polygon exercise's mask: a (height, width) uint8 NumPy array, 1 inside the polygon
    (even-odd rule, pixel centres), border_value on its edges. vertices: (N, 2) of (x, y)."""
    v = _np.ascontiguousarray(vertices, dtype=_np.float64)
    if v.ndim != 2 or v.shape[1] != 2:
        raise _weft.InvalidArgument(f"polygon_mask: vertices must have shape (N, 2), got {v.shape}")
    out = _np.empty((int(height), int(width)), dtype=_np.uint8)
    _weft._polygon_mask(v, int(height), int(width), device, int(border_value), out)
    return out


def random_polygon(n, seed, width, height):
    """The exercise's random polygon of n vertices inside width x height, as an (n, 2) array."""
    return _np.asarray(_weft._random_polygon(int(n), int(seed), int(width), int(height)),
                       dtype=_np.float64).reshape(-1, 2)
