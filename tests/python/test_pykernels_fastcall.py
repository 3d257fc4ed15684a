"""The fast path of cached Python-kernel calls (python/weft/_pyk_fastcall.py): a call whose
arguments match a kept signature runs its guarded function; every change of dtype, rank, layout,
inner extent, Python or NumPy number type, device or argument count takes the signature path
and gets its own translation, with the results and errors of a first call."""
import numpy as np
import pytest

import weft
from weft._pyk_fastcall import KEEP, MISS


@weft.jit
def scale_into(y, x, a):
    for i in weft.prange(len(y)):
        y[i] = a * x[i]


@weft.jit
def rows_into(y, x, a):
    for i in weft.prange(x.shape[0]):
        y[i] = a * x[i, 0]


@weft.jit
def extent_into(y, x):
    for i in weft.prange(len(y)):
        y[i] = x.shape[0]


@weft.jit
def every_other(y, start, step):
    for i in weft.prange(start, len(y), step):
        y[i] = 1


@weft.jit
def pyk_named(pyk_y, a):
    for i in weft.prange(len(pyk_y)):
        pyk_y[i] = a


@weft.kernel
def add_to(y, x, a):
    i = weft.global_id(0)
    y[i] += a * x[i]


def test_a_cached_call_runs_its_fast_function(device):
    x = weft.asarray(np.arange(4, dtype=np.float32), device=device)
    y = weft.zeros(4, np.float32, device=device)
    scale_into(y, x, 2.0)
    fast = [f for f in scale_into._fast if f(y, x, 3.0) is not MISS]
    assert len(fast) == 1  # (it ran: y holds 3x)
    np.testing.assert_array_equal(y.get(), np.arange(4, dtype=np.float32) * 3)
    assert fast[0](y, x, np.float32(3.0)) is MISS  # another number type
    assert fast[0](y.astype(np.float64), x, 3.0) is MISS  # another dtype
    assert fast[0](y[::2], x[::2], 3.0) is MISS  # a strided view
    assert fast[0](y, x.get(), 3.0) is MISS  # a NumPy array
    scale_into(y, x, 4.0)
    np.testing.assert_array_equal(y.get(), np.arange(4, dtype=np.float32) * 4)


def test_other_dtypes_ranks_and_layouts_after_a_cached_call(device):
    x = weft.asarray(np.arange(6, dtype=np.float32), device=device)
    y = weft.zeros(6, np.float32, device=device)
    scale_into(y, x, 2.0)
    scale_into(y, x, 2.0)
    for dt in (np.float64, np.int32):  # other dtypes: translations of their own
        xd, yd = x.astype(dt), weft.zeros(6, dt, device=device)
        scale_into(yd, xd, 3)
        np.testing.assert_array_equal(yd.get(), np.arange(6, dtype=dt) * 3)
    scale_into(y[1::2], x[::2], 10.0)  # strided views after the contiguous call
    np.testing.assert_array_equal(y.get(), [0, 0, 4, 20, 8, 40])
    scale_into(y, x, 1.0)  # back to the contiguous signature
    np.testing.assert_array_equal(y.get(), np.arange(6, dtype=np.float32))
    for shape in ((6,), (3, 2), (6,), (1, 2, 3)):  # other ranks
        extent_into(y, weft.zeros(shape, device=device))
        extent_into(y, weft.zeros(shape, device=device))
        np.testing.assert_array_equal(y.get(), [shape[0]] * 6)
    scale_into(y, x, True)  # a bool: its own signature
    np.testing.assert_array_equal(y.get(), np.arange(6, dtype=np.float32))
    assert len({t for t, _ in scale_into._compiler.kernels}) >= 5  # (f32 x float, bool; views; f64, i32 x int)


def test_inner_extents_after_a_cached_call(device):
    for cols in (2, 3, 5, 2):  # 2 and 3 are types of their own (constant row strides), 5 is not
        x = weft.asarray(np.arange(4 * cols, dtype=np.float64).reshape(4, cols), device=device)
        y = weft.zeros(4, device=device)
        rows_into(y, x, 2.0)
        rows_into(y, x, 2.0)
        np.testing.assert_array_equal(y.get(), np.arange(4) * cols * 2.0)
    assert {t[1].inner for t in rows_into._compiler.sources} == {2, 3, 0}


def test_lazy_and_numpy_arguments_after_a_cached_call(device):
    x = weft.asarray(np.arange(4.0), device=device)
    y = weft.zeros(4, device=device)
    scale_into(y, x, 1.0)
    scale_into(y, x + 1, 1.0)  # a lazy expression: evaluated as on the signature path
    np.testing.assert_array_equal(y.get(), np.arange(4.0) + 1)
    out = np.zeros(4)
    with device:
        scale_into(out, np.arange(4.0), 2.0)  # NumPy arrays: in place on the host, else copied back
    np.testing.assert_array_equal(out, np.arange(4.0) * 2)
    ro = np.zeros(4)
    ro.flags.writeable = False
    if device.backend == "host":
        with device, pytest.raises(ValueError, match="argument 'y' is a read-only NumPy array"):
            scale_into(ro, np.arange(4.0), 2.0)


def test_arrays_on_two_devices_are_refused_as_before():
    devices = weft.devices()
    if len(devices) < 2:
        pytest.skip("one device")
    a, b = (weft.zeros(4, device=d) for d in devices[:2])
    scale_into(a, weft.zeros(4, device=devices[0]), 1.0)
    with pytest.raises(weft.InvalidArgument, match="its arrays are on"):
        scale_into(a, b, 1.0)
    scale_into(b, weft.ones(4, device=devices[1]), 5.0)  # the other device: its own plan
    np.testing.assert_array_equal(b.get(), [5.0] * 4)


def test_prange_bounds_come_from_each_call(device):
    y = weft.zeros(6, np.int32, device=device)
    every_other(y, 0, 2)
    every_other(y, 1, 2)
    np.testing.assert_array_equal(y.get(), [1] * 6)
    y = weft.zeros(6, np.int32, device=device)
    every_other(y, 7, 1)  # no iterations: no launch
    every_other(y, 4, 1)
    np.testing.assert_array_equal(y.get(), [0, 0, 0, 0, 1, 1])
    with pytest.raises(ValueError, match="step of 0"):
        every_other(y, 0, 0)


def test_generated_names_are_not_shadowed(device):
    y = weft.zeros(3, device=device)
    pyk_named(y, 2.0)
    pyk_named(y, 3.0)  # (no fast function: the signature path)
    assert pyk_named._fast == []
    np.testing.assert_array_equal(y.get(), [3.0] * 3)


def test_many_signatures_stay_right(device):
    y = weft.zeros(4, np.float64, device=device)
    x = weft.asarray(np.arange(4.0), device=device)
    values = [1.0, np.float64(2.0), 3, np.int32(4), np.float32(5.0), True, np.int64(7)]
    for _ in range(2):
        for v in values:
            scale_into(y, x, v)
            np.testing.assert_array_equal(y.get(), np.arange(4.0) * float(v))
    assert len(scale_into._fast) <= KEEP


def test_kernel_launch_fast_path(device):
    q = weft.Queue(device)
    x = weft.asarray(np.arange(4, dtype=np.float32), device=device)
    y = weft.zeros(4, np.float32, device=device)
    add_to(q, (4,), None, y, x, 1.0).wait()
    kept = len(add_to._fast)
    assert add_to._fast[0](q, (4,), None, y, x, 1.0) is not MISS  # (it ran)
    add_to(device, (4,), None, y, x, 0.0).wait()  # a device in place of the queue: the signature path
    assert len(add_to._fast) == kept
    np.testing.assert_array_equal(y.get(), np.arange(4, dtype=np.float32) * 2)
    add_to(q, (2,), None, y[::2], x[::2], 1.0).wait()  # a strided view: its own plan
    np.testing.assert_array_equal(y.get(), np.arange(4, dtype=np.float32) * [3, 2, 3, 2])
    with pytest.raises(TypeError, match="the first argument is a weft.Queue or weft.Device"):
        add_to("queue", (4,), None, y, x, 1.0)


def test_plans_compile_their_prange_bounds(device):
    y = weft.zeros(6, np.int32, device=device)
    every_other(y, 1, 2)
    plan = next(p for (_, d), p in every_other._plans.items() if d == device)
    assert plan.dims is not None and plan.plain  # (the bounds as one Python function: no eval per call)
    assert plan.dims(y, 1, 2) == [(1, 2, 3)]


# Review of session 9: the generated guards and bounds call builtins by names of their own, so a
# parameter or module global named like one (max, type, int) does not break the second call.
type = "a module global named like a builtin"  # noqa: A001  (the point of the test)


@weft.jit
def capped_sum(x, max):
    t = 0.0
    for i in weft.prange(len(x)):
        t += x[i] if x[i] < max else max
    return t


@weft.jit
def fill_with(y, int):
    for i in weft.prange(len(y)):
        y[i] = int


@weft.kernel
def kernel_fill_with(y, type):
    y[weft.global_id(0)] = type


def test_parameters_and_globals_named_like_builtins_keep_working_when_cached(device):
    x = weft.asarray(np.arange(6, dtype=np.float32), device=device)
    assert [capped_sum(x, 3.0) for _ in range(3)] == [12.0, 12.0, 12.0]
    y = weft.zeros(4, np.float32, device=device)
    for v in (3, 4, 5):
        fill_with(y, v)
        assert np.array_equal(y.get(), np.full(4, v, np.float32))
    q = weft.array_queue(device)
    for v in (6, 7):
        kernel_fill_with(q, (4,), None, y, v)
        q.finish()
        assert np.array_equal(y.get(), np.full(4, v, np.float32))


def test_a_closure_variable_in_a_prange_bound_is_read_at_each_call(device):
    n = 2

    @weft.jit
    def bump(y):
        for i in weft.prange(n):
            y[i] += 1

    y = weft.zeros(6, np.float32, device=device)
    bump(y)
    n = 5
    bump(y)
    bump(y)
    assert y.get().tolist() == [3, 3, 2, 2, 2, 0]
