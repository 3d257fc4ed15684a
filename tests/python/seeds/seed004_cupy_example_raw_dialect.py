# Seed 004, cupy_example_raw.py and the profiling slide with the kernel in weft's dialect
# (OpenCL C), which runs on every device; the rest as written but for the import lines.
import numpy as np
import weft as cp
from weft import benchmark

x1 = np.array([1, 3, 5, 7, 9], dtype=np.float64)
x2 = np.array([2, 4, 6, 8, 10], dtype=np.float64)

x1_dev = cp.array(x1)
x2_dev = cp.array(x2)

y_dev = cp.zeros_like(x1_dev)

source_str = r"""
__kernel
void mymul(int n, __global const double* x1, __global const double* x2, __global double* y){
    int tid = get_global_id(0);
    if (tid < n){
        y[tid] = x1[tid] * x2[tid];
    }
}"""

module = cp.RawModule(code=source_str)
mymul_kernel = module.get_function("mymul")

blocksize = 2
n_blocks = int(np.ceil(len(x1) / blocksize))
mymul_kernel(grid=(n_blocks,), block=(blocksize,),
args=(np.int32(len(x1)), x1_dev, x2_dev, y_dev))
print(y_dev, type(y_dev), y_dev.dtype)

y = y_dev.get()
print(y, type(y), y.dtype)


def mul(n_blocks, blocksize, n, a, b, c):
    mymul_kernel(grid=(n_blocks,), block=(blocksize,), args=(n, a, b, c))


result = benchmark(mul, (n_blocks, blocksize, np.int32(len(x1)), x1_dev,
x2_dev, y_dev), n_repeat=100)
print(result)

# --- checks (not in the seed)
assert np.array_equal(y, [2., 12., 30., 56., 90.])
assert result.cpu_times.shape == (100,) and result.gpu_times.shape == (1, 100)
assert (result.cpu_times > 0).all() and (result.gpu_times > 0).all()
assert str(result).startswith("mul:") and "CPU:" in str(result)
