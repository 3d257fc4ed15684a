"""The CuPy examples of shared/seeds/004 (the "Multiplatform Programming with Python" course)
with weft: cupy_example_api.py, cupy_example_raw.py and the profiling slide.

The device is weft.default_device() (WEFT_DEVICE). What changed from CuPy:
- cp.array(x) / cp.zeros_like(x) / y.get() -> weft.asarray(x) / weft.zeros_like(x) / y.get();
  weft.asarray takes device=... where CuPy uses the current device (cp.cuda.Device(i));
- cp.get_array_module(*args) has no weft twin; the "transfer between devices" slide becomes
  weft.asarray(x_dev, device=other) over weft.devices();
- cp.RawModule(code=...) with a CUDA kernel (extern "C", __global__, blockDim.x * blockIdx.x
  + threadIdx.x) -> weft.Program(device, src).build() with the OpenCL C kernel (__kernel,
  __global pointers, get_global_id(0)); weft translates it for CUDA GPUs itself;
- mymul_kernel(grid=(n_blocks,), block=(blocksize,), args=(...)) ->
  prg.mymul(queue, (n_blocks * blocksize,), (blocksize,), *args): OpenCL's global size is
  the total number of work-items, not the number of blocks;
- cupyx.profiler.benchmark(..., n_repeat=100) -> 100 launches timed on the host
  (time.perf_counter) and on the device (Event.profile.start/end, in ns).
"""
import time

import numpy as np

import weft

device = weft.default_device()

# --- cupy_example_api.py ---------------------------------------------------------------------
x1 = np.array([1, 3, 5, 7, 9], dtype=np.float64)
x2 = np.array([2, 4, 6, 8, 10], dtype=np.float64)

x1_dev = weft.asarray(x1, device=device)  # copy the data to the device
x2_dev = weft.asarray(x2, device=device)

y_dev = x1_dev * x2_dev  # the multiplication runs on the device
print(y_dev, type(y_dev), y_dev.dtype)

y = y_dev.get()  # copy the result back to the host
print(y, type(y), y.dtype)
assert isinstance(y, np.ndarray) and y.dtype == np.float64
assert np.array_equal(y, x1 * x2)

# Transfer between devices (cp.array(x_gpu_0) under another cp.cuda.Device).
for other in weft.devices():
    x_other = weft.asarray(x1_dev, device=other)
    assert x_other.device == other and np.array_equal(x_other.get(), x1)
print(f"copied to {len(weft.devices())} device(s): {[d.selector for d in weft.devices()]}")

# --- cupy_example_raw.py ---------------------------------------------------------------------
y_dev = weft.zeros_like(x1_dev)  # an output buffer on the device

source_str = r"""
__kernel void mymul(int n, __global const double* x1, __global const double* x2, __global double* y)
{
    int tid = get_global_id(0);
    if (tid < n) {
        y[tid] = x1[tid] * x2[tid];
    }
}
"""

module = weft.Program(device, source_str).build()  # compiled now (and cached on disk)
mymul_kernel = module.kernel("mymul")
queue = weft.Queue(device)

blocksize = 2
n_blocks = int(np.ceil(len(x1) / blocksize))
mymul_kernel(queue, (n_blocks * blocksize,), (blocksize,), np.int32(len(x1)), x1_dev, x2_dev, y_dev)
print(y_dev, type(y_dev), y_dev.dtype)

y = y_dev.get()
print(y, type(y), y.dtype)
assert np.array_equal(y, x1 * x2)

# --- profiling (cupyx.profiler.benchmark) ---------------------------------------------------
n_repeat = 100
n = 1 << 16
a = weft.asarray(np.random.rand(n), device=device)
b = weft.asarray(np.random.rand(n), device=device)
c = weft.empty((n,), np.float64, device=device)
blocksize = 64
n_blocks = (n + blocksize - 1) // blocksize


def mul(n_blocks, blocksize, n, a, b, c):
    return mymul_kernel(queue, (n_blocks * blocksize,), (blocksize,), n, a, b, c)


mul(n_blocks, blocksize, np.int32(n), a, b, c).wait()  # warm-up
host_us, device_us = [], []
for _ in range(n_repeat):
    t0 = time.perf_counter()
    ev = mul(n_blocks, blocksize, np.int32(n), a, b, c)
    host_us.append((time.perf_counter() - t0) * 1e6)
    ev.wait()
    device_us.append((ev.profile.end - ev.profile.start) * 1e-3)
assert np.allclose(c.get(), a.get() * b.get())
print(f"mul: CPU: {np.mean(host_us):.3f} us +/- {np.std(host_us):.3f} "
      f"(min: {np.min(host_us):.3f} / max: {np.max(host_us):.3f}) us")
print(f"     {device.selector}: {np.mean(device_us):.3f} us +/- {np.std(device_us):.3f} "
      f"(min: {np.min(device_us):.3f} / max: {np.max(device_us):.3f}) us")
print("cupy_style: OK")
