"""weft.fft against numpy.fft on every device: the transforms (1-D and n-D, n= cropping and
padding, axes, the three norms, the Array API's result dtypes), frequencies and shifts, and
the refusals. Transforms need complex arrays (skipped where this build has none)."""
import numpy as np
import pytest

import weft

HAS_COMPLEX = hasattr(weft, "complex64")
needs_complex = pytest.mark.skipif(not HAS_COMPLEX, reason="this build has no complex dtypes")

NORMS = ["backward", "ortho", "forward"]


def _tol(dtype):
    return dict(rtol=2e-4, atol=2e-4) if np.dtype(dtype) in (np.float32, np.complex64) else dict(rtol=1e-10, atol=1e-10)


def _real(shape, dtype, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


def _complex(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(dtype)


def _on(device, a):
    return weft.asarray(a, device=device)


def _check(got, want, dtype):
    g = got.get()
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    assert g.shape == want.shape
    np.testing.assert_allclose(g, want, **_tol(dtype))


def _np_axes(a, s, axes):
    # The Array API's axes for s without axes (the last len(s)), given to NumPy explicitly.
    return axes if axes is not None or s is None else tuple(range(a.ndim - len(s), a.ndim))


def _skip_f64(device, dtype):
    if np.dtype(dtype) in (np.float64, np.complex128) and not device.fp64:
        pytest.skip("the device has no float64")


# ---- frequencies and shifts (no complex numbers needed) ------------------------------------

@pytest.mark.parametrize("n", [1, 2, 5, 8, 9])
@pytest.mark.parametrize("d", [1.0, 0.1])
def test_fftfreq_and_rfftfreq_match_numpy(device, n, d):
    dt = "float64" if device.fp64 else "float32"
    got = weft.fft.fftfreq(n, d=d, device=device)
    assert got.dtype == np.dtype(dt)
    np.testing.assert_allclose(got.get(), np.fft.fftfreq(n, d=d).astype(dt), rtol=1e-6)
    got = weft.fft.rfftfreq(n, d=d, dtype="float32", device=device)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got.get(), np.fft.rfftfreq(n, d=d).astype(np.float32), rtol=1e-6)


def test_fftfreq_refuses_bad_arguments(device):
    with pytest.raises(ValueError, match="positive"):
        weft.fft.fftfreq(0, device=device)
    with pytest.raises(TypeError, match="real floating"):
        weft.fft.fftfreq(4, dtype="int32", device=device)


@pytest.mark.parametrize("shape,axes", [((5,), None), ((4,), None), ((3, 4), None), ((3, 4), 0), ((3, 4), (1,)),
                                        ((2, 3, 5), (0, 2)), ((2, 3, 5), -1)])
def test_shifts_match_numpy(device, shape, axes):
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    x = _on(device, a)
    np.testing.assert_array_equal(weft.fft.fftshift(x, axes=axes).get(), np.fft.fftshift(a, axes=axes))
    np.testing.assert_array_equal(weft.fft.ifftshift(x, axes=axes).get(), np.fft.ifftshift(a, axes=axes))
    np.testing.assert_array_equal(weft.fft.ifftshift(weft.fft.fftshift(x, axes=axes), axes=axes).get(), a)


def test_library_names_one(device):
    try:
        name = weft.fft.library(device)
    except weft.Unsupported as e:
        pytest.skip(str(e))
    assert "pocketfft" in name or "cuFFT" in name


def test_norm_is_checked():
    with pytest.raises(ValueError, match="norm"):
        weft.fft.fft(weft.asarray(np.ones(4)), norm="unitary")


# ---- transforms ----------------------------------------------------------------------------

@needs_complex
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("norm", NORMS)
def test_fft_ifft(device, dtype, norm):
    _skip_f64(device, dtype)
    a = _complex((3, 10), dtype) if "complex" in dtype else _real((3, 10), dtype)
    out_dtype = np.complex64 if dtype in ("float32", "complex64") else np.complex128
    x = _on(device, a)
    _check(weft.fft.fft(x, norm=norm), np.fft.fft(a, norm=norm).astype(out_dtype), dtype)
    _check(weft.fft.ifft(x, norm=norm), np.fft.ifft(a, norm=norm).astype(out_dtype), dtype)
    _check(weft.fft.fft(x, axis=0, norm=norm), np.fft.fft(a, axis=0, norm=norm).astype(out_dtype), dtype)


@needs_complex
@pytest.mark.parametrize("n", [4, 10, 13])
def test_fft_n_crops_and_pads(device, n):
    a = _complex((2, 10), "complex64")
    x = _on(device, a)
    _check(weft.fft.fft(x, n=n), np.fft.fft(a, n=n).astype(np.complex64), "complex64")
    _check(weft.fft.ifft(x, n=n, axis=-1), np.fft.ifft(a, n=n).astype(np.complex64), "complex64")


@needs_complex
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n", [None, 8, 9, 15])
def test_rfft_irfft(device, dtype, norm, n):
    _skip_f64(device, dtype)
    a = _real((4, 12), dtype)
    cplx = np.complex64 if dtype == "float32" else np.complex128
    x = _on(device, a)
    X = weft.fft.rfft(x, n=n, norm=norm)
    _check(X, np.fft.rfft(a, n=n, norm=norm).astype(cplx), dtype)
    Xn = np.fft.rfft(a, norm=norm).astype(cplx)
    _check(weft.fft.irfft(_on(device, Xn), n=n, norm=norm), np.fft.irfft(Xn, n=n, norm=norm).astype(dtype), dtype)


@needs_complex
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n", [None, 7, 8])
def test_hfft_ihfft(device, norm, n):
    _skip_f64(device, "float64")
    c = _complex((3, 5), "complex128")
    r = _real((3, 8), "float64")
    _check(weft.fft.hfft(_on(device, c), n=n, norm=norm), np.fft.hfft(c, n=n, norm=norm), "float64")
    _check(weft.fft.ihfft(_on(device, r), n=n, norm=norm), np.fft.ihfft(r, n=n, norm=norm), "float64")


@needs_complex
@pytest.mark.parametrize("s,axes", [(None, None), (None, (0, 2)), ((4, 6), None), ((3, 5), (2, 0)), ((2, -1), (0, 1)),
                                    (None, (1,))])
@pytest.mark.parametrize("norm", NORMS)
def test_fftn_ifftn(device, s, axes, norm):
    a = _complex((3, 4, 5), "complex64")
    x = _on(device, a)
    ax = _np_axes(a, s, axes)
    ss = None if s is None else tuple(a.shape[i] if k == -1 else k for k, i in zip(s, ax))  # -1: the axis' length
    _check(weft.fft.fftn(x, s=s, axes=axes, norm=norm), np.fft.fftn(a, s=ss, axes=ax, norm=norm).astype(np.complex64),
           "complex64")
    _check(weft.fft.ifftn(x, s=s, axes=axes, norm=norm),
           np.fft.ifftn(a, s=ss, axes=ax, norm=norm).astype(np.complex64), "complex64")


@needs_complex
@pytest.mark.parametrize("s,axes", [(None, None), (None, (0, 2)), ((4, 6), None), ((3, 8), (0, 2))])
def test_rfftn_irfftn(device, s, axes):
    _skip_f64(device, "float64")
    a = _real((3, 4, 6), "float64")
    x = _on(device, a)
    ax = _np_axes(a, s, axes)
    _check(weft.fft.rfftn(x, s=s, axes=axes), np.fft.rfftn(a, s=s, axes=ax), "float64")
    X = np.fft.rfftn(a, axes=ax)
    _check(weft.fft.irfftn(_on(device, X), s=s, axes=axes), np.fft.irfftn(X, s=s, axes=ax), "float64")


@needs_complex
def test_strided_and_reversed_views(device):
    a = _complex((6, 8), "complex64")
    x = _on(device, a)
    _check(weft.fft.fft(x[::2, ::-1]), np.fft.fft(a[::2, ::-1]).astype(np.complex64), "complex64")
    _check(weft.fft.fftn(x.mT if hasattr(x, "mT") else x.T), np.fft.fftn(a.T).astype(np.complex64), "complex64")


@needs_complex
def test_refusals(device):
    with pytest.raises(weft.DTypeError):
        weft.fft.fft(_on(device, np.arange(4, dtype=np.int32)))
    with pytest.raises(weft.DTypeError):
        weft.fft.rfft(_on(device, _complex((4,), "complex64")))
    with pytest.raises(weft.InvalidArgument):
        weft.fft.fft(_on(device, np.ones(4, np.float32)), axis=1)
    with pytest.raises(ValueError):
        weft.fft.fft(_on(device, np.ones(4, np.float32)), n=0)
