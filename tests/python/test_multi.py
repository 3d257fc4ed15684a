"""weft.multi (issue 31): one array split over several devices in one process, against NumPy:
on every device this machine has (host and PoCL in CI), and on PoCL's sub-devices."""
import numpy as np
import pytest

import weft
import weft.multi as wm

rng = np.random.default_rng(31)


def _sub_devices():
    for d in weft.devices():
        try:
            subs = wm.sub_devices(d, 2)
        except (weft.Unsupported, weft.InvalidArgument):
            continue
        if len(subs) >= 2:
            return subs
    return None


SUBS = _sub_devices()
LAYOUTS = {"every-device": [d.selector for d in weft.devices()] + [weft.devices()[0].selector]}
if SUBS:
    LAYOUTS["sub-devices"] = SUBS


@pytest.fixture(params=list(LAYOUTS), scope="module")
def devices(request):
    return LAYOUTS[request.param]


def close(got, want, rtol=1e-9):
    got = got.get() if isinstance(got, wm.MultiArray) else np.asarray(got)
    assert got.shape == np.shape(want), (got.shape, np.shape(want))
    np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-12)


def test_split_puts_each_part_on_its_device(devices):
    x = rng.random((11, 4))
    m = wm.split(x, devices)
    assert [p.device for p in m.parts] == [weft.Device(d) if isinstance(d, str) else d for d in devices]
    assert m.shape == x.shape and m.offsets[-1] == 11 and sum(p.shape[0] for p in m.parts) == 11
    np.testing.assert_array_equal(m.get(), x)
    t = wm.split(x, devices, axis=1, weights=[1] * (len(devices) - 1) + [2])
    assert t.axis == 1 and t.parts[-1].shape[1] >= t.parts[0].shape[1]
    np.testing.assert_array_equal(np.asarray(t), x)


def test_elementwise(devices):
    x, y = rng.random((13, 5)), rng.random((13, 5))
    mx, my = wm.split(x, devices), wm.split(y, devices)
    r = np.sin(mx) * 2 + my / (1 + mx)
    assert all(p.device == q.device for p, q in zip(r.parts, mx.parts))
    close(r, np.sin(x) * 2 + y / (1 + x))
    close(mx - y, x - y)  # (a whole-shape NumPy operand is cut like mx)
    close(mx * np.arange(5.0), x * np.arange(5.0))  # (one that broadcasts is copied to each device)
    close(np.maximum(mx, 0.5), np.maximum(x, 0.5))
    close(mx * weft.asarray(np.float64(3.0), device="host") + np.float64(2), x * 3 + 2)  # (0-d: numbers)
    ints = rng.integers(-40, 40, (9, 3)).astype(np.int32)
    mi = wm.split(ints, devices)
    got = (mi * 3 - mi // 2).get()
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, ints * 3 - ints // 2)
    with pytest.raises(weft.InvalidArgument, match="split differently"):
        mx + wm.split(y, devices, axis=1)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("name", ["sum", "min", "max", "mean", "prod"])
def test_reductions(devices, name, axis):
    x = rng.random((17, 6)) + 0.5
    m = wm.split(x, devices)
    close(getattr(m, name)(axis=axis), getattr(x, name)(axis=axis))
    close(getattr(m, name)(axis=axis, keepdims=True), getattr(x, name)(axis=axis, keepdims=True))


def test_reductions_of_integers_and_along_a_split_second_axis(devices):
    a = rng.integers(-1000, 1000, (7, 15)).astype(np.int64)
    m = wm.split(a, devices, axis=1)
    assert m.sum() == a.sum() and m.min() == a.min() and m.max() == a.max()
    np.testing.assert_array_equal(m.sum(axis=1), a.sum(axis=1))
    along0 = m.max(axis=0)  # (the split axis is kept: still split, now axis 0)
    assert isinstance(along0, wm.MultiArray) and along0.axis == 0
    np.testing.assert_array_equal(along0.get(), a.max(axis=0))
    assert m.mean() == pytest.approx(a.mean()) and isinstance(m.mean(), np.float64)
    assert bool((m > 0).any()) and not bool((m > 5000).all())


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_cumsum_carries_between_parts(devices, dtype):
    x = (rng.random((23, 4)) * 10).astype(dtype)
    m = wm.split(x, devices)
    close(m.cumsum(axis=0), np.cumsum(x, axis=0))
    close(m.cumsum(axis=1), np.cumsum(x, axis=1))
    c = m.cumsum(axis=0)
    assert [p.device for p in c.parts] == [p.device for p in m.parts]
    small = rng.random(10) + 0.5
    close(wm.split(small, devices).cumprod(), np.cumprod(small))


def test_more_devices_than_rows_leaves_empty_parts(devices):
    x = np.array([3.0, -1.0])
    m = wm.split(x, list(devices) * 2)
    assert sum(p.shape[0] == 0 for p in m.parts) >= len(m.parts) - 2
    assert m.sum() == 2.0 and m.min() == -1.0
    close(m.cumsum(), np.cumsum(x))


def test_refusals():
    with pytest.raises(weft.InvalidArgument, match="devices is empty"):
        wm.split(np.ones(3), [])
    with pytest.raises(weft.InvalidArgument, match="weights"):
        wm.split(np.ones(3), ["host"], weights=[0])
    with pytest.raises(weft.InvalidArgument, match="0-d"):
        wm.split(np.float64(1), ["host"])


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int8, np.uint16, np.bool_])
def test_get_reads_every_part(devices, dtype):
    """get() starts every part's copy before it waits for any: into the parts' rows of one result
    (split along axis 0, or after axes of length 1), or into blocks joined on the host."""
    x = (rng.random((3, 9, 5)) * 50).astype(dtype)
    for whole, axis in [(x, 0), (x, 1), (x, 2), (x[:1], 1), (x[:1, :1], 2)]:
        m = wm.split(whole, devices, axis=axis)
        got = m.get()
        assert got.dtype == whole.dtype and got.flags.c_contiguous
        np.testing.assert_array_equal(got, whole)
    lazy = wm.split(x, devices) * 2  # (parts not yet evaluated)
    np.testing.assert_array_equal(lazy.get(), x * 2)
    empty = wm.split(np.zeros((2, 0)), devices)
    assert empty.get().shape == (2, 0)
    sparse = wm.split(x[:2], list(devices) * 2)  # (empty parts between full ones)
    np.testing.assert_array_equal(sparse.get(), x[:2])


def test_get_gives_its_result_block_back_when_the_result_goes(devices):
    """A large result comes from weft's pool of result memory; it is back there as soon as the
    result goes (not later, when the callback thread gets to it), so that the next get() of the
    same size reuses it rather than allocating (pinning, on CUDA) a new block."""
    from weft import _weft
    x = np.arange(_weft._RESULT_BLOCK_MIN_BYTES // 4 + 1024, dtype=np.float32)
    for axis_first in (True, False):
        m = wm.split(x if axis_first else x.reshape(1, -1), devices, axis=0 if axis_first else 1)
        got = m.get()
        np.testing.assert_array_equal(got.reshape(-1), x)
        idle = _weft._idle_result_memory()
        del got
        assert _weft._idle_result_memory() >= idle + x.nbytes


def test_read_all_into_refuses_outputs_of_the_wrong_size():
    a = weft.asarray(np.ones(4, dtype=np.float32), device="host")
    with pytest.raises(weft.InvalidArgument, match="wrong size"):
        weft.Array._read_all_into([a], [np.empty(3, np.float32)])
    with pytest.raises(weft.InvalidArgument, match="as many outs"):
        weft.Array._read_all_into([a], [])


def test_basic_indexing(devices):
    x = rng.random((11, 6))
    m = wm.split(x, devices)
    steps = [None, 1, 2, 3, -1, -2, -5]
    bounds = [None, -12, -4, -1, 0, 1, 3, 6, 10, 12]
    for step in steps:
        for start in bounds:
            for stop in bounds:
                k = slice(start, stop, step)
                r = m[k]
                assert isinstance(r, wm.MultiArray) and r.axis == 0
                np.testing.assert_array_equal(r.get(), x[k])
    np.testing.assert_array_equal(m[2:9, 1:5:2].get(), x[2:9, 1:5:2])
    np.testing.assert_array_equal(m[::-3, -1].get(), x[::-3, -1])
    np.testing.assert_array_equal(m[1:8][::2][1:].get(), x[1:8][::2][1:])
    np.testing.assert_array_equal(m[..., 3].get(), x[..., 3])
    holders = [j for j in range(len(m.parts)) if any(m.offsets[j] <= i < m.offsets[j + 1] for i in range(4, 8))]
    picked = m[7:3:-1]  # (a negative step: the parts holding rows 7..4, last first, each on its device)
    assert [p.device for p in picked.parts] == [m.parts[j].device for j in reversed(holders)]
    for i in range(-11, 11):  # (an integer on the split axis: that part's weft.Array)
        row = m[i]
        assert isinstance(row, weft.Array)
        np.testing.assert_array_equal(row.get(), x[i])
        assert float(m[i, 4]) == x[i, 4]
    t = wm.split(x, devices, axis=1)
    r = t[3]  # (the split axis moves left past the integer)
    assert isinstance(r, wm.MultiArray) and r.axis == 0
    np.testing.assert_array_equal(r.get(), x[3])
    np.testing.assert_array_equal(t[2:7, ::-2].get(), x[2:7, ::-2])
    assert m[5:5].get().shape == (0, 6)
    with pytest.raises(IndexError, match="out of bounds"):
        m[11]
    with pytest.raises(IndexError, match="not supported"):
        m[np.array([1, 2])]
    with pytest.raises(IndexError, match="too many"):
        m[1, 2, 3]


def test_matmul_splits_rows_and_replicates_the_other_operand(devices):
    a, b, v = rng.random((13, 7)), rng.random((7, 4)), rng.random(7)
    m = wm.split(a, devices)
    r = m @ b
    assert isinstance(r, wm.MultiArray) and r.axis == 0 and r.offsets == m.offsets
    assert [p.device for p in r.parts] == [p.device for p in m.parts]
    close(r, a @ b)
    close(m @ v, a @ v)
    close(np.matmul(m, weft.asarray(b, device=m.devices[-1])), a @ b)  # (a weft.Array: copied to each device)
    close((m * 2) @ b + 1, (a * 2) @ b + 1)
    c = rng.random((5, 13))
    t = wm.split(a, devices, axis=1)  # (split columns: the left operand is replicated)
    close(c @ t, c @ a)
    close(c[0] @ t, c[0] @ a)
    few = wm.split(a[:2], list(devices) * 2)  # (empty parts)
    close(few @ b, a[:2] @ b)
    ints = rng.integers(-9, 9, (6, 5)).astype(np.int32)
    got = (wm.split(ints, devices) @ ints.T).get()
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, ints @ ints.T)
    with pytest.raises(weft.InvalidArgument, match="sums over"):
        t @ b
    with pytest.raises(weft.InvalidArgument, match="sums over"):
        c.T @ m
    with pytest.raises(weft.InvalidArgument, match="both operands"):
        m @ wm.split(b, devices)
