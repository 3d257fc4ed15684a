"""Devices, queues, events, programs called as in PyOpenCL, buffers, errors, polygon masks."""
import asyncio
import signal
import threading

import numpy as np
import pytest

import weft

VADD = """
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, float s, uint n) {
    uint i = get_global_id(0);
    if (i < n) c[i] = a[i] + s * b[i];
}
"""


def test_devices_and_backends():
    devs = weft.devices()
    assert devs and all(isinstance(d, weft.Device) for d in devs)
    assert weft.Device("host").backend == "host"
    assert weft.default_device() in devs
    names = [b["name"] for b in weft.backends()]
    assert {"host", "opencl", "cuda"} <= set(names)
    for d in devs:
        assert d.name and d.selector and d.type in ("cpu", "gpu", "accelerator", "other")
        assert d.global_mem_size > 0 and d.max_work_group_size > 0
        assert weft.Device(d.selector) == d and hash(weft.Device(d.selector)) == hash(d)
        assert d.selector in repr(d)


def test_device_capabilities():
    """What a device can do, as read-only properties (the layers above the backends ask these,
    never a backend's name)."""
    host = weft.Device("host")
    assert host.has_barriers and host.memory_is_host and host.addressable_memory
    assert host.prefers_row_kernels and host.native_api and not host.native_ptx and not host.inline_ptx
    assert (host.dlpack_device_type, host.dlpack_device_id) == (1, 0)
    for d in weft.devices():
        assert d.has_barriers == (d.local_mem_size > 0)
        assert d.dlpack_device_type in (1, 2, 4)
        if d.addressable_memory:  # what DLPack reports for an array there
            a = weft.asarray(np.arange(3, dtype=np.float32), device=d)
            assert a.__dlpack_device__() == (d.dlpack_device_type, d.dlpack_device_id)
        with pytest.raises(AttributeError):
            d.has_barriers = True
    with pytest.raises(weft.Error):
        weft.Device("nosuchbackend:7")


def test_program_call_as_in_pyopencl(device, queue):
    n = 1000
    x = np.arange(n, dtype=np.float32)
    a = weft.asarray(x, device=device)
    b = weft.asarray(2 * x, device=device)
    c = weft.empty(n, np.float32, device=device)
    prg = weft.Program(device, VADD).build()
    assert prg.kernel_names == ["vadd"] and prg.vadd is prg.vadd
    assert prg.vadd.arg_names == ["a", "b", "c", "s", "n"]
    # What the build left in device memory per work-item: unknown on the host backend, nothing
    # for this kernel on NVIDIA GPUs (through CUDA or OpenCL).
    private = prg.vadd.private_bytes_per_item
    if device.selector == "host":
        assert private is None
    else:
        assert isinstance(private, int) and private >= 0
        if "NVIDIA" in device.name:
            assert private == 0
    timed = weft.Queue(device, profiling=True)
    ev = prg.vadd(timed, (1024,), None, a, b, c, 0.5, n)
    assert isinstance(ev, weft.Event)
    ev.wait()
    assert ev.done and ev.status == "complete"
    assert ev.profile.end >= ev.profile.start > 0
    np.testing.assert_allclose(c.get(), x + x)
    # numpy scalars and raw buffers, as a PyOpenCL user passes them
    prg.vadd(queue, 1024, None, a.data, b.data, c.data, np.float32(1), np.uint32(n)).wait()
    np.testing.assert_allclose(c.get(), 3 * x)


STEP = """
__kernel void graph_step(__global int *x, int k) {
    size_t i = get_global_id(0);
    x[i] = x[i] * 3 + k + (int)i;
}
"""


def _steps(x, ks, times=1):
    x = x.astype(np.int64)
    for _ in range(times):
        for k in ks:
            x = (x * 3 + k + np.arange(x.size)) % 2**32
    return ((x + 2**31) % 2**32 - 2**31).astype(np.int32)


def test_graph_records_and_replays_kernel_calls(device, queue):
    prg = weft.Program(device, STEP).build()
    start = np.array([1, -2, 3, 0, 5, 7, -1], dtype=np.int32)
    x = weft.asarray(start, device=device)
    g = weft.Graph(device)
    assert len(g) == 0 and g.device == device and device.selector in repr(g)
    for k in (2, -5, 7):
        assert prg.graph_step(g, (start.size,), None, x, k) is None  # recorded, not run
    assert len(g) == 3
    np.testing.assert_array_equal(x.get(), start)
    ev = g.launch(queue)
    assert isinstance(ev, weft.Event)
    ev.wait()
    np.testing.assert_array_equal(x.get(), _steps(start, (2, -5, 7)))
    first = g.launch(queue)
    g.launch(queue, wait_for=[first]).wait()
    np.testing.assert_array_equal(x.get(), _steps(start, (2, -5, 7), 3))
    # A lazy array reading what the graph writes is evaluated before the graph runs.
    before = x + 1
    g.launch(queue).wait()
    np.testing.assert_array_equal(before.get(), _steps(start, (2, -5, 7), 3) + 1)
    np.testing.assert_array_equal(x.get(), _steps(start, (2, -5, 7), 4))
    with pytest.raises(weft.InvalidArgument, match="wait_for"):
        prg.graph_step(g, (start.size,), None, x, 1, wait_for=[first])
    with pytest.raises(weft.InvalidArgument, match="never set|takes 2 arguments"):
        prg.graph_step(g, (start.size,), None, x)
    assert len(g) == 3
    g.clear()
    assert len(g) == 0
    g.launch(queue).wait()
    np.testing.assert_array_equal(x.get(), _steps(start, (2, -5, 7), 4))
    others = [d for d in weft.devices() if d != device]
    if others:
        with pytest.raises(weft.InvalidArgument, match=device.selector):
            g.launch(weft.Queue(others[0]))


def test_kernel_arguments_are_checked(device, queue):
    prg = weft.Program(device, VADD).build()
    a = weft.empty(4, np.float32, device=device)
    with pytest.raises(weft.InvalidArgument, match="5 arguments, 4 were given"):
        prg.vadd(queue, (4,), None, a, a, a, 1.0)
    with pytest.raises(TypeError, match="'a' is a pointer"):
        prg.vadd(queue, (4,), None, 1.0, a, a, 1.0, 4)
    with pytest.raises(TypeError, match="'n'.*integer"):
        prg.vadd(queue, (4,), None, a, a, a, 1.0, 4.5)
    with pytest.raises(OverflowError):
        prg.vadd(queue, (4,), None, a, a, a, 1.0, -1)
    with pytest.raises(AttributeError, match="no kernel 'vmul'"):
        prg.vmul
    with pytest.raises(weft.InvalidArgument, match="view"):
        prg.vadd(queue, (2,), None, a[1:3], a, a, 1.0, 2)


def test_build_error_shows_the_log_and_source(device):
    src = "__kernel void broken(__global float *x) { x[0] = undefined_name; }"
    with pytest.raises(weft.BuildError) as err:
        weft.Program(device, src).build()
    assert "undefined_name" in str(err.value)
    assert err.value.log and "undefined_name" in err.value.source
    assert isinstance(err.value, weft.Error) and isinstance(err.value, RuntimeError)


def test_local_memory_and_barriers(device, queue):
    src = """
    __kernel void rev(__global const int *in, __global int *out, __local int *tile) {
        int l = get_local_id(0), g = get_group_id(0), n = get_local_size(0);
        tile[l] = in[g * n + l];
        barrier(CLK_LOCAL_MEM_FENCE);
        out[g * n + l] = tile[n - 1 - l];
    }"""
    x = np.arange(256, dtype=np.int32)
    a = weft.asarray(x, device=device)
    out = weft.empty(256, np.int32, device=device)
    prg = weft.Program(device, src).build()
    prg.rev(queue, (256,), (64,), a, out, weft.LocalMemory(64 * 4)).wait()
    np.testing.assert_array_equal(out.get(), x.reshape(4, 64)[:, ::-1].ravel())


def test_vector_arguments(device, queue):
    src = "__kernel void put(__global float *o, float4 v) { int i = get_global_id(0); o[i] = v.x + v.y * i + v.z + v.w; }"
    prg = weft.Program(device, src).build()
    o = weft.empty(8, np.float32, device=device)
    prg.put(queue, (8,), None, o, (1, 2, 3, 4)).wait()
    np.testing.assert_allclose(o.get(), 1 + 2 * np.arange(8) + 3 + 4)
    prg.put(queue, (8,), None, o, np.array([0, 1, 0, 0], np.float32)).wait()
    np.testing.assert_allclose(o.get(), np.arange(8))


def test_buffers_and_enqueue_copy(device, queue):
    x = np.arange(64, dtype=np.float64)
    buf = weft.Buffer(device, x.nbytes)
    assert buf.size == x.nbytes and buf.device == device
    weft.enqueue_copy(queue, buf, x)
    y = np.empty_like(x)
    weft.enqueue_copy(queue, y, buf)
    np.testing.assert_array_equal(x, y)
    buf2 = weft.Buffer(device, x.nbytes)
    weft.enqueue_copy(queue, buf2, buf).wait()
    z = np.zeros_like(x)
    ev = weft.enqueue_copy(queue, z, buf2, is_blocking=False)
    ev.wait()
    np.testing.assert_array_equal(x, z)


def test_event_then_and_await(device, queue):
    prg = weft.Program(device, VADD).build()
    a = weft.ones(64, np.float32, device=device)
    c = weft.empty(64, np.float32, device=device)
    seen = []
    done = threading.Event()
    ev = prg.vadd(queue, (64,), None, a, a, c, 1.0, 64)
    assert ev.then(lambda e: (seen.append(e), done.set())) is ev
    assert done.wait(30)
    assert seen[0] is ev

    async def main():
        e = prg.vadd(queue, (64,), None, a, a, c, 2.0, 64)
        await e
        return e.done

    assert asyncio.run(main()) is True
    np.testing.assert_array_equal(c.get(), np.full(64, 3, np.float32))
    queue.finish()
    m = queue.marker()
    m.wait()
    weft.wait_for_events([m, ev])


def test_ctrl_c_interrupts_a_long_wait():
    # A kernel that runs for seconds on the host backend; a signal handler that raises must
    # end the wait promptly (the kernel itself runs on).
    device = weft.Device("host")
    queue = weft.Queue(device)
    src = """__kernel void spin(__global double *x, long n) {
        double s = x[0];
        for (long k = 0; k < n; ++k) s = s * 0.999999 + 1e-9 * (double)k;
        x[get_global_id(0)] = s;
    }"""
    prg = weft.Program(device, src).build()
    x = weft.ones(1, np.float64, device=device)

    class Interrupted(Exception):
        pass

    def handler(signum, frame):
        raise Interrupted()

    old = signal.signal(signal.SIGALRM, handler)
    try:
        ev = prg.spin(queue, (1,), None, x, 3_000_000_000)
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        with pytest.raises(Interrupted):
            ev.wait()
        assert not ev.done
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_error_classes():
    assert issubclass(weft.BuildError, weft.Error)
    assert issubclass(weft.OutOfMemory, weft.DeviceError) and issubclass(weft.OutOfMemory, MemoryError)
    assert issubclass(weft.InvalidArgument, ValueError)
    assert issubclass(weft.ConfigError, weft.InvalidArgument)
    assert issubclass(weft.Unsupported, NotImplementedError)


def test_out_of_memory_is_a_clear_error(device):
    if device.backend == "host":
        pytest.skip("the host backend's allocation may succeed lazily (overcommit)")
    with pytest.raises((weft.OutOfMemory, weft.InvalidArgument)):
        weft.empty(1 << 60, np.uint8, device=device)


def reference_mask(vertices, height, width, border_value=1):
    """The exercise's insidePolygon rule (docs/POLYGON.md), vectorized with NumPy."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    count = np.zeros((height, width), dtype=np.int64)
    n = len(vertices)
    on_vertex = np.zeros((height, width), dtype=bool)
    for i in range(n):
        x1, y1 = vertices[i]
        x2, y2 = vertices[(i + 1) % n]
        on_vertex |= (xs == x1) & (ys == y1)
        crosses = (ys > min(y1, y2)) & (ys <= max(y1, y2)) & (xs <= max(x1, x2))
        if x1 != x2:
            with np.errstate(divide="ignore", invalid="ignore"):
                xinters = (ys - y1) * (x2 - x1) / (y2 - y1) + x1
            crosses &= xs <= xinters
        count += crosses
    mask = (count % 2).astype(np.uint8)
    mask[on_vertex] = border_value
    return mask


def test_polygon_mask_matches_the_rule(device):
    poly = weft.random_polygon(24, 1, 64, 48)
    assert poly.shape == (24, 2)
    got = weft.polygon_mask(poly, 48, 64, device=device)
    assert got.dtype == np.uint8 and got.shape == (48, 64)
    np.testing.assert_array_equal(got, reference_mask(poly, 48, 64))
    square = np.array([[2, 2], [9, 2], [9, 7], [2, 7]])
    np.testing.assert_array_equal(weft.polygon_mask(square, 10, 12, device=device, border_value=0),
                                  reference_mask(square, 10, 12, 0))
    with pytest.raises(weft.InvalidArgument, match="shape"):
        weft.polygon_mask(np.zeros(6), 4, 4, device=device)


def test_polygon_mask_does_what_its_docstring_says(device):
    # Integer pixel coordinates (not centres); border_value only on vertex pixels; every other
    # pixel, edges included, by the even-odd rule: a left or top edge is outside, a right or
    # bottom edge inside.
    square = np.array([[2, 2], [6, 2], [6, 6], [2, 6]])
    m = weft.polygon_mask(square, 10, 10, device=device, border_value=7)
    assert [m[2, 2], m[2, 6], m[6, 6], m[6, 2]] == [7, 7, 7, 7]
    assert (m[4, 2], m[4, 6], m[2, 4], m[6, 4], m[4, 4], m[1, 1]) == (0, 1, 0, 1, 1, 0)
    assert "border_value" in weft.polygon_mask.__doc__ and "not a pixel" in weft.polygon_mask.__doc__


def test_user_queues_and_array_work_are_ordered(device):
    prg = weft.Program(device, "__kernel void add(__global float *x, float v) { x[get_global_id(0)] += v; }").build()
    q1, q2 = weft.Queue(device), weft.Queue(device, out_of_order=True)
    a = weft.zeros(4096, np.float32, device=device)
    for _ in range(100):  # the array work waits for the last launch of the in-order queue
        prg.add(q1, (4096,), None, a, 1.0)
    b = a * 2
    np.testing.assert_array_equal(b.get(), np.full(4096, 200, np.float32))
    a += 1  # array work: a launch on another queue after it sees it
    for _ in range(3):
        prg.add(q2, (4096,), None, a.data, 1.0).wait()
    prg.add(q1, (4096,), None, a, 1.0)
    np.testing.assert_array_equal(a.get(), np.full(4096, 105, np.float32))
