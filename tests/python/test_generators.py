"""Kernel generators with PyOpenCL's conventions: ElementwiseKernel, ReductionKernel,
InclusiveScanKernel, ExclusiveScanKernel and GenericScanKernel, checked against NumPy on
every device (conftest's `device` and `queue` fixtures)."""
import numpy as np
import pytest

import weft

RNG = np.random.default_rng(1234)


def dev_array(host, device):
    return weft.asarray(host, device=device)


# ---------------------------------------------------------------------------------------------
# ElementwiseKernel


def test_elementwise_axpy_returns_event(device, queue):
    n = 10000
    x = RNG.random(n).astype(np.float32)
    y = RNG.random(n).astype(np.float32)
    knl = weft.ElementwiseKernel("float a, const float *x, const float *y, float *z",
                                 "z[i] = a * x[i] + y[i]", "axpy")
    z = weft.empty((n,), np.float32, device=device)
    ev = knl(2.5, dev_array(x, device), dev_array(y, device), z, queue=queue)
    assert isinstance(ev, weft.Event)
    ev.wait()
    assert ev.done
    np.testing.assert_allclose(z.get(), 2.5 * x + y, rtol=1e-6)
    assert knl.name == "axpy"
    assert "a * x[i] + y[i]" in knl.source


@pytest.mark.parametrize("context_like", ["device", "queue"])
def test_elementwise_leading_context_is_ignored(device, queue, context_like):
    ctx = device if context_like == "device" else queue
    knl = weft.ElementwiseKernel(ctx, "const int *x, int *y", "y[i] = 3 * x[i] - 1")
    x = np.arange(1000, dtype=np.int32)
    y = weft.empty((1000,), np.int32, device=device)
    knl(dev_array(x, device), y, queue=queue).wait()
    np.testing.assert_array_equal(y.get(), 3 * x - 1)


@pytest.mark.parametrize("scalar", [
    2, 2.5, np.float32(2.5), np.float64(-1.25), np.int32(7), np.int64(-3), np.uint8(200), True,
], ids=lambda s: f"{type(s).__name__}({s})")
def test_elementwise_scalar_args_float(device, queue, scalar):
    x = np.linspace(-1, 1, 513).astype(np.float32)
    knl = weft.ElementwiseKernel("float *z, const float *x, float s", "z[i] = x[i] * s")
    z = weft.empty_like(dev_array(x, device))
    knl(z, dev_array(x, device), scalar, queue=queue).wait()
    np.testing.assert_allclose(z.get(), x * np.float32(scalar), rtol=1e-6)


@pytest.mark.parametrize("scalar", [5, -5, np.int32(-9), np.int64(123456), np.uint16(65535)],
                         ids=lambda s: f"{type(s).__name__}({s})")
def test_elementwise_scalar_args_int(device, queue, scalar):
    x = np.arange(-50, 50, dtype=np.int32)
    knl = weft.ElementwiseKernel("int *z, const int *x, int s", "z[i] = x[i] + s")
    z = weft.empty((x.size,), np.int32, device=device)
    knl(z, dev_array(x, device), scalar, queue=queue).wait()
    np.testing.assert_array_equal(z.get(), x + np.int32(scalar))


def test_elementwise_64bit_scalars(device, queue):
    knl = weft.ElementwiseKernel("long *a, ulong *b, double *c, long s, ulong u, double d",
                                 "a[i] = s + i; b[i] = u - i; c[i] = d * i")
    n = 100
    a = weft.empty((n,), np.int64, device=device)
    b = weft.empty((n,), np.uint64, device=device)
    c = weft.empty((n,), np.float64, device=device)
    s, u, d = -(2 ** 40), 2 ** 64 - 1, 1.0 / 3.0
    knl(a, b, c, s, u, d, queue=queue).wait()
    i = np.arange(n)
    np.testing.assert_array_equal(a.get(), np.int64(s) + i)
    np.testing.assert_array_equal(b.get(), np.uint64(u) - i.astype(np.uint64))
    np.testing.assert_allclose(c.get(), d * i, rtol=1e-15)


def test_elementwise_preamble_helper(device, queue):
    preamble = """
    float sq_plus(float v, float w) { return v * v + w; }
    #define TWICE(e) (2 * (e))
    """
    knl = weft.ElementwiseKernel("const float *x, float *z", "z[i] = TWICE(sq_plus(x[i], 1.0f))",
                                 preamble=preamble)
    x = RNG.random(777).astype(np.float32)
    z = weft.empty((777,), np.float32, device=device)
    knl(dev_array(x, device), z, queue=queue).wait()
    np.testing.assert_allclose(z.get(), 2 * (x * x + 1), rtol=1e-6)


def test_elementwise_options_string(device, queue):
    knl = weft.ElementwiseKernel("int *z", "z[i] = SCALE * i", options="-DSCALE=3")
    z = weft.empty((64,), np.int32, device=device)
    knl(z, queue=queue).wait()
    np.testing.assert_array_equal(z.get(), 3 * np.arange(64))


def test_elementwise_options_list(device, queue):
    knl = weft.ElementwiseKernel("int *z", "z[i] = SCALE * i", options=["-DSCALE=3"])
    z = weft.empty((64,), np.int32, device=device)
    knl(z, queue=queue).wait()
    np.testing.assert_array_equal(z.get(), 3 * np.arange(64))


def test_elementwise_range_and_wait_for(device, queue):
    knl = weft.ElementwiseKernel("float *z, float v", "z[i] = v")
    z = weft.zeros((100,), np.float32, device=device)
    ev1 = knl(z, 1.0, queue=queue)
    ev2 = knl(z, 7.0, range=40, queue=queue, wait_for=[ev1])
    ev2.wait()
    expect = np.ones(100, np.float32)
    expect[:40] = 7
    np.testing.assert_array_equal(z.get(), expect)


def test_elementwise_2d_and_lazy_input(device, queue):
    x = np.arange(60, dtype=np.float64).reshape(6, 10)
    a = dev_array(x, device)
    knl = weft.ElementwiseKernel("double *z, const double *x", "z[i] = x[i] - i")
    z = weft.empty((6, 10), np.float64, device=device)
    knl(z, a * 2 + 1, queue=queue).wait()  # a lazy expression is evaluated first
    np.testing.assert_array_equal(z.get(), (x * 2 + 1) - np.arange(60).reshape(6, 10))


def test_elementwise_empty_arrays(device, queue):
    knl = weft.ElementwiseKernel("float *z", "z[i] = 1")
    z = weft.empty((0,), np.float32, device=device)
    knl(z, queue=queue).wait()
    assert z.get().shape == (0,)


def test_elementwise_wrong_arg_count(device, queue):
    knl = weft.ElementwiseKernel("float *z, const float *x", "z[i] = x[i]")
    z = weft.zeros((4,), np.float32, device=device)
    with pytest.raises(weft.InvalidArgument, match="takes 2 arguments, 1 were given"):
        knl(z, queue=queue)
    with pytest.raises(weft.InvalidArgument):
        knl(z, z, z, queue=queue)


def test_elementwise_wrong_arg_kinds(device, queue):
    knl = weft.ElementwiseKernel("float *z, float v", "z[i] = v")
    z = weft.zeros((4,), np.float32, device=device)
    with pytest.raises(TypeError, match="not an array"):
        knl(z, z, queue=queue)
    with pytest.raises(TypeError, match="expected a weft.Array"):
        knl(z, "1.0", queue=queue)
    with pytest.raises(TypeError, match="unexpected keyword"):
        knl(z, 1.0, queue=queue, bogus=1)
    with pytest.raises(weft.InvalidArgument, match="float32"):
        weft.ElementwiseKernel("int *z", "z[i] = 0")(z, queue=queue)


def test_elementwise_view_rejected(device, queue):
    knl = weft.ElementwiseKernel("float *z, const float *x", "z[i] = x[i]")
    a = dev_array(np.arange(10, dtype=np.float32), device)
    z = weft.zeros((5,), np.float32, device=device)
    with pytest.raises(weft.InvalidArgument, match="copy"):
        knl(z, a[::2], queue=queue)
    knl(z, a[::2].copy(), queue=queue).wait()
    np.testing.assert_array_equal(z.get(), np.arange(0, 10, 2))


def test_elementwise_build_error_has_log(device, queue):
    knl = weft.ElementwiseKernel("float *z", "z[i] = no_such_function(i) +;")
    z = weft.zeros((4,), np.float32, device=device)
    with pytest.raises(weft.BuildError) as info:
        knl(z, queue=queue)
    err = info.value
    assert isinstance(err, weft.Error)
    assert isinstance(err.log, str) and err.log
    assert "no_such_function" in err.log or "no_such_function" in str(err)


def test_elementwise_buffer_args_on_array_queue(device):
    # Raw buffers (PyOpenCL's .data) on the queue the arrays themselves use.
    q = weft.array_queue(device)
    x = np.arange(1000, dtype=np.float32)
    a = dev_array(x, device)
    z = weft.empty((1000,), np.float32, device=device)
    knl = weft.ElementwiseKernel("float *z, const float *x", "z[i] = x[i] * 2")
    knl(z.data, a.data, range=1000, queue=q).wait()
    np.testing.assert_array_equal(z.get(), 2 * x)


def test_elementwise_buffer_args_get_on_same_queue(device, queue):
    if device.type != "cpu":
        pytest.skip("the stale read is timed for CPU devices; a GPU may finish the kernel before the read")
    n = 50000
    x = np.arange(n, dtype=np.float32)
    a = dev_array(x, device)
    z = weft.empty((n,), np.float32, device=device)
    weft.synchronize(device)
    # A slow kernel (s converges to 2): its result is not there at once.
    knl = weft.ElementwiseKernel("float *z, const float *x",
                                 "float s = x[i]; for (int j = 0; j < 20000; ++j) s = s * 0.5f + 1.0f; "
                                 "z[i] = s + x[i];")
    knl(z.data, a.data, range=n, queue=queue)
    try:
        np.testing.assert_allclose(z.get(queue=queue), x + 2)
    finally:
        queue.finish()


# ---------------------------------------------------------------------------------------------
# ReductionKernel


def test_reduction_sum(device, queue):
    x = RNG.random(100000)
    knl = weft.ReductionKernel(device, np.float64, neutral="0", reduce_expr="a+b", map_expr="x[i]",
                               arguments="const double *x")
    r = knl(dev_array(x, device), queue=queue)
    assert isinstance(r, weft.Array)
    assert r.shape == () and r.ndim == 0 and r.dtype == np.float64
    host = r.get()
    assert isinstance(host, np.ndarray) and host.shape == ()
    np.testing.assert_allclose(host, x.sum(), rtol=1e-10)
    assert float(r) == pytest.approx(x.sum(), rel=1e-10)


def test_reduction_default_map_expr(device, queue):
    x = np.arange(1, 1001, dtype=np.int32)
    knl = weft.ReductionKernel(np.int32, "0", "a+b", arguments="const int *in")
    assert int(knl(dev_array(x, device), queue=queue).get()) == int(x.sum())


def test_reduction_dot_product(device, queue):
    n = 65537
    x = RNG.random(n).astype(np.float32)
    y = RNG.random(n).astype(np.float32)
    dot = weft.ReductionKernel(device, np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*y[i]",
                               arguments="const float *x, const float *y")
    r = dot(dev_array(x, device), dev_array(y, device), queue=queue)
    np.testing.assert_allclose(r.get(), np.dot(x.astype(np.float64), y), rtol=1e-4)


def test_reduction_max_two_arrays(device, queue):
    n = 30000
    x = RNG.standard_normal(n).astype(np.float32)
    y = RNG.standard_normal(n).astype(np.float32)
    knl = weft.ReductionKernel(np.float32, "-INFINITY", "fmax(a, b)", "fabs(x[i] - y[i])",
                               "const float *x, const float *y")
    r = knl(dev_array(x, device), dev_array(y, device), queue=queue)
    assert r.get() == np.max(np.abs(x - y))


def test_reduction_int_max_and_min(device, queue):
    x = RNG.integers(-10**6, 10**6, 12345).astype(np.int32)
    mx = weft.ReductionKernel(np.int32, "INT_MIN", "max(a, b)", "x[i]", "const int *x")
    mn = weft.ReductionKernel(np.int32, "INT_MAX", "min(a, b)", "x[i]", "const int *x")
    a = dev_array(x, device)
    assert int(mx(a, queue=queue).get()) == x.max()
    assert int(mn(a, queue=queue).get()) == x.min()


def test_reduction_scalar_arg_and_widening(device, queue):
    x = RNG.random(50000).astype(np.float32)
    count = weft.ReductionKernel(np.int64, "0", "a+b", "x[i] > t ? 1 : 0", "const float *x, float t")
    a = dev_array(x, device)
    for t in (0.5, np.float32(0.25), 1):
        assert int(count(a, t, queue=queue).get()) == int((x > np.float32(t)).sum())


def test_reduction_int64_sum(device, queue):
    x = np.arange(100000, dtype=np.int32)
    knl = weft.ReductionKernel(np.int64, "0", "a+b", "(long)x[i] * x[i]", "const int *x")
    r = knl(dev_array(x, device), queue=queue)
    assert r.dtype == np.int64
    assert int(r.get()) == int((x.astype(np.int64) ** 2).sum())


def test_reduction_preamble(device, queue):
    preamble = "double sq(double v) { return v * v; }"
    knl = weft.ReductionKernel(np.float64, "0", "a+b", "sq(x[i])", "const double *x", preamble=preamble)
    x = RNG.random(999)
    np.testing.assert_allclose(knl(dev_array(x, device), queue=queue).get(), (x * x).sum(), rtol=1e-12)


def test_reduction_return_event(device, queue):
    x = np.arange(1000, dtype=np.float32)
    knl = weft.ReductionKernel(np.float32, "0", "a+b", "x[i]", "const float *x")
    result = knl(dev_array(x, device), queue=queue, return_event=True)
    assert isinstance(result, tuple) and len(result) == 2
    r, ev = result
    assert isinstance(ev, weft.Event)
    ev.wait()
    assert ev.done
    assert r.get() == np.float32(x.sum())


def test_reduction_result_stays_on_device(device, queue):
    x = np.arange(10, dtype=np.float64)
    knl = weft.ReductionKernel(np.float64, "0", "a+b", "x[i]", "const double *x")
    r = knl(dev_array(x, device), queue=queue)
    assert r.device == device
    assert (r * 2 + 1).get() == 91.0


def test_reduction_range_and_empty(device, queue):
    knl = weft.ReductionKernel(np.float32, "0", "a+b", "x[i]", "const float *x")
    x = np.arange(100, dtype=np.float32)
    assert knl(dev_array(x, device), queue=queue, range=10).get() == 45.0
    assert knl(weft.zeros((0,), np.float32, device=device), queue=queue).get() == 0.0


def test_reduction_errors(device, queue):
    with pytest.raises(weft.InvalidArgument, match="arguments"):
        weft.ReductionKernel(np.float32, "0", "a+b")
    knl = weft.ReductionKernel(np.float32, "0", "a+b", "x[i]*y[i]", "const float *x, const float *y")
    a = weft.zeros((8,), np.float32, device=device)
    with pytest.raises(weft.InvalidArgument, match="takes 2 arguments"):
        knl(a, queue=queue)
    bad = weft.ReductionKernel(np.float32, "0", "a+b", "x[i] +* 1", "const float *x")
    with pytest.raises(weft.BuildError) as info:
        bad(a, queue=queue)
    assert isinstance(info.value.log, str) and info.value.log


# ---------------------------------------------------------------------------------------------
# InclusiveScanKernel, ExclusiveScanKernel


@pytest.mark.parametrize("n", [1, 17, 1000, 100000])
def test_inclusive_scan_in_place(device, queue, n):
    x = RNG.integers(-100, 100, n).astype(np.int32)
    knl = weft.InclusiveScanKernel(device, np.int32, "a+b")
    a = dev_array(x, device)
    out = knl(a, queue=queue)
    assert out is a
    np.testing.assert_array_equal(a.get(), np.cumsum(x, dtype=np.int32))


def test_inclusive_scan_into_other_array(device, queue):
    x = RNG.random(40000)
    knl = weft.InclusiveScanKernel(np.float64, "a+b", neutral="0")
    a = dev_array(x, device)
    out = weft.empty_like(a)
    r = knl(a, out, queue=queue)
    assert r is out
    np.testing.assert_allclose(out.get(), np.cumsum(x), rtol=1e-10)
    np.testing.assert_array_equal(a.get(), x)  # input untouched


def test_inclusive_scan_max(device, queue):
    x = RNG.integers(0, 10**6, 5000).astype(np.int64)
    knl = weft.InclusiveScanKernel(np.int64, "max(a, b)", "0")
    out = weft.empty((x.size,), np.int64, device=device)
    knl(dev_array(x, device), out, queue=queue)
    np.testing.assert_array_equal(out.get(), np.maximum.accumulate(x))


def test_inclusive_scan_without_neutral(device, queue):
    x = RNG.integers(0, 1000, 100).astype(np.int32)
    knl = weft.InclusiveScanKernel(np.int32, "max(a, b)")
    a = dev_array(x, device)
    knl(a, queue=queue)
    np.testing.assert_array_equal(a.get(), np.maximum.accumulate(x))


@pytest.mark.parametrize("n", [1, 1000, 100000])
def test_exclusive_scan(device, queue, n):
    x = RNG.integers(0, 50, n).astype(np.uint32)
    knl = weft.ExclusiveScanKernel(np.uint32, "a+b", "0")
    a = dev_array(x, device)
    out = weft.empty_like(a)
    knl(a, out, queue=queue)
    expect = np.concatenate([[0], np.cumsum(x)[:-1]]).astype(np.uint32)
    np.testing.assert_array_equal(out.get(), expect)
    knl(a, queue=queue)  # in place
    np.testing.assert_array_equal(a.get(), expect)


def test_exclusive_scan_max_float(device, queue):
    x = np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.float32)
    knl = weft.ExclusiveScanKernel(np.float32, "fmax(a, b)", "-INFINITY")
    out = knl(dev_array(x, device), weft.empty((8,), np.float32, device=device), queue=queue)
    expect = np.concatenate([[-np.inf], np.maximum.accumulate(x)[:-1]]).astype(np.float32)
    np.testing.assert_array_equal(out.get(), expect)


def test_scan_preamble(device, queue):
    knl = weft.InclusiveScanKernel(np.int32, "combine(a, b)", "0",
                                   preamble="int combine(int a, int b) { return a + b; }")
    x = np.arange(300, dtype=np.int32)
    a = dev_array(x, device)
    knl(a, queue=queue)
    np.testing.assert_array_equal(a.get(), np.cumsum(x))


def test_scan_errors(device, queue):
    with pytest.raises(weft.InvalidArgument, match="neutral"):
        weft.ExclusiveScanKernel(np.int32, "a - b + 1")
    knl = weft.InclusiveScanKernel(np.int32, "a+b")
    with pytest.raises(weft.InvalidArgument, match="float32"):
        knl(dev_array(np.arange(5, dtype=np.float32), device), queue=queue)
    bad = weft.InclusiveScanKernel(np.int32, "a +* b", "0")
    with pytest.raises(weft.BuildError) as info:
        bad(dev_array(np.arange(5, dtype=np.int32), device), queue=queue)
    assert info.value.log


# ---------------------------------------------------------------------------------------------
# GenericScanKernel


def test_generic_scan_output_statement(device, queue):
    x = RNG.random(20000).astype(np.float32)
    knl = weft.GenericScanKernel(device, np.float64, arguments="const float *x, double *incl, double *excl",
                                 input_expr="(double)x[i] * x[i]", scan_expr="a+b", neutral="0",
                                 output_statement="incl[i] = item; excl[i] = prev_item;")
    incl = weft.empty((x.size,), np.float64, device=device)
    excl = weft.empty((x.size,), np.float64, device=device)
    ev = knl(dev_array(x, device), incl, excl, queue=queue)
    assert isinstance(ev, weft.Event)
    ev.wait()
    c = np.cumsum(x.astype(np.float64) ** 2)
    np.testing.assert_allclose(incl.get(), c, rtol=1e-10)
    np.testing.assert_allclose(excl.get(), np.concatenate([[0], c[:-1]]), rtol=1e-10, atol=0)


@pytest.mark.parametrize("n", [20, 5000, 100000])
def test_generic_scan_segmented(device, queue, n):
    x = RNG.integers(0, 100, n).astype(np.int32)
    flags = (RNG.random(n) < 0.01).astype(np.uint8)
    flags[0] = 1
    knl = weft.GenericScanKernel(np.int32, "const int *x, const uchar *seg, int *out",
                                 "x[i]", "a+b", "0", "out[i] = item", is_segment_start_expr="seg[i]")
    out = weft.empty((n,), np.int32, device=device)
    knl(dev_array(x, device), dev_array(flags, device), out, queue=queue).wait()
    # NumPy: a cumulative sum that restarts at every flagged index.
    starts = np.flatnonzero(flags)
    expect = np.concatenate([np.cumsum(s) for s in np.split(x, starts[1:])])
    np.testing.assert_array_equal(out.get(), expect)


def test_generic_scan_segmented_pyopencl_expr(device, queue):
    x = np.arange(20, dtype=np.float32)
    flags = np.zeros(20, np.int8)
    flags[[0, 5, 6, 13]] = 1
    knl = weft.GenericScanKernel(np.float32, "__global float *ary, __global char *segflags, __global float *out",
                                 "ary[i]", "across_seg_boundary ? b : (a+b)", "0", "out[i] = item + 100",
                                 is_segment_start_expr="segflags[i]")
    out = weft.empty((20,), np.float32, device=device)
    knl(dev_array(x, device), dev_array(flags, device), out, queue=queue).wait()
    expect = np.concatenate([np.cumsum(s) for s in np.split(x, [5, 6, 13])]) + 100
    np.testing.assert_array_equal(out.get(), expect)


@pytest.mark.parametrize("n", [1, 1000, 100000])
def test_generic_scan_stream_compaction(device, queue, n):
    x = RNG.integers(0, 1000, n).astype(np.int32)
    copy_if = weft.GenericScanKernel(
        np.int32,
        arguments="__global int *ary, __global int *out, __global int *count",
        input_expr="(ary[i] > 300) ? 1 : 0",
        scan_expr="a+b", neutral="0",
        output_statement="""
            if (prev_item != item) out[item-1] = ary[i];
            if (i + 1 == n) *count = item;
            """)
    out = weft.zeros((n,), np.int32, device=device)
    count = weft.zeros((1,), np.int32, device=device)
    copy_if(dev_array(x, device), out, count, queue=queue).wait()
    kept = x[x > 300]
    k = int(count.get()[0])
    assert k == kept.size
    np.testing.assert_array_equal(out.get()[:k], kept)


def test_generic_scan_size_and_preamble(device, queue):
    preamble = "#define IS_EVEN(v) (((v) & 1) == 0)"
    knl = weft.GenericScanKernel(np.int32, "const int *x, int *out", "IS_EVEN(x[i]) ? 1 : 0", "a+b", "0",
                                 "out[i] = item", preamble=preamble, name_prefix="evens")
    x = np.arange(100, dtype=np.int32)
    out = weft.full((100,), -1, np.int32, device=device)
    knl(dev_array(x, device), out, size=50, queue=queue).wait()
    expect = np.full(100, -1, np.int32)
    expect[:50] = np.cumsum(x[:50] % 2 == 0)
    np.testing.assert_array_equal(out.get(), expect)


def test_generic_scan_errors(device, queue):
    knl = weft.GenericScanKernel(np.int32, "const int *x, int *out", "x[i]", "a+b", "0", "out[i] = item")
    a = dev_array(np.arange(10, dtype=np.int32), device)
    with pytest.raises(weft.InvalidArgument, match="takes 2 arguments"):
        knl(a, queue=queue)
    with pytest.raises(weft.InvalidArgument, match="empty"):
        weft.GenericScanKernel(np.int32, "const int *x, int *out", "x[i]", "a+b", "0", "  ")
    bad = weft.GenericScanKernel(np.int32, "const int *x, int *out", "x[i]", "a+b", "0", "out[i] = undefined_v;")
    with pytest.raises(weft.BuildError) as info:
        bad(a, weft.empty_like(a), queue=queue)
    assert "undefined_v" in info.value.log
