"""The CuPy examples of shared/seeds/004 (the "Multiplatform Programming with Python" course)
with weft, in CuPy's own forms: cupy_example_api.py, cupy_example_raw.py, the current-device
and transfer slides, the profiling slide, and a typed ElementwiseKernel/ReductionKernel.

The device is weft's current device (WEFT_DEVICE, or a `with weft.Device(...)` block). What
changed from CuPy (docs/MIGRATING.md has the whole table):
- `import cupy as cp` -> `import weft as cp`; `cp.cuda.Device(i)` -> `weft.Device(selector)`;
- the RawModule kernel is written in OpenCL C (__kernel, __global pointers, get_global_id(0)),
  which runs on every device; CUDA C as written builds on CUDA devices only;
- `cupyx.profiler.benchmark` -> `weft.benchmark` (the same printout).
"""
import numpy as np

import weft as cp

# --- cupy_example_api.py ---------------------------------------------------------------------
x1 = np.array([1, 3, 5, 7, 9], dtype=np.float64)
x2 = np.array([2, 4, 6, 8, 10], dtype=np.float64)

x1_dev = cp.array(x1)  # copy the data to the current device
x2_dev = cp.array(x2)

y_dev = x1_dev * x2_dev  # the multiplication runs on the device
print(y_dev, type(y_dev), y_dev.dtype)

y = y_dev.get()  # copy the result back to the host
print(y, type(y), y.dtype)
assert isinstance(y, np.ndarray) and y.dtype == np.float64
assert np.array_equal(y, x1 * x2)

# cp.get_array_module: weft for weft arrays, numpy otherwise.
assert cp.get_array_module(x1_dev, x2_dev) is cp and cp.get_array_module(x1) is np

# Transfer between devices (cp.array(x_gpu_0) under another cp.cuda.Device).
for other in cp.devices():
    with other:
        x_other = cp.array(x1_dev)  # a copy on `other`
    assert x_other.device == other and np.array_equal(x_other.get(), x1)
print(f"copied to {len(cp.devices())} device(s): {[d.selector for d in cp.devices()]}")

# --- cupy_example_raw.py ---------------------------------------------------------------------
y_dev = cp.zeros_like(x1_dev)  # an output buffer on the device

source_str = r"""
__kernel void mymul(int n, __global const double* x1, __global const double* x2, __global double* y)
{
    int tid = get_global_id(0);
    if (tid < n) {
        y[tid] = x1[tid] * x2[tid];
    }
}
"""

module = cp.RawModule(code=source_str)  # built at the first call (and cached on disk)
mymul_kernel = module.get_function("mymul")

blocksize = 2
n_blocks = int(np.ceil(len(x1) / blocksize))
mymul_kernel(grid=(n_blocks,), block=(blocksize,), args=(np.int32(len(x1)), x1_dev, x2_dev, y_dev))
print(y_dev, type(y_dev), y_dev.dtype)

y = y_dev.get()
print(y, type(y), y.dtype)
assert np.array_equal(y, x1 * x2)

# --- profiling (cupyx.profiler.benchmark) ---------------------------------------------------
n = 1 << 16
a = cp.asarray(np.random.rand(n))
b = cp.asarray(np.random.rand(n))
c = cp.empty((n,), np.float64)
blocksize = 64
n_blocks = (n + blocksize - 1) // blocksize


def mul(n_blocks: int, blocksize: int, n: np.int32, a: cp.Array, b: cp.Array, c: cp.Array) -> None:
    mymul_kernel(grid=(n_blocks,), block=(blocksize,), args=(n, a, b, c))


print(cp.benchmark(mul, (n_blocks, blocksize, np.int32(n), a, b, c), n_repeat=100))
assert np.allclose(c.get(), a.get() * b.get())

# --- CuPy's user-defined kernels ------------------------------------------------------------
squared_diff = cp.ElementwiseKernel('float64 x, float64 y', 'float64 z', 'z = (x - y) * (x - y)', 'squared_diff')
l2norm = cp.ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0', 'l2norm')
m = cp.asarray(np.arange(10.0).reshape(2, 5))
d = squared_diff(m, cp.asarray(np.arange(5.0)))  # broadcast, output allocated
print(d, l2norm(m, axis=1))
assert np.allclose(l2norm(m, axis=1).get(), np.sqrt((np.arange(10.0).reshape(2, 5) ** 2).sum(axis=1)))
print("cupy_style: OK")
