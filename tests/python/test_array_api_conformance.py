"""The Array API behaviours the conformance suite (tests/third_party/array-api-tests, run by
scripts/array-api-tests.sh) found missing or wrong, checked here on every device against NumPy."""
import warnings

import numpy as np
import pytest

import weft

CASTS = ["bool", "int8", "uint8", "int32", "uint64", "float32"]


@pytest.mark.parametrize("to", CASTS)
@pytest.mark.parametrize("frm", CASTS)
def test_astype_converts_as_numpy(device, frm, to):
    host = np.array([0, 1, 2, 7, 100], dtype=frm)
    x = weft.asarray(host, device=device)
    out = weft.astype(x, getattr(weft, to))
    assert out.dtype == np.dtype(to) and out.device == device
    np.testing.assert_array_equal(out.get(), host.astype(to))


def test_astype_floats_truncate_toward_zero(device):
    host = np.array([1.7, -2.5, -0.5, 0.0, 3.0], np.float32)
    out = weft.astype(weft.asarray(host, device=device), weft.int16)
    np.testing.assert_array_equal(out.get(), np.array([1, -2, 0, 0, 3], np.int16))


def test_astype_copy_and_device(device):
    x = weft.asarray(np.arange(4, dtype=np.int32), device=device)
    assert weft.astype(x, weft.int32, copy=False) is x
    same = weft.astype(x, weft.int32)
    assert same is not x
    x[0] = 9  # a copy does not see later writes
    assert same.get()[0] == 0
    host = weft.astype(x, weft.float32, device="host")
    assert host.device == weft.Device("host") and host.dtype == np.float32
    np.testing.assert_array_equal(host.get(), np.array([9, 1, 2, 3], np.float32))


def test_astype_refuses_what_it_cannot_convert():
    with pytest.raises(TypeError, match="weft.Array"):
        weft.astype(np.zeros(2), weft.float32)
    with pytest.raises(TypeError, match="astype"):
        weft.astype(weft.zeros(2), "datetime64[s]")


@pytest.mark.parametrize("t", ["float32", "float64"])
def test_finfo_answers_python_numbers(t):
    fi, ref = weft.finfo(getattr(weft, t)), np.finfo(t)
    for name in ("eps", "max", "min", "smallest_normal", "tiny", "resolution"):
        value = getattr(fi, name)
        assert type(value) is float and value == float(getattr(ref, name)), name
    assert type(fi.bits) is int and fi.bits == ref.bits and fi.dtype == np.dtype(t)


def test_expand_dims_out_of_range_axis_is_an_index_error(device):
    x = weft.zeros((2, 3), device=device)
    for axis in (-3, -1, 0, 2):
        assert weft.expand_dims(x, axis=axis).shape == np.expand_dims(np.zeros((2, 3)), axis).shape
    for axis in (3, -4, 7):
        with pytest.raises(IndexError, match="expand_dims: axis"):
            weft.expand_dims(x, axis=axis)
    with pytest.raises(weft.IndexOutOfRange):
        weft.expand_dims(x, axis=(0, 4))


@pytest.mark.parametrize("what", ["var", "std"])
@pytest.mark.parametrize("kw", [dict(axis=()), dict(axis=(), correction=1), dict(axis=(), keepdims=True),
                                dict(axis=1, correction=0.5), dict(correction=1.5),
                                dict(axis=(0, 1), correction=2.5, keepdims=True), dict(axis=-1, correction=3)])
def test_var_std_empty_axes_and_fractional_correction(device, what, kw):
    host = np.array([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]], np.float32)
    got = getattr(weft, what)(weft.asarray(host, device=device), **kw).get()
    with warnings.catch_warnings():  # NumPy warns where N - correction <= 0 (NaN or inf)
        warnings.simplefilter("ignore", RuntimeWarning)
        ref = getattr(np, what)(host, **kw)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    np.testing.assert_allclose(got, ref, rtol=1e-6, equal_nan=True)


def test_where_and_round_have_the_standards_signatures(device):
    import inspect

    def kinds(f):
        return [p.kind for p in inspect.signature(f).parameters.values()]

    assert kinds(weft.where) == [inspect.Parameter.POSITIONAL_ONLY] * 3
    assert kinds(weft.round) == [inspect.Parameter.POSITIONAL_ONLY] and weft.around is weft.round
    a = weft.asarray(np.array([0.5, 1.5, -2.5, 3.2]), device=device)
    np.testing.assert_array_equal(weft.where(a > 1, a, 0).get(), [0, 1.5, 0, 3.2])
    np.testing.assert_array_equal(weft.round(a).get(), [0.0, 2.0, -2.0, 3.0])


def test_dlpack_takes_the_standards_keywords(device):
    a = weft.asarray(np.arange(4.0), device=device) * 2  # lazy: evaluated before export
    own = a.__dlpack_device__()
    assert own == ((1, 0) if device.backend in ("host", "opencl") else (device.dlpack_device_type,
                                                                         device.dlpack_device_id))
    np.testing.assert_array_equal(np.from_dlpack(a, device="cpu", copy=True), [0, 2, 4, 6])
    a.__dlpack__(stream=None, max_version=(1, 0), dl_device=(1, 0), copy=None)
    with pytest.raises(BufferError, match="DLPack device"):
        a.__dlpack__(dl_device=(7, 0))
    if device.backend == "opencl":  # a host copy: never the buffer in place
        with pytest.raises(BufferError, match="copy=False"):
            a.__dlpack__(copy=False)
        np.testing.assert_array_equal(np.from_dlpack(a), [0, 2, 4, 6])
    if device.backend == "host":  # in place, unless copy=True
        shared, copied = np.from_dlpack(a), np.from_dlpack(a, copy=True)
        a[0] = 5
        weft.synchronize(device)
        assert shared[0] == 5 and copied[0] == 0


def test_from_dlpack_of_an_opencl_array_needs_no_capsule(device):
    a = weft.asarray(np.arange(3, dtype=np.int32), device=device)
    b = weft.from_dlpack(a)
    assert b.device == device
    np.testing.assert_array_equal(b.get(), [0, 1, 2])
    c = weft.from_dlpack(a, copy=True)
    a[0] = 7
    assert c.get()[0] == 0
