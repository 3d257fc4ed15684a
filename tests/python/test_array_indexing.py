"""weft.Array indexing against NumPy: views that share memory (slices, reshape, transpose),
integer and boolean index arrays, masks, NumPy's advanced indexing in general (random keys),
assignment through all of them, and the errors."""
import numpy as np
import pytest

import weft


def test_indexing_views_share_memory(device):
    h = np.arange(24, dtype=np.int32).reshape(4, 6)
    a = weft.asarray(h, device=device)
    for key in [1, -1, (1, 2), (slice(1, 3),), (slice(None), slice(None, None, 2)), (Ellipsis, 0),
                (slice(None, None, -1), slice(4, 1, -1)), (None, 2), (1, None, slice(2, 5)), ()]:
        got = a[key]
        np.testing.assert_array_equal(got.get(), h[key], err_msg=str(key))
    v = a[1:3, ::2]
    v[:] = -1
    h[1:3, ::2] = -1
    np.testing.assert_array_equal(a.get(), h)
    a[0] = a[3] * 10
    h[0] = h[3] * 10
    np.testing.assert_array_equal(a.get(), h)
    with pytest.raises(IndexError, match="out of bounds"):
        a[4]
    with pytest.raises(IndexError, match="too many indices"):
        a[1, 2, 3]
    # An integer beside an index array is advanced indexing (a new array, NumPy's shape).
    np.testing.assert_array_equal(a[1, weft.asarray(np.array([0, 1]), device=device)].get(), h[1, [0, 1]])


def test_reshape_transpose_copy(device):
    h = np.arange(12.0).reshape(3, 4)
    a = weft.asarray(h, device=device)
    np.testing.assert_array_equal(a.T.get(), h.T)
    np.testing.assert_array_equal(a.transpose(1, 0).get(), h.T)
    np.testing.assert_array_equal(a.reshape(4, 3).get(), h.reshape(4, 3))
    np.testing.assert_array_equal(a.T.reshape(-1).get(), h.T.reshape(-1))
    np.testing.assert_array_equal(np.transpose(a).ravel().get(), h.T.ravel())
    c = a.copy()
    c[0, 0] = 99
    assert a[0, 0].item() == 0 and c[0, 0].item() == 99
    assert a.strides == h.strides
    assert a.T.strides == h.T.strides


def test_integer_and_boolean_array_indexing(device):
    h = np.arange(24, dtype=np.float32).reshape(6, 4)
    a = weft.asarray(h, device=device)
    for key in [[0, 5, 2, 2], np.array([-1, 0]), np.array([[1, 2], [3, -6]])]:
        np.testing.assert_array_equal(a[key].get(), h[key])
    np.testing.assert_array_equal(a[weft.asarray(np.array([3, 1], np.int32), device=device)].get(), h[[3, 1]])
    np.testing.assert_array_equal(a[::2][[1, 2]].get(), h[::2][[1, 2]])  # of a strided view
    assert a[[]].shape == (0, 4)
    with pytest.raises(IndexError, match="out of bounds"):
        a[[0, 6]]
    with pytest.raises(IndexError, match="integer"):
        a[np.array([0.5])]
    np.testing.assert_array_equal(a[a > 10].get(), h[h > 10])
    np.testing.assert_array_equal(a.T[a.T < 3].get(), h.T[h.T < 3])
    np.testing.assert_array_equal(a[h % 3 == 0].get(), h[h % 3 == 0])  # a NumPy mask
    assert a[a > 100].shape == (0,)
    b = weft.asarray(np.array([True, False, True]), device=device)
    np.testing.assert_array_equal(b[b].get(), np.array([True, True]))
    with pytest.raises(IndexError, match="does not match"):
        a[weft.asarray(np.array([True, False]), device=device)]


def test_masks_of_leading_dimensions(device):
    h = np.arange(24, dtype=np.int32).reshape(3, 4, 2)
    a = weft.asarray(h, device=device)
    rows = np.array([True, False, True])
    np.testing.assert_array_equal(a[rows].get(), h[rows])  # shape (2, 4, 2)
    m2 = h[:, :, 0] % 4 == 0
    np.testing.assert_array_equal(a[weft.asarray(m2, device=device)].get(), h[m2])  # shape (k, 2)
    np.testing.assert_array_equal(a.transpose(1, 0, 2)[m2.T].get(), h.transpose(1, 0, 2)[m2.T])
    with pytest.raises(IndexError, match="leading dimensions"):
        a[np.array([True, False])]


def test_assignment_through_index_arrays_and_masks(device):
    h = np.arange(24, dtype=np.float32).reshape(6, 4)
    a = weft.asarray(h, device=device)
    # An integer index array: rows get a number, one row each, or a broadcast row.
    for key, value in [([0, 5], -1.0), (np.array([-1, 2]), np.array([[1, 2, 3, 4], [5, 6, 7, 8]])),
                       ([3], np.array([9, 9, 9, 9])), (np.array([1, 4]), weft.arange(4.0, device=device))]:
        h[key] = value.get() if isinstance(value, weft.Array) else value
        a[key] = value
        np.testing.assert_array_equal(a.get(), h)
    with pytest.raises(IndexError, match="out of bounds"):
        a[[6]] = 0
    with pytest.raises(ValueError, match="could not be broadcast"):
        a[[0, 1]] = np.ones(3)
    # A mask with a number: one fused where(); with values: the selected positions in order.
    big = (a > 20).evaluate()
    with weft.LaunchLog(weft.array_queue(device)) as log:
        a[big] = 0
    assert log.kernels == ["weft_expr"]
    h[h > 20] = 0
    np.testing.assert_array_equal(a.get(), h)
    a[a < 1] = 0.5  # a lazy mask that reads the array being written
    h[h < 1] = 0.5
    np.testing.assert_array_equal(a.get(), h)
    sel = h % 3 == 1
    a[sel] = np.arange(sel.sum(), dtype=np.float32) * 10
    h[sel] = np.arange(sel.sum(), dtype=np.float32) * 10
    np.testing.assert_array_equal(a.get(), h)
    rows = np.array([False, True, False, True, False, False])
    a[rows] = np.array([[1, 2, 3, 4], [5, 6, 7, 8]])
    h[rows] = np.array([[1, 2, 3, 4], [5, 6, 7, 8]])
    np.testing.assert_array_equal(a.get(), h)
    a[rows] = 7  # a number over masked rows
    h[rows] = 7
    np.testing.assert_array_equal(a.get(), h)
    # Through a strided view: the base array sees the writes.
    t = a.T
    t[[0, 2]] = -5
    h.T[[0, 2]] = -5
    np.testing.assert_array_equal(a.get(), h)
    t[t < 0] = np.arange(int((h.T < 0).sum()), dtype=np.float32)
    ht = h.T
    ht[ht < 0] = np.arange(int((ht < 0).sum()), dtype=np.float32)
    np.testing.assert_array_equal(a.get(), h)
    # A lazy reader of a made before the write still sees the old values (NumPy's order).
    lazy = a * 2
    before = h * 2
    a[[0]] = 100
    np.testing.assert_array_equal(lazy.get(), before)


def test_assigned_values_that_are_views_of_the_target(device):
    """a[[1, 0]] = a[0:2] and a[mask] = a[0:2]: the values are read as they were before the
    write, as NumPy's (the kernel used to read values that it had already overwritten)."""
    h = np.arange(12, dtype=np.float32) * 10
    a = weft.asarray(h, device=device)
    a[[1, 0]] = a[0:2]
    h[[1, 0]] = h[0:2]
    np.testing.assert_array_equal(a.get(), h)
    mask = np.zeros(12, dtype=bool)
    mask[1:3] = True
    a[mask] = a[0:2]
    h[mask] = h[0:2]
    np.testing.assert_array_equal(a.get(), h)
    m = weft.asarray(np.array([True, False, True, True]), device=device)
    m[m] = m[1:4]  # the mask itself is overwritten too
    np.testing.assert_array_equal(m.get(), np.array([False, False, True, True]))


def test_one_index_array_on_another_axis(device):
    """a[:, idx], a[..., mask] and their assignments: one index array (or 1-d mask) among
    slices, NumPy's shapes (the index's dimensions stay where the indexed axis was)."""
    h = np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)
    a = weft.asarray(h, device=device)
    keys = [(slice(None), [4, 0, 0]), (Ellipsis, np.array([2, -1])),
            (slice(None), np.array([[1, 2], [3, 4]]), slice(0, 2)), (slice(1, 2), [0]),
            (slice(None), np.array([True, False, True, False, True])), (Ellipsis, np.array([True, False, True]))]
    for key in keys:
        np.testing.assert_array_equal(a[key].get(), h[key], err_msg=repr(key))
    for key, value in [((slice(None), [4, 0]), -1.0), ((Ellipsis, np.array([2])), np.arange(10).reshape(2, 5, 1)),
                       ((slice(None), np.array([[1, 2], [3, 4]]), slice(0, 2)), 7.5),
                       ((slice(None), np.array([True, False, False, False, True])), np.arange(6).reshape(2, 1, 3))]:
        h[key] = value
        a[key] = value
        np.testing.assert_array_equal(a.get(), h, err_msg=repr(key))
    with pytest.raises(IndexError, match="out of bounds"):
        a[:, [5]]
    with pytest.raises(IndexError, match="does not match"):
        a[:, np.array([True, False])]


def _random_key(rng, shape):
    """A random NumPy index for an array of the given shape: slices (negative steps too),
    integers, index arrays that broadcast together, or one boolean mask over one or two
    axes; sometimes None and an Ellipsis."""
    ndim = len(shape)
    take = int(rng.integers(1, ndim + 1))
    with_mask = rng.random() < 0.3
    mask_at = int(rng.integers(0, take)) if with_mask else -1
    mask_dims = 2 if with_mask and mask_at + 1 < take and rng.random() < 0.5 else 1
    bshape = [(), (3,), (2, 3), (2, 1), (1, 3)][int(rng.integers(0, 5))]
    key, axis = [], 0
    while axis < take:
        n = shape[axis]
        r = rng.random()
        if axis == mask_at:
            key.append(rng.random(shape[axis:axis + mask_dims]) < 0.5)
            axis += mask_dims
            continue
        if r < 0.35:
            start, stop = sorted(int(v) for v in rng.integers(-n, n + 1, 2))
            step = int(rng.choice([1, 2, -1, -2]))
            key.append(slice(start, stop, step) if step > 0 else slice(stop, start, step))
        elif r < 0.55:
            key.append(int(rng.integers(-n, n)))
        elif not with_mask:
            shp = bshape if rng.random() < 0.7 else bshape[-1:]
            key.append(rng.integers(-n, n, size=shp))
        else:
            key.append(slice(None))
        axis += 1
    if rng.random() < 0.25:
        key.insert(int(rng.integers(0, len(key) + 1)), None)
    if rng.random() < 0.25 and take < ndim:
        key.insert(int(rng.integers(0, len(key) + 1)), Ellipsis)
    return tuple(key)


def test_advanced_indexing_matches_numpy(device):
    """NumPy's advanced indexing in general, against NumPy, on random keys: several index
    arrays broadcast together, integers beside them, masks over one or two axes, slices with
    negative steps, None and Ellipsis, on a contiguous array and on a strided view; reads and
    both kinds of assignment."""
    rng = np.random.default_rng(7)
    base = np.arange(4 * 5 * 6 * 3, dtype=np.float32).reshape(4, 5, 6, 3)
    sources = [("contiguous", lambda x: x), ("strided view", lambda x: x[::-1, :, 1::2].transpose(2, 0, 1, 3))]
    checked = 0
    for name, view in sources:
        for _ in range(60):
            h = base.copy()
            a = weft.asarray(h, device=device)
            hv, av = view(h), view(a)
            key = _random_key(rng, hv.shape)
            try:
                want = hv[key]
            except IndexError:
                continue
            got = av[key]
            assert got.shape == want.shape, (name, key)
            np.testing.assert_array_equal(got.get(), want, err_msg=f"{name} {key!r}")
            hv[key] = -1.0  # a number: repeated positions do not matter
            av[key] = -1.0
            np.testing.assert_array_equal(a.get(), h, err_msg=f"{name} {key!r} = -1")
            positions = np.arange(hv.size).reshape(hv.shape)[key]
            if np.unique(positions).size == positions.size:  # values: only where each lands once
                values = rng.standard_normal(want.shape).astype(np.float32)
                hv[key] = values
                av[key] = weft.asarray(values, device=device)
                np.testing.assert_array_equal(a.get(), h, err_msg=f"{name} {key!r} = values")
            checked += 1
    assert checked > 60


def test_advanced_indexing_errors(device):
    a = weft.asarray(np.zeros((3, 4, 5), np.float32), device=device)
    with pytest.raises(IndexError, match="could not be broadcast together with shapes"):
        a[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError, match="out of bounds for axis 2 with size 5"):
        a[0, [1], 5]
    with pytest.raises(IndexError, match="too many indices"):
        a[[0], 0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        a[..., [0], ...]
    with pytest.raises(IndexError, match="does not match"):
        a[0, np.ones((4, 4), bool)]
    with pytest.raises(ValueError, match="could not be broadcast"):
        a[[0, 1], :, [1, 2]] = np.ones((3, 4))
    # Nothing was written by the refused assignment.
    assert float(a.sum()) == 0.0
