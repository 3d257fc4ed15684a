"""The Array API standard's names and signatures (issue 24's Python part), against NumPy on
every device: the *_like device= bug, weft.bool, clip/std/var/reshape/asarray/from_dlpack
signatures, the inspection namespace, dtype queries and the composed elementwise functions."""
import builtins
import math

import numpy as np
import pytest

import weft

EDGE = np.array([-np.inf, -3.5, -1.0, -0.0, 0.0, 1e-30, 2.0, 1e30, np.inf, np.nan], dtype=np.float64)


@pytest.mark.parametrize("name", ["zeros_like", "ones_like", "empty_like"])
def test_like_takes_device(device, name):
    x = weft.asarray(np.arange(6, dtype=np.float32).reshape(2, 3), device=device)
    r = getattr(weft, name)(x, device=x.device)
    assert r.shape == (2, 3) and r.dtype == np.float32 and r.device == device
    if name != "empty_like":
        np.testing.assert_array_equal(r.get(), getattr(np, name)(x.get()))
    f = weft.full_like(x, 7, device=x.device)
    np.testing.assert_array_equal(f.get(), np.full((2, 3), 7, np.float32))


def test_bool_dtype_and_builtin_bool(device):
    assert weft.bool is np.bool_ and builtins.bool is bool
    a = weft.asarray(np.array([True, False]), dtype=weft.bool, device=device)
    assert a.dtype == np.bool_
    assert bool(weft.asarray(np.array([3]), device=device)) is True
    assert bool(weft.asarray(np.array(0.0), device=device)) is False
    assert weft.linspace(0, 1, 3, endpoint=True, device=device).shape == (3,)


def test_clip_signatures(device):
    h = np.array([-2.0, 0.5, 3.0, np.nan, -0.0], dtype=np.float32)
    x = weft.asarray(h, device=device)
    np.testing.assert_array_equal(weft.clip(x, min=0).get(), np.clip(h, 0, None))
    np.testing.assert_array_equal(weft.clip(x, max=1).get(), np.clip(h, None, 1))
    np.testing.assert_array_equal(weft.clip(x, 0, 1).get(), np.clip(h, 0, 1))
    np.testing.assert_array_equal(weft.clip(x, a_min=0, a_max=1).get(), np.clip(h, 0, 1))
    np.testing.assert_array_equal(np.clip(x, 0, 1).get(), np.clip(h, 0, 1))
    r = weft.clip(x)
    assert r is not x
    np.testing.assert_array_equal(r.get(), h)
    assert weft.clip(weft.asarray(np.arange(5, dtype=np.int16), device=device), max=2).dtype == np.int16
    with pytest.raises(TypeError, match="not both"):
        weft.clip(x, min=0, a_max=1)


@pytest.mark.parametrize("f", ["std", "var"])
def test_std_var_correction(device, f):
    h = np.arange(12, dtype=np.float64).reshape(3, 4) ** 1.5
    x = weft.asarray(h, device=device)
    np.testing.assert_allclose(getattr(weft, f)(x, correction=1).get(), getattr(np, f)(h, ddof=1), rtol=1e-12)
    np.testing.assert_allclose(getattr(weft, f)(x, axis=0, correction=1).get(), getattr(np, f)(h, axis=0, ddof=1),
                               rtol=1e-12)
    np.testing.assert_allclose(getattr(x, f)(correction=2).get(), getattr(np, f)(h, ddof=2), rtol=1e-12)
    np.testing.assert_allclose(getattr(weft, f)(x, ddof=1).get(), getattr(np, f)(h, ddof=1), rtol=1e-12)
    with pytest.raises(ValueError, match="disagree"):
        getattr(weft, f)(x, ddof=1, correction=2)


def test_reshape_copy(device):
    h = np.arange(6, dtype=np.int32).reshape(2, 3)
    x = weft.asarray(h, device=device)
    np.testing.assert_array_equal(weft.reshape(x, (3, 2)).get(), h.reshape(3, 2))
    np.testing.assert_array_equal(weft.reshape(x, shape=(6,), copy=False).get(), h.reshape(6))
    np.testing.assert_array_equal(weft.reshape(x, newshape=(6,)).get(), h.reshape(6))
    c = weft.reshape(x, (3, 2), copy=True)
    c[0, 0] = 99
    assert x.get()[0, 0] == 0
    np.testing.assert_array_equal(weft.reshape(x.T, (6,)).get(), h.T.reshape(6))
    with pytest.raises(ValueError, match="copy=False"):
        weft.reshape(x.T, (6,), copy=False)


def test_asarray_copy(device):
    h = np.arange(4, dtype=np.float32)
    x = weft.asarray(h, device=device)
    assert weft.asarray(x, copy=False) is x and weft.asarray(x) is x
    c = weft.asarray(x, copy=True)
    assert c is not x
    c[0] = 5
    assert x.get()[0] == 0
    assert weft.asarray(x, dtype=weft.float32, copy=False) is x
    with pytest.raises(ValueError, match="copy=False"):
        weft.asarray(x, dtype=weft.float64, copy=False)
    np.testing.assert_array_equal(weft.asarray(x, dtype=weft.float64, copy=True).get(), h.astype(np.float64))
    with pytest.raises(ValueError, match="copy=False"):
        weft.asarray(h, copy=False, device=device)
    other = [d for d in weft.devices() if d != device]
    if other:
        with pytest.raises(ValueError, match="copy=False"):
            weft.asarray(x, device=other[0], copy=False)
    with pytest.raises(TypeError, match="copy"):
        weft.asarray(x, copy="yes")


def test_from_dlpack_signature():
    h = np.arange(5, dtype=np.int64)
    a = weft.from_dlpack(h)
    np.testing.assert_array_equal(a.get(), h)
    b = weft.from_dlpack(np.arange(5, dtype=np.int64), copy=True)
    np.testing.assert_array_equal(b.get(), h)
    for d in weft.devices():
        r = weft.from_dlpack(np.arange(5, dtype=np.int64), device=d)
        assert r.device == d
        np.testing.assert_array_equal(r.get(), h)


def test_from_dlpack_copy_false_across_devices():
    devs = weft.devices()
    if len(devs) < 2:
        pytest.skip("one device")
    src = weft.asarray(np.arange(3, dtype=np.float32), device="host")
    other = next(d for d in devs if d != src.device)
    with pytest.raises(ValueError, match="copy=False"):
        weft.from_dlpack(src, device=other, copy=False)
    np.testing.assert_array_equal(weft.from_dlpack(src, device=other).get(), np.arange(3, dtype=np.float32))


def test_polygon_mask_shape_tuple():
    v = [[1, 1], [8, 1], [4, 6]]
    np.testing.assert_array_equal(weft.polygon_mask(v, (7, 10)), weft.polygon_mask(v, 7, 10))
    assert weft.polygon_mask(v, (7, 10)).shape == (7, 10)
    with pytest.raises(weft.InvalidArgument, match="height, width"):
        weft.polygon_mask(v, 7)


def test_namespace_constants_and_info(device):
    assert weft.__array_api_version__ == "2024.12"
    assert weft.e == math.e and weft.pi == math.pi and weft.inf == math.inf and math.isnan(weft.nan)
    assert weft.newaxis is None
    info = weft.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] and caps["data-dependent shapes"] and "max dimensions" in caps
    assert info.default_device() == weft.default_device()
    assert device in info.devices()
    dd = info.default_dtypes(device=device)
    assert dd["real floating"] == np.float64 and dd["integral"] == np.int64 and dd["indexing"] == np.int64
    all_ = info.dtypes(device=device)
    assert set(info.dtypes(device=device, kind="integral")) == {"int8", "int16", "int32", "int64", "uint8",
                                                                  "uint16", "uint32", "uint64"}
    assert set(info.dtypes(device=device, kind="bool")) == {"bool"}
    assert ("float64" in all_) == device.fp64 and "float32" in all_
    assert set(info.dtypes(device=device, kind=("bool", "real floating"))) <= {"bool", "float32", "float64"}


def test_finfo_iinfo_isdtype_can_cast(device):
    x = weft.asarray(np.zeros(2, np.float32), device=device)
    for t in (weft.float32, np.float32, np.dtype("float32"), x):
        fi = weft.finfo(t)
        ref = np.finfo(np.float32)
        assert (fi.bits, fi.eps, fi.max, fi.min, fi.smallest_normal) == (ref.bits, ref.eps, ref.max, ref.min,
                                                                         ref.smallest_normal)
        assert fi.dtype == np.float32
    for t in (weft.int8, weft.uint64, np.int32):
        ii, ref = weft.iinfo(t), np.iinfo(t)
        assert (ii.bits, ii.max, ii.min, ii.dtype) == (ref.bits, ref.max, ref.min, ref.dtype)
    assert weft.iinfo(weft.asarray(np.zeros(1, np.int16), device=device)).max == 32767
    with pytest.raises(TypeError):
        weft.finfo(weft.int32)
    with pytest.raises(TypeError):
        weft.iinfo(weft.float64)
    assert weft.isdtype(weft.int8, "signed integer") and not weft.isdtype(weft.uint8, "signed integer")
    assert weft.isdtype(weft.uint8, ("bool", "unsigned integer")) and weft.isdtype(weft.bool, "bool")
    assert weft.isdtype(weft.float32, "numeric") and not weft.isdtype(weft.bool, "numeric")
    assert weft.isdtype(weft.float64, weft.float64) and not weft.isdtype(weft.float64, "complex floating")
    with pytest.raises(ValueError, match="kind"):
        weft.isdtype(weft.float32, "floating")
    assert weft.can_cast(weft.int8, weft.int32) and not weft.can_cast(weft.int32, weft.int8)
    assert weft.can_cast(weft.float32, weft.float64) and not weft.can_cast(weft.float64, weft.float32)
    assert not weft.can_cast(weft.int8, weft.float32) and not weft.can_cast(weft.bool, weft.int8)
    assert weft.can_cast(weft.uint8, weft.int16) and weft.can_cast(x, weft.float64)


def test_array_protocol_names(device):
    h = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = weft.asarray(h, device=device)
    assert x.__array_namespace__() is weft and x.__array_namespace__(api_version="2023.12") is weft
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="1999.01")
    np.testing.assert_array_equal(x.mT.get(), np.swapaxes(h, -1, -2))
    with pytest.raises(ValueError):
        weft.asarray(np.arange(3), device=device).mT
    assert x.to_device(device) is x
    for d in weft.devices():
        np.testing.assert_array_equal(x.to_device(d).get(), h)
        assert x.to_device(d).device == d
    i = weft.asarray(np.array(2, dtype=np.int64), device=device)
    assert [10, 20, 30][i] == 30 and list(range(i)) == [0, 1]
    with pytest.raises(TypeError):
        [1, 2][weft.asarray(np.array(1.0), device=device)]


def test_aliases():
    assert weft.acos is weft.arccos and weft.asin is weft.arcsin and weft.atan is weft.arctan
    assert weft.atan2 is weft.arctan2 and weft.bitwise_invert is weft.invert and weft.pow is weft.power


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int32, np.uint16])
def test_positive_sign(device, dtype):
    if dtype == np.float64 and not device.fp64:
        pytest.skip("no fp64")
    h = EDGE.astype(dtype) if np.dtype(dtype).kind == "f" else np.array([-5, -1, 0, 1, 7], dtype=dtype) \
        if np.dtype(dtype).kind == "i" else np.array([0, 1, 9], dtype=dtype)
    x = weft.asarray(h, device=device)
    p = weft.positive(x)
    assert p is not x and p.dtype == h.dtype
    np.testing.assert_array_equal(p.get(), np.positive(h))
    for f in ("real", "conj"):
        r = getattr(weft, f)(x)
        assert r is not x and r.dtype == h.dtype
        np.testing.assert_array_equal(r.get(), getattr(np, f)(h))
        np.testing.assert_array_equal(np.signbit(r.get()), np.signbit(h))
    s = weft.sign(x)
    assert s.dtype == np.sign(h).dtype
    np.testing.assert_array_equal(s.get(), np.sign(h))
    np.testing.assert_array_equal(np.signbit(s.get()), np.signbit(np.sign(h)))  # -0.0 gives +0.0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_logaddexp(device, dtype):
    if dtype == np.float64 and not device.fp64:
        pytest.skip("no fp64")
    a, b = np.meshgrid(EDGE.astype(dtype), EDGE.astype(dtype))
    a, b = a.ravel(), b.ravel()
    with np.errstate(all="ignore"):
        ref = np.logaddexp(a, b)
    r = weft.logaddexp(weft.asarray(a, device=device), weft.asarray(b, device=device))
    assert r.dtype == ref.dtype
    got = r.get()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    np.testing.assert_allclose(got, ref, rtol=4 * np.finfo(dtype).eps, atol=0)
    big = np.array([1000.0, -1000.0, 88.0], dtype=dtype)
    np.testing.assert_allclose(weft.logaddexp(weft.asarray(big, device=device), weft.asarray(big - 1, device=device)).get(),
                               np.logaddexp(big, big - 1), rtol=4 * np.finfo(dtype).eps)
