"""Launching a @weft.kernel over a shape (python/weft/_pyk_launch.py): ``k[a.shape](a, ...)`` and
``k[shape, local_size](...)`` run on the arrays' device like ``k(device, shape, None, ...)``, and a
bad shape is refused when the launch is written, naming what it accepts."""
import numpy as np
import pytest

import weft


@weft.kernel
def add_rows(m, r):
    i, j = weft.global_id(0), weft.global_id(1)
    m[i, j] += r[j]


@weft.kernel
def iota(x, a):
    i = weft.global_id(0)
    x[i] = a * i + weft.local_id(0) * 0


@weft.kernel
def cube_ids(c):
    i, j, k = weft.global_id(0), weft.global_id(1), weft.global_id(2)
    c[i, j, k] = 100 * i + 10 * j + k


def test_launch_over_an_arrays_shape(device):
    m = weft.zeros((3, 5), device=device)
    r = weft.asarray(np.arange(5.0), device=device)
    ev = add_rows[m.shape](m, r)
    assert isinstance(ev, weft.Event)
    ev.wait()
    np.testing.assert_array_equal(m.get(), np.tile(np.arange(5.0), (3, 1)))
    add_rows[m.shape](m, r).wait()  # (the cached launch plan)
    np.testing.assert_array_equal(m.get(), 2 * np.tile(np.arange(5.0), (3, 1)))


def test_int_shape_local_size_and_three_dims(device):
    x = weft.zeros(8, np.int32, device=device)
    iota[8](x, 3).wait()
    np.testing.assert_array_equal(x.get(), 3 * np.arange(8))
    iota[(8,), (4,)](x, 2).wait()
    np.testing.assert_array_equal(x.get(), 2 * np.arange(8))
    iota[np.int64(4)](x, 1).wait()  # (a NumPy integer; only the first 4 are written)
    np.testing.assert_array_equal(x.get(), [0, 1, 2, 3, 8, 10, 12, 14])
    c = weft.zeros((2, 3, 4), np.int32, device=device)
    cube_ids[c.shape](c).wait()
    i, j, k = np.indices((2, 3, 4))
    np.testing.assert_array_equal(c.get(), 100 * i + 10 * j + k)
    m = weft.zeros((4, 2), device=device)
    add_rows[4, 2](m, weft.ones(2, device=device)).wait()  # (a pair of ints: a 2-d shape)
    np.testing.assert_array_equal(m.get(), np.ones((4, 2)))
    empty = weft.zeros((0, 2), device=device)
    add_rows[empty.shape](empty, weft.ones(2, device=device)).wait()  # (nothing to do)


def test_same_result_as_the_queue_launch(device):
    a = weft.zeros((2, 4), device=device)
    b = weft.zeros((2, 4), device=device)
    r = weft.asarray(np.array([1.0, -2.0, 3.5, 0.25]), device=device)
    add_rows[a.shape](a, r).wait()
    add_rows(device, b.shape, None, b, r).wait()
    np.testing.assert_array_equal(a.get(), b.get())


@pytest.mark.parametrize("key, words", [
    ((-1, 4), "must not be negative, got (-1, 4)"),
    ((2, 3, 4, 5), "1 to 3 dimensions (an NDRange), got 4"),
    ((), "1 to 3 dimensions (an NDRange), got 0"),
    (2.5, "an int or a tuple of 1 to 3 ints (such as a.shape), not 2.5"),
    (((4,), "x"), "add_rows[...]: the local size must be an int or a tuple"),
    (((2, 2), (2,)), "the local size (2,) must have as many dimensions as the shape (2, 2)"),
    ((True,), "an int or a tuple of 1 to 3 ints"),
    ("4", "not '4'"),
])
def test_bad_shapes_are_refused_with_what_is_accepted(key, words):
    with pytest.raises(weft.InvalidArgument) as e:
        add_rows[key]
    assert words in str(e.value)
    assert "add_rows[...]" in str(e.value)


def test_an_array_is_not_a_shape(device):
    m = weft.zeros((2, 2), device=device)
    with pytest.raises(weft.InvalidArgument, match=r"is an array, not a shape: write k\[a.shape\]"):
        add_rows[m]
    with pytest.raises(weft.InvalidArgument, match="is an array, not a shape"):
        add_rows[np.zeros(3)]


def test_arrays_on_two_devices_are_refused():
    devices = weft.devices()
    if len(devices) < 2:
        pytest.skip("one device")
    m = weft.zeros((2, 2), device=devices[0])
    r = weft.zeros(2, device=devices[1])
    with pytest.raises(weft.InvalidArgument, match="the array arguments are on .* and .*; move them to one device"):
        add_rows[m.shape](m, r)


def test_numpy_arguments_run_on_the_current_device():
    m = np.zeros((2, 3))
    add_rows[m.shape](m, np.arange(3.0)).wait()
    np.testing.assert_array_equal(m, np.tile(np.arange(3.0), (2, 1)))


@weft.kernel(boundscheck=True)
def add_rows_checked(m, r):
    i, j = weft.global_id(0), weft.global_id(1)
    m[i, j] += r[j]


def test_a_shape_larger_than_the_array_is_caught_by_boundscheck(device):
    m = weft.zeros((2, 3), device=device)
    r = weft.ones(3, device=device)
    add_rows_checked[m.shape](m, r).wait()
    np.testing.assert_array_equal(m.get(), np.ones((2, 3)))
    with pytest.raises(weft.IndexOutOfRange) as e:
        add_rows_checked[3, 3](m, r)
    assert "'m'" in str(e.value) and "(2, 3)" in str(e.value)
    np.testing.assert_array_equal(m.get(), 2 * np.ones((2, 3)))  # (the rows inside were done, nothing outside)
