"""The polygon exercise: masks of polygons (even-odd rule) and its random polygons."""
from __future__ import annotations

import numpy as _np

from . import _weft


def polygon_mask(vertices, height, width=None, device=None, border_value=1):
    """The polygon exercise's mask: a (height, width) uint8 NumPy array, mask[y, x] for the
    point (x, y). Pixel coordinates are integers (pixel (x, y) is the point x, y, not a pixel
    centre). A pixel equal to a vertex takes border_value; every other pixel, those on an edge
    included, is 1 inside the polygon by the exercise's even-odd rule (an edge counts where
    min(y1, y2) < y <= max(y1, y2) and x is left of or on it: see docs/POLYGON.md) and 0
    outside. vertices: (N, 2) of (x, y), finite, any count; closed implicitly. The shape may
    also be given as one tuple, polygon_mask(vertices, (height, width)), as NumPy's shapes are."""
    if width is None:
        try:
            height, width = height
        except (TypeError, ValueError):
            raise _weft.InvalidArgument("polygon_mask: give the shape as height, width or as one (height, width) "
                                        f"tuple, not {height!r}") from None
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
