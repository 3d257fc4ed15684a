"""What the weft.Array tests share (test_arrays.py, test_array_math.py): the random
generator of their data and a comparison with NumPy's result, dtype and shape included."""
import numpy as np

import weft

rng = np.random.default_rng(7)


def host(x):
    return x.get() if isinstance(x, weft.Array) else np.asarray(x)


def check(got, want, rtol=1e-6):
    assert isinstance(got, weft.Array)
    g = got.get()
    assert g.dtype == np.asarray(want).dtype, (g.dtype, np.asarray(want).dtype)
    assert g.shape == np.shape(want)
    np.testing.assert_allclose(g, want, rtol=rtol, atol=1e-6)

