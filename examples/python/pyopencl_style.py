"""The PyOpenCL examples of shared/seeds/004 (the "Multiplatform Programming with Python"
course) with weft: pyopencl_example_api.py, pyopencl_example_raw.py and the profiling slide.

The device is weft.default_device() (WEFT_DEVICE). What changed from PyOpenCL:
- cl.get_platforms() / get_devices() -> weft.devices(); cl.create_some_context() plus
  cl.CommandQueue(ctx) -> weft.Queue(device) (weft has no contexts);
- cl_array.to_device(queue, x) -> weft.to_device(queue, x) (same call);
  cl_array.zeros(queue, n, dtype) -> weft.zeros(n, dtype, device=queue.device);
- cl.Program(ctx, src).build() -> weft.Program(device, src).build(); the kernel source is
  unchanged;
- the raw kernel gets the weft arrays themselves instead of x1_dev.data ...: weft orders a
  kernel that takes arrays after the arrays' pending work and before their next use
  (x1_dev.data ... on a queue of your own is not ordered against the array operations yet:
  see test_elementwise_buffer_args_get_on_same_queue in tests/python/test_generators.py);
- profiling is off by default, as in PyOpenCL: weft.Queue(device, profiling=True) is
  cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE).
"""
import numpy as np

import weft

# --- platforms, devices, "context" and queue --------------------------------------------------
devices_list = weft.devices()
print("devices:", ", ".join(f"{d.selector} ({d.name})" for d in devices_list))
device = weft.default_device()
queue = weft.Queue(device)

# --- pyopencl_example_api.py ----------------------------------------------------------------
x1 = np.array([1, 3, 5, 7, 9], dtype=np.float64)
x2 = np.array([2, 4, 6, 8, 10], dtype=np.float64)

x1_dev = weft.to_device(queue, x1)  # copy data to the device
x2_dev = weft.to_device(queue, x2)

y_dev = x1_dev * x2_dev  # the multiplication runs on the device
print(y_dev, type(y_dev), y_dev.dtype)

y = y_dev.get()  # copy the result back to the host
print(y, type(y), y.dtype)
assert np.array_equal(y, x1 * x2)

# --- pyopencl_example_raw.py ----------------------------------------------------------------
y_dev = weft.zeros(len(x1_dev), dtype=np.float64, device=queue.device)  # + output buffer

source_str = r"""
__kernel
void mymul(int n,
    __global const double* x1,
    __global const double* x2,
    __global double* y)
{
    int tid = get_global_id(0);
    y[tid] = x1[tid] * x2[tid];
}"""

prg = weft.Program(device, source_str).build()
mymul_kernel = prg.mymul
mymul_kernel(queue, (len(x1),), None, np.int32(len(x1)), x1_dev, x2_dev, y_dev)
print(y_dev, type(y_dev), y_dev.dtype)

y = y_dev.get()
print(y, type(y), y.dtype)
assert np.array_equal(y, x1 * x2)

# --- profiling ------------------------------------------------------------------------------
prof_queue = weft.Queue(device, profiling=True)
prg = weft.Program(device, """
__kernel void mul(__global const float *a, __global const float *b, __global float *c)
{
    int i = get_global_id(0);
    c[i] = a[i] * b[i];
}""").build()

grid_size, workgroup_size = 1 << 20, 64
a_host = np.random.rand(grid_size).astype(np.float32)
b_host = np.random.rand(grid_size).astype(np.float32)
a_buffer = weft.to_device(prof_queue, a_host)
b_buffer = weft.to_device(prof_queue, b_host)
c_buffer = weft.empty((grid_size,), np.float32, device=device)

event = prg.mul(prof_queue, (grid_size,), (workgroup_size,), a_buffer, b_buffer, c_buffer)
event.wait()
elapsed = (event.profile.end - event.profile.start) * 1e-3  # convert from [ns] to [us]
print(f"{device.selector} kernel time: {int(elapsed)} us")
assert np.array_equal(c_buffer.get(), a_host * b_host)
print("pyopencl_style: OK")
