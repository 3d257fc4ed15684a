# Seed 004 ("Multiplatform Programming with Python"), file cupy_example_api.py, as written but
# for the import line (`import cupy as cp`); the device is WEFT_DEVICE's.
import numpy as np
import weft as cp

x1 = np.array([1, 3, 5, 7, 9], dtype=np.float64)
x2 = np.array([2, 4, 6, 8, 10], dtype=np.float64)

x1_dev = cp.array(x1)
x2_dev = cp.array(x2)

y_dev = x1_dev * x2_dev
print(y_dev, type(y_dev), y_dev.dtype)

y = y_dev.get()
print(y, type(y), y.dtype)

# --- checks (not in the seed)
assert type(y_dev) is cp.Array and y_dev.dtype == np.float64
assert isinstance(y, np.ndarray) and np.array_equal(y, [2., 12., 30., 56., 90.])
