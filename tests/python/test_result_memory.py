"""Large results copied back into reused host memory (weft::result_memory, issue 30): Array.get,
get_async and polygon_mask give NumPy arrays over pooled blocks that return to the pool."""
import time

import numpy as np
import pytest

import weft


def test_large_results_come_in_pooled_memory_reused(device):
    # (weft::result_memory: at least 4 MiB; 8 MiB here, the smallest size that shows it)
    weft.free_cached_memory(device)
    a = weft.arange(1 << 20, dtype=np.float64, device=device)
    first = a.get()
    np.testing.assert_array_equal(first[::4097], np.arange(0, 1 << 20, 4097, dtype=np.float64))
    assert first.flags.c_contiguous and first.flags.writeable and first.base is not None
    address = first.__array_interface__["data"][0]
    del first  # its block goes back to the pool once the copy's completion has let it go too
    deadline = time.monotonic() + 5.0  # (on CUDA the completion thread drops its hold a moment later)
    while weft._weft._idle_result_memory() < 8 << 20 and time.monotonic() < deadline:
        time.sleep(0.001)
    assert weft._weft._idle_result_memory() >= 8 << 20
    again = (a + 1).get()
    assert again.__array_interface__["data"][0] == address  # the same block, already faulted in
    np.testing.assert_array_equal(again[:3], [1.0, 2.0, 3.0])
    view = again[10:20]
    del again
    np.testing.assert_array_equal(view, np.arange(11.0, 21.0))  # a view keeps its block
    weft.free_cached_memory(device)
    assert weft._weft._idle_result_memory() == 0
    small = weft.arange(10, device=device).get()
    assert small.base is None  # small results are plain NumPy arrays
    future = a.get_async()
    np.testing.assert_array_equal(future.result()[-2:], [(1 << 20) - 2.0, (1 << 20) - 1.0])


def test_polygon_mask_into_pooled_memory(device):
    if not device.fp64:
        pytest.skip("polygon_mask needs double precision")
    v = np.array([[0.0, 0.0], [3000.0, 0.0], [0.0, 3000.0]])
    m = weft.polygon_mask(v, 2048, 2048, device=device)
    assert m.shape == (2048, 2048) and m.dtype == np.uint8 and m.base is not None
    assert m[10, 10] == 1 and m[2047, 2047] == 0
    np.testing.assert_array_equal(m, weft.polygon_mask(v, (2048, 2048), device="host"))
