"""Polygon masks in tiles over Dask (weft.dask_polygon, `weft polygon --workers N`): every tile
computed on a worker's device equals the same rectangle of the one-piece host mask."""
import hashlib
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import weft

pytest.importorskip("dask")
wp = pytest.importorskip("weft.dask_polygon")

H, W = 1024, 1536
TILE = (300, 411)  # odd tiles: the last row and column of tiles are cut


@pytest.fixture(scope="module")
def polygon():
    v = weft.random_polygon(200, 31, W, H)
    return v, weft.polygon_mask(v, H, W, device="host")


def test_tile_grid_covers_the_mask_once():
    grid = wp.tile_grid(H, W, TILE)
    cover = np.zeros((H, W), np.int32)
    for y0, x0, h, w in grid:
        cover[y0:y0 + h, x0:x0 + w] += 1
    assert (cover == 1).all() and len(grid) == 4 * 4


def test_tiles_in_one_process_equal_the_one_piece_mask(polygon, device):
    v, whole = polygon
    with device:
        tiled = wp.polygon_mask(v, H, W, tile=TILE)
        tiles = wp.polygon_tiles(v, H, W, tile=(H, 700))
    np.testing.assert_array_equal(tiled, whole)
    assert {t.device for t in tiles} == {device.selector} and len(tiles) == 3


def test_tiles_on_a_two_worker_cluster_into_a_npy_file(polygon, dask_client, tmp_path):
    v, whole = polygon
    out = str(tmp_path / "mask.npy")
    tiles = wp.polygon_tiles(v, H, W, TILE, out=out, client=dask_client)
    assert {t.device for t in tiles} <= set(dask_client.weft_devices)
    for t in tiles:
        assert t.mask is None  # (written into the file by its worker, not sent back)
        part = whole[t.y0:t.y0 + t.height, t.x0:t.x0 + t.width]
        assert t.sha256 == hashlib.sha256(np.ascontiguousarray(part).tobytes()).hexdigest()
        assert t.inside == int(np.count_nonzero(part))
    np.testing.assert_array_equal(np.load(out, mmap_mode="r"), whole)
    # Without a file the tiles come back and are put together here; a border value too.
    back = wp.polygon_mask(v, H, W, tile=(512, 700), client=dask_client, border_value=7)
    np.testing.assert_array_equal(back, weft.polygon_mask(v, H, W, device="host", border_value=7))


def test_far_vertices_and_vertices_on_tile_borders_stay_exact():
    """Edges from far outside the mask (large quotients) and vertices on tile corners."""
    r = np.random.default_rng(5)
    angles = np.sort(r.random(60)) * 2 * np.pi  # (a star around the mask's middle: near and far points in turn)
    radii = np.where(np.arange(60) % 2 == 0, r.integers(0, 300, 60), r.integers(1 << 20, 1 << 22, 60))
    far = np.round(np.stack([450 + radii * np.cos(angles), 200 + radii * np.sin(angles)], axis=1))
    near = np.array([(0, 0), (411, 300), (822, 0), (411, 600), (1535, 1023), (411, 900)], dtype=np.float64)
    for v in (far, np.concatenate([near, far[:7]])):
        whole = weft.polygon_mask(v, 400, 900, device="host", border_value=3)
        assert 0.05 < whole.mean() < 0.95
        np.testing.assert_array_equal(wp.polygon_mask(v, 400, 900, tile=(100, 137), border_value=3), whole)


def test_vertices_that_cannot_be_moved_exactly_are_refused():
    with pytest.raises(weft.InvalidArgument, match="integer vertices"):
        wp.polygon_tiles([(0.5, 1), (9, 2), (4, 8)], 10, 10, 4)
    with pytest.raises(weft.InvalidArgument, match="shape"):
        wp.polygon_tiles([1, 2, 3], 10, 10, 4)
    with pytest.raises(weft.InvalidArgument, match="tile"):
        wp.tile_grid(10, 10, (0, 3))
    with pytest.raises(weft.InvalidArgument, match="at most 2\\^24"):
        wp.polygon_tiles([(0, 1), (9, 2), (4, 8)], 10, (1 << 24) + 1, 4)


def _env():
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(pathlib.Path(weft.__file__).resolve().parents[1]),
                                                        os.environ.get("PYTHONPATH", "")]))


def test_the_command_line_form(dask_client, tmp_path):
    """python -m weft.dask_polygon (what `weft polygon --workers N` runs), here on the running
    cluster (--scheduler; without it, it starts its own local_cluster)."""
    out = str(tmp_path / "cli.npy")
    proc = subprocess.run([sys.executable, "-m", "weft.dask_polygon", "--size", "300x200", "--vertices", "40",
                           "--seed", "5", "--scheduler", dask_client.scheduler.address, "--tile", "64x90",
                           "--out", out], env=_env(), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    v = weft.random_polygon(40, 5, 300, 200)
    want = weft.polygon_mask(v, 200, 300, device="host")
    np.testing.assert_array_equal(np.load(out), want)
    assert f"{int(want.sum())} of 60000 pixels inside" in proc.stdout and "on 2 workers" in proc.stdout
    with pytest.raises(SystemExit):
        wp.main(["--size", "300x200", "--vertices", "4", "--workers", "0"])


def test_weft_polygon_workers_runs_the_python_module(dask_client, tmp_path):
    """The C++ `weft polygon` hands --workers/--dask/--scheduler to python -m weft.dask_polygon,
    with the package it lies in first on PYTHONPATH."""
    from weft.__main__ import tool_path
    if tool_path() is None:
        pytest.skip("this package has no weft command-line program")
    out = str(tmp_path / "tool.npy")
    env = _env()
    proc = subprocess.run([tool_path(), "polygon", "--size", "130x70", "--vertices", "9", "--seed", "2",
                           "--scheduler", dask_client.scheduler.address, "--tile", "32", "--out", out,
                           "--python", sys.executable], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    want = weft.polygon_mask(weft.random_polygon(9, 2, 130, 70), 70, 130, device="host")
    np.testing.assert_array_equal(np.load(out), want)
    assert "in 15 tiles" in proc.stdout
