# Seed 004, pyopencl_example_api.py, as written but for the import lines (`import pyopencl as
# cl`, `import pyopencl.array as cl_array`); create_some_context picks WEFT_DEVICE's device.
import numpy as np
import weft as cl
import weft as cl_array

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)

x1 = np.array([1, 3, 5, 7, 9], dtype=np.float64)
x2 = np.array([2, 4, 6, 8, 10], dtype=np.float64)

x1_dev = cl_array.to_device(queue, x1)
x2_dev = cl_array.to_device(queue, x2)

y_dev = x1_dev * x2_dev
print(y_dev, type(y_dev), y_dev.dtype)

y = y_dev.get()
print(y, type(y), y.dtype)

# --- checks (not in the seed)
assert np.array_equal(y, [2., 12., 30., 56., 90.])
