"""weft.Array against NumPy: creation, copies, operators and promotion, fusion, views,
reductions, NumPy's protocols, and the order of effects of lazy arrays."""
import asyncio

import numpy as np
import pytest

import weft

rng = np.random.default_rng(7)


def host(x):
    return x.get() if isinstance(x, weft.Array) else np.asarray(x)


def check(got, want, rtol=1e-6):
    assert isinstance(got, weft.Array)
    g = got.get()
    assert g.dtype == np.asarray(want).dtype, (g.dtype, np.asarray(want).dtype)
    assert g.shape == np.shape(want)
    np.testing.assert_allclose(g, want, rtol=rtol, atol=1e-6)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                   "uint64", "float32", "float64"])
def test_round_trip_every_dtype(device, dtype):
    h = (rng.integers(0, 100, size=(3, 5)) % (2 if dtype == "bool" else 100)).astype(dtype)
    a = weft.asarray(h, device=device)
    assert a.dtype == np.dtype(dtype) and a.shape == (3, 5) and a.device == device
    np.testing.assert_array_equal(a.get(), h)
    np.testing.assert_array_equal(np.asarray(a), h)


def test_creation(device):
    check(weft.zeros((2, 3), np.float32, device=device), np.zeros((2, 3), np.float32))
    check(weft.ones(4, "int32", device=device), np.ones(4, np.int32))
    check(weft.full((2, 2), 7.5, device=device), np.full((2, 2), 7.5))
    check(weft.arange(10, device=device), np.arange(10))
    check(weft.arange(1.0, 2.0, 0.25, device=device), np.arange(1.0, 2.0, 0.25))
    check(weft.linspace(0, 1, 11, device=device), np.linspace(0, 1, 11))
    assert weft.empty((4, 0), device=device).size == 0
    z = weft.zeros_like(weft.ones((2, 2), np.int16, device=device))
    assert z.dtype == np.int16 and z.device == device


def test_float16_is_refused(device):
    with pytest.raises(weft.InvalidArgument, match="float16"):
        weft.asarray(np.zeros(3, np.float16), device=device)


def test_operators_follow_numpy(device):
    x = rng.standard_normal((4, 5)).astype(np.float32)
    y = rng.standard_normal((4, 5)).astype(np.float32)
    i = rng.integers(-50, 50, (4, 5)).astype(np.int32)
    j = rng.integers(1, 9, (4, 5)).astype(np.int32)
    a, b, ia, ja = (weft.asarray(v, device=device) for v in (x, y, i, j))
    check(a + b, x + y)
    check(a - b * 2, x - y * 2)
    check(a / b, x / y, rtol=1e-5)
    check(2.5 * a - 1, 2.5 * x - 1)
    check(-a, -x)
    check(abs(a), abs(x))
    check(a ** 2, x ** 2, rtol=1e-5)
    check(ia // ja, i // j)
    check(ia % ja, i % j)
    check(-ia // 3, -i // 3)
    check(ia / ja, i / j)  # int / int is float64
    check(ia + a, i + x)  # int32 + float32 is float64
    check(ia + 1.5, i + 1.5)
    check(ia * 2, i * 2)  # a Python int keeps int32 (NEP 50)
    check(a < b, x < y)
    check((a > 0) & (b > 0), (x > 0) & (y > 0))
    check(ia ^ ja, i ^ j)
    check(~ia, ~i)
    check(a == a, x == x)


def test_math_functions_and_ufuncs(device):
    x = rng.uniform(0.1, 2.0, 64).astype(np.float64)
    a = weft.asarray(x, device=device)
    for name in ["sqrt", "exp", "log", "log1p", "sin", "cos", "tanh", "arctan", "floor", "ceil", "cbrt"]:
        check(getattr(weft, name)(a), getattr(np, name)(x), rtol=1e-12)
        got = getattr(np, name)(a)  # __array_ufunc__: stays on the device
        assert isinstance(got, weft.Array)
        check(got, getattr(np, name)(x), rtol=1e-12)
    check(np.maximum(a, 1.0), np.maximum(x, 1.0))
    check(np.arctan2(a, a + 1), np.arctan2(x, x + 1), rtol=1e-12)
    check(weft.where(a > 1, a, -a), np.where(x > 1, x, -x))
    check(np.where(a > 1, a, 0.0), np.where(x > 1, x, 0.0))
    check(np.clip(a, 0.5, 1.5), np.clip(x, 0.5, 1.5))
    check(weft.isnan(a / 0.0 * 0.0), np.isnan(x / 0.0 * 0.0))


def test_numpy_array_operand_is_refused(device):
    a = weft.ones(3, device=device)
    with pytest.raises(TypeError, match="weft.asarray"):
        a + np.ones(3)
    with pytest.raises(TypeError, match="weft.asarray"):
        np.add(np.ones(3), a)


def test_expressions_fuse_into_one_kernel(device):
    a = weft.arange(1000, dtype=np.float32, device=device)
    b = weft.ones(1000, np.float32, device=device)
    weft.synchronize(device)
    before = weft.elementwise_launches(device)
    c = weft.sqrt(a) * b + np.sin(a) - 2 * b
    assert c.is_lazy
    assert weft.elementwise_launches(device) == before
    x = np.arange(1000, dtype=np.float32)
    check(c, np.sqrt(x) * 1 + np.sin(x) - 2, rtol=1e-5)
    assert weft.elementwise_launches(device) == before + 1


def test_lazy_result_sees_values_before_a_later_write(device):
    a = weft.asarray(np.arange(5.0), device=device)
    b = a * 2  # lazy, reads a
    a[:] = 100  # the write evaluates b first
    np.testing.assert_array_equal(b.get(), np.arange(5.0) * 2)
    c = a + 1
    a += 1
    np.testing.assert_array_equal(c.get(), np.full(5, 101.0))
    np.testing.assert_array_equal(a.get(), np.full(5, 101.0))


def test_lazy_result_sees_values_before_a_kernel_writes(device, queue):
    prg = weft.Program(device, "__kernel void zero(__global float *x) { x[get_global_id(0)] = 0; }").build()
    a = weft.asarray(np.arange(4, dtype=np.float32), device=device)
    b = a + 1
    prg.zero(queue, (4,), None, a).wait()
    np.testing.assert_array_equal(b.get(), np.arange(4, dtype=np.float32) + 1)
    np.testing.assert_array_equal(a.get(), np.zeros(4, np.float32))


def test_long_chains_are_cut(device):
    x = weft.zeros(16, device=device)
    for _ in range(300):
        x = x + 1
    np.testing.assert_array_equal(x.get(), np.full(16, 300.0))


def test_indexing_views_share_memory(device):
    h = np.arange(24, dtype=np.int32).reshape(4, 6)
    a = weft.asarray(h, device=device)
    for key in [1, -1, (1, 2), (slice(1, 3),), (slice(None), slice(None, None, 2)), (Ellipsis, 0),
                (slice(None, None, -1), slice(4, 1, -1)), (None, 2), (1, None, slice(2, 5)), ()]:
        got = a[key]
        np.testing.assert_array_equal(got.get(), h[key], err_msg=str(key))
    v = a[1:3, ::2]
    v[:] = -1
    h[1:3, ::2] = -1
    np.testing.assert_array_equal(a.get(), h)
    a[0] = a[3] * 10
    h[0] = h[3] * 10
    np.testing.assert_array_equal(a.get(), h)
    with pytest.raises(IndexError, match="out of bounds"):
        a[4]
    with pytest.raises(IndexError, match="too many indices"):
        a[1, 2, 3]
    # An integer beside an index array is advanced indexing (a new array, NumPy's shape).
    np.testing.assert_array_equal(a[1, weft.asarray(np.array([0, 1]), device=device)].get(), h[1, [0, 1]])


def test_reshape_transpose_copy(device):
    h = np.arange(12.0).reshape(3, 4)
    a = weft.asarray(h, device=device)
    np.testing.assert_array_equal(a.T.get(), h.T)
    np.testing.assert_array_equal(a.transpose(1, 0).get(), h.T)
    np.testing.assert_array_equal(a.reshape(4, 3).get(), h.reshape(4, 3))
    np.testing.assert_array_equal(a.T.reshape(-1).get(), h.T.reshape(-1))
    np.testing.assert_array_equal(np.transpose(a).ravel().get(), h.T.ravel())
    c = a.copy()
    c[0, 0] = 99
    assert a[0, 0].item() == 0 and c[0, 0].item() == 99
    assert a.strides == h.strides
    assert a.T.strides == h.T.strides


def test_reductions(device):
    h = rng.standard_normal((5, 7))
    a = weft.asarray(h, device=device)
    for name in ["sum", "min", "max", "mean", "prod"]:
        np.testing.assert_allclose(getattr(a, name)().get(), getattr(h, name)(), rtol=1e-10)
        for axis in [0, 1, (0, 1), -1]:
            np.testing.assert_allclose(getattr(a, name)(axis=axis).get(), getattr(h, name)(axis=axis), rtol=1e-10)
        np.testing.assert_allclose(getattr(a, name)(axis=1, keepdims=True).get(),
                                   getattr(h, name)(axis=1, keepdims=True), rtol=1e-10)
    np.testing.assert_allclose(np.sum(a * a).get(), np.sum(h * h), rtol=1e-10)  # fused into the reduction
    np.testing.assert_allclose(float(np.mean(a, axis=0)[2]), h.mean(axis=0)[2], rtol=1e-10)
    assert bool((a > 10).any()) is False and bool((a < 10).all()) is True
    i = weft.asarray(np.arange(10, dtype=np.int32), device=device)
    assert i.sum().dtype == np.int64 and i.sum().item() == 45
    assert i.max().dtype == np.int32 and int(i.max()) == 9
    assert np.add.reduce(i).item() == 45


def test_astype_and_scalars(device):
    a = weft.asarray(np.array([1.7, -2.5, 3.5]), device=device)
    np.testing.assert_array_equal(a.astype(np.int32).get(), np.array([1.7, -2.5, 3.5]).astype(np.int32))
    np.testing.assert_array_equal(np.round(a).get(), np.round(np.array([1.7, -2.5, 3.5])))
    assert float(a[0]) == 1.7 and int(a[2]) == 3 and a.tolist() == [1.7, -2.5, 3.5]
    assert len(a) == 3 and [x.item() for x in a] == [1.7, -2.5, 3.5]
    with pytest.raises(TypeError):
        float(a)


def test_get_async_is_awaitable(device):
    a = weft.arange(1000, dtype=np.int64, device=device) * 3

    async def main():
        return await a.get_async()

    np.testing.assert_array_equal(asyncio.run(main()), np.arange(1000) * 3)
    np.testing.assert_array_equal(a.get_async().result(), np.arange(1000) * 3)


def test_set_and_asarray_across_devices(device):
    a = weft.zeros(6, np.float32, device=device)
    a.set(np.arange(6, dtype=np.float32))
    np.testing.assert_array_equal(a.get(), np.arange(6, dtype=np.float32))
    a[::2].set(np.full(3, -1, np.float32))
    np.testing.assert_array_equal(a.get(), [-1, 1, -1, 3, -1, 5])
    with pytest.raises(weft.InvalidArgument, match="shape"):
        a.set(np.zeros(5, np.float32))
    other = weft.devices()[-1]
    b = weft.asarray(a, device=other)
    assert b.device == other
    np.testing.assert_array_equal(b.get(), a.get())
    assert weft.asarray(a) is a or device != weft.default_device()


def test_errors_name_what_was_wrong(device):
    a = weft.ones((2, 3), device=device)
    with pytest.raises(weft.InvalidArgument, match="reshape"):
        a.reshape(4, 2)
    with pytest.raises(weft.InvalidArgument):
        a + weft.ones((4,), device=device)
    with pytest.raises(ValueError):  # InvalidArgument is a ValueError too
        a.sum(axis=2)
    with pytest.raises(TypeError, match="unsupported operand"):
        weft.where(a > 0, "x", a)


def test_dlpack_exchange_without_copies(device):
    if device.backend == "opencl":
        a = weft.ones(3, device=device)
        with pytest.raises(weft.Unsupported, match="no address"):
            a.__dlpack__()
        with pytest.raises(AttributeError):
            a.__cuda_array_interface__
        return
    h = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = weft.asarray(h, device=device) * 2  # lazy: evaluated and settled before export
    if device.backend == "host":
        # NumPy reads weft's memory in place, and weft NumPy's.
        v = np.from_dlpack(a)
        np.testing.assert_array_equal(v, h * 2)
        a[0, 0] = 42
        weft.synchronize(device)  # weft's later writes are asynchronous: NumPy has no stream to order with
        assert v[0, 0] == 42
        t = np.from_dlpack(a.T[1:])
        np.testing.assert_array_equal(t, a.get().T[1:])
        src = np.arange(6, dtype=np.int64)
        w = weft.from_dlpack(src)
        assert w.device.backend == "host"
        src[2] = -5
        np.testing.assert_array_equal(w.get(), src)
        w[0] = 9  # writes land in NumPy's memory (once done)
        weft.synchronize(device)
        assert src[0] == 9
    assert a.__dlpack_device__()[0] in (1, 2)
    b = weft.from_dlpack(a)  # a round trip through a capsule shares memory
    a[1, 1] = -1
    assert b[1, 1].item() == -1


def test_integer_and_boolean_array_indexing(device):
    h = np.arange(24, dtype=np.float32).reshape(6, 4)
    a = weft.asarray(h, device=device)
    for key in [[0, 5, 2, 2], np.array([-1, 0]), np.array([[1, 2], [3, -6]])]:
        np.testing.assert_array_equal(a[key].get(), h[key])
    np.testing.assert_array_equal(a[weft.asarray(np.array([3, 1], np.int32), device=device)].get(), h[[3, 1]])
    np.testing.assert_array_equal(a[::2][[1, 2]].get(), h[::2][[1, 2]])  # of a strided view
    assert a[[]].shape == (0, 4)
    with pytest.raises(IndexError, match="out of bounds"):
        a[[0, 6]]
    with pytest.raises(IndexError, match="integer"):
        a[np.array([0.5])]
    np.testing.assert_array_equal(a[a > 10].get(), h[h > 10])
    np.testing.assert_array_equal(a.T[a.T < 3].get(), h.T[h.T < 3])
    np.testing.assert_array_equal(a[h % 3 == 0].get(), h[h % 3 == 0])  # a NumPy mask
    assert a[a > 100].shape == (0,)
    b = weft.asarray(np.array([True, False, True]), device=device)
    np.testing.assert_array_equal(b[b].get(), np.array([True, True]))
    with pytest.raises(IndexError, match="does not match"):
        a[weft.asarray(np.array([True, False]), device=device)]


def test_masks_of_leading_dimensions(device):
    h = np.arange(24, dtype=np.int32).reshape(3, 4, 2)
    a = weft.asarray(h, device=device)
    rows = np.array([True, False, True])
    np.testing.assert_array_equal(a[rows].get(), h[rows])  # shape (2, 4, 2)
    m2 = h[:, :, 0] % 4 == 0
    np.testing.assert_array_equal(a[weft.asarray(m2, device=device)].get(), h[m2])  # shape (k, 2)
    np.testing.assert_array_equal(a.transpose(1, 0, 2)[m2.T].get(), h.transpose(1, 0, 2)[m2.T])
    with pytest.raises(IndexError, match="leading dimensions"):
        a[np.array([True, False])]


def test_assignment_through_index_arrays_and_masks(device):
    h = np.arange(24, dtype=np.float32).reshape(6, 4)
    a = weft.asarray(h, device=device)
    # An integer index array: rows get a number, one row each, or a broadcast row.
    for key, value in [([0, 5], -1.0), (np.array([-1, 2]), np.array([[1, 2, 3, 4], [5, 6, 7, 8]])),
                       ([3], np.array([9, 9, 9, 9])), (np.array([1, 4]), weft.arange(4.0, device=device))]:
        h[key] = value.get() if isinstance(value, weft.Array) else value
        a[key] = value
        np.testing.assert_array_equal(a.get(), h)
    with pytest.raises(IndexError, match="out of bounds"):
        a[[6]] = 0
    with pytest.raises(ValueError, match="could not be broadcast"):
        a[[0, 1]] = np.ones(3)
    # A mask with a number: one fused where(); with values: the selected positions in order.
    big = (a > 20).evaluate()
    with weft.LaunchLog(weft.array_queue(device)) as log:
        a[big] = 0
    assert log.kernels == ["weft_expr"]
    h[h > 20] = 0
    np.testing.assert_array_equal(a.get(), h)
    a[a < 1] = 0.5  # a lazy mask that reads the array being written
    h[h < 1] = 0.5
    np.testing.assert_array_equal(a.get(), h)
    sel = h % 3 == 1
    a[sel] = np.arange(sel.sum(), dtype=np.float32) * 10
    h[sel] = np.arange(sel.sum(), dtype=np.float32) * 10
    np.testing.assert_array_equal(a.get(), h)
    rows = np.array([False, True, False, True, False, False])
    a[rows] = np.array([[1, 2, 3, 4], [5, 6, 7, 8]])
    h[rows] = np.array([[1, 2, 3, 4], [5, 6, 7, 8]])
    np.testing.assert_array_equal(a.get(), h)
    a[rows] = 7  # a number over masked rows
    h[rows] = 7
    np.testing.assert_array_equal(a.get(), h)
    # Through a strided view: the base array sees the writes.
    t = a.T
    t[[0, 2]] = -5
    h.T[[0, 2]] = -5
    np.testing.assert_array_equal(a.get(), h)
    t[t < 0] = np.arange(int((h.T < 0).sum()), dtype=np.float32)
    ht = h.T
    ht[ht < 0] = np.arange(int((ht < 0).sum()), dtype=np.float32)
    np.testing.assert_array_equal(a.get(), h)
    # A lazy reader of a made before the write still sees the old values (NumPy's order).
    lazy = a * 2
    before = h * 2
    a[[0]] = 100
    np.testing.assert_array_equal(lazy.get(), before)


def test_assigned_values_that_are_views_of_the_target(device):
    """a[[1, 0]] = a[0:2] and a[mask] = a[0:2]: the values are read as they were before the
    write, as NumPy's (the kernel used to read values that it had already overwritten)."""
    h = np.arange(12, dtype=np.float32) * 10
    a = weft.asarray(h, device=device)
    a[[1, 0]] = a[0:2]
    h[[1, 0]] = h[0:2]
    np.testing.assert_array_equal(a.get(), h)
    mask = np.zeros(12, dtype=bool)
    mask[1:3] = True
    a[mask] = a[0:2]
    h[mask] = h[0:2]
    np.testing.assert_array_equal(a.get(), h)
    m = weft.asarray(np.array([True, False, True, True]), device=device)
    m[m] = m[1:4]  # the mask itself is overwritten too
    np.testing.assert_array_equal(m.get(), np.array([False, False, True, True]))


def test_one_kernel_counted_from_the_queues_events(device):
    """c = a*b + sin(a) is one kernel: counted by weft.LaunchLog from the array queue's own
    (profiled) events, not from a counter the array layer keeps."""
    a = weft.asarray(np.arange(1000, dtype=np.float32), device=device)
    b = weft.asarray(np.arange(1000, dtype=np.float32) + 1, device=device)
    (a * b + weft.sin(a)).evaluate()  # built once before counting
    with weft.LaunchLog(weft.array_queue(device)) as log:
        c = (a * b + weft.sin(a)).evaluate()
    assert log.kernels == ["weft_expr"]
    (name, event), = log.entries
    assert event.profile.end > 0 and event.profile.end >= event.profile.start
    np.testing.assert_allclose(c.get(), np.arange(1000) * (np.arange(1000) + 1) + np.sin(np.arange(1000)),
                               rtol=1e-5)
    (a + 1).evaluate()  # after the block: not recorded
    assert len(log.entries) == 1


def test_one_index_array_on_another_axis(device):
    """a[:, idx], a[..., mask] and their assignments: one index array (or 1-d mask) among
    slices, NumPy's shapes (the index's dimensions stay where the indexed axis was)."""
    h = np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)
    a = weft.asarray(h, device=device)
    keys = [(slice(None), [4, 0, 0]), (Ellipsis, np.array([2, -1])),
            (slice(None), np.array([[1, 2], [3, 4]]), slice(0, 2)), (slice(1, 2), [0]),
            (slice(None), np.array([True, False, True, False, True])), (Ellipsis, np.array([True, False, True]))]
    for key in keys:
        np.testing.assert_array_equal(a[key].get(), h[key], err_msg=repr(key))
    for key, value in [((slice(None), [4, 0]), -1.0), ((Ellipsis, np.array([2])), np.arange(10).reshape(2, 5, 1)),
                       ((slice(None), np.array([[1, 2], [3, 4]]), slice(0, 2)), 7.5),
                       ((slice(None), np.array([True, False, False, False, True])), np.arange(6).reshape(2, 1, 3))]:
        h[key] = value
        a[key] = value
        np.testing.assert_array_equal(a.get(), h, err_msg=repr(key))
    with pytest.raises(IndexError, match="out of bounds"):
        a[:, [5]]
    with pytest.raises(IndexError, match="does not match"):
        a[:, np.array([True, False])]


def _random_key(rng, shape):
    """A random NumPy index for an array of the given shape: slices (negative steps too),
    integers, index arrays that broadcast together, or one boolean mask over one or two
    axes; sometimes None and an Ellipsis."""
    ndim = len(shape)
    take = int(rng.integers(1, ndim + 1))
    with_mask = rng.random() < 0.3
    mask_at = int(rng.integers(0, take)) if with_mask else -1
    mask_dims = 2 if with_mask and mask_at + 1 < take and rng.random() < 0.5 else 1
    bshape = [(), (3,), (2, 3), (2, 1), (1, 3)][int(rng.integers(0, 5))]
    key, axis = [], 0
    while axis < take:
        n = shape[axis]
        r = rng.random()
        if axis == mask_at:
            key.append(rng.random(shape[axis:axis + mask_dims]) < 0.5)
            axis += mask_dims
            continue
        if r < 0.35:
            start, stop = sorted(int(v) for v in rng.integers(-n, n + 1, 2))
            step = int(rng.choice([1, 2, -1, -2]))
            key.append(slice(start, stop, step) if step > 0 else slice(stop, start, step))
        elif r < 0.55:
            key.append(int(rng.integers(-n, n)))
        elif not with_mask:
            shp = bshape if rng.random() < 0.7 else bshape[-1:]
            key.append(rng.integers(-n, n, size=shp))
        else:
            key.append(slice(None))
        axis += 1
    if rng.random() < 0.25:
        key.insert(int(rng.integers(0, len(key) + 1)), None)
    if rng.random() < 0.25 and take < ndim:
        key.insert(int(rng.integers(0, len(key) + 1)), Ellipsis)
    return tuple(key)


def test_advanced_indexing_matches_numpy(device):
    """NumPy's advanced indexing in general, against NumPy, on random keys: several index
    arrays broadcast together, integers beside them, masks over one or two axes, slices with
    negative steps, None and Ellipsis, on a contiguous array and on a strided view; reads and
    both kinds of assignment."""
    rng = np.random.default_rng(7)
    base = np.arange(4 * 5 * 6 * 3, dtype=np.float32).reshape(4, 5, 6, 3)
    sources = [("contiguous", lambda x: x), ("strided view", lambda x: x[::-1, :, 1::2].transpose(2, 0, 1, 3))]
    checked = 0
    for name, view in sources:
        for _ in range(60):
            h = base.copy()
            a = weft.asarray(h, device=device)
            hv, av = view(h), view(a)
            key = _random_key(rng, hv.shape)
            try:
                want = hv[key]
            except IndexError:
                continue
            got = av[key]
            assert got.shape == want.shape, (name, key)
            np.testing.assert_array_equal(got.get(), want, err_msg=f"{name} {key!r}")
            hv[key] = -1.0  # a number: repeated positions do not matter
            av[key] = -1.0
            np.testing.assert_array_equal(a.get(), h, err_msg=f"{name} {key!r} = -1")
            positions = np.arange(hv.size).reshape(hv.shape)[key]
            if np.unique(positions).size == positions.size:  # values: only where each lands once
                values = rng.standard_normal(want.shape).astype(np.float32)
                hv[key] = values
                av[key] = weft.asarray(values, device=device)
                np.testing.assert_array_equal(a.get(), h, err_msg=f"{name} {key!r} = values")
            checked += 1
    assert checked > 60


def test_advanced_indexing_errors(device):
    a = weft.asarray(np.zeros((3, 4, 5), np.float32), device=device)
    with pytest.raises(IndexError, match="could not be broadcast together with shapes"):
        a[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError, match="out of bounds for axis 2 with size 5"):
        a[0, [1], 5]
    with pytest.raises(IndexError, match="too many indices"):
        a[[0], 0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        a[..., [0], ...]
    with pytest.raises(IndexError, match="does not match"):
        a[0, np.ones((4, 4), bool)]
    with pytest.raises(ValueError, match="could not be broadcast"):
        a[[0, 1], :, [1, 2]] = np.ones((3, 4))
    # Nothing was written by the refused assignment.
    assert float(a.sum()) == 0.0


def test_out_keyword_of_functions_and_ufuncs(device):
    """out= on weft's elementwise functions and NumPy's ufuncs: written in place (one kernel),
    out returned; a wrong shape or an unsafe cast is refused before anything is written."""
    h = np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)
    a = weft.asarray(h, device=device)
    out = weft.zeros((3, 4), weft.float32, device=device)
    assert weft.sin(a, out=out) is out
    np.testing.assert_allclose(out.get(), np.sin(h), rtol=1e-6)
    with weft.LaunchLog(weft.array_queue(device)) as log:
        weft.multiply(a, 2, out=out)
    assert log.kernels == ["weft_expr"]
    np.testing.assert_array_equal(out.get(), h * 2)
    assert np.add(a, a, out=out) is out
    np.testing.assert_array_equal(out.get(), h + h)
    assert weft.clip(a, -1, 1, out=out) is out
    np.testing.assert_array_equal(out.get(), np.clip(h, -1, 1))
    weft.sin(a, out=a)  # in place, reading what it writes
    np.testing.assert_allclose(a.get(), np.sin(h), rtol=1e-6)
    col = weft.zeros((3, 8), weft.float64, device=device)[:, ::2]  # a strided view as out
    weft.absolute(a, out=col)
    np.testing.assert_allclose(col.get(), np.abs(np.sin(h)), rtol=1e-6)
    before = out.get()
    with pytest.raises(ValueError, match="shape"):
        weft.sin(a, out=weft.zeros((4,), weft.float32, device=device))
    with pytest.raises(ValueError, match="shape"):
        np.add(a, a, out=weft.zeros((2, 3, 4), weft.float32, device=device))
    with pytest.raises(TypeError, match="same_kind"):
        weft.sqrt(a, out=weft.zeros((3, 4), weft.int32, device=device))
    with pytest.raises(TypeError, match="weft.Array"):
        weft.sin(a, out=np.zeros((3, 4), np.float32))
    # Reductions check out= the same way.
    with pytest.raises(ValueError, match="shape"):
        a.sum(axis=0, out=weft.zeros((3,), weft.float32, device=device))
    with pytest.raises(TypeError, match="same_kind"):
        a.sum(axis=0, out=weft.zeros((4,), weft.int32, device=device))
    np.testing.assert_array_equal(out.get(), before)


def test_matmul_dtype_keyword(device):
    """dtype= on matmul, as NumPy's: the operands cast to it ('same_kind'), the product in it."""
    rng = np.random.default_rng(8)
    a = rng.integers(-1000, 1000, (3, 5, 4)).astype(np.int32)
    b = rng.integers(-1000, 1000, (4, 2)).astype(np.int32)
    wa, wb = weft.asarray(a, device=device), weft.asarray(b, device=device)
    for dt in (np.float64, np.int64, np.float32):
        want = np.matmul(a, b, dtype=dt)
        for got in (np.matmul(wa, wb, dtype=dt), weft.matmul(wa, wb, dtype=dt)):
            assert isinstance(got, weft.Array) and got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got.get(), want, rtol=1e-6)
    out = weft.empty((3, 5, 2), np.float64, device=device)
    assert weft.matmul(wa, wb, dtype=np.float64, out=out) is out
    np.testing.assert_array_equal(out.get(), np.matmul(a, b, dtype=np.float64))
    fa = weft.asarray(a.astype(np.float32), device=device)
    with pytest.raises(TypeError, match="matmul: cannot cast input 0 from float32 to int32"):
        np.matmul(fa, wb, dtype=np.int32)


def test_matmul_of_stacks_of_matrices(device):
    """@ and weft.matmul on stacks (NumPy's broadcasting of the leading dimensions, 1-D
    operands as a row or a column), NumPy's result dtypes; a float stack is one kernel."""
    rng = np.random.default_rng(3)
    cases = [((5, 3, 4), (5, 4, 2)), ((2, 1, 3, 4), (6, 4, 2)), ((4,), (7, 4, 3)), ((7, 3, 4), (4,)),
             ((3, 4), (2, 4, 5)), ((2, 3, 4), (4, 5))]
    for sa, sb in cases:
        for dt in (np.float32, np.float64, np.int32, np.bool_):
            x = (rng.standard_normal(sa) * 3).astype(dt)
            y = (rng.standard_normal(sb) * 3).astype(dt)
            got = weft.asarray(x, device=device) @ weft.asarray(y, device=device)
            want = x @ y
            assert got.shape == want.shape and got.dtype == want.dtype, (sa, sb, dt)
            np.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-5, err_msg=f"{sa} @ {sb} {dt}")
    a = weft.asarray(rng.standard_normal((64, 3, 3)).astype(np.float32), device=device)
    v = weft.asarray(rng.standard_normal((64, 3, 1)).astype(np.float32), device=device)
    (a @ v).evaluate()
    with weft.LaunchLog(weft.array_queue(device)) as log:
        r = weft.matmul(a, v).evaluate()
    assert log.kernels == ["weft_axis_reduce"]
    np.testing.assert_allclose(r.get(), a.get() @ v.get(), rtol=1e-5, atol=1e-5)
    out = weft.zeros((64, 3, 1), weft.float32, device=device)
    assert weft.matmul(a, v, out=out) is out
    np.testing.assert_allclose(out.get(), a.get() @ v.get(), rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="last dimension"):
        weft.asarray(np.ones((2, 3, 4)), device=device) @ weft.asarray(np.ones((2, 5, 2)), device=device)
    with pytest.raises(ValueError, match="do not broadcast"):
        weft.asarray(np.ones((2, 3, 4)), device=device) @ weft.asarray(np.ones((3, 4, 2)), device=device)


def test_dtype_keyword_of_functions_and_ufuncs(device):
    """dtype= as NumPy's ufuncs: the operands cast to it (same_kind), the result of it."""
    x = np.arange(6, dtype=np.int32)
    a = weft.asarray(x, device=device)
    for name, args, dtype in [("add", (1,), np.float64), ("sqrt", (), np.float32), ("multiply", (3,), np.int16),
                              ("true_divide", (4,), np.float32), ("maximum", (2,), np.float64)]:
        want = getattr(np, name)(x, *args, dtype=dtype)
        for got in (getattr(weft, name)(a, *args, dtype=dtype), getattr(np, name)(a, *args, dtype=dtype)):
            assert got.dtype == want.dtype, name
            np.testing.assert_allclose(got.get(), want, rtol=1e-6, err_msg=name)
    out = weft.zeros(6, weft.float64, device=device)
    assert weft.add(a, a, dtype=np.float64, out=out) is out
    np.testing.assert_array_equal(out.get(), (x + x).astype(np.float64))
    with pytest.raises(TypeError, match="same_kind"):
        weft.add(weft.asarray(np.ones(3), device=device), 1, dtype=np.int32)
    with pytest.raises(TypeError, match="no loop"):
        weft.less(a, 1, dtype=np.float64)


@pytest.mark.parametrize("split", ["never", "always"])
def test_axis_reductions_against_numpy(device, generator_choice, split):
    """Reductions over some axes: four accumulators per work-item, one reduced dimension
    indexed without divisions, and (GPUs by default; chosen here on every device) long
    ranges split in two stages (strided ones into pieces when outputs are few, contiguous ones
    into interleaved parts), all against NumPy,
    NaN placement for min and max included."""
    generator_choice("reduce_split", split)
    rng = np.random.default_rng(11)
    cases = [((5003, 2), 0, np.float32, ("sum", "mean", "min", "max", "var")),
             ((3, 7001), 1, np.int32, ("sum", "min", "prod", "mean")),
             ((300, 3, 17), (0, 2), np.float64, ("sum", "max", "prod")),
             ((2, 1031, 3), 1, np.bool_, ("any", "all", "sum", "min")),
             ((4, 30, 50), (1, 2), np.float32, ("sum", "max", "mean", "all"))]  # contiguous: interleaved parts
    for k, (shape, axis, dt, functions) in enumerate(cases):
        x = (rng.standard_normal(shape) * 50).astype(dt)
        if dt == np.float32:
            x.flat[rng.integers(0, x.size)] = np.nan
        for f in functions:
            xx = x
            if f == "prod":  # products that stay finite (and integers that wrap the same way)
                xx = (x % 3 + 1).astype(dt) if np.dtype(dt).kind in "iu" else (1 + x / 1e4).astype(dt)
            keepdims = (k + len(f)) % 2 == 1
            want = getattr(np, f)(xx, axis=axis, keepdims=keepdims)
            got = getattr(weft, f)(weft.asarray(xx, device=device), axis=axis, keepdims=keepdims)
            assert got.shape == want.shape and got.dtype == want.dtype, (shape, axis, dt, f)
            tol = dict(rtol=1e-3, atol=1e-3) if dt == np.float32 else dict(rtol=1e-9)
            np.testing.assert_allclose(got.get().astype(np.float64), want.astype(np.float64), **tol,
                                       err_msg=f"{f} {shape} axis={axis} {np.dtype(dt)} split={split}")
