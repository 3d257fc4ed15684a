# Seed 004, the "current device" and "data transfer" slides, as written but for the import
# line and the devices: `cp.cuda.Device(0)` / `cp.cuda.Device(1)` become weft.Device(...) of
# this machine's first and last devices (the devices the test runs on).
import os

import numpy as np
import weft as cp

x_cpu = np.array([1, 2, 3])
x_gpu = cp.array([1, 2, 3])

args = (x_gpu, x_gpu)
xp = cp.get_array_module(*args)
y_xp = xp.dot(*args)
print(xp.__name__, y_xp)

x_cpu = np.array([1, 2, 3])
x_gpu = cp.array(x_cpu)  # copy the data to the current device
y_cpu = x_gpu.get()  # copy the data back to the host

first, last = cp.devices()[0].selector, cp.devices()[-1].selector
with cp.Device(first):
    x_gpu_0 = cp.array([1, 2, 3])  # create an array on GPU 0
with cp.Device(last):
    x_gpu_1 = cp.array(x_gpu_0)  # copy the array to GPU 1

# --- checks (not in the seed)
assert xp is cp and int(y_xp) == 14 and cp.get_array_module(x_cpu) is np
assert x_gpu.device == cp.Device(os.environ["WEFT_DEVICE"]) and np.array_equal(y_cpu, x_cpu)
assert x_gpu_0.device == cp.Device(first) and x_gpu_1.device == cp.Device(last)
assert np.array_equal(x_gpu_1.get(), [1, 2, 3])
print(x_gpu_0.device.selector, "->", x_gpu_1.device.selector)
