"""weft's elementwise functions as NumPy's ufuncs are called: lazy (one fused kernel when the
result is needed), with NumPy's out= and dtype= keywords."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import math as _math

import numpy as _np

from . import _weft
from ._protocols import implements, into, with_out

if TYPE_CHECKING:
    from ._array import Array
    from ._typing import ArrayLike, DTypeLike

add = with_out(_weft.add)
subtract = with_out(_weft.subtract)
multiply = with_out(_weft.multiply)
true_divide = with_out(_weft.true_divide)
floor_divide = with_out(_weft.floor_divide)
remainder = with_out(_weft.remainder)
power = with_out(_weft.power)
negative = with_out(_weft.negative)
abs = with_out(_weft.abs)  # noqa: A001  (NumPy's name)
fabs = with_out(_weft.fabs)
sqrt = with_out(_weft.sqrt)
cbrt = with_out(_weft.cbrt)
exp = with_out(_weft.exp)
exp2 = with_out(_weft.exp2)
expm1 = with_out(_weft.expm1)
log = with_out(_weft.log)
log2 = with_out(_weft.log2)
log10 = with_out(_weft.log10)
log1p = with_out(_weft.log1p)
sin = with_out(_weft.sin)
cos = with_out(_weft.cos)
tan = with_out(_weft.tan)
arcsin = with_out(_weft.arcsin)
arccos = with_out(_weft.arccos)
arctan = with_out(_weft.arctan)
sinh = with_out(_weft.sinh)
cosh = with_out(_weft.cosh)
tanh = with_out(_weft.tanh)
arcsinh = with_out(_weft.arcsinh)
arccosh = with_out(_weft.arccosh)
arctanh = with_out(_weft.arctanh)
arctan2 = with_out(_weft.arctan2)
hypot = with_out(_weft.hypot)
copysign = with_out(_weft.copysign)
nextafter = with_out(_weft.nextafter)
logaddexp = with_out(_weft.logaddexp)
sign = with_out(_weft.sign)
positive = with_out(_weft.positive)
imag = with_out(_weft.imag)
angle = with_out(_weft.angle)


@implements(_np.real)
def _np_real(val: Array) -> Array:
    """numpy.real of a weft.Array: its real parts (a new lazy array, not a view)."""
    r: Array = _weft.real(val)
    return r


@implements(_np.imag)
def _np_imag(val: Array) -> Array:
    """numpy.imag of a weft.Array: its imaginary parts (a new lazy array, not a view)."""
    r: Array = _weft.imag(val)
    return r


@implements(_np.angle)
def _np_angle(z: Array, deg: bool = False) -> Array:
    """numpy.angle of a weft.Array: the argument of each element, in radians (degrees with deg)."""
    r: Array = _weft.angle(z)
    return r * (180.0 / _math.pi) if deg else r
signbit = with_out(_weft.signbit)
left_shift = with_out(_weft.left_shift)
right_shift = with_out(_weft.right_shift)
minimum = with_out(_weft.minimum)
maximum = with_out(_weft.maximum)
fmin = with_out(_weft.fmin)
fmax = with_out(_weft.fmax)
less = with_out(_weft.less)
less_equal = with_out(_weft.less_equal)
greater = with_out(_weft.greater)
greater_equal = with_out(_weft.greater_equal)
equal = with_out(_weft.equal)
not_equal = with_out(_weft.not_equal)
logical_and = with_out(_weft.logical_and)
logical_or = with_out(_weft.logical_or)
logical_xor = with_out(_weft.logical_xor)
logical_not = with_out(_weft.logical_not)
bitwise_and = with_out(_weft.bitwise_and)
bitwise_or = with_out(_weft.bitwise_or)
bitwise_xor = with_out(_weft.bitwise_xor)
invert = with_out(_weft.invert)
isnan = with_out(_weft.isnan)
isinf = with_out(_weft.isinf)
isfinite = with_out(_weft.isfinite)
floor = with_out(_weft.floor)
ceil = with_out(_weft.ceil)
trunc = with_out(_weft.trunc)
rint = with_out(_weft.rint)
square = with_out(_weft.square)
reciprocal = with_out(_weft.reciprocal)
_clip = with_out(_weft.clip)


def clip(x: Array, /, min: ArrayLike | Array | None = None, max: ArrayLike | Array | None = None,  # noqa: A002
         out: Array | None = None, *, dtype: DTypeLike | None = None, a_min: ArrayLike | Array | None = None,
         a_max: ArrayLike | Array | None = None) -> Any:
    """Each element limited to [min, max], as the Array API's clip and numpy.clip.

    Parameters
    ----------
    x : weft.Array
        The input.
    min, max : number or weft.Array, optional
        The bounds; either may be None (no bound on that side).
    out : weft.Array, optional
        An array of the result's shape to write into (it is returned).
    dtype : dtype, optional
        Compute in this dtype.
    a_min, a_max : number or weft.Array, optional
        NumPy's names of the bounds (also taken positionally).

    Returns
    -------
    weft.Array
        The clipped array (lazy, as the elementwise functions).

    Raises
    ------
    TypeError
        The bounds are given both as min/max and as a_min/a_max.

    Examples
    --------
    >>> x = weft.asarray(np.array([-2.0, 0.5, 3.0]))
    >>> weft.clip(x, 0, 1).get()
    array([0. , 0.5, 1. ])
    >>> weft.clip(x, max=0).get()
    array([-2.,  0.,  0.])
    """
    if a_min is not None or a_max is not None:
        if min is not None or max is not None:
            raise TypeError("clip: give the bounds as min=/max= or as a_min=/a_max=, not both")
        min, max = a_min, a_max
    if min is None and max is None:
        r = x.astype(x.dtype, copy=True) if dtype is None else x.astype(dtype, copy=True)
        return r if out is None else into(out, r, "clip")
    if min is None:
        return minimum(x, max, out=out, dtype=dtype)
    if max is None:
        return maximum(x, min, out=out, dtype=dtype)
    return _clip(x, min, max, out=out, dtype=dtype)

# NumPy's other names for some of them.
absolute, divide, mod = abs, true_divide, remainder


def _extension_doc(f: Any) -> str:
    """The extension function's docstring without its first line (nanobind's signature)."""
    return str(f.__doc__).split("\n", 2)[2]


# NumPy's round (half to even, integers keep their dtype) and where, over the extension's, with
# the standard's positional-only signatures (inspect.signature cannot read the extension's).
def round(x: ArrayLike | Array, /) -> Array:  # noqa: A001
    return _weft.round(x)


def where(condition: ArrayLike | Array, x: ArrayLike | Array, y: ArrayLike | Array, /) -> Array:
    return _weft.where(condition, x, y)


round.__doc__, where.__doc__ = _extension_doc(_weft.round), _extension_doc(_weft.where)
around = round
