"""weft arrays as Dask chunks (issue 31): dask.array over weft.Array blocks on the threaded
scheduler, on every device, against NumPy; pickling of weft arrays; and one short run on a
dask.distributed LocalCluster of two worker processes (weft.dask.local_cluster)."""
import copy
import os
import pickle

import numpy as np
import pytest

import weft

da = pytest.importorskip("dask.array")
wd = pytest.importorskip("weft.dask")

rng = np.random.default_rng(31)
DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.float32, np.float64]


def compute(d):
    """d computed on the threaded scheduler: a weft.Array (checked), as a NumPy array."""
    r = d.compute(scheduler="threads")
    assert isinstance(r, weft.Array), type(r)
    return r.get()


def close(got, want, rtol=1e-6, atol=1e-9):
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


@pytest.fixture
def x():
    return rng.random((13, 10))


def test_from_numpy_makes_weft_chunks_on_the_device(device, x):
    d = wd.from_numpy(x, chunks=(4, 3), device=device)
    assert isinstance(d._meta, weft.Array) and d._meta.shape == (0, 0) and d._meta.dtype == np.float64
    blocks = [b for b in d.to_delayed().ravel()]
    first = blocks[0].compute(scheduler="threads")
    assert isinstance(first, weft.Array) and first.device == device and first.shape == (4, 3)
    close(compute(d), x)
    close(wd.to_numpy(d, scheduler="threads"), x)


def test_from_numpy_in_a_device_block_puts_the_chunks_there(device, x):
    with device:
        d = wd.from_numpy(x, (5, 5))
    r = d.cumsum(axis=0).compute(scheduler="threads")  # (Dask's threads are outside the block)
    assert r.device == device and d._meta.device == device
    close(r.get(), x.cumsum(axis=0), rtol=1e-9)


def test_map_blocks_with_asarray_and_from_array_meta(device, x):
    host = da.from_array(x, chunks=5)
    d = host.map_blocks(weft.asarray, device=device, meta=wd.meta(2, x.dtype, device))
    assert isinstance(d._meta, weft.Array)
    close(compute(d + 1), x + 1)
    whole = da.from_array(weft.asarray(x, device=device), chunks=(4, 6))  # (chunks: views of one weft array)
    assert isinstance(whole._meta, weft.Array)
    close(compute((whole * 2).sum(axis=0)), (x * 2).sum(axis=0))


def test_elementwise(device, x):
    y = rng.random((13, 10))
    d, e = wd.from_numpy(x, (5, 4), device), wd.from_numpy(y, (4, 5), device)
    close(compute(d * 2 + e), x * 2 + y)
    close(compute(np.sin(d) / (1 + e)), np.sin(x) / (1 + y))
    close(compute(da.where(d > e, d, -e)), np.where(x > y, x, -y))
    close(compute(d.T + e.T), (x + y).T)
    ints = rng.integers(-50, 50, (9, 7)).astype(np.int32)
    di = wd.from_numpy(ints, 4, device)
    got = compute(di * 3 - (di // 2))
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, ints * 3 - ints // 2)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(device, x, axis, keepdims):
    d = wd.from_numpy(x, (4, 3), device)
    for name in ("sum", "mean", "std", "min", "max", "prod"):
        got = compute(getattr(d, name)(axis=axis, keepdims=keepdims))
        close(got, getattr(np, name)(x, axis=axis, keepdims=keepdims), rtol=1e-9)
    close(compute(d.var(axis=axis, ddof=1, keepdims=keepdims)), x.var(axis=axis, ddof=1, keepdims=keepdims))


def test_integer_and_float32_reductions(device):
    ints = rng.integers(-100, 100, (11, 6)).astype(np.int32)
    d = wd.from_numpy(ints, (4, 4), device)
    np.testing.assert_array_equal(compute(d.sum(axis=0)), ints.sum(axis=0))
    np.testing.assert_array_equal(compute(d.max(axis=1, keepdims=True)), ints.max(axis=1, keepdims=True))
    close(compute(d.mean(axis=1)), ints.mean(axis=1))
    f = rng.random((11, 6)).astype(np.float32)
    got = compute(wd.from_numpy(f, 4, device).sum(axis=0))
    assert got.dtype == np.float32
    close(got, f.sum(axis=0), rtol=1e-5)


def test_nan_reductions(device, x):
    x = x.copy()
    x[2, 3] = x[7, :] = np.nan
    d = wd.from_numpy(x, (4, 3), device)
    close(compute(da.nansum(d, axis=0)), np.nansum(x, axis=0))
    close(compute(da.nanmean(d, axis=0)), np.nanmean(x, axis=0))
    close(compute(da.nanmin(d, axis=1)[:7]), np.nanmin(x[:7], axis=1))
    close(compute(da.nanmax(d)), np.nanmax(x))
    assert np.isnan(compute(da.nanmax(d, axis=1))[7])


@pytest.mark.parametrize("axis", [0, 1])
def test_cumsum(device, x, axis):
    d = wd.from_numpy(x, (4, 3), device)
    close(compute(d.cumsum(axis=axis)), x.cumsum(axis=axis), rtol=1e-9)
    ints = rng.integers(0, 9, (9, 5)).astype(np.int64)
    np.testing.assert_array_equal(compute(wd.from_numpy(ints, 2, device).cumsum(axis=axis)),
                                  ints.cumsum(axis=axis))


def test_rechunk_and_slicing(device, x):
    d = wd.from_numpy(x, (4, 3), device)
    r = d.rechunk((6, 10))
    assert r.chunks == ((6, 6, 1), (10,))
    close(compute(r), x)
    close(compute(d.rechunk((13, 1))[2:11:3, ::-2]), x[2:11:3, ::-2])
    close(compute(da.concatenate([d, d[:, :2]], axis=1)), np.concatenate([x, x[:, :2]], axis=1))
    close(compute(da.stack([d, d + 1])), np.stack([x, x + 1]))


def test_map_blocks_with_a_raw_kernel(device):
    src = """__kernel void affine(__global const float *x, __global float *y, float a, float b, int n) {
        int i = get_global_id(0);
        if (i < n) y[i] = a * x[i] + b;
    }"""
    kernel = weft.RawKernel(src, "affine")

    def block(b):
        flat = b.ravel()
        flat = flat if flat.flags_c_contiguous else flat.copy()
        out = weft.empty(flat.shape, np.float32, device=b.device)
        n = flat.size
        kernel(((n + 63) // 64,), (64,), (flat, out, np.float32(3), np.float32(-1), np.int32(n))).wait()
        return out.reshape(b.shape)

    f = rng.random((10, 9)).astype(np.float32)
    d = wd.from_numpy(f, (4, 5), device)
    got = compute(d.map_blocks(block, dtype=np.float32))
    close(got, 3 * f - 1, rtol=1e-6, atol=1e-6)  # (a * x + b may contract to one fma)


def test_tensordot_and_matmul(device):
    a, b = rng.random((9, 7)), rng.random((7, 5))
    da_, db = wd.from_numpy(a, (4, 3), device), wd.from_numpy(b, (3, 2), device)
    close(compute(da_ @ db), a @ b, rtol=1e-9)
    close(compute(da.tensordot(da_, db, axes=1)), np.tensordot(a, b, axes=1), rtol=1e-9)
    c = rng.random((4, 3, 5))
    dc = wd.from_numpy(c, (2, 3, 2), device)
    close(compute(da.tensordot(dc, dc, axes=([0, 2], [0, 2]))), np.tensordot(c, c, axes=([0, 2], [0, 2])), rtol=1e-9)
    close(compute(da.matmul(da_, da_.T)), a @ a.T, rtol=1e-9)


def test_numpy_functions_dask_calls_on_chunks(device):
    a = weft.asarray(np.arange(6.0).reshape(2, 3), device=device)
    r = np.asarray([1, 2, 3], like=a)
    assert isinstance(r, weft.Array) and r.device == device
    r = np.array(5, dtype=np.float32, ndmin=2, like=a)
    assert r.shape == (1, 1) and r.dtype == np.float32 and r.device == device
    for f in (np.zeros, np.ones, np.empty):
        z = f((2, 2), dtype=np.int16, like=a)
        assert isinstance(z, weft.Array) and z.dtype == np.int16 and z.device == device
    np.testing.assert_array_equal(np.full((2,), 7, like=a).get(), [7, 7])
    np.testing.assert_array_equal(np.arange(4, like=a).get(), np.arange(4))
    f = np.full_like(a, 2.5, shape=(1, 4), dtype=np.float32)
    assert f.shape == (1, 4) and f.dtype == np.float32 and f.device == device
    assert np.zeros_like(a, shape=(3,)).shape == (3,)
    np.testing.assert_allclose(np.tensordot(a, a, axes=([1], [1])).get(), np.tensordot(a.get(), a.get(), ([1], [1])))
    np.testing.assert_allclose(np.tensordot(a, a.T, axes=0).get(), np.tensordot(a.get(), a.get().T, axes=0))


def test_percentile_isclose_outer_round(device, x):
    d, n = wd.from_numpy(x, (4, 3), device), da.from_array(x, (4, 3))
    for q in ([10, 50, 90], [0, 33.3, 100]):  # (Dask merges chunks' percentiles: compare with NumPy chunks)
        np.testing.assert_allclose(np.asarray(da.percentile(d[:, 1], q).compute(scheduler="threads")),
                                   da.percentile(n[:, 1], q).compute(scheduler="threads"), rtol=1e-12)
    a = weft.asarray(np.arange(11)[::-1] * 1.5, device=device)
    for method in ("linear", "lower", "higher", "nearest", "midpoint"):
        got = np.percentile(a, [0, 12.5, 50, 99, 100], method=method)
        want = np.percentile(a.get(), [0, 12.5, 50, 99, 100], method=method)
        assert isinstance(got, weft.Array) and got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=1e-12)
    y = x + np.where(x > 0.5, 1e-12, 1e-3)
    np.testing.assert_array_equal(compute(da.isclose(d, wd.from_numpy(y, (4, 3), device))), np.isclose(x, y))
    close(compute(da.outer(d[:, 0], d[0])), np.outer(x[:, 0], x[0]))
    close(compute(da.round(d * 100, 1)), np.round(x * 100, 1), rtol=1e-12)
    close(compute(da.round(d * 100)), np.round(x * 100))


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_argmin_argmax_and_nan_variants(device, axis):
    x = rng.random((11, 9))
    x[3, 4] = x.max() + 1  # (one clear maximum and minimum, so ties do not decide)
    x[7, 1] = x.min() - 1
    d = wd.from_numpy(x, (4, 4), device)
    for got, want in [(d.argmin(axis=axis), x.argmin(axis=axis)), (d.argmax(axis=axis), x.argmax(axis=axis))]:
        np.testing.assert_array_equal(compute(got), want)
    y = x.copy()
    y[::3, ::2] = np.nan
    e = wd.from_numpy(y, (4, 4), device)
    np.testing.assert_array_equal(compute(da.nanargmax(e, axis=axis)), np.nanargmax(y, axis=axis))
    np.testing.assert_array_equal(compute(da.nanargmin(e, axis=axis)), np.nanargmin(y, axis=axis))


def test_unique_einsum_tril_triu(device, x):
    ints = rng.integers(-4, 5, (10, 7)).astype(np.int32)
    di = wd.from_numpy(ints, (4, 3), device)
    np.testing.assert_array_equal(compute(da.unique(di)), np.unique(ints))
    with pytest.raises(ValueError, match="structured"):  # (Dask's limit for such chunk types, CuPy's too)
        da.unique(di, return_counts=True)
    d = wd.from_numpy(x, (5, 4), device)
    y = rng.random((10, 6))
    e = wd.from_numpy(y, (4, 3), device)
    close(compute(da.einsum("ij,jk->ik", d, e)), x @ y, rtol=1e-9)
    close(compute(da.einsum("ij,ij->i", d, d)), np.einsum("ij,ij->i", x, x), rtol=1e-9)
    close(compute(da.einsum("ij->j", d)), x.sum(axis=0), rtol=1e-9)
    for k in (0, 2, -3):
        np.testing.assert_array_equal(compute(da.tril(d, k)), np.tril(x, k))
        np.testing.assert_array_equal(compute(da.triu(d, k)), np.triu(x, k))


def test_einsum_unravel_and_ravel_on_weft_arrays(device):
    a, b = rng.random((2, 3, 4)), rng.random((2, 4, 5))
    wa, wb = weft.asarray(a, device=device), weft.asarray(b, device=device)
    for sub, ops in [("bij,bjk->bik", (a, b)), ("bij,bjk->", (a, b)), ("bij->jb", (a,)), ("bij,bjk", (a, b))]:
        got = np.einsum(sub, *[weft.asarray(o, device=device) for o in ops])
        close(got.get(), np.einsum(sub, *ops), rtol=1e-9)
    with pytest.raises(weft.Unsupported, match="diagonal"):
        np.einsum("ii->i", weft.asarray(np.eye(3), device=device))
    flat = np.array([5, 11, 0, 7])
    coords = np.unravel_index(weft.asarray(flat, device=device), (3, 4))
    for got, want in zip(coords, np.unravel_index(flat, (3, 4))):
        np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(np.ravel_multi_index(coords, (3, 4)).get(), flat)
    np.testing.assert_array_equal(np.ravel_multi_index((coords[0], 9), (3, 4), mode="wrap").get(),
                                  np.ravel_multi_index((np.unravel_index(flat, (3, 4))[0], 9), (3, 4), mode="wrap"))
    with pytest.raises(ValueError):
        np.unravel_index(weft.asarray(np.array([12]), device=device), (3, 4))


# ---- pickling ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=[np.dtype(t).name for t in DTYPES])
def test_pickle_round_trips_every_dtype(device, dtype):
    if np.dtype(dtype) == np.bool_:
        host = rng.random((3, 5)) > 0.5
    elif np.dtype(dtype).kind == "f":
        host = (rng.standard_normal((3, 5)) * 1e3).astype(dtype)
    else:
        info = np.iinfo(dtype)
        host = rng.integers(info.min, info.max, (3, 5), dtype=dtype, endpoint=True)
    a = weft.asarray(host, device=device)
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        b = pickle.loads(pickle.dumps(a, protocol=protocol))
        assert isinstance(b, weft.Array) and b.dtype == host.dtype and b.shape == host.shape
        assert b.device == device  # (the hint: this process has the device and chose none)
        np.testing.assert_array_equal(b.get(), host)


def test_pickle_views_lazy_and_odd_shapes(device):
    host = rng.random((6, 8))
    a = weft.asarray(host, device=device)
    for view, want in [(a[1:5:2, ::-3], host[1:5:2, ::-3]), (a.T, host.T), (a[2], host[2]),
                       (a[3, 4], host[3, 4]), (a[:0], host[:0]), (a * 2 + 1, host * 2 + 1)]:
        b = pickle.loads(pickle.dumps(view))
        assert b.shape == np.shape(want) and b.flags_c_contiguous
        np.testing.assert_array_equal(b.get(), want)
    c = copy.deepcopy(a[::2])
    c[...] = 0
    assert a.get()[0, 0] == host[0, 0] and c.device == device


def test_pickle_protocol_5_carries_the_elements_out_of_band(device):
    a = weft.asarray(np.arange(1000, dtype=np.int32), device=device)
    buffers = []
    data = pickle.dumps(a, protocol=5, buffer_callback=buffers.append)
    assert len(data) < 1000 and sum(memoryview(b).nbytes for b in buffers) == 4000
    b = pickle.loads(data, buffers=buffers)
    np.testing.assert_array_equal(b.get(), np.arange(1000, dtype=np.int32))


def _address(buffer):
    return np.frombuffer(buffer.raw(), np.uint8).__array_interface__["data"][0]


def test_pickle_protocol_5_of_a_host_array_is_its_own_memory():
    host_devices = [d for d in weft.devices() if d.memory_is_host and d.dlpack_device_type == 1]
    if not host_devices:
        pytest.skip("no device with host memory")
    for dtype in DTYPES:
        a = weft.asarray(np.arange(24).reshape(4, 6).astype(dtype), device=host_devices[0])
        buffers = []
        data = pickle.dumps(a, protocol=5, buffer_callback=buffers.append)
        assert len(buffers) == 1 and _address(buffers[0]) == np.from_dlpack(a).__array_interface__["data"][0]
        np.testing.assert_array_equal(pickle.loads(data, buffers=buffers).get(), a.get())
    # Lazy results are evaluated first; strided views are gathered into a copy, not their base's memory.
    a = weft.asarray(np.arange(24.0).reshape(4, 6), device=host_devices[0])
    view = a[:, ::2]
    buffers = []
    data = pickle.dumps(view, protocol=5, buffer_callback=buffers.append)
    assert _address(buffers[0]) != np.from_dlpack(a).__array_interface__["data"][0]
    np.testing.assert_array_equal(pickle.loads(data, buffers=buffers).get(), a.get()[:, ::2])
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(a + 1, protocol=5)).get(), a.get() + 1)


def test_unpickling_inside_a_device_block_lands_there():
    a = weft.asarray(np.arange(4.0), device="host")
    data = pickle.dumps(a)
    target = weft.devices()[-1]
    with target:
        b = pickle.loads(data)
    assert b.device == target
    np.testing.assert_array_equal(b.get(), np.arange(4.0))


def test_dask_distributed_serialization_round_trips(device):
    protocol = pytest.importorskip("distributed.protocol")
    a = weft.asarray(np.arange(12, dtype=np.int16).reshape(3, 4), device=device)[:, ::2]
    header, frames = protocol.serialize(a)
    b = protocol.deserialize(header, frames)
    assert isinstance(b, weft.Array) and b.device == device
    np.testing.assert_array_equal(b.get(), np.arange(12, dtype=np.int16).reshape(3, 4)[:, ::2])


# ---- two worker processes ------------------------------------------------------------------

def test_local_cluster_of_two_worker_processes(dask_client, tmp_path):
    """Also: a worker process that dies mid-computation is restarted by its Nanny on its device,
    and Dask recomputes what it held; the results are still NumPy's."""
    client, devices = dask_client, dask_client.weft_devices
    x = rng.random((40, 30))
    y = rng.random((30, 20))
    assert sorted(client.run(lambda: weft.default_device().selector).values()) == sorted(devices)
    d, e = wd.from_numpy(x, (10, 15)), wd.from_numpy(y, (15, 10))
    results = client.compute([d.sum(axis=0), d.mean(axis=1), d.std(), d.cumsum(axis=0),
                              d.rechunk((40, 5)) * 2, d @ e], sync=True)
    assert all(isinstance(r, weft.Array) for r in results)
    wants = [x.sum(axis=0), x.mean(axis=1), x.std(), x.cumsum(axis=0), x * 2, x @ y]
    for got, want in zip(results, wants):
        close(got.get(), want, rtol=1e-9)
    close(wd.to_numpy(np.exp(d) - d), np.exp(x) - x)

    marker = str(tmp_path / "died")

    def die_once(block):
        if not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)  # (the worker process dies in the middle of the computation)
        return block * 3

    got = wd.to_numpy(d.map_blocks(die_once, dtype=d.dtype, meta=wd.meta(2, d.dtype)).sum(axis=1))
    assert os.path.exists(marker)
    close(got, (x * 3).sum(axis=1), rtol=1e-9)
    client.wait_for_workers(2)
    assert sorted(client.run(lambda: weft.default_device().selector).values()) == sorted(devices)


def test_a_worker_that_dies_holding_persisted_chunks_is_recovered(dask_client, tmp_path):
    """A worker process dies in the middle of a computation while it holds chunks that were
    persisted on it: Dask recomputes the lost chunks (from the graph) on the workers left and on
    the one its Nanny restarts on the same device, and the result is still NumPy's."""
    client, devices = dask_client, dask_client.weft_devices
    distributed = pytest.importorskip("distributed")
    x = rng.random((48, 6))
    kept = client.persist(wd.from_numpy(x, (4, 6)) * 3)  # (12 chunks, on both workers)
    distributed.wait(kept)
    held = client.has_what()
    assert sum(len(keys) > 0 for keys in held.values()) == 2, held
    marker = str(tmp_path / "died")

    def die_once(block, block_info=None):
        if block_info[None]["chunk-location"][0] == 7 and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)  # (this worker, with its persisted chunks, goes)
        return block + 1

    got = wd.to_numpy(kept.map_blocks(die_once, dtype=kept.dtype, meta=wd.meta(2, kept.dtype)).sum(axis=1))
    assert os.path.exists(marker)
    close(got, (x * 3 + 1).sum(axis=1), rtol=1e-9)
    close(wd.to_numpy(kept), x * 3, rtol=1e-12)  # (the persisted collection, its lost chunks made again)
    client.wait_for_workers(2)
    assert sorted(client.run(lambda: weft.default_device().selector).values()) == sorted(devices)
