"""Discrete Fourier transforms: the Array API's ``fft`` extension (2024.12), with NumPy's names.

    import weft
    x = weft.asarray(np.random.rand(8, 64).astype("float32"))
    X = weft.fft.rfft(x)                      # complex64, shape (8, 33)
    y = weft.fft.irfft(X, n=64)               # float32 again
    f = weft.fft.fftfreq(64, d=0.01)          # the frequencies of X's bins

The transforms run in the library made for each device (C++: include/weft/fft.hpp): pocketfft
on the host (the library NumPy and SciPy use, vendored in weft), cuFFT on CUDA devices (loaded
at run time), and on OpenCL devices pocketfft on a host copy (the data goes to the host and
the result comes back: docs/FFT.md). Results match numpy.fft's to rounding, with the Array
API's types: float32 and complex64 input give complex64 (float32 for irfft, irfftn and
hfft), float64 and complex128 give complex128 (float64); integer input is refused, as the
Array API requires floating-point input (NumPy converts it to float64).

norm is "backward" (the default: the inverse transforms divide by n), "ortho" (both by
sqrt(n)) or "forward" (the forward transforms divide by n); None means "backward" as in NumPy.

Examples
--------
>>> x = weft.asarray(np.array([1.0, 2.0, 0.0, -1.0]))
>>> weft.fft.fftfreq(4).get()
array([ 0.  ,  0.25, -0.5 , -0.25])
>>> weft.fft.fftshift(weft.fft.fftfreq(4)).get()
array([-0.5 , -0.25,  0.  ,  0.25])
"""
from __future__ import annotations

import operator as _operator
from typing import TYPE_CHECKING, Sequence, SupportsIndex

from . import _weft
from ._array import Array
from ._creation import asarray
from ._dtypes import dtype_name

if TYPE_CHECKING:
    from ._typing import ArrayLike, DTypeLike, DeviceLike

__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift", "library"]

_NORMS = ("backward", "ortho", "forward")


def _array(x: ArrayLike | Array) -> Array:
    return x if isinstance(x, Array) else asarray(x)


def _norm(norm: str | None, who: str) -> str:
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise ValueError(f"{who}: norm must be 'backward', 'ortho', 'forward' or None, not {norm!r}")
    return norm


def _n(n: SupportsIndex | None, who: str) -> list[int] | None:
    if n is None:
        return None
    k = _operator.index(n)
    if k < 1:
        raise ValueError(f"{who}: n must be a positive integer, not {k}")
    return [k]


def _ints(v: SupportsIndex | Sequence[SupportsIndex] | None, what: str, who: str) -> list[int] | None:
    if v is None:
        return None
    if isinstance(v, (str, bytes)):
        raise TypeError(f"{who}: {what} must be a sequence of ints, not {type(v).__name__}")
    try:
        return [_operator.index(i) for i in v]  # type: ignore[union-attr]
    except TypeError:
        return [_operator.index(v)]  # type: ignore[arg-type]


def _one(kind: str, x: ArrayLike | Array, n: SupportsIndex | None, axis: SupportsIndex, norm: str | None) -> Array:
    nn, ax, nm = _n(n, kind), [_operator.index(axis)], _norm(norm, kind)
    return _weft._fft(_array(x), kind, nn, ax, nm)


def _many(kind: str, x: ArrayLike | Array, s: Sequence[SupportsIndex] | None,
          axes: Sequence[SupportsIndex] | None, norm: str | None) -> Array:
    ss, aa = _ints(s, "s", kind), _ints(axes, "axes", kind)
    if ss is not None and aa is not None and len(ss) != len(aa):
        raise ValueError(f"{kind}: s and axes must have the same length ({len(ss)} and {len(aa)})")
    nm = _norm(norm, kind)
    return _weft._fft(_array(x), kind, ss, aa, nm)


def fft(x: ArrayLike | Array, /, n: SupportsIndex | None = None, axis: SupportsIndex = -1,
        norm: str | None = "backward") -> Array:
    """The one-dimensional discrete Fourier transform along axis (numpy.fft.fft).

    Parameters
    ----------
    x : weft.Array
        Real or complex floating-point input (a real one is transformed as complex).
    n : int, optional
        The transform's length: x is cropped or zero-padded along axis first.
    axis : int, optional
        The axis to transform (the last by default).
    norm : {"backward", "ortho", "forward"}, optional
        Which direction is scaled (module docstring).

    Returns
    -------
    weft.Array
        complex64 for float32/complex64 input, complex128 for float64/complex128.

    Raises
    ------
    weft.DTypeError
        x is not floating-point.
    weft.InvalidArgument
        axis is out of range.

    Examples
    --------
    >>> a = np.array([1.0, 2.0, 0.0, -1.0])
    >>> X = weft.fft.fft(weft.asarray(a))
    >>> X.dtype, X.shape
    (dtype('complex128'), (4,))
    >>> bool(np.allclose(X.get(), np.fft.fft(a)))
    True
    """
    return _one("fft", x, n, axis, norm)


def ifft(x: ArrayLike | Array, /, n: SupportsIndex | None = None, axis: SupportsIndex = -1,
         norm: str | None = "backward") -> Array:
    """The inverse of fft: ifft(fft(x)) is x (to rounding), as numpy.fft.ifft.

    Examples
    --------
    >>> a = np.array([1.0, 2.0, 0.0])
    >>> bool(np.allclose(weft.fft.ifft(weft.fft.fft(weft.asarray(a))).get(), a))
    True
    """
    return _one("ifft", x, n, axis, norm)


def fftn(x: ArrayLike | Array, /, s: Sequence[SupportsIndex] | None = None,
         axes: Sequence[SupportsIndex] | None = None, norm: str | None = "backward") -> Array:
    """The n-dimensional transform over axes (every axis by default; the last len(s) axes when
    only s is given), each cropped or zero-padded to s (-1 in s: the axis' own length).

    Examples
    --------
    >>> a = np.arange(6.0).reshape(2, 3)
    >>> bool(np.allclose(weft.fft.fftn(weft.asarray(a)).get(), np.fft.fftn(a)))
    True
    """
    return _many("fftn", x, s, axes, norm)


def ifftn(x: ArrayLike | Array, /, s: Sequence[SupportsIndex] | None = None,
          axes: Sequence[SupportsIndex] | None = None, norm: str | None = "backward") -> Array:
    """The inverse of fftn, as numpy.fft.ifftn.

    Examples
    --------
    >>> a = np.arange(6.0).reshape(2, 3)
    >>> bool(np.allclose(weft.fft.ifftn(weft.fft.fftn(weft.asarray(a))).get(), a))
    True
    """
    return _many("ifftn", x, s, axes, norm)


def rfft(x: ArrayLike | Array, /, n: SupportsIndex | None = None, axis: SupportsIndex = -1,
         norm: str | None = "backward") -> Array:
    """The transform of real input: the n//2 + 1 non-negative frequencies (numpy.fft.rfft).

    x must be real floating-point (float32 gives complex64, float64 complex128).

    Examples
    --------
    >>> X = weft.fft.rfft(weft.asarray(np.array([1.0, 2.0, 0.0, -1.0], dtype=np.float32)))
    >>> X.dtype, X.shape
    (dtype('complex64'), (3,))
    """
    return _one("rfft", x, n, axis, norm)


def irfft(x: ArrayLike | Array, /, n: SupportsIndex | None = None, axis: SupportsIndex = -1,
          norm: str | None = "backward") -> Array:
    """The inverse of rfft: n real outputs (2 * (m - 1) by default for m input points along
    axis), as numpy.fft.irfft. The imaginary parts of the zero (and, for even n, the Nyquist)
    frequency are ignored.

    Examples
    --------
    >>> a = np.array([1.0, 2.0, 0.0, -1.0])
    >>> bool(np.allclose(weft.fft.irfft(weft.fft.rfft(weft.asarray(a))).get(), a))
    True
    """
    return _one("irfft", x, n, axis, norm)


def rfftn(x: ArrayLike | Array, /, s: Sequence[SupportsIndex] | None = None,
          axes: Sequence[SupportsIndex] | None = None, norm: str | None = "backward") -> Array:
    """The n-dimensional transform of real input: the last axis halved (numpy.fft.rfftn).

    Examples
    --------
    >>> weft.fft.rfftn(weft.asarray(np.ones((2, 4)))).shape
    (2, 3)
    """
    return _many("rfftn", x, s, axes, norm)


def irfftn(x: ArrayLike | Array, /, s: Sequence[SupportsIndex] | None = None,
           axes: Sequence[SupportsIndex] | None = None, norm: str | None = "backward") -> Array:
    """The inverse of rfftn: real output, the last axis 2 * (m - 1) long unless s says
    (numpy.fft.irfftn).

    Examples
    --------
    >>> weft.fft.irfftn(weft.fft.rfftn(weft.asarray(np.ones((2, 4))))).shape
    (2, 4)
    """
    return _many("irfftn", x, s, axes, norm)


def hfft(x: ArrayLike | Array, /, n: SupportsIndex | None = None, axis: SupportsIndex = -1,
         norm: str | None = "backward") -> Array:
    """The transform of a Hermitian-symmetric signal given by its first half: n real outputs
    (2 * (m - 1) by default), as numpy.fft.hfft.

    Examples
    --------
    >>> c = np.array([1.0 + 0j, 2 - 1j, 0.5])
    >>> bool(np.allclose(weft.fft.hfft(weft.asarray(c)).get(), np.fft.hfft(c)))
    True
    """
    return _one("hfft", x, n, axis, norm)


def ihfft(x: ArrayLike | Array, /, n: SupportsIndex | None = None, axis: SupportsIndex = -1,
          norm: str | None = "backward") -> Array:
    """The inverse of hfft for real input: n//2 + 1 complex outputs (numpy.fft.ihfft).

    Examples
    --------
    >>> a = np.array([1.0, 2.0, 0.0, -1.0])
    >>> bool(np.allclose(weft.fft.ihfft(weft.asarray(a)).get(), np.fft.ihfft(a)))
    True
    """
    return _one("ihfft", x, n, axis, norm)


def _freq(real: bool, n: SupportsIndex, d: float, dtype: DTypeLike | None, device: DeviceLike, who: str) -> Array:
    k = _operator.index(n)
    if k < 1:
        raise ValueError(f"{who}: n must be a positive integer, not {k}")
    name = "" if dtype is None else dtype_name(dtype)  # "": the device's default (C++ picks)
    if name not in ("", "float32", "float64"):
        raise TypeError(f"{who}: dtype must be a real floating-point dtype (float32 or float64), not {name}")
    return _weft._fftfreq(k, float(d), name, device, real)


def fftfreq(n: SupportsIndex, /, d: float = 1.0, *, dtype: DTypeLike | None = None,
            device: DeviceLike = None) -> Array:
    """The sample frequencies of an n-point transform with sample spacing d:
    [0, 1, ..., n//2 - 1 (or (n-1)//2), -(n//2), ..., -1] / (d * n), as numpy.fft.fftfreq.

    dtype: float32 or float64 (the device's default real floating dtype when None); device:
    where the array is made (the default device when None).

    Examples
    --------
    >>> weft.fft.fftfreq(5, d=0.5).get()
    array([ 0. ,  0.4,  0.8, -0.8, -0.4])
    """
    return _freq(False, n, d, dtype, device, "fftfreq")


def rfftfreq(n: SupportsIndex, /, d: float = 1.0, *, dtype: DTypeLike | None = None,
             device: DeviceLike = None) -> Array:
    """The non-negative frequencies of rfft's bins: [0, 1, ..., n//2] / (d * n), as
    numpy.fft.rfftfreq.

    Examples
    --------
    >>> weft.fft.rfftfreq(5).get()
    array([0. , 0.2, 0.4])
    """
    return _freq(True, n, d, dtype, device, "rfftfreq")


def _shift(x: ArrayLike | Array, axes: SupportsIndex | Sequence[SupportsIndex] | None, inverse: bool) -> Array:
    return _weft._fftshift(_array(x), _ints(axes, "axes", "fftshift"), inverse)


def fftshift(x: ArrayLike | Array, /, axes: SupportsIndex | Sequence[SupportsIndex] | None = None) -> Array:
    """x rolled so that the zero frequency is in the middle, along axes (every axis when
    None), as numpy.fft.fftshift. Any dtype.

    Examples
    --------
    >>> weft.fft.fftshift(weft.asarray(np.arange(5))).get()
    array([3, 4, 0, 1, 2])
    """
    return _shift(x, axes, False)


def ifftshift(x: ArrayLike | Array, /, axes: SupportsIndex | Sequence[SupportsIndex] | None = None) -> Array:
    """The inverse of fftshift (they differ for odd lengths), as numpy.fft.ifftshift.

    Examples
    --------
    >>> weft.fft.ifftshift(weft.asarray(np.arange(5))).get()
    array([2, 3, 4, 0, 1])
    """
    return _shift(x, axes, True)


def library(device: DeviceLike = None) -> str:
    """The library that computes transforms on device: "pocketfft", "cuFFT 12.0.0", or
    "pocketfft (through a host copy)" on OpenCL devices.

    Raises
    ------
    weft.Unsupported
        The device's library cannot be loaded (libcufft missing: the message says so).

    Examples
    --------
    >>> weft.fft.library("host")
    'pocketfft'
    """
    return str(_weft._fft_library(device))
