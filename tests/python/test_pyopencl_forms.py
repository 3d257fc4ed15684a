"""PyOpenCL's forms in weft (issue 26): the seeds' PyOpenCL snippets (tests/python/seeds/, run as
written with the import line changed, once per device) and each form on its own: Context,
CommandQueue, get_platforms, Buffer with mem_flags, UserEvent, enqueue_marker/enqueue_barrier,
device fission and sub-device selectors, queue-first array constructors, Kernel.set_args with
enqueue_nd_range_kernel, and GenericScanKernel's N."""
import os
import pathlib
import subprocess
import sys
import warnings

import numpy as np
import pytest

import weft
import weft as cl
import weft.array as cl_array

SEEDS_DIR = pathlib.Path(__file__).resolve().parent / "seeds"
# Seed 004's snippets have a runner of their own (seeds/seed004_snippets_test.py).
SEEDS = sorted(p.name for p in SEEDS_DIR.glob("*.py") if not p.name.startswith("seed004_"))


def _splittable(device):
    try:
        return len(device.create_sub_devices([cl.device_partition_property.EQUALLY, 1])) >= 2
    except (weft.Unsupported, weft.InvalidArgument):
        return False


def _backends(device):
    # platforms[0] in the seeds is the device's own platform: the run sees only its backend.
    return {"host": "host", "cuda": "cuda"}.get(device.backend, f"opencl:{device.type}")


def test_seeds_found():
    assert {"s000_example1_inefficient.py", "s000_example2_asynchronous.py", "s000_example3_local_memory.py",
            "s001_hello_world.py", "s001_five_steps.py", "s002_events.py", "s002_fission.py",
            "pyopencl_copy_if.py"} <= set(SEEDS)


@pytest.mark.parametrize("script", SEEDS)
def test_seed_runs_with_only_the_import_changed(script, device):
    env = dict(os.environ)  # keeps conftest's WEFT_CACHE_DIR
    # The weft this test imported, whatever the working directory (PYTHONPATH may be relative).
    env["PYTHONPATH"] = os.pathsep.join([str(pathlib.Path(weft.__file__).resolve().parents[1]),
                                         env.get("PYTHONPATH", "")])
    env["WEFT_DEVICE"] = device.selector
    env["WEFT_BACKENDS"] = _backends(device)
    proc = subprocess.run([sys.executable, script], env=env, cwd=SEEDS_DIR, capture_output=True, text=True,
                          timeout=600)
    out = f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
    # What a device cannot do is refused with weft.Unsupported and says why (the seeds' comments).
    if script == "s002_fission.py" and not _splittable(device):
        assert proc.returncode != 0 and "weft.Unsupported" in proc.stderr and "sub-devices" in proc.stderr, out
        return
    assert proc.returncode == 0, f"{script} on {device.selector} exited {proc.returncode}\n{out}"
    assert proc.stdout.strip().endswith("ok"), out


# ---- contexts, queues, platforms ------------------------------------------------------------------


def test_contexts_stand_for_their_first_device(device):
    ctx = cl.Context([device])
    assert ctx.devices == [device]
    assert cl.CommandQueue(ctx).device == device
    assert cl.Program(ctx, "__kernel void k(__global int *x) { x[0] = 1; }").build().device == device
    assert cl.create_some_context().devices == [weft.default_device()]
    assert cl.Context(dev_type=cl.device_type.ALL).devices == weft.devices()
    assert cl.Context(dev_type=cl.device_type.DEFAULT).devices == [weft.default_device()]
    assert all(d.type == "cpu" for d in cl.Context(dev_type=cl.device_type.CPU).devices)
    with pytest.raises(weft.InvalidArgument, match="devices is empty"):
        cl.Context([])
    with pytest.raises(TypeError, match="list of weft.Device"):
        cl.Context(device)


def test_command_queue_takes_pyopencl_properties(device):
    ctx = cl.Context([device])
    q = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    assert isinstance(q, cl.CommandQueue) and isinstance(q, weft.Queue) and not q.out_of_order
    assert q.profiling
    ooo = cl.CommandQueue(ctx, device, properties=cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE)
    assert ooo.device == device and not ooo.profiling
    assert not isinstance(ctx, cl.CommandQueue)
    with pytest.raises(weft.InvalidArgument, match="properties"):
        cl.CommandQueue(ctx, properties=1 << 20)


def test_platforms_hold_every_device_once():
    seen = [d for p in cl.get_platforms() for d in p.get_devices()]
    assert seen == weft.devices()
    for p in cl.get_platforms():
        cpus = [d for d in p.get_devices() if d.type == "cpu"]
        if cpus:
            assert p.get_devices(device_type=cl.device_type.CPU) == cpus
        else:  # as PyOpenCL's DEVICE_NOT_FOUND (a GPU platform asked for CPUs)
            with pytest.raises(weft.InvalidArgument, match="no device of type"):
                p.get_devices(device_type=cl.device_type.CPU)


# ---- buffers ---------------------------------------------------------------------------------------


def test_buffer_copy_host_ptr_and_sizes(queue):
    h = np.arange(100, dtype=np.float32)
    mf = cl.mem_flags
    b = cl.Buffer(queue, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=h)
    assert b.size == h.nbytes
    out = np.zeros_like(h)
    cl.enqueue_copy(queue, out, b)
    assert np.array_equal(out, h)
    part = cl.Buffer(queue.device, mf.COPY_HOST_PTR, size=40, hostbuf=h)
    assert part.size == 40
    out = np.zeros(10, dtype=np.float32)
    cl.enqueue_copy(queue, out, part)
    assert np.array_equal(out, h[:10])
    assert cl.Buffer(cl.Context([queue.device]), mf.WRITE_ONLY, 64).size == 64
    assert cl.Buffer(queue.device, 32).size == 32  # weft's own form
    used = cl.Buffer(queue, mf.USE_HOST_PTR, hostbuf=h)  # copied: weft's buffers never alias host memory
    cl.enqueue_copy(queue, out, used, byte_count=40)
    assert np.array_equal(out, h[:10])


@pytest.mark.parametrize("flags, kwargs, error, match", [
    (cl.mem_flags.READ_ONLY | cl.mem_flags.WRITE_ONLY, {"size": 8}, weft.InvalidArgument, "exclude each other"),
    (cl.mem_flags.COPY_HOST_PTR, {"size": 8}, weft.InvalidArgument, "need hostbuf"),
    (cl.mem_flags.USE_HOST_PTR | cl.mem_flags.COPY_HOST_PTR, {"hostbuf": np.zeros(2)}, weft.InvalidArgument,
     "USE_HOST_PTR excludes"),
    (cl.mem_flags.COPY_HOST_PTR, {"size": 800, "hostbuf": np.zeros(2)}, weft.InvalidArgument, "larger than hostbuf"),
    (cl.mem_flags.READ_WRITE, {"size": 0}, weft.InvalidArgument, "size must be > 0"),
    (1 << 20, {"size": 8}, weft.InvalidArgument, "no weft.mem_flags"),
    ("r", {"size": 8}, TypeError, "flags must be"),
])
def test_buffer_refuses_what_opencl_refuses(flags, kwargs, error, match):
    with pytest.raises(error, match=match):
        cl.Buffer(None, flags, **kwargs)


def test_buffer_hostbuf_without_flags_warns_as_pyopencl():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        b = cl.Buffer(None, cl.mem_flags.READ_WRITE, hostbuf=np.zeros(4, dtype=np.float32))
    assert b.size == 16
    assert any("no memory flags" in str(x.message) for x in w)


# ---- events -------------------------------------------------------------------------------------


def test_user_event_gates_markers_and_launches(queue):
    go = cl.UserEvent(queue)
    x = weft.zeros(64, np.int32, device=queue.device)
    prg = cl.Program(queue, "__kernel void one(__global int *x) { x[get_global_id(0)] = 1; }").build()
    launched = prg.one(queue, x.shape, None, x.data, wait_for=[go])
    marker = cl.enqueue_marker(queue, wait_for=[go])
    assert go.command_execution_status != cl.command_execution_status.COMPLETE
    assert not launched.done and not marker.done
    go.set_status(cl.command_execution_status.COMPLETE)
    marker.wait()
    assert (x.get() == 1).all()
    assert go.command_execution_status == cl.command_execution_status.COMPLETE
    with pytest.raises(weft.InvalidArgument, match="COMPLETE"):
        cl.UserEvent().set_status(cl.command_execution_status.RUNNING)


def test_user_event_error_status_fails_what_waits(queue):
    bad = cl.UserEvent(cl.Context([queue.device]))
    m = queue.marker([bad])
    bad.set_status(-5)
    # (OpenCL passes only a status code on to what waits, not the message; PoCL's is -1.)
    with pytest.raises(weft.Error, match="set_status|failed"):
        m.wait()
    assert m.command_execution_status < 0


def test_barrier_holds_back_later_commands(device):
    for properties in (0, cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE):
        q = cl.CommandQueue(cl.Context([device]), properties=properties)
        h = np.arange(16, dtype=np.int32)
        a = cl.Buffer(q, cl.mem_flags.COPY_HOST_PTR, hostbuf=h)
        b = cl.Buffer(q, cl.mem_flags.READ_WRITE, h.nbytes)
        go = cl.UserEvent()
        first = cl.enqueue_marker(q, wait_for=[go])
        fence = cl.enqueue_barrier(q) if properties else q.barrier()
        later = cl.enqueue_copy(q, b, a)
        q.flush()
        assert not first.done and not fence.done and not later.done
        go.set_status(cl.command_execution_status.COMPLETE)
        later.wait()
        out = np.zeros_like(h)
        cl.enqueue_copy(q, out, b)
        assert np.array_equal(out, h)


# ---- sub-devices ---------------------------------------------------------------------------------------


def test_sub_devices_equally_by_counts_and_by_selector(device):
    if not _splittable(device):
        with pytest.raises(weft.Unsupported, match="sub-devices"):
            device.create_sub_devices([cl.device_partition_property.EQUALLY, 1])
        with pytest.raises(weft.InvalidArgument, match="no sub-devices"):
            weft.Device(device.selector + "/0")
        return
    subs = device.create_sub_devices([cl.device_partition_property.BY_COUNTS, 1, 1,
                                      cl.device_partition_property.BY_COUNTS_LIST_END])
    assert [s.compute_units for s in subs] == [1, 1]
    assert device.sub_devices == subs
    assert weft.Device(device.selector + "/1") == subs[1]
    q = weft.Queue(device.selector + "/0")
    assert q.device == subs[0]
    x = weft.arange(10, dtype=np.float32, device=subs[1])
    assert (x * 2).get().tolist() == list(range(0, 20, 2))
    with pytest.raises(weft.InvalidArgument, match="no sub-device 5"):
        weft.Device(device.selector + "/5")
    with pytest.raises(weft.ConfigError, match="sub-device"):
        weft.Device(device.selector + "/x")


@pytest.mark.parametrize("props, error, match", [
    ([cl.device_partition_property.EQUALLY], weft.InvalidArgument, "EQUALLY takes one positive"),
    ([cl.device_partition_property.EQUALLY, 0], weft.InvalidArgument, "EQUALLY takes one positive"),
    ([cl.device_partition_property.BY_AFFINITY_DOMAIN, 1], weft.Unsupported, "BY_AFFINITY_DOMAIN"),
    ([12345, 1], weft.InvalidArgument, "properties must be"),
    ("EQUALLY", TypeError, "properties must be"),
])
def test_create_sub_devices_refuses_bad_properties(props, error, match):
    with pytest.raises(error, match=match):
        weft.devices()[0].create_sub_devices(props)


# ---- arrays with the queue first -----------------------------------------------------------------------


def test_constructors_take_a_queue_first(queue):
    for make in (weft, cl_array):
        e = make.empty(queue, (3, 4), np.float32)
        assert e.shape == (3, 4) and e.dtype == np.float32 and e.device == queue.device
        assert make.zeros(queue, 5, dtype="int32").get().tolist() == [0] * 5
        assert make.ones(queue, (2,), np.float64).get().tolist() == [1.0, 1.0]
        assert make.full(queue, 3, 7, dtype=np.int16).get().tolist() == [7, 7, 7]
        assert make.arange(queue, 5, dtype=np.int32).get().tolist() == list(range(5))
        assert make.linspace(queue, 0, 1, 3).get().tolist() == [0.0, 0.5, 1.0]
        assert make.to_device(queue, np.arange(3)).get().tolist() == [0, 1, 2]
        assert make.zeros(5, np.int8, queue=queue).device == queue.device
        assert make.zeros(cl.Context([queue.device]), 2, np.int8).device == queue.device
    assert weft.zeros((2,), np.float32).shape == (2,)  # weft's own forms still work
    assert weft.array([1, 2, 3]).get().tolist() == [1, 2, 3]  # weft.array is still callable
    assert cl_array.zeros_like(weft.ones(queue, 4, np.int32)).get().tolist() == [0] * 4
    with pytest.raises(TypeError, match="given twice"):
        weft.zeros(queue, 3, queue=queue)
    with pytest.raises(weft.InvalidArgument, match="order='F'"):
        weft.empty(queue, (2, 2), np.float32, order="F")


# ---- kernels ------------------------------------------------------------------------------------------


def test_set_args_and_enqueue_nd_range_kernel(queue):
    prg = cl.Program(queue, """
        __kernel void axpb(__global const float *x, __global float *y, float a, float b) {
            int i = get_global_id(0);
            y[i] = a * x[i] + b;
        }""").build()
    k = prg.axpb
    x = cl_array.to_device(queue, np.arange(64, dtype=np.float32))
    y = cl_array.empty(queue, 64, np.float32)
    k.set_args(x.data, y.data, np.float32(2), np.float32(1))
    cl.enqueue_nd_range_kernel(queue, k, (64,), None).wait()
    assert np.array_equal(y.get(), 2 * np.arange(64, dtype=np.float32) + 1)
    k.set_arg(3, np.float32(-1))
    cl.enqueue_nd_range_kernel(queue, k, (8,), (8,), global_offset=(8,), wait_for=None)
    expect = 2 * np.arange(64, dtype=np.float32) + 1
    expect[8:16] -= 2
    assert np.array_equal(y.get(), expect)
    k.set_arg(2, np.float32(0))
    cl.enqueue_nd_range_kernel(queue, k, (8,), (8,), g_times_l=True)  # 8 groups of 8
    assert np.array_equal(y.get(), np.full(64, -1, np.float32))
    queue.enqueue_nd_range_kernel(k, (64,), None, x, y, 1, 0).wait()  # the queue-method form, with arguments
    assert np.array_equal(y.get(), np.arange(64, dtype=np.float32))
    with pytest.raises(weft.InvalidArgument, match="takes 4 arguments"):
        k.set_args(x.data)
    with pytest.raises(weft.InvalidArgument, match="no argument 4"):
        k.set_arg(4, 1)


def test_enqueue_nd_range_kernel_orders_lazy_readers_of_what_it_writes(queue):
    # A lazy expression reading y, made after set_args and before the launch, sees y's old values.
    prg = cl.Program(queue, "__kernel void fill(__global float *y) { y[get_global_id(0)] = 5.0f; }").build()
    y = weft.zeros(queue, 16, np.float32)
    prg.fill.set_args(y)
    before = y + 1
    cl.enqueue_nd_range_kernel(queue, prg.fill, (16,), None).wait()
    assert (before.get() == 1).all()
    assert (y.get() == 5).all()


# ---- scans -----------------------------------------------------------------------------------------------


def test_generic_scan_kernel_sees_pyopencl_names(queue):
    from weft.scan import GenericScanKernel
    knl = GenericScanKernel(cl.Context([queue.device]), np.int32, arguments="__global int *ary, __global int *last",
                            input_expr="ary[i]", scan_expr="a+b", neutral="0",
                            output_statement="if (i + 1 == N) last[0] = item;", name_prefix="total")
    a = cl_array.arange(queue, 1000, dtype=np.int32)
    last = cl_array.zeros(queue, 1, np.int32)
    knl(a, last, queue=queue)
    assert int(last.get()[0]) == sum(range(1000))
    # An argument named N is the argument's.
    own = GenericScanKernel(None, np.int32, "__global int *ary, __global int *out, int N", "ary[i]", "a+b", "0",
                            "out[i] = item * N")
    out = cl_array.empty(queue, 1000, np.int32)
    own(a, out, 2, queue=queue)
    assert np.array_equal(out.get(), 2 * np.cumsum(np.arange(1000, dtype=np.int32)))
