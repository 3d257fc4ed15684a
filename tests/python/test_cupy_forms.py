"""CuPy's forms in weft: typed ElementwiseKernel and ReductionKernel (placeholders, broadcasting,
output allocation, scalars, raw arguments, axis/keepdims/out), RawKernel/RawModule with the
kernel(grid, block, args) call, get_array_module, `with device:` blocks, weft.benchmark,
weft.cache and `python -m weft`."""
import os
import pathlib
import subprocess
import sys
import threading

import numpy as np
import pytest

import weft


def dev_array(device, a):
    return weft.asarray(np.asarray(a), device=device)


# ---- ElementwiseKernel, CuPy's form --------------------------------------------------------------

def test_typed_elementwise_allocates_and_broadcasts(device):
    mul = weft.ElementwiseKernel('float64 x, float64 y', 'float64 z', 'z = x * y', 'mul')
    assert isinstance(mul, weft.CupyElementwiseKernel) and mul.nin == 2 and mul.nout == 1
    xh = np.arange(12.0).reshape(3, 4)
    yh = np.arange(4.0) + 1
    z = mul(dev_array(device, xh), dev_array(device, yh))
    assert z.device == device and z.shape == (3, 4) and z.dtype == np.float64
    np.testing.assert_array_equal(z.get(), xh * yh)
    # a scalar input, converted to the parameter's type
    np.testing.assert_array_equal(mul(dev_array(device, xh), 2).get(), xh * 2)


def test_placeholders_bind_from_arguments(device):
    add = weft.ElementwiseKernel('T x, T y', 'T z', 'T s = x + y; z = s', 'add_t')
    for dt in (np.float32, np.int32, np.uint8):
        xh = np.arange(6, dtype=dt)
        z = add(dev_array(device, xh), dev_array(device, xh))
        assert z.dtype == dt
        np.testing.assert_array_equal(z.get(), xh + xh)
    # a Python int binds T to int64 when no array does (CuPy's rule)
    zi = add(dev_array(device, np.arange(3, dtype=np.int64)), 7)
    np.testing.assert_array_equal(zi.get(), np.arange(3) + 7)
    with pytest.raises(TypeError, match="placeholder T"):
        add(dev_array(device, np.ones(3, np.float32)), dev_array(device, np.ones(3, np.float64)))


def test_typed_parameter_refuses_other_dtype_and_numpy_arrays(device):
    mul = weft.ElementwiseKernel('float32 x', 'float32 z', 'z = 2 * x', 'twice')
    with pytest.raises(TypeError, match="'x' is float64"):
        mul(dev_array(device, np.ones(3)))
    with pytest.raises(TypeError, match="weft.asarray"):
        mul(np.ones(3, np.float32))


def test_outputs_given_several_and_views(device):
    k = weft.ElementwiseKernel('T x', 'T y, T z', 'y = x + 1; z = x * 2', 'two_outputs')
    xh = np.arange(8.0).reshape(2, 4)
    y, z = k(dev_array(device, xh))
    np.testing.assert_array_equal(y.get(), xh + 1)
    np.testing.assert_array_equal(z.get(), xh * 2)
    # a given output that is a strided view is written in place
    big = weft.zeros((2, 8), device=device)
    yv, zv = big[:, ::2], big[:, 1::2]
    out = k(dev_array(device, xh), yv, zv)
    assert out[0] is yv and out[1] is zv
    expect = np.zeros((2, 8))
    expect[:, ::2], expect[:, 1::2] = xh + 1, xh * 2
    np.testing.assert_array_equal(big.get(), expect)
    with pytest.raises(ValueError, match="shape"):
        k(dev_array(device, xh), weft.zeros((3,), device=device), weft.zeros((3,), device=device))


def test_raw_parameters_and_size(device):
    rev = weft.ElementwiseKernel('T x, raw T y', 'T z', 'z = x + y[_ind.size() - i - 1]', 'add_reverse')
    yh = np.arange(5, dtype=np.float32)
    np.testing.assert_array_equal(rev(dev_array(device, yh), dev_array(device, yh)).get(), yh + yh[::-1])
    fill = weft.ElementwiseKernel('float32 v', 'raw float32 out', 'out[i] = v * i', 'fill_iota')
    out = weft.empty(6, dtype=np.float32, device=device)
    fill(np.float32(2), out, size=6)
    np.testing.assert_array_equal(out.get(), 2 * np.arange(6, dtype=np.float32))
    with pytest.raises(ValueError, match="loop size"):
        fill(np.float32(2), out)


def test_pyopencl_form_unchanged(device):
    k = weft.ElementwiseKernel("double *z, const double *x, double s", "z[i] = s * x[i]")
    assert not isinstance(k, weft.CupyElementwiseKernel) and isinstance(k, weft.ElementwiseKernel)
    x = dev_array(device, np.arange(4.0))
    z = weft.empty_like(x)
    assert isinstance(k(z, x, 3.0), weft.Event)
    np.testing.assert_array_equal(z.get(), 3 * np.arange(4.0))
    # value-only PyOpenCL argument lists stay PyOpenCL's
    k2 = weft.ElementwiseKernel(None, "double *z, double s", "z[i] = s")
    assert not isinstance(k2, weft.CupyElementwiseKernel)


def test_bad_parameter_lists_are_named():
    with pytest.raises(weft.InvalidArgument, match="float63"):
        weft.ElementwiseKernel('float63 x', 'float64 z', 'z = x', 'k')
    with pytest.raises(weft.InvalidArgument, match="reserved"):
        weft.ElementwiseKernel('float64 i', 'float64 z', 'z = i', 'k')


# ---- ReductionKernel, CuPy's form ----------------------------------------------------------------

@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduction_axes(device, axis, keepdims):
    l2 = weft.ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0', 'l2norm')
    assert isinstance(l2, weft.CupyReductionKernel)
    xh = np.arange(12.0).reshape(3, 4)
    r = l2(dev_array(device, xh), axis=axis, keepdims=keepdims)
    expect = np.sqrt((xh * xh).sum(axis=axis, keepdims=keepdims))
    assert r.shape == expect.shape and r.dtype == np.float64
    np.testing.assert_allclose(r.get(), expect)


def test_reduction_types_sizes_and_out(device):
    # reduce in float64 over int32 inputs; CuPy's _in_ind/_out_ind sizes
    mean = weft.ReductionKernel('T x', 'float64 y', 'x', 'a + b', 'y = a / (_in_ind.size() / _out_ind.size())',
                                '0', 'mean_k', reduce_type='float64')
    xh = np.arange(20, dtype=np.int32).reshape(4, 5)
    np.testing.assert_allclose(mean(dev_array(device, xh), axis=1).get(), xh.mean(axis=1))
    np.testing.assert_allclose(float(mean(dev_array(device, xh))), xh.mean())
    dot = weft.ReductionKernel('T x, T y', 'T z', 'x * y', 'a + b', 'z = a', '0', 'dot_k')
    a, b = np.arange(5.0), np.arange(5.0) + 2
    out = weft.empty((), device=device)
    assert dot(dev_array(device, a), dev_array(device, b), out=out) is out
    assert float(out) == float(a @ b)
    mx = weft.ReductionKernel('T x', 'T y', 'x', 'max(a, b)', 'y = a', '-INFINITY', 'max_k')
    h = np.random.default_rng(1).standard_normal((3, 7))
    np.testing.assert_array_equal(mx(dev_array(device, h), axis=0).get(), h.max(axis=0))
    # a column broadcast against a matrix
    np.testing.assert_allclose(dot(dev_array(device, np.ones((3, 1))), dev_array(device, h), axis=1).get(),
                               h.sum(axis=1))


def test_pyopencl_reduction_form_unchanged(device):
    red = weft.ReductionKernel(np.float64, "0", "a+b", "x[i]*y[i]", "const double *x, const double *y")
    assert not isinstance(red, weft.CupyReductionKernel)
    x = dev_array(device, np.arange(4.0))
    assert red(x, x).get() == 14.0


# ---- RawKernel / RawModule -----------------------------------------------------------------------

SRC = r"""
__kernel void scale(int n, __global const float *x, __global float *y, float s) {
    int i = get_global_id(0);
    if (i < n) y[i] = s * x[i];
}
__kernel void iota(__global int *y) { y[get_global_id(0)] = (int)get_global_id(0); }
"""


def test_raw_module_dialect(device):
    m = weft.RawModule(code=SRC)
    scale = m.get_function("scale")
    x = dev_array(device, np.arange(10, dtype=np.float32))
    y = weft.zeros_like(x)
    ev = scale((3,), (4,), (np.int32(10), x, y, np.float32(1.5)))
    assert isinstance(ev, weft.Event)
    np.testing.assert_array_equal(y.get(), 1.5 * np.arange(10, dtype=np.float32))
    k = weft.RawKernel(SRC, "iota")
    z = weft.zeros(8, dtype=np.int32, device=device)
    k(2, 4, (z,))
    np.testing.assert_array_equal(z.get(), np.arange(8))
    with pytest.raises(weft.InvalidArgument, match="no kernel 'nope'"):
        m.get_function("nope")((1,), (1,), (z,))
    with pytest.raises(weft.InvalidArgument, match="LocalMemory"):
        k(2, 4, (z,), shared_mem=64)


def test_raw_cuda_source_refused_off_cuda(device):
    if getattr(device, "cuda_source", False):
        pytest.skip("this device builds CUDA C")
    m = weft.RawModule(code='extern "C" __global__ void f(float *x) { x[threadIdx.x] = 1.0f; }')
    x = weft.zeros(4, dtype=np.float32, device=device)
    with pytest.raises(weft.Unsupported, match="CUDA C") as e:
        m.get_function("f")((1,), (4,), (x,))
    assert device.selector in str(e.value) and "OpenCL C" in str(e.value)


# ---- get_array_module, current device, benchmark -------------------------------------------------

def test_get_array_module(device):
    a = weft.zeros(3, device=device)
    assert weft.get_array_module(a) is weft
    assert weft.get_array_module(np.zeros(3), a) is weft
    assert weft.get_array_module(np.zeros(3), 1.0) is np
    assert weft.get_array_module() is np


def test_with_device_blocks_nest_and_are_per_thread():
    devs = weft.devices()
    first, last = devs[0], devs[-1]
    outside = weft.default_device()
    with first as d:
        assert d is first and weft.default_device() == first
        assert weft.zeros(2).device == first and weft.asarray([1, 2]).device == first
        with weft.Device(last.selector):
            assert weft.arange(3).device == last and weft.default_device() == last
            seen = []
            t = threading.Thread(target=lambda: seen.append(weft.ones(1).device))
            t.start()
            t.join()
            assert seen == [outside]  # another thread keeps its own current device
        assert weft.empty(1).device == first
        # an explicit device= still wins
        assert weft.zeros(1, device=last).device == last
    assert weft.default_device() == outside


def test_benchmark_result(device):
    x = weft.asarray(np.arange(1000.0), device=device)
    calls = []

    def work(a):
        calls.append(1)
        (a * 2 + 1).evaluate()

    r = weft.benchmark(work, (x,), n_repeat=7, n_warmup=3, devices=[device])
    assert len(calls) == 10
    assert r.cpu_times.shape == (7,) and r.gpu_times.shape == (1, 7)
    assert (r.cpu_times > 0).all() and (r.gpu_times > 0).all()
    text = str(r)
    assert text.startswith("work:") and "CPU:" in text and device.selector in text and "us" in text
    r2 = weft.benchmark(work, (x,), n_repeat=1000, n_warmup=0, max_duration=0.0, devices=[device], name="short")
    assert r2.cpu_times.shape == (1,) and str(r2).startswith("short:")


# ---- the program cache and the command line ------------------------------------------------------

def test_cache_info_and_clear(tmp_path, device):
    env = dict(os.environ, WEFT_CACHE_DIR=str(tmp_path / "cache"), WEFT_DEVICE=device.selector)
    env["PYTHONPATH"] = os.pathsep.join([str(pathlib.Path(weft.__file__).resolve().parents[1]),
                                         env.get("PYTHONPATH", "")])
    code = ("import weft, numpy as np\n"
            "assert weft.cache.info()['entries'] == 0\n"
            "weft.RawModule(code='__kernel void k(__global int *x) { x[0] = 1; }')"
            ".get_function('k')(1, 1, (weft.zeros(1, dtype=np.int32),))\n"
            "info = weft.cache.info()\n"
            "assert info['entries'] >= 1 and info['bytes'] > 0 and info['invalid'] == 0, info\n"
            "assert info['directory'] == weft.cache.directory()\n"
            "assert all(e['valid'] for e in weft.cache.entries())\n"
            "assert weft.cache.clear() == info['entries']\n"
            "assert weft.cache.info()['entries'] == 0\n"
            "print('ok')\n")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_python_m_weft_runs_the_tool(tmp_path):
    env = dict(os.environ, WEFT_CACHE_DIR=str(tmp_path))
    env["PYTHONPATH"] = os.pathsep.join([str(pathlib.Path(weft.__file__).resolve().parents[1]),
                                         env.get("PYTHONPATH", "")])
    from weft.__main__ import tool_path
    proc = subprocess.run([sys.executable, "-m", "weft", "cache", "path"], env=env, capture_output=True,
                          text=True, timeout=120)
    if tool_path() is None:
        assert proc.returncode == 2 and "WEFT_BUILD_TOOLS=OFF" in proc.stderr
        return
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "weft", "version"], env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0 and weft.__version__ in proc.stdout


def test_program_language_cuda(device):
    src = 'extern "C" __global__ void f(float *x) { x[threadIdx.x] = 2.0f; }'
    p = weft.Program(device, src, language="cuda")
    if not device.cuda_source:
        with pytest.raises(weft.Unsupported, match="CUDA C source builds only on CUDA devices"):
            p.build()
        return
    k = p.build().f
    x = weft.zeros(4, dtype=np.float32, device=device)
    k(weft.array_queue(device), (4,), (4,), x)
    np.testing.assert_array_equal(x.get(), np.full(4, 2.0, np.float32))


def test_program_language_is_checked(device):
    with pytest.raises(weft.InvalidArgument, match="language"):
        weft.Program(device, "__kernel void k() {}", language="hip")


def test_repeat_calls_reuse_the_plan_only_when_it_fits(device):
    # The second call of the same dtypes takes the planned path; shapes, views, given outputs
    # and other devices must still give NumPy's answers.
    mul = weft.ElementwiseKernel('T x, T y', 'T z', 'z = x * y', 'mul_plan')
    for shape in [(4,), (4,), (2, 3), (0,)]:
        xh = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
        x = dev_array(device, xh)
        np.testing.assert_array_equal(mul(x, x).get(), xh * xh)
        out = weft.empty(shape, dtype=np.float32, device=device)
        assert mul(x, x, out) is out
        np.testing.assert_array_equal(out.get(), xh * xh)
    xh = np.arange(8, dtype=np.float32)
    x = dev_array(device, xh)
    np.testing.assert_array_equal(mul(x[::2], x[1::2]).get(), xh[::2] * xh[1::2])
    np.testing.assert_array_equal(mul(x.reshape(2, 4), x[:4]).get(), xh.reshape(2, 4) * xh[:4])
    with pytest.raises(TypeError):
        mul(x, dev_array(device, xh.astype(np.float64)))
    others = [d for d in weft.devices() if d != device]
    if others:
        with pytest.raises(weft.InvalidArgument):
            mul(x, weft.asarray(xh, device=others[0]))


def test_a_parameter_called_n_and_the_sizes(device):
    # n is a parameter's name in CuPy (weft's own count is then weft_n); _ind.size() and the
    # reductions' _in_ind.size() / _out_ind.size() still mean the sizes.
    k = weft.ElementwiseKernel('T x, int32 n', 'T y', 'y = x * n + _ind.size()', 'uses_n')
    xh = np.arange(6.0)
    np.testing.assert_array_equal(k(dev_array(device, xh), 3).get(), xh * 3 + 6)
    r = weft.ReductionKernel('T x, T n', 'T y', 'x * n + _in_ind.size()', 'a + b',
                             'y = a / _in_ind.size() * _out_ind.size()', '0', 'sizes_k')
    h = np.arange(12.0).reshape(3, 4)
    np.testing.assert_allclose(r(dev_array(device, h), 2.0, axis=1).get(), (h * 2 + 12).sum(axis=1) / 12 * 3)
    np.testing.assert_allclose(float(r(dev_array(device, h), 2.0)), (h * 2 + 12).sum() / 12)
    with pytest.raises(weft.InvalidArgument, match="reserved"):
        weft.ReductionKernel('T a', 'T y', 'a', 'a + b', 'y = a', '0', 'bad')


def test_cuda_device_names():
    cuda = [d for d in weft.devices() if d.backend == "cuda"]
    assert weft.cuda.is_available() == bool(cuda)
    assert weft.cuda.Device() == weft.default_device()
    if cuda:
        with weft.cuda.Device(0) as d:
            assert d == weft.Device("cuda:0") and weft.zeros(1).device == d
    else:
        with pytest.raises(weft.InvalidArgument):
            weft.cuda.Device(0)


def test_reduction_repeat_calls_reuse_the_plan_only_when_it_fits(device):
    s = weft.ReductionKernel('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'sum_plan')
    h = np.arange(12.0).reshape(3, 4)
    x = dev_array(device, h)
    for _ in range(2):  # the second call runs the plan of the first
        assert float(s(x)) == h.sum()
        np.testing.assert_array_equal(s(x, axis=1).get(), h.sum(axis=1))
        np.testing.assert_array_equal(s(x, axis=1, keepdims=True).get(), h.sum(axis=1, keepdims=True))
        np.testing.assert_array_equal(s(x, axis=0).get(), h.sum(axis=0))
        np.testing.assert_array_equal(s(x, axis=[1]).get(), h.sum(axis=1))
    np.testing.assert_array_equal(s(x[:, ::2], axis=1).get(), h[:, ::2].sum(axis=1))
    np.testing.assert_array_equal(s(x.T, axis=1).get(), h.T.sum(axis=1))
    r1, r2 = s(x), s(x)
    assert r1 is not r2  # each call its own result
    xi = dev_array(device, h.astype(np.int32))
    assert s(xi).dtype == np.int32 and int(s(xi)) == int(h.sum())


def test_stream_is_a_queue(device):
    q = weft.Queue(device)
    mul = weft.ElementwiseKernel('T x', 'T y', 'y = 2 * x', 'twice_q')
    s = weft.ReductionKernel('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'sum_q')
    x = dev_array(device, np.arange(4.0))
    with weft.LaunchLog(q) as log:
        y = mul(x, stream=q)
        r = s(x, stream=q)
    q.finish()
    np.testing.assert_array_equal(y.get(), 2 * np.arange(4.0))
    assert float(r) == 6.0
    assert len(log.kernels) >= 2  # both ran on q
