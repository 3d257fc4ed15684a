"""Polygon masks larger than one device's memory, computed in tiles over Dask (issue 31).

Each tile is ``weft.polygon_mask`` of a sub-rectangle, computed on the device of the worker that
runs it: the vertices are moved by the tile's offset, so the tile's pixel (x, y) is the whole
mask's pixel (x0 + x, y0 + y). That move is exact, and the tiles equal the one-piece mask pixel
for pixel, for integer vertices of magnitude at most 2^24 (the exercise's random polygons, and
most vertex files): the edge crossings then round as they do without the move (the module's
tests and docs/guide/dask.md say why); other vertices are refused rather than risk a pixel that
differs.

With ``out=`` a ``.npy`` file, every worker writes its tiles into the file through a memory map,
so no process ever holds the whole mask (the file must be one the workers can open: the same
machine, or a shared file system). Without it, the tiles come back to the caller, who assembles
the mask in memory.

The command-line form is ``weft polygon --workers N ...`` (or ``--dask``), which runs
``python -m weft.dask_polygon`` with its arguments::

    weft polygon --size 32768x32768 --vertices 1000 --workers 2 --out mask.npy
"""
# Dask's own functions carry no annotations.
# mypy: disallow-untyped-calls=False
from __future__ import annotations

import argparse
import hashlib
import sys
import time
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as _np

import weft as _weft
from weft import _device

__all__ = ["TileResult", "exact_offsets", "polygon_mask", "polygon_tiles", "tile_grid"]

# Integer vertices up to this magnitude keep the tiles exact (see exact_offsets).
_EXACT_LIMIT = float(1 << 24)


@dataclass(frozen=True)
class TileResult:
    """One computed tile: where it lies, how many pixels are set, and the SHA-256 of its bytes
    (row-major, uint8). ``mask`` holds the tile when no output file took it, else None."""

    y0: int
    x0: int
    height: int
    width: int
    inside: int
    sha256: str
    device: str
    mask: _np.ndarray[Any, Any] | None = None


def _tile_shape(tile: Any) -> tuple[int, int]:
    if isinstance(tile, (int, _np.integer)):
        th = tw = int(tile)
    else:
        try:
            th, tw = (int(t) for t in tile)
        except (TypeError, ValueError):
            raise _weft.InvalidArgument(f"tile: give an int or (height, width) of positive ints, not {tile!r}") from None
    if th < 1 or tw < 1:
        raise _weft.InvalidArgument(f"tile: sides must be at least 1, got ({th}, {tw})")
    return th, tw


def tile_grid(height: int, width: int, tile: Any) -> list[tuple[int, int, int, int]]:
    """The tiles of a height x width mask: (y0, x0, h, w) in row-major order, the last row and
    column of tiles cut to the mask.

    Examples
    --------
    >>> from weft.dask_polygon import tile_grid
    >>> tile_grid(5, 7, (2, 4))
    [(0, 0, 2, 4), (0, 4, 2, 3), (2, 0, 2, 4), (2, 4, 2, 3), (4, 0, 1, 4), (4, 4, 1, 3)]
    """
    th, tw = _tile_shape(tile)
    if height < 1 or width < 1:
        raise _weft.InvalidArgument(f"tile_grid: the mask's sides must be at least 1, got {height}x{width}")
    return [(y0, x0, min(th, height - y0), min(tw, width - x0))
            for y0 in range(0, height, th) for x0 in range(0, width, tw)]


def exact_offsets(vertices: Any) -> _np.ndarray[Any, Any]:
    """The vertices as (N, 2) float64 after checking that moving them by a tile's offset keeps
    every pixel of the mask: integers of magnitude at most 2^24 (and polygon_tiles checks that
    the mask's sides, hence the offsets, are at most 2^24 too).

    Why that suffices: with integer vertices the differences the kernel takes (py - y1,
    x2 - x1, y2 - y1) are the same integers before and after the move, so the quotient q of an
    edge's crossing is the same double, within 2^-28 of the true quotient r; the crossings
    q + x1 and q + (x1 - x0), both of magnitude below 2^26, round within 2^-27 of r + x1 and
    r + x1 - x0. When r is an integer all of these are exact; when it is not, r (a fraction
    with denominator abs(y2 - y1) <= 2^25) is at least 2^-25 from every integer, so both roundings
    land on the same side of every integer and the floors differ by exactly x0.

    Raises
    ------
    weft.InvalidArgument
        vertices is not (N, 2), or a coordinate is not an integer of magnitude at most 2^24.

    Examples
    --------
    >>> from weft.dask_polygon import exact_offsets
    >>> exact_offsets([(1, 2), (3, 4), (0, 9)]).dtype
    dtype('float64')
    """
    v = _np.ascontiguousarray(vertices, dtype=_np.float64)
    if v.ndim != 2 or v.shape[1] != 2:
        raise _weft.InvalidArgument(f"vertices: must have shape (N, 2), got {v.shape}")
    if not bool(_np.all(_np.isfinite(v))) or bool(_np.any(_np.abs(v) > _EXACT_LIMIT)) \
            or bool(_np.any(v != _np.round(v))):
        raise _weft.InvalidArgument("vertices: a tiled mask needs integer vertices of magnitude at most 2^24 (the "
                                    "tiles then equal the one-piece mask exactly); compute other polygons in one "
                                    "piece with weft.polygon_mask")
    return v


def _compute_tile(vertices: _np.ndarray[Any, Any], y0: int, x0: int, h: int, w: int, border_value: int,
                  out: str | None) -> TileResult:
    """One tile, on this thread's current device (a local_cluster worker's own device)."""
    device = _device.current_device()
    moved = vertices - _np.array([x0, y0], dtype=_np.float64)
    tile = _weft.polygon_mask(moved, h, w, device=device, border_value=border_value)
    digest = hashlib.sha256(tile.tobytes()).hexdigest()
    inside = int(_np.count_nonzero(tile))
    if out is None:
        return TileResult(y0, x0, h, w, inside, digest, device.selector, tile)
    whole = _np.lib.format.open_memmap(out, mode="r+")
    whole[y0:y0 + h, x0:x0 + w] = tile
    whole.flush()
    del whole
    return TileResult(y0, x0, h, w, inside, digest, device.selector)


def polygon_tiles(vertices: Any, height: int, width: int, tile: Any = 4096, *, out: str | None = None,
                  client: Any = None, border_value: int = 1) -> list[TileResult]:
    """Computes the mask in tiles and returns what each tile gave (the module's docstring says
    how); with ``out=`` the tiles are written into that ``.npy`` file, made here first.

    Parameters
    ----------
    vertices : array_like
        (N, 2) integer (x, y) vertices (see exact_offsets).
    height, width : int
        The mask's shape.
    tile : int or (int, int), optional
        The tiles' shape (4096 x 4096 by default: 16 MiB each).
    out : str, optional
        A ``.npy`` path the tiles are written into (created, uint8, (height, width)).
    client : distributed.Client, optional
        Where the tiles run (one task each; the vertices are scattered to the workers once).
        None: this process, one tile after another, on the current device (a ``with device:``
        block's, else the default).
    border_value : int, optional
        As weft.polygon_mask's.

    Returns
    -------
    list of TileResult
        In row-major tile order.

    Examples
    --------
    >>> from weft.dask_polygon import polygon_tiles
    >>> square = [(1, 1), (4, 1), (4, 3), (1, 3)]
    >>> [t.inside for t in polygon_tiles(square, 5, 6, tile=(3, 4))]
    [3, 2, 3, 1]
    """
    v = exact_offsets(vertices)
    if max(int(height), int(width)) > _EXACT_LIMIT:
        raise _weft.InvalidArgument(f"polygon_tiles: a tiled mask's sides are at most 2^24 (the tiles' offsets then "
                                    f"keep every pixel exact), got {width}x{height}")
    grid = tile_grid(int(height), int(width), tile)
    if out is not None:
        _np.lib.format.open_memmap(out, mode="w+", dtype=_np.uint8, shape=(int(height), int(width))).flush()
    if client is None:
        return [_compute_tile(v, y0, x0, h, w, int(border_value), out) for y0, x0, h, w in grid]
    # hash=False: a key of its own per call. With the content's hash, a second call with the same
    # vertices reused the key of the first call's data while the scheduler was forgetting it
    # (the tiles were then cancelled for "lost dependencies").
    shared = client.scatter(v, broadcast=True, hash=False)
    futures = [client.submit(_compute_tile, shared, y0, x0, h, w, int(border_value), out, pure=False)
               for y0, x0, h, w in grid]
    return list(client.gather(futures))


def polygon_mask(vertices: Any, height: int, width: int, tile: Any = 4096, *, out: str | None = None,
                 client: Any = None, border_value: int = 1) -> _np.ndarray[Any, Any]:
    """The mask of weft.polygon_mask, computed in tiles (polygon_tiles says how).

    Returns
    -------
    numpy.ndarray
        (height, width) uint8: a memory map of ``out`` when given, else an array in memory.

    Examples
    --------
    >>> from weft.dask_polygon import polygon_mask
    >>> square = [(1, 1), (4, 1), (4, 3), (1, 3)]
    >>> bool((polygon_mask(square, 5, 6, tile=2) == weft.polygon_mask(square, 5, 6)).all())
    True
    """
    tiles = polygon_tiles(vertices, height, width, tile, out=out, client=client, border_value=border_value)
    if out is not None:
        return _np.lib.format.open_memmap(out, mode="r")
    whole = _np.empty((int(height), int(width)), dtype=_np.uint8)
    for t in tiles:
        assert t.mask is not None
        whole[t.y0:t.y0 + t.height, t.x0:t.x0 + t.width] = t.mask
    return whole


# ---- python -m weft.dask_polygon (weft polygon --workers N / --dask) --------------------------

def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(s) for s in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--size needs WIDTHxHEIGHT (e.g. 1024x768), got '{text}'") from None
    if w < 1 or h < 1:
        raise argparse.ArgumentTypeError(f"--size: sides must be at least 1, got '{text}'")
    return w, h


def _tile_arg(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    try:
        sides = [int(p) for p in parts]
    except ValueError:
        sides = []
    if len(sides) not in (1, 2) or min(sides) < 1:
        raise argparse.ArgumentTypeError(f"--tile needs N or HxW (positive), got '{text}'")
    return (sides[0], sides[0]) if len(sides) == 1 else (sides[0], sides[1])


def read_vertices_file(path: str) -> _np.ndarray[Any, Any]:
    """One "x y" pair a line (a comma may separate them; '#' starts a comment), as weft polygon
    --vertices-file reads them."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.split("#", 1)[0].replace(",", " ").split()
            if not text:
                continue
            try:
                x, y = (float(t) for t in text)
            except ValueError:
                raise _weft.InvalidArgument(f"--vertices-file {path}:{number}: expected two finite numbers "
                                            f"\"x y\", got '{line.rstrip()}'") from None
            rows.append((x, y))
    if not rows:
        raise _weft.InvalidArgument(f"--vertices-file {path} holds no vertices")
    return _np.array(rows, dtype=_np.float64)


def main(argv: Sequence[str] | None = None) -> int:
    """``weft polygon --workers N`` / ``--dask``: the mask in tiles on a weft.dask.local_cluster."""
    p = argparse.ArgumentParser(prog="weft polygon", description="A polygon mask in tiles over a Dask cluster "
                                "(one worker process per device).")
    p.add_argument("--size", type=_size, required=True, help="WIDTHxHEIGHT")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--vertices", type=int, help="N random integer vertices")
    src.add_argument("--vertices-file", help="one 'x y' pair a line")
    p.add_argument("--seed", type=int, default=0, help="the random vertices' seed")
    p.add_argument("--dask", action="store_true", help="one worker per device weft.devices() lists")
    p.add_argument("--workers", type=int, help="N worker processes over the devices, in turn")
    p.add_argument("--scheduler", help="the address of a running Dask scheduler to use instead (its workers' "
                   "devices, e.g. started by weft.dask.local_cluster)")
    p.add_argument("--device", action="append", help="a worker's device (repeatable); default every device")
    p.add_argument("--tile", type=_tile_arg, default=(4096, 4096), help="tile side N or HxW (default 4096)")
    p.add_argument("--out", help="write the mask into FILE.npy (each worker writes its tiles)")
    a = p.parse_args(list(sys.argv[1:] if argv is None else argv))
    width, height = a.size
    if a.workers is not None and a.workers < 1:
        p.error("--workers needs a positive count")
    if a.vertices is not None:
        vertices = _weft.random_polygon(a.vertices, a.seed, width, height)
    else:
        vertices = read_vertices_file(a.vertices_file)
    devices = a.device or [d.selector for d in _weft.devices()]
    if a.workers is not None:
        devices = [devices[i % len(devices)] for i in range(a.workers)]

    import distributed
    import weft.dask as wd

    start = time.perf_counter()
    if a.scheduler:
        with distributed.Client(a.scheduler) as client:
            up = time.perf_counter()
            workers = len(client.scheduler_info()["workers"])
            tiles = polygon_tiles(vertices, height, width, a.tile, out=a.out, client=client)
            done = time.perf_counter()
    else:
        workers = len(devices)
        with wd.local_cluster(devices, dashboard_address=":0", silence_logs=40) as cluster, \
                distributed.Client(cluster) as client:
            up = time.perf_counter()
            tiles = polygon_tiles(vertices, height, width, a.tile, out=a.out, client=client)
            done = time.perf_counter()
    inside = sum(t.inside for t in tiles)
    per_device: dict[str, int] = {}
    for t in tiles:
        per_device[t.device] = per_device.get(t.device, 0) + 1
    where = ", ".join(f"{n} on {d}" for d, n in sorted(per_device.items()))
    print(f"polygon: {len(vertices)} vertices, {width}x{height} in {len(tiles)} tiles ({where}) on "
          f"{workers} workers: {inside} of {width * height} pixels inside "
          f"({100.0 * inside / (width * height):.1f}%), tiles {done - up:.3f} s (cluster start {up - start:.1f} s)")
    return 0


if __name__ == "__main__":
    # The module's own copy under its name, so that Dask pickles _compute_tile by reference (a
    # function of __main__ would be pickled by value, with this module's globals).
    from weft.dask_polygon import main as _main
    sys.exit(_main())
