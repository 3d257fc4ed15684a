"""weft.Array against NumPy: creation, copies between host and devices, NumPy's protocols
(DLPack, awaitable copies), the errors a user can make, fusion, and the order of effects of
lazy arrays. Operators, promotion, ufuncs and reductions: test_array_math.py; views and
indexing: test_array_indexing.py."""
import asyncio

import numpy as np
import pytest

import weft

from support import check, rng


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
        # OpenCL buffers have no address: DLPack gets a host copy, never the buffer itself.
        a = weft.ones(3, device=device)
        assert a.__dlpack_device__() == (1, 0)
        with pytest.raises(BufferError, match="copy=False"):
            a.__dlpack__(copy=False)
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


def test_one_kernel_counted_from_the_queues_events(device):
    """c = a*b + sin(a) is one kernel: counted by weft.LaunchLog from the array queue's own
    events, not from a counter the array layer keeps."""
    a = weft.asarray(np.arange(1000, dtype=np.float32), device=device)
    b = weft.asarray(np.arange(1000, dtype=np.float32) + 1, device=device)
    (a * b + weft.sin(a)).evaluate()  # built once before counting
    with weft.LaunchLog(weft.array_queue(device)) as log:
        c = (a * b + weft.sin(a)).evaluate()
    assert log.kernels == ["weft_expr"]
    (name, event), = log.entries
    event.wait()
    with pytest.raises(weft.Error, match="profiling=True"):
        event.profile  # the array queue does not profile
    np.testing.assert_allclose(c.get(), np.arange(1000) * (np.arange(1000) + 1) + np.sin(np.arange(1000)),
                               rtol=1e-5)
    (a + 1).evaluate()  # after the block: not recorded
    assert len(log.entries) == 1
