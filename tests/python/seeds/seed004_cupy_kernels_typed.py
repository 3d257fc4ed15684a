# CuPy's user-guide kernels ("User-Defined Kernels"), which seed 004's CuPy users write next:
# a typed ElementwiseKernel, type placeholders, raw arguments and a ReductionKernel, as
# written but for the import line.
import numpy as np
import weft as cp

squared_diff = cp.ElementwiseKernel(
    'float32 x, float32 y',
    'float32 z',
    'z = (x - y) * (x - y)',
    'squared_diff')

x = cp.arange(10, dtype=np.float32).reshape(2, 5)
y = cp.arange(5, dtype=np.float32)
print(squared_diff(x, y))
print(squared_diff(x, 5))
z = cp.empty((2, 5), dtype=np.float32)
squared_diff(x, y, z)

squared_diff_generic = cp.ElementwiseKernel(
    'T x, T y',
    'T z',
    '''
        T diff = x - y;
        z = diff * diff;
    ''',
    'squared_diff_generic')
squared_diff_super_generic = cp.ElementwiseKernel(
    'X x, Y y',
    'Z z',
    'z = (x - y) * (x - y)',
    'squared_diff_super_generic')
w = cp.empty((2, 5), dtype=np.float64)
squared_diff_super_generic(x, y, w)

add_reverse = cp.ElementwiseKernel(
    'T x, raw T y', 'T z',
    'z = x + y[_ind.size() - i - 1]',
    'add_reverse')
r = add_reverse(y, y)

l2norm_kernel = cp.ReductionKernel(
    'T x',  # input params
    'T y',  # output params
    'x * x',  # map
    'a + b',  # reduce
    'y = sqrt(a)',  # post-reduction map
    '0',  # identity value
    'l2norm'  # kernel name
)
x = cp.arange(10, dtype=np.float32).reshape(2, 5)
print(l2norm_kernel(x, axis=1))

# --- checks (not in the seed)
xh, yh = np.arange(10, dtype=np.float32).reshape(2, 5), np.arange(5, dtype=np.float32)
assert np.array_equal(z.get(), (xh - yh) ** 2) and z.dtype == np.float32
assert np.array_equal(squared_diff(x, 5).get(), (xh - 5) ** 2)
assert np.array_equal(squared_diff_generic(x, y).get(), (xh - yh) ** 2)
assert np.array_equal(w.get(), (xh - yh).astype(np.float64) ** 2)
assert np.array_equal(r.get(), yh + yh[::-1])
assert np.allclose(l2norm_kernel(x, axis=1).get(), np.sqrt((xh * xh).sum(axis=1)))
assert np.allclose(float(l2norm_kernel(x)), np.sqrt((xh * xh).sum()))
