"""weft.random.Generator with array-valued parameters (NumPy's broadcasting): element i has the
bits the scalar call with element i's parameters gives it, on every device, and the stream
moves on as with scalars."""
import numpy as np
import pytest

import weft

DEVICES = [d.selector for d in weft.devices()]


def _per_column(method, params, shape, dtype, device, **kw):
    # The array call's expected result: column j from the scalar call with column j's parameters.
    cols = []
    for j in range(shape[-1]):
        g = weft.random.default_rng(99)
        r = getattr(g, method)(*[p[j] for p in params], size=shape, dtype=dtype, device=device, **kw)
        cols.append(r.get()[..., j])
    return np.stack(cols, axis=-1)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("method,params", [
    ("uniform", [[0.0, -2.0, 10.0], [1.0, 3.0, 10.5]]),
    ("normal", [[0.0, 5.0, -1.0], [1.0, 0.25, 3.0]]),
    ("exponential", [[1.0, 0.5, 4.0]]),
])
def test_real_parameters_match_scalar_calls(device, dtype, method, params):
    shape = (5, 3)  # 15 elements: a partial last block for both widths
    g = weft.random.default_rng(99)
    got = getattr(g, method)(*[weft.asarray(np.array(p), device=device) for p in params], size=shape,
                             dtype=dtype).get()
    want = _per_column(method, params, shape, dtype, device)
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got.view(f"uint{8 * got.itemsize}"), want.view(f"uint{8 * got.itemsize}"))
    # The counter moved as for the scalar call.
    h = weft.random.default_rng(99)
    getattr(h, method)(*[p[0] for p in params], size=shape, dtype=dtype, device=device)
    assert g.counter == h.counter


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "int64", "uint64", "bool"])
@pytest.mark.parametrize("endpoint", [False, True])
def test_integer_parameters_match_scalar_calls(device, dtype, endpoint):
    if dtype == "bool":
        lo, hi = ([0, 0, 1], [1, 1, 1]) if endpoint else ([0, 0, 1], [1, 2, 2])
    else:
        lo, hi = [0, 5, 100], [3, 50, 120]
    shape = (7, 3)
    g = weft.random.default_rng(99)
    got = g.integers(np.array(lo), weft.asarray(np.array(hi), device=device), size=shape, dtype=dtype,
                     endpoint=endpoint).get()
    want = _per_column("integers", [lo, hi], shape, dtype, device, endpoint=endpoint)
    np.testing.assert_array_equal(got, want)


def test_broadcast_shape_and_cross_device_bits():
    loc = np.linspace(-3, 3, 4)[:, None]
    scale = np.array([0.5, 1.0, 2.0])
    results = [weft.random.default_rng(7).normal(loc, scale, dtype="float32", device=d).get() for d in DEVICES]
    assert results[0].shape == (4, 3)
    for r in results[1:]:
        np.testing.assert_array_equal(r.view(np.uint32), results[0].view(np.uint32))
    big = weft.random.default_rng(7).uniform(np.zeros((1, 1000)), np.arange(1, 3)[:, None], size=(2, 2, 1000)).get()
    assert big.shape == (2, 2, 1000)
    assert (big[:, 0] < 1).all() and (big[:, 1] < 2).all() and (big >= 0).all()
    assert big[:, 1].max() > 1.9


def test_parameter_errors():
    g = weft.random.default_rng(1)
    with pytest.raises(weft.InvalidArgument, match="scale must be non-negative"):
        g.normal(0.0, np.array([1.0, -1.0]))
    with pytest.raises(weft.InvalidArgument, match="finite"):
        g.uniform(np.array([0.0, np.inf]), 1.0)
    with pytest.raises(ValueError, match="do not broadcast"):
        g.uniform(np.zeros(3), np.ones(4))
    with pytest.raises(weft.InvalidArgument, match="broadcast"):
        g.uniform(np.zeros(3), 1.0, size=(4,))
    with pytest.raises(weft.InvalidArgument, match="low >= high"):
        g.integers(np.array([0, 5]), np.array([3, 5]))
    with pytest.raises(weft.InvalidArgument, match="out of bounds for int8"):
        g.integers(np.array([0]), np.array([300]), dtype="int8")
    with pytest.raises(TypeError, match="kind"):
        g.integers(np.array([0.5]), 3)
