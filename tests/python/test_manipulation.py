"""The Array API's creation, manipulation, indexing and statistics functions (issue 24: eye,
tril, triu, meshgrid, broadcast_arrays, concat, stack, unstack, expand_dims, squeeze, flip,
moveaxis, permute_dims, repeat, roll, tile, take, take_along_axis, cumulative_sum,
cumulative_prod, count_nonzero, diff) against NumPy on every device: values and dtypes,
strided inputs, 0-size and 0-d arrays, negative axes, views, and the errors."""
import numpy as np
import pytest

import weft


def _w(h, device, strided=False):
    """h on device; strided: as a view with a step of 2 along its last axis (not contiguous)."""
    if not strided or h.ndim == 0:
        return weft.asarray(h, device=device)
    big = np.zeros(h.shape[:-1] + (2 * h.shape[-1] + 1,), h.dtype)
    big[..., 1::2] = h
    w = weft.asarray(big, device=device)[..., 1::2]
    assert not w.flags_c_contiguous or h.size <= 1
    return w


def _same(got, want):
    """got (a weft.Array or a sequence of them) equals NumPy's want exactly, dtype included."""
    if isinstance(want, (tuple, list)):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    assert isinstance(got, weft.Array)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got.get(), want)


H = np.arange(24, dtype=np.int32).reshape(2, 3, 4)


# ---- creation -------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [(3,), (3, 4), (4, 3), (0,), (2, 0), (3, 4, 1), (3, 4, -2), (3, 4, 9), (3, 3, -9)])
def test_eye(device, args):
    n, m, k = args[0], args[1] if len(args) > 1 else None, args[2] if len(args) > 2 else 0
    for dtype in (None, np.int8, np.bool_, np.float32):
        want = np.eye(n, m, k) if dtype is None else np.eye(n, m, k, dtype=dtype)
        _same(weft.eye(n, m, k=k, dtype=dtype, device=device), want)
    assert weft.eye(2, device=device).device == device


@pytest.mark.parametrize("f", ["tril", "triu"])
@pytest.mark.parametrize("strided", [False, True])
def test_triangles(device, f, strided):
    for h in (H.astype(np.float64), H[0].astype(np.uint8), np.arange(4, dtype=np.int64), np.zeros((0, 3), np.int16),
              H.astype(np.bool_)):
        for k in (0, 1, -1, 5, -5):
            _same(getattr(weft, f)(_w(h, device, strided), k=k), getattr(np, f)(h, k=k))
    with pytest.raises(ValueError, match="at least one dimension"):
        getattr(weft, f)(weft.asarray(np.float32(1), device=device))


def test_meshgrid(device):
    x, y, z = np.arange(3, dtype=np.int16), np.linspace(0, 1, 4), np.arange(2, dtype=np.uint8)
    for indexing in ("xy", "ij"):
        got = weft.meshgrid(*(_w(v, device, True) for v in (x, y, z)), indexing=indexing)
        _same(got, np.meshgrid(x, y, z, indexing=indexing))
    _same(weft.meshgrid(_w(x, device)), np.meshgrid(x))
    _same(weft.meshgrid(_w(x, device), _w(np.zeros(0), device)), np.meshgrid(x, np.zeros(0)))
    assert weft.meshgrid() == ()
    with pytest.raises(ValueError, match="'xy' or 'ij'"):
        weft.meshgrid(_w(x, device), indexing="yx")


# ---- manipulation ---------------------------------------------------------------------------

def test_broadcast_arrays(device):
    a, b, c = H, np.arange(4.0), np.float32(2)
    got = weft.broadcast_arrays(_w(a, device, True), _w(b, device), _w(np.asarray(c), device))
    _same(got, np.broadcast_arrays(a, b, np.asarray(c)))
    with pytest.raises(ValueError):
        weft.broadcast_arrays(_w(a, device), _w(np.arange(3), device))


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concat(device, axis):
    a = H[:, :2].astype(np.int8)
    parts = [a, H[:, :2].astype(np.uint8), np.zeros((2, 2, 4), np.float32)] if axis is not None else \
        [a, np.arange(5, dtype=np.int64)]
    if axis in (1, -1):
        parts = [np.moveaxis(p, 1, axis) for p in parts]
    got = weft.concat([_w(p, device, i == 0) for i, p in enumerate(parts)], axis=axis)
    _same(got, np.concat(parts, axis=axis))
    e = np.zeros((2, 0, 4), np.int8)
    _same(weft.concat([_w(e, device), _w(e, device)], axis=1), np.concat([e, e], axis=1))
    _same(weft.concatenate((_w(a, device), _w(a, device))), np.concatenate((a, a)))


def test_concat_errors(device):
    a = _w(H, device)
    with pytest.raises(ValueError, match="at least one array"):
        weft.concat([])
    with pytest.raises(ValueError, match="zero-dimensional"):
        weft.concat([_w(np.float32(1), device)])
    with pytest.raises(ValueError, match="along dimension 2"):
        weft.concat([a, a[..., :2]], axis=0)
    with pytest.raises(ValueError, match="same number of dimensions"):
        weft.concat([a, a[0]])
    with pytest.raises(ValueError, match="axis 3 is out of bounds for array of dimension 3"):
        weft.concat([a, a], axis=3)
    with pytest.raises(TypeError, match="sequence"):
        weft.concat(a)


@pytest.mark.parametrize("axis", [0, 2, -1, -3])
def test_stack_unstack(device, axis):
    parts = [H[0], H[1].astype(np.float32), np.ones((3, 4), np.int64)]
    _same(weft.stack([_w(p, device, True) for p in parts], axis=axis), np.stack(parts, axis=axis))
    _same(weft.stack([_w(np.float64(i), device) for i in range(3)]), np.stack([np.float64(i) for i in range(3)]))
    if -3 <= axis < 3:
        x = _w(H, device, True)
        got = weft.unstack(x, axis=axis)
        _same(got, np.unstack(H, axis=axis))
        assert all(g.offset is not None for g in got)
    with pytest.raises(ValueError, match="same shape"):
        weft.stack([_w(H, device), _w(H[0], device)])
    with pytest.raises(ValueError, match="at least one dimension"):
        weft.unstack(_w(np.int8(1), device))


def test_views(device):
    x = _w(H, device)
    for axis in (0, 3, -1, -4, (0, 2), (-1, 0)):
        _same(weft.expand_dims(x, axis=axis), np.expand_dims(H, axis))
    one = H[:, :1, None]
    for axis in (None, 1, -2, (1, 2)):
        _same(weft.squeeze(_w(one, device), axis=axis), np.squeeze(one, axis=axis))
    for axis in (None, 0, -1, (0, 2)):
        _same(weft.flip(_w(H, device, True), axis=axis), np.flip(H, axis=axis))
    _same(weft.flip(_w(np.int8(3), device)), np.flip(np.int8(3)))
    for src, dst in ((0, -1), (-1, 0), ((0, 1), (2, 0)), ((), ())):
        _same(weft.moveaxis(x, src, dst), np.moveaxis(H, src, dst))
    for axes in ((2, 0, 1), (-1, -2, -3), (0, 1, 2)):
        _same(weft.permute_dims(x, axes), np.permute_dims(H, axes))
    # They are views of x's memory (NumPy's views).
    y = _w(H, device)
    v = weft.flip(weft.expand_dims(weft.moveaxis(y, 0, -1), axis=0))
    y[0, 0, 0] = 100
    assert v[0, -1, -1, -1].item() == 100
    with pytest.raises(ValueError, match="axis 4 is out of bounds"):
        weft.expand_dims(x, axis=4)
    with pytest.raises(ValueError, match="size not equal to one"):
        weft.squeeze(x, axis=0)
    with pytest.raises(ValueError, match="repeated axis"):
        weft.flip(x, axis=(0, -3))
    with pytest.raises(ValueError, match="don't match"):
        weft.permute_dims(x, (0, 1))
    with pytest.raises(ValueError, match="repeated axis"):
        weft.permute_dims(x, (0, 1, 1))
    with pytest.raises(ValueError, match="same number of elements"):
        weft.moveaxis(x, (0, 1), 2)
    with pytest.raises(ValueError, match="destination 3 is out of bounds"):
        weft.moveaxis(x, 0, 3)
    with pytest.raises(TypeError, match="integer"):
        weft.flip(x, axis=1.0)


def test_repeat(device):
    for h in (H, H.astype(np.bool_), np.float64(2.5), np.zeros((0, 2), np.float32)):
        for r in (0, 1, 3):
            for axis in (None, 0, -1):
                if h.ndim == 0 and axis is not None:
                    continue
                _same(weft.repeat(_w(h, device, True), r, axis=axis), np.repeat(h, r, axis=axis))
    counts = np.array([2, 0, 1], np.int32)
    _same(weft.repeat(_w(H, device, True), _w(counts, device), axis=1), np.repeat(H, counts, axis=1))
    _same(weft.repeat(_w(H, device), _w(np.array([2], np.uint8), device), axis=2), np.repeat(H, [2], axis=2))
    flat = np.arange(24, dtype=np.int64) % 3
    _same(weft.repeat(_w(H, device), _w(flat, device)), np.repeat(H, flat))
    _same(weft.repeat(_w(H, device), [1, 2], axis=0), np.repeat(H, [1, 2], axis=0))
    with pytest.raises(ValueError, match="negative"):
        weft.repeat(_w(H, device), -1)
    with pytest.raises(ValueError, match="negative"):
        weft.repeat(_w(H, device), _w(np.array([1, -1]), device), axis=0)
    with pytest.raises(ValueError, match="one count per element"):
        weft.repeat(_w(H, device), _w(np.array([1, 1, 1]), device), axis=0)
    with pytest.raises(TypeError, match="repeats must be an array of integers"):
        weft.repeat(_w(H, device), _w(np.array([1.0, 2.0]), device), axis=0)


def test_roll(device):
    for shift, axis in ((1, None), (-7, None), (1, 0), (2, -1), ((1, -1), (0, 2)), (1, (0, 1)), ((1, 2), 1),
                        (0, None), (25, 2)):
        _same(weft.roll(_w(H, device, True), shift, axis=axis), np.roll(H, shift, axis=axis))
    _same(weft.roll(_w(np.float32(4), device), 3), np.roll(np.float32(4), 3))
    e = np.zeros((0, 3), np.uint16)
    _same(weft.roll(_w(e, device), 1, axis=0), np.roll(e, 1, axis=0))
    with pytest.raises(ValueError, match="one element or the same number"):
        weft.roll(_w(H, device), (1, 2), axis=(0, 1, 2))


def test_tile(device):
    for h in (H, np.arange(3, dtype=np.uint8), np.float64(1.5), np.zeros((2, 0), np.int8)):
        for reps in ((2,), (2, 1), (1, 2, 3), (), (0, 2), 3):
            _same(weft.tile(_w(h, device, True), reps), np.tile(h, reps))
    with pytest.raises(ValueError, match="negative"):
        weft.tile(_w(H, device), (-1,))


# ---- indexing -------------------------------------------------------------------------------

@pytest.mark.parametrize("idtype", [np.int64, np.uint8, np.int8])
def test_take(device, idtype):
    idx = np.array([2, 0, 1, 2], idtype) if idtype == np.uint8 else np.array([2, -1, 0, -3], idtype)
    x = _w(H, device, True)
    for axis in (0, 1, -1, None):
        n = H.size if axis is None else H.shape[axis]
        i = idx % n if axis == 0 else idx
        _same(weft.take(x, _w(i.astype(idtype), device), axis=axis), np.take(H, i.astype(idtype), axis=axis))
    ij = np.array([[0, 1], [2, 0]], idtype)
    _same(weft.take(x, _w(ij, device, True), axis=1), np.take(H, ij, axis=1))
    _same(weft.take(x, [], axis=2), np.take(H, [], axis=2))
    _same(weft.take(_w(np.float32(7), device), [0, 0]), np.take(np.float32(7), [0, 0]))


def test_take_errors(device):
    x = _w(H, device)
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 2 with size 4"):
        weft.take(x, [0, 4], axis=2)
    with pytest.raises(IndexError, match="index -3 is out of bounds for axis 0 with size 2"):
        weft.take(x, [-3], axis=0)
    with pytest.raises(TypeError, match="indices must be an array of integers"):
        weft.take(x, _w(np.array([0.0]), device), axis=0)
    with pytest.raises(ValueError, match="axis 3 is out of bounds"):
        weft.take(x, [0], axis=3)
    with pytest.raises(IndexError):
        weft.take(_w(np.zeros((2, 0)), device), [0], axis=1)


def test_take_along_axis(device):
    x = _w(H, device, True)
    rng = np.random.default_rng(1)
    for axis in (0, 1, 2, -1):
        n = H.shape[axis]
        shape = list(H.shape)
        shape[axis] = 5
        for s in (tuple(shape), tuple(1 if d != axis % 3 else 5 for d in range(3))):
            i = rng.integers(-n, n, s)
            _same(weft.take_along_axis(x, _w(i, device), axis=axis), np.take_along_axis(H, i, axis=axis))
    order = np.argsort(H[..., ::-1], axis=-1)
    _same(weft.take_along_axis(x, _w(order, device)), np.take_along_axis(H, order, axis=-1))
    flat = np.array([23, 0, -1])
    _same(weft.take_along_axis(x, _w(flat, device), axis=None), np.take_along_axis(H, flat, axis=None))
    e = np.zeros((2, 0, 4), np.int64)
    _same(weft.take_along_axis(x, _w(e, device), axis=1), np.take_along_axis(H, e, axis=1))
    with pytest.raises(ValueError, match="same number of dimensions"):
        weft.take_along_axis(x, _w(np.array([0]), device), axis=0)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 1 with size 3"):
        weft.take_along_axis(x, _w(np.full((1, 1, 1), 3), device), axis=1)


# ---- statistics -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative(device, name):
    f, g = getattr(weft, name), getattr(np, name)
    for h in (H % 5, (H % 2).astype(np.bool_), H.astype(np.float32) / 7):
        for axis in (0, -1):
            for initial in (False, True):
                _same(f(_w(h, device, True), axis=axis, include_initial=initial),
                      g(h, axis=axis, include_initial=initial))
        _same(f(_w(h[0, 0], device), include_initial=True), g(h[0, 0], include_initial=True))
    h = (H % 4).astype(np.int8)
    for dtype in (np.int8, np.float64):
        _same(f(_w(h, device), axis=2, dtype=dtype), g(h, axis=2, dtype=dtype))
    for e in (np.zeros((2, 0), np.int32), np.zeros(0, np.float32)):
        _same(f(_w(e, device), axis=-1, include_initial=True), g(e, axis=-1, include_initial=True))
        _same(f(_w(e, device), axis=0), g(e, axis=0))
    _same(f(_w(np.float64(3), device)), g(np.float64(3)))
    with pytest.raises(ValueError, match="axis is required"):
        f(_w(H, device))
    with pytest.raises(ValueError, match="out of range"):
        f(_w(H, device), axis=3)


def test_count_nonzero(device):
    h = np.array([[0.0, np.nan, -0.0], [1.0, 2.0, 0.0]])
    x = _w(h, device, True)
    for axis in (None, 0, 1, -1, (0, 1), ()):
        for keepdims in (False, True):
            want = np.count_nonzero(h, axis=axis, keepdims=keepdims)
            got = weft.count_nonzero(x, axis=axis, keepdims=keepdims)
            _same(got, np.asarray(want, dtype=np.int64))
    _same(weft.count_nonzero(_w(H.astype(np.bool_), device), axis=2), np.count_nonzero(H.astype(np.bool_), axis=2))
    _same(weft.count_nonzero(_w(np.zeros((0, 3)), device), axis=0), np.count_nonzero(np.zeros((0, 3)), axis=0))
    # It fuses the expression it counts: no temporary array for x > 3.
    _same(weft.count_nonzero(_w(H, device) > 3), np.asarray(np.count_nonzero(H > 3)))
    with pytest.raises(weft.InvalidArgument, match="count_nonzero: axis 5"):
        weft.count_nonzero(x, axis=5)


def test_diff(device):
    for h in (H, (H % 3).astype(np.uint8), (H % 2).astype(np.bool_), H.astype(np.float32) ** 2):
        for n in (0, 1, 2, 5):
            for axis in (0, -1):
                _same(weft.diff(_w(h, device, True), n=n, axis=axis), np.diff(h, n=n, axis=axis))
    _same(weft.diff(_w(H, device), prepend=0, append=H[..., :1]), np.diff(H, prepend=0, append=H[..., :1]))
    _same(weft.diff(_w(H, device), axis=0, prepend=_w(np.float32(1), device)),
          np.diff(H, axis=0, prepend=np.float32(1)))
    with pytest.raises(ValueError, match="at least one dimension"):
        weft.diff(_w(np.int32(1), device))
    with pytest.raises(ValueError, match="must not be negative"):
        weft.diff(_w(H, device), n=-1)


def test_numpy_functions_dispatch(device):
    """np.concatenate(weft arrays) and the others run weft's function (__array_function__)."""
    x = _w(H, device)
    r = np.concatenate([x, x], axis=1)
    assert isinstance(r, weft.Array)
    _same(r, np.concatenate([H, H], axis=1))
    _same(np.roll(x, 1, axis=0), np.roll(H, 1, axis=0))
    _same(np.take(x, [1], axis=2), np.take(H, [1], axis=2))
    _same(np.cumulative_sum(x, axis=1), np.cumulative_sum(H, axis=1))


def test_array_methods(device):
    x = _w(H, device, True)
    _same(x[:, :1].squeeze(), H[:, :1].squeeze())
    _same(x.repeat(2, axis=1), H.repeat(2, axis=1))
    _same(x.take([2, 0], axis=-1), H.take([2, 0], axis=-1))
    for a1, a2 in ((0, 2), (-1, 1), (1, 1)):
        _same(x.swapaxes(a1, a2), H.swapaxes(a1, a2))
    with pytest.raises(ValueError, match="out of bounds"):
        x.swapaxes(0, 3)

