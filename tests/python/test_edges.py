"""Inputs at the edges, as a careless script or an attacker would give them: each gets the right
answer or a clear error naming the argument (never a wrapped number, a raw read of foreign byte
order, a write past an array, or a crash)."""
import gc

import numpy as np
import pytest

import weft

INT_ARG = """
__kernel void put(__global int *out, int v, char c) { out[0] = v; out[1] = c; }
"""


def test_kernel_scalars_that_do_not_fit_raise_overflow_error(device):
    prg = weft.Program(device, INT_ARG).build()
    q = weft.Queue(device)
    out = weft.zeros(2, np.int32, device=device)
    with pytest.raises(OverflowError, match="out of bounds for int32"):
        prg.put(q, (1,), None, out, 2**40 + 16, 1)
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        prg.put(q, (1,), None, out, 1, 300)
    with pytest.raises(OverflowError):
        prg.put(q, (1,), None, out, -2**31 - 1, 1)
    prg.put(q, (1,), None, out, -2**31, -128)
    np.testing.assert_array_equal(out.get(), [-2**31, -128])


def test_elementwise_kernel_refuses_an_array_shorter_than_its_range(device):
    k = weft.ElementwiseKernel("float *y, const float *x", "y[i] = 2 * x[i]", "edges_double")
    x = weft.ones(1000, np.float32, device=device)
    y = weft.zeros(10, np.float32, device=device)
    with pytest.raises(ValueError, match="'y' holds 10 elements"):
        k(y, x, range=1000)
    with pytest.raises(ValueError, match="'x' holds 10 elements"):
        k(x, y)


def test_enqueue_copy_byte_count_is_checked_against_the_host_buffer(device):
    q = weft.Queue(device)
    buf = weft.Buffer(device, 4096)
    small = np.zeros(16, np.uint8)
    with pytest.raises(ValueError, match="byte_count 64"):
        weft.enqueue_copy(q, buf, small, byte_count=64)
    with pytest.raises(ValueError, match="byte_count 64"):
        weft.enqueue_copy(q, small, buf, byte_count=64)


def test_foreign_byte_order_is_converted_not_read_raw(device):
    x = np.arange(7, dtype=">f4") * 1.5
    np.testing.assert_array_equal(weft.asarray(x, device=device).get(), x.astype("<f4"))
    a = weft.zeros(7, np.float32, device=device)
    a.set(x)
    np.testing.assert_array_equal(a.get(), x.astype("<f4"))
    i = np.array([1, -2, 2**40], dtype=">i8")
    np.testing.assert_array_equal(weft.asarray(i, device=device).get(), i.astype("<i8"))


def test_shapes_and_sizes_that_overflow_are_refused(device):
    with pytest.raises(ValueError, match="overflows"):
        weft.empty((2**32, 2**32), np.float32, device=device)
    with pytest.raises((MemoryError, ValueError), match="2305843009213693952"):
        weft.empty(2**61, np.float64, device=device)
    with pytest.raises((MemoryError, ValueError)):
        weft.zeros(2**61, np.float64, device=device)


def test_int64_values_above_2_to_53_are_exact(device):
    big = 2**53 + 1
    np.testing.assert_array_equal(weft.full(3, big, dtype=np.int64, device=device).get(), np.full(3, big, np.int64))
    np.testing.assert_array_equal(weft.arange(big, big + 6, 2, dtype=np.int64, device=device).get(),
                                  np.arange(big, big + 6, 2, dtype=np.int64))
    a = weft.zeros(2, np.int64, device=device)
    a.fill(big)
    np.testing.assert_array_equal(a.get(), [big, big])
    a[...] = 2**62 + 3
    np.testing.assert_array_equal(a.get(), [2**62 + 3] * 2)


def test_python_ints_outside_the_dtype_raise_like_numpy_2(device):
    with pytest.raises(OverflowError):
        weft.full(3, 300, dtype=np.int8, device=device)
    a = weft.zeros(3, np.int8, device=device)
    with pytest.raises(OverflowError):
        a.fill(300)
    with pytest.raises(OverflowError):
        a[...] = 300
    with pytest.raises(OverflowError):
        a[1] = -129
    np.testing.assert_array_equal(a.get(), [0, 0, 0])  # nothing was written
    b = weft.zeros(2, np.bool_, device=device)
    b[...] = 5
    np.testing.assert_array_equal(b.get(), [True, True])


def test_arange_of_nan_or_infinity_raises(device):
    with pytest.raises(ValueError, match="finite"):
        weft.arange(float("nan"), device=device)
    with pytest.raises(ValueError, match="finite"):
        weft.arange(0, float("inf"), device=device)


def test_wrong_argument_types_are_named(device):
    k = weft.ElementwiseKernel("float *y", "y[i] = 1", "edges_one")
    y = weft.zeros(4, np.float32, device=device)
    with pytest.raises(TypeError, match="wait_for"):
        k(y, wait_for=3)
    with pytest.raises(TypeError, match="wait_for"):
        k(y, wait_for=["not an event"])
    with pytest.raises(TypeError, match="queue="):
        k(y, queue="host")
    with pytest.raises(TypeError, match="range"):
        k(y, range="4")
    with pytest.raises((OverflowError, ValueError), match="range"):
        k(y, range=-1)
    with pytest.raises(TypeError, match="wait_for_events"):
        weft.wait_for_events([1, 2])


def test_a_dropped_get_async_or_an_interrupted_get_keeps_its_destination_alive(device):
    # The copy still writes into its NumPy array after the future (or the caller's frame) is
    # gone: the array must live until the copy completes. Many rounds, with the memory of the
    # dropped arrays reused at once, find a use-after-free (ASan finds it at once).
    a = weft.arange(1 << 16, dtype=np.float32, device=device)
    for _ in range(50):
        f = a.get_async()
        del f
        gc.collect()
        junk = [np.empty(1 << 16, np.float32) for _ in range(4)]
        del junk
    weft.synchronize(device)
    np.testing.assert_array_equal(a.get(), np.arange(1 << 16, dtype=np.float32))


def test_queues_made_and_dropped_between_launches_keep_the_order(device):
    # The bindings once cached a pointer into a map entry that making another queue could
    # erase (a use-after-free); the ordering now lives in C++ per queue.
    prg = weft.Program(device, "__kernel void add1(__global int *x) { x[get_global_id(0)] += 1; }").build()
    a = weft.zeros(256, np.int32, device=device)
    for i in range(40):
        q = weft.Queue(device, out_of_order=bool(i % 2))
        prg.add1(q, a.shape, None, a)
        del q
        b = a * 1
        assert int(b[0].get()) == i + 1


SPIN = """
import sys, numpy as np, weft
dev = weft.Device(sys.argv[1])
prg = weft.Program(dev, "__kernel void spin(__global volatile int *x) { while (x[0] == 0) { } }").build()
x = weft.zeros(1, np.int32, device=dev)
ev = prg.spin(weft.Queue(dev), (1,), None, x)   # a temporary queue: the call returns at once
print("launched", flush=True)
ev.wait()   # Ctrl-C interrupts this; the process must then exit with the kernel still running
"""


def test_ctrl_c_during_a_kernel_that_never_ends_lets_the_process_exit(device, tmp_path):
    import os
    import signal
    import subprocess
    import sys
    script = tmp_path / "spin.py"
    script.write_text(SPIN)
    p = subprocess.Popen([sys.executable, str(script), device.selector], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert p.stdout.readline().strip() == "launched"
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        pytest.fail("the process did not exit after Ctrl-C while a kernel spins")
    assert "KeyboardInterrupt" in err
    assert p.returncode != 0


QUEUED = """
import sys, numpy as np, weft
dev = weft.Device(sys.argv[1])
src = '''__kernel void busy(__global float* x, int n) { int i = get_global_id(0); float v = x[i];
for (int k = 0; k < n; ++k) v = v * 0.999f + 0.5f; x[i] = v; }'''
prg = weft.Program(dev, src).build()
q = weft.Queue(dev)
a = weft.zeros(1 << 16, np.float32, device=dev)
for _ in range(20):
    prg.busy(q, a.shape, None, a, np.int32(2000))
b = a * 2 + 1
f = b.get_async()
f.event.then(lambda e: None)
# the interpreter exits here with all of that still queued
"""


def test_the_interpreter_exits_cleanly_with_work_still_queued(device, tmp_path):
    import os
    import subprocess
    import sys
    script = tmp_path / "queued.py"
    script.write_text(QUEUED)
    for _ in range(5):
        r = subprocess.run([sys.executable, str(script), device.selector], capture_output=True, text=True,
                           timeout=120, env=dict(os.environ))
        assert r.returncode == 0, r.stderr[-2000:]


@pytest.mark.parametrize("call, kind, words", [
    (lambda d, q: weft.empty("abc", device=d), TypeError, "shape"),
    (lambda d, q: weft.zeros(2.5, device=d), TypeError, "shape"),
    (lambda d, q: weft.Buffer(d, "x"), TypeError, "Buffer: size"),
    (lambda d, q: weft.Buffer(d, -5), OverflowError, "Buffer: size"),
    (lambda d, q: weft.Buffer(d, 2**70), OverflowError, "Buffer: size"),
    (lambda d, q: weft.LocalMemory(-1), OverflowError, "LocalMemory"),
    (lambda d, q: weft.Program(d, 3), TypeError, "source"),
    (lambda d, q: weft.zeros(4, device=d).reshape("x"), TypeError, "shape"),
    (lambda d, q: weft.zeros(4, device=d).sum(axis="x"), TypeError, "axis"),
    (lambda d, q: weft.arange("a", device=d), TypeError, "arange"),
    (lambda d, q: weft.Program(d, "__kernel void k(__global float *x) { x[0] = 1; }").build().k("q", (1,), None,
                                                                                                 weft.zeros(1, device=d)),
     TypeError, "weft.Queue"),
    (lambda d, q: weft.ReductionKernel(np.float32, "0", "a+b", "x[i]", "const float *x")(
        weft.zeros(4, np.float32, device=d), out=3), TypeError, "out="),
    (lambda d, q: q.marker().then(3), TypeError, "callable"),
])
def test_arguments_of_the_wrong_kind_get_messages_naming_them(device, call, kind, words):
    q = weft.Queue(device)
    with pytest.raises(kind, match=words):
        call(device, q)
