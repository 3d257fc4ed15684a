"""The polygon exercise: masks of polygons (even-odd rule) and its random polygons."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, overload

import numpy as _np

from . import _weft
from ._result_memory import result_empty

if TYPE_CHECKING:
    from ._typing import ArrayLike, DeviceLike

_POOLED_MASK_BYTES = 64 << 10


@overload
def polygon_mask(vertices: ArrayLike, height: int, width: int, device: DeviceLike = None,
                 border_value: int = 1) -> _np.ndarray[Any, Any]: ...
@overload
def polygon_mask(vertices: ArrayLike, height: tuple[int, int], width: None = None, device: DeviceLike = None,
                 border_value: int = 1) -> _np.ndarray[Any, Any]: ...


# (height is an int, or (height, width) with width None: the overloads above; Any here, where it is unpacked)
def polygon_mask(vertices: ArrayLike, height: Any, width: Any = None, device: DeviceLike = None,
                 border_value: int = 1) -> _np.ndarray[Any, Any]:
    """The polygon exercise's mask: which pixels lie inside a polygon, by the even-odd rule.

    A (height, width) uint8 NumPy array, mask[y, x] for the point (x, y). Pixel coordinates are
    integers (pixel (x, y) is the point x, y, not a pixel centre). A pixel equal to a vertex takes
    border_value; every other pixel, those on an edge included, is 1 inside the polygon by the
    exercise's even-odd rule (an edge counts where min(y1, y2) < y <= max(y1, y2) and x is left of
    or on it: docs/POLYGON.md) and 0 outside. Computed on a device by scanline.

    Parameters
    ----------
    vertices : array_like
        (N, 2) of (x, y), finite, any count; the polygon is closed implicitly.
    height : int or (int, int)
        The mask's height, or its shape (height, width) as one tuple.
    width : int, optional
        The mask's width (when height is not the shape).
    device : weft.Device, str or None, optional
        Where to compute it (None: the default device; "auto": where device auto expects it
        first, weighing the rows' crossings, the pixels and the mask's copy to the host:
        docs/PLACEMENT.md).
    border_value : int, optional
        The value of the pixels equal to a vertex (1 by default).

    Returns
    -------
    numpy.ndarray
        The (height, width) uint8 mask, in host memory.

    Raises
    ------
    weft.InvalidArgument
        vertices is not (N, 2) of finite numbers, or the shape is malformed.

    Examples
    --------
    >>> square = [(1, 1), (4, 1), (4, 3), (1, 3)]
    >>> weft.polygon_mask(square, 5, 6)
    array([[0, 0, 0, 0, 0, 0],
           [0, 1, 0, 0, 1, 0],
           [0, 0, 1, 1, 1, 0],
           [0, 1, 1, 1, 1, 0],
           [0, 0, 0, 0, 0, 0]], dtype=uint8)
    """
    if width is None:
        try:
            height, width = height
        except (TypeError, ValueError):
            raise _weft.InvalidArgument("polygon_mask: give the shape as height, width or as one (height, width) "
                                        f"tuple, not {height!r}") from None
    v = _np.ascontiguousarray(vertices, dtype=_np.float64)
    if v.ndim != 2 or v.shape[1] != 2:
        raise _weft.InvalidArgument(f"polygon_mask: vertices must have shape (N, 2), got {v.shape}")
    automatic = isinstance(device, str) and device == "auto"
    # From 64 KiB the mask goes into a pooled block (pinned on CUDA and NVIDIA's OpenCL, faulted
    # in once): one DMA straight into it, rather than chunks copied from pinned memory into a
    # fresh array (src/algorithms/polygon.cpp, mask_with_groups).
    out = result_empty((int(height), int(width)), _np.dtype(_np.uint8), None if automatic else device,
                       min_bytes=_POOLED_MASK_BYTES)
    _weft._polygon_mask(v, int(height), int(width), device, int(border_value), out)
    return out


def random_polygon(n: int, seed: int, width: int, height: int) -> _np.ndarray[Any, Any]:
    """The polygon exercise's random polygon: n vertices with integer coordinates inside
    width x height, the same for the same seed everywhere.

    Parameters
    ----------
    n : int
        How many vertices.
    seed : int
        The seed.
    width, height : int
        The vertices' range: x in [0, width], y in [0, height].

    Returns
    -------
    numpy.ndarray
        (n, 2) float64 (x, y) vertices.

    Examples
    --------
    >>> v = weft.random_polygon(5, seed=1, width=100, height=50)
    >>> v.shape, bool(((v >= 0) & (v <= [100, 50])).all())
    ((5, 2), True)
    """
    return _np.asarray(_weft._random_polygon(int(n), int(seed), int(width), int(height)),
                       dtype=_np.float64).reshape(-1, 2)
