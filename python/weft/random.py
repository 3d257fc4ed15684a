"""Counter-based random numbers (Philox4x32-10) with NumPy's Generator names.

    import weft
    rng = weft.random.default_rng(42)
    u = rng.random(1000, dtype="float32")              # weft.Array in [0, 1)
    z = rng.normal(0.0, 2.0, size=(256, 256), device="opencl:cpu")
    k = rng.integers(6, size=100, dtype="int8")         # [0, 6)

The same seed gives the same numbers on every device (host, OpenCL, CUDA), bit for bit, for
every method: normal and exponential compute log, sin and cos with weft's own polynomials, not
the device's math library. The stream's layout is documented in include/weft/random.hpp and
docs/ALGORITHMS.md.

Differences from NumPy's Generator: results are weft arrays on a device (device=, the default
device when None); size=None gives a 0-d array, not a Python scalar; the parameters (low,
high, loc, scale) are numbers, not arrays; every method takes dtype= (float32 or float64 for
the real distributions). The numbers are not NumPy's: NumPy's Philox is Philox4x64 seeded
through SeedSequence, and its normal and integers reject draws (ziggurat, Lemire), which a
stream where every element has a fixed place cannot reproduce. permutation and shuffle order
by 64-bit keys from the stream (weft's stable radix argsort), so they too are the same on every
device, but they are not NumPy's (which swaps element by element, Fisher-Yates).

Examples
--------
>>> rng = weft.random.default_rng(42)
>>> a, b = rng.random(3).get(), weft.random.default_rng(42).random(3).get()
>>> bool((a == b).all()), bool(((0 <= a) & (a < 1)).all())
(True, True)
"""
from __future__ import annotations

import copy as _copy
import numbers as _numbers
import secrets as _secrets
from typing import TYPE_CHECKING, Any, Iterable, Sequence, SupportsFloat, SupportsIndex, SupportsInt, cast

import numpy as _np

from . import _weft
from ._array import Array as _Array
from ._creation import asarray as _asarray
from ._dtypes import dtype_name
from ._sorting import argsort as _argsort

if TYPE_CHECKING:
    from ._typing import ArrayLike, DTypeLike, DeviceLike, ShapeLike

from ._pyk_random import normal_at, random_at, raw_at, uniform_at

__all__ = ["Generator", "default_rng", "normal_at", "random_at", "raw_at", "uniform_at"]

_INT64_MIN, _INT64_MAX, _UINT64_MAX = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1


def _shape(size: ShapeLike | None) -> tuple[SupportsIndex, ...]:
    if size is None:
        return ()
    if isinstance(size, (_numbers.Integral, _np.integer)) and not isinstance(size, (bool, _np.bool_)):
        return (int(size),)
    try:
        return tuple(cast("Sequence[SupportsIndex]", size))  # (TypeError when it is not one)
    except TypeError:
        raise TypeError(f"size must be None, an int or a tuple of ints, not {type(size).__name__}") from None


def _number(value: object, what: str, who: str) -> float:
    if isinstance(value, (bool, _np.bool_)) or not isinstance(value, (_numbers.Real, _np.number)):
        raise TypeError(f"Generator.{who}: {what} must be a real number, not {type(value).__name__} "
                        "(or an array)")
    return float(value)


def _is_array(*values: object) -> bool:
    # Whether a parameter is array-valued (NumPy's Generator broadcasts those): a weft array, a
    # NumPy array or a list/tuple; plain numbers take the scalar kernels.
    return any(isinstance(v, (_Array, _np.ndarray, list, tuple)) for v in values)


def _parameters(values: Sequence[object], size: ShapeLike | None, device: DeviceLike, who: str,
                kinds: str) -> tuple[list[_Array], tuple[SupportsIndex, ...]]:
    """The parameters as weft arrays on one device (a weft array's, else device=) and the
    result's shape: size, or the parameters' broadcast shape when size is None."""
    dev = device
    for v in values:
        if isinstance(v, _Array):  # weft arrays stay where they are (the others must be there too)
            dev = v.device
    arrays = []
    for v in values:
        a = v if isinstance(v, _Array) else _asarray(_np.asarray(v), device=dev)
        if a.dtype.kind not in kinds:
            raise TypeError(f"Generator.{who}: parameters must be arrays of kind {kinds!r} "
                            f"(b bool, i/u integers, f floats), got {a.dtype}")
        arrays.append(a)
    if size is None:
        try:
            shape: tuple[SupportsIndex, ...] = tuple(_np.broadcast_shapes(*(tuple(a.shape) for a in arrays)))
        except ValueError:
            raise ValueError(f"Generator.{who}: the parameters' shapes "
                             f"{', '.join(str(tuple(a.shape)) for a in arrays)} do not broadcast") from None
    else:
        shape = _shape(size)
    return arrays, shape


def _integer(value: object, what: str) -> int:
    if isinstance(value, (bool, _np.bool_)) or not isinstance(value, (_numbers.Integral, _np.integer)):
        raise TypeError(f"Generator.integers: {what} must be an integer, not {type(value).__name__}")
    return int(value)


class Generator:
    """A Philox4x32-10 stream keyed by a 64-bit seed (NumPy's numpy.random.Generator names).

    seed: an int in [0, 2**64), or None for one drawn from the operating system's entropy."""

    _g: _weft._Generator

    def __init__(self, seed: int | _np.integer[Any] | Generator | None = None) -> None:
        if isinstance(seed, Generator):
            self._g = _copy.copy(seed._g)
            return
        if seed is None:
            seed = _secrets.randbits(64)
        if isinstance(seed, (bool, _np.bool_)) or not isinstance(seed, (_numbers.Integral, _np.integer)):
            raise TypeError(f"Generator: seed must be an int in [0, 2**64) or None, not {type(seed).__name__}")
        if not 0 <= int(seed) <= _UINT64_MAX:
            raise ValueError(f"Generator: seed must be in [0, 2**64), not {seed}")
        self._g = _weft._Generator(int(seed))

    @property
    def seed(self) -> int:
        return self._g.seed

    @property
    def counter(self) -> tuple[int, ...]:
        """The next Philox block, as its four 32-bit counter words (least significant first)."""
        return tuple(self._g.counter)

    @counter.setter
    def counter(self, words: Iterable[SupportsInt]) -> None:
        self._g.counter = [int(w) for w in words]

    def advance(self, blocks: SupportsInt) -> Generator:
        """Skips blocks Philox blocks, as if a call had used them."""
        self._g.advance(int(blocks))
        return self

    def __copy__(self) -> Generator:
        return Generator(self)

    def __repr__(self) -> str:
        return f"weft.random.Generator(seed={self.seed}, counter={self.counter})"

    def random_raw(self, size: ShapeLike | None = None, device: DeviceLike = None) -> _Array:
        """The raw Philox words, uint32: element 4j + k is word k of block j."""
        return self._g.random_raw(_shape(size), device)

    def random(self, size: ShapeLike | None = None, dtype: DTypeLike = _np.float64, out: None = None,
               device: DeviceLike = None) -> _Array:
        """Uniform in [0, 1): float32 (24 random bits) or float64 (53)."""
        if out is not None:
            raise TypeError("Generator.random: out= is not supported; the result is a new weft array")
        return self._g.uniform(0.0, 1.0, _shape(size), dtype_name(dtype), device)

    def uniform(self, low: SupportsFloat | ArrayLike = 0.0, high: SupportsFloat | ArrayLike = 1.0,
                size: ShapeLike | None = None,
                dtype: DTypeLike = _np.float64, device: DeviceLike = None) -> _Array:
        """low + (high - low) * u, u in [0, 1) (as NumPy, high may come out through rounding).
        low and high may be arrays (weft, NumPy or lists), broadcast against size as NumPy does;
        element i then has the bits it has with scalar parameters of its own values.

        >>> rng = weft.random.default_rng(1)
        >>> rng.uniform(weft.asarray(np.array([0.0, 10.0])), 11.0, size=(3, 2)).shape
        (3, 2)
        """
        if _is_array(low, high):
            (lo, hi), shape = _parameters([low, high], size, device, "uniform", "biuf")
            return self._g.uniform_arrays(lo, hi, shape, dtype_name(dtype))
        return self._g.uniform(_number(low, "low", "uniform"), _number(high, "high", "uniform"), _shape(size),
                               dtype_name(dtype), device)

    def normal(self, loc: SupportsFloat | ArrayLike = 0.0, scale: SupportsFloat | ArrayLike = 1.0,
               size: ShapeLike | None = None,
               dtype: DTypeLike = _np.float64, device: DeviceLike = None) -> _Array:
        """loc + scale * z, z standard normal (Box-Muller on the Philox words); loc and scale may be
        arrays, broadcast against size."""
        if _is_array(loc, scale):
            (m, sc), shape = _parameters([loc, scale], size, device, "normal", "biuf")
            return self._g.normal_arrays(m, sc, shape, dtype_name(dtype))
        return self._g.normal(_number(loc, "loc", "normal"), _number(scale, "scale", "normal"), _shape(size),
                              dtype_name(dtype), device)

    def standard_normal(self, size: ShapeLike | None = None, dtype: DTypeLike = _np.float64, out: None = None,
                        device: DeviceLike = None) -> _Array:
        if out is not None:
            raise TypeError("Generator.standard_normal: out= is not supported; the result is a new weft array")
        return self._g.normal(0.0, 1.0, _shape(size), dtype_name(dtype), device)

    def exponential(self, scale: SupportsFloat | ArrayLike = 1.0, size: ShapeLike | None = None,
                    dtype: DTypeLike = _np.float64,
                    device: DeviceLike = None) -> _Array:
        """scale * -log(u), u in (0, 1]; scale may be an array, broadcast against size."""
        if _is_array(scale):
            (sc,), shape = _parameters([scale], size, device, "exponential", "biuf")
            return self._g.exponential_arrays(sc, shape, dtype_name(dtype))
        return self._g.exponential(_number(scale, "scale", "exponential"), _shape(size), dtype_name(dtype), device)

    def standard_exponential(self, size: ShapeLike | None = None, dtype: DTypeLike = _np.float64, out: None = None,
                             device: DeviceLike = None) -> _Array:
        if out is not None:
            raise TypeError("Generator.standard_exponential: out= is not supported; the result is a new weft array")
        return self._g.exponential(1.0, _shape(size), dtype_name(dtype), device)

    def integers(self, low: SupportsIndex | ArrayLike, high: SupportsIndex | ArrayLike | None = None,
                 size: ShapeLike | None = None, dtype: DTypeLike = _np.int64, endpoint: bool = False,
                 device: DeviceLike = None) -> _Array:
        """Integers in [low, high) ([low, high] with endpoint=True); with high None, in [0, low).
        Each value of a range of r has probability 1/r to within 2**-64 (no rejection). low and
        high may be integer arrays, broadcast against size (each element's range checked)."""
        if high is None:
            low, high = 0, low
        if _is_array(low, high):
            (lo, hi), shape = _parameters([low, high], size, device, "integers", "biu")
            return self._g.integers_arrays(lo, hi, shape, dtype_name(dtype), bool(endpoint))
        low, high, endpoint = _integer(low, "low"), _integer(high, "high"), bool(endpoint)
        name = dtype_name(dtype)
        if _INT64_MIN <= low <= _INT64_MAX and _INT64_MIN <= high <= _INT64_MAX:
            return self._g.integers(low, high, _shape(size), name, endpoint, device)
        # uint64 ranges above 2**63: the inclusive form, which reaches 2**64 - 1.
        last = high if endpoint else high - 1
        if low < 0 or low > _UINT64_MAX:
            raise _weft.InvalidArgument(f"Generator.integers: low is out of bounds for {name}")
        if last > _UINT64_MAX:
            raise _weft.InvalidArgument(f"Generator.integers: high is out of bounds for {name}")
        if last < low:
            raise _weft.InvalidArgument("Generator.integers: " + ("low > high" if endpoint else "low >= high")
                                        + " (the range is empty)")
        return self._g.integers_unsigned(low, last, _shape(size), name, True, device)

    def _order(self, n: int, device: DeviceLike) -> _Array:
        # Positions sorted by 64-bit keys of the stream: a uniformly random order (equal keys,
        # with probability about n**2 / 2**65, keep their index order: the sort is stable).
        keys = self.integers(0, _UINT64_MAX, size=n, dtype="uint64", endpoint=True, device=device)
        return _argsort(keys)

    def permutation(self, x: int | _Array, axis: int = 0, device: DeviceLike = None) -> _Array:
        """A random permutation: of arange(x) (int64) for an integer x, else a permuted copy
        of the weft array x along axis. The same for a seed on every device."""
        if isinstance(x, _numbers.Integral) and not isinstance(x, bool):
            n = _integer(x, "x")
            if n < 0:
                raise ValueError(f"Generator.permutation: x must be a non-negative integer or a weft array, got {n}")
            return self._order(n, device)
        a = _array_arg(x, "permutation")
        if device is not None:
            raise TypeError("Generator.permutation: device= is for an integer x; an array keeps its own device")
        ax = _axis(a, axis, "permutation")
        index = (slice(None),) * ax + (self._order(a.shape[ax], a.device),)
        return _asarray(a[index])

    def shuffle(self, x: _Array, axis: int = 0) -> None:
        """Permutes the weft array x in place along axis (as permutation, written back)."""
        a = _array_arg(x, "shuffle")
        ax = _axis(a, axis, "shuffle")
        index = (slice(None),) * ax + (self._order(a.shape[ax], a.device),)
        a[...] = _asarray(a[index])


def _array_arg(x: object, who: str) -> _Array:
    if not isinstance(x, _Array):
        raise TypeError(f"Generator.{who}: x must be an integer or a weft array (weft.asarray(x) puts a NumPy "
                        f"array on a device), got {type(x).__name__}")
    if x.ndim == 0:
        raise ValueError(f"Generator.{who}: x must have at least one dimension")
    return x


def _axis(a: _Array, axis: int, who: str) -> int:
    if not isinstance(axis, _numbers.Integral) or isinstance(axis, bool) or not -a.ndim <= axis < a.ndim:
        raise _weft.InvalidArgument(f"Generator.{who}: axis must be an integer in [{-a.ndim}, {a.ndim}), got {axis!r}")
    return int(axis) % a.ndim


def default_rng(seed: int | _np.integer[Any] | Generator | None = None) -> Generator:
    """NumPy's spelling: a Generator keyed by seed (a Generator given is returned as it is)."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)
