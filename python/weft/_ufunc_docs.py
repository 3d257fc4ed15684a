"""Docstrings of the elementwise functions (weft.sqrt, weft.add, ...), which are the
extension's functions wrapped for NumPy's out= and dtype= (python/weft/_protocols.py's
with_out) and have no def to hold one. Written by scripts/ufunc-docs.py from one table; each example's
output is what weft printed, and the doctests (scripts/docs.sh) check it still is."""
from __future__ import annotations

from typing import Any

# name: (summary, parameters, the example's input(s), what weft printed)
_DOCS = {
    'negative': ('The negative of each element, ``-x``.', 'x', '[1.0, -2.0, 3.0]', 'array([-1.,  2., -3.])'),
    'positive': ('Each element unchanged, ``+x`` (a copy).', 'x', '[1.0, -2.0, 3.0]', 'array([ 1., -2.,  3.])'),
    'abs': ('The absolute value of each element.', 'x', '[-1.5, 0.0, 2.0]', 'array([1.5, 0. , 2. ])'),
    'fabs': ('The absolute value of each element, as a float.', 'x', '[-1.5, 0.0, 2.0]', 'array([1.5, 0. , 2. ])'),
    'sign': ('-1, 0 or 1 by the sign of each element.', 'x', '[-2.5, 0.0, 4.0]', 'array([-1.,  0.,  1.])'),
    'sqrt': ('The non-negative square root of each element.', 'x', '[1.0, 4.0, 9.0]', 'array([1., 2., 3.])'),
    'cbrt': ('The cube root of each element.', 'x', '[1.0, -8.0, 27.0]', 'array([ 1., -2.,  3.])'),
    'square': ('Each element squared, ``x * x``.', 'x', '[1.0, -2.0, 3.0]', 'array([1., 4., 9.])'),
    'reciprocal': ('The reciprocal of each element, ``1 / x``.', 'x', '[1.0, 2.0, 4.0]', 'array([1.  , 0.5 , 0.25])'),
    'exp': ('e raised to each element.', 'x', '[0.0, 1.0, 2.0]', 'array([1.        , 2.71828183, 7.3890561 ])'),
    'exp2': ('2 raised to each element.', 'x', '[0.0, 1.0, 10.0]', 'array([1.000e+00, 2.000e+00, 1.024e+03])'),
    'expm1': ('``exp(x) - 1``, accurate for small x.', 'x', '[0.0, 1e-10, 1.0]', 'array([0.00000000e+00, 1.00000000e-10, 1.71828183e+00])'),
    'log': ('The natural logarithm of each element.', 'x', '[1.0, 2.718281828459045, 100.0]', 'array([0.        , 1.        , 4.60517019])'),
    'log2': ('The base-2 logarithm of each element.', 'x', '[1.0, 8.0, 1024.0]', 'array([ 0.,  3., 10.])'),
    'log10': ('The base-10 logarithm of each element.', 'x', '[1.0, 10.0, 1000.0]', 'array([0., 1., 3.])'),
    'log1p': ('``log(1 + x)``, accurate for small x.', 'x', '[0.0, 1e-10, 1.0]', 'array([0.00000000e+00, 1.00000000e-10, 6.93147181e-01])'),
    'sin': ('The sine of each element (radians).', 'x', '[0.0, 0.5, 1.0]', 'array([0.        , 0.47942554, 0.84147098])'),
    'cos': ('The cosine of each element (radians).', 'x', '[0.0, 0.5, 1.0]', 'array([1.        , 0.87758256, 0.54030231])'),
    'tan': ('The tangent of each element (radians).', 'x', '[0.0, 0.5, 1.0]', 'array([0.        , 0.54630249, 1.55740772])'),
    'arcsin': ('The inverse sine of each element, in [-pi/2, pi/2].', 'x', '[-1.0, 0.0, 1.0]', 'array([-1.57079633,  0.        ,  1.57079633])'),
    'arccos': ('The inverse cosine of each element, in [0, pi].', 'x', '[-1.0, 0.0, 1.0]', 'array([3.14159265, 1.57079633, 0.        ])'),
    'arctan': ('The inverse tangent of each element, in [-pi/2, pi/2].', 'x', '[-1.0, 0.0, 1.0]', 'array([-0.78539816,  0.        ,  0.78539816])'),
    'sinh': ('The hyperbolic sine of each element.', 'x', '[-1.0, 0.0, 1.0]', 'array([-1.17520119,  0.        ,  1.17520119])'),
    'cosh': ('The hyperbolic cosine of each element.', 'x', '[-1.0, 0.0, 1.0]', 'array([1.54308063, 1.        , 1.54308063])'),
    'tanh': ('The hyperbolic tangent of each element.', 'x', '[-1.0, 0.0, 1.0]', 'array([-0.76159416,  0.        ,  0.76159416])'),
    'floor': ('The largest integer not above each element.', 'x', '[-1.5, 0.2, 2.7]', 'array([-2.,  0.,  2.])'),
    'ceil': ('The smallest integer not below each element.', 'x', '[-1.5, 0.2, 2.7]', 'array([-1.,  1.,  3.])'),
    'trunc': ('Each element rounded toward zero.', 'x', '[-1.5, 0.2, 2.7]', 'array([-1.,  0.,  2.])'),
    'rint': ('Each element rounded to the nearest integer, halves to even.', 'x', '[-1.5, 0.5, 2.5]', 'array([-2.,  0.,  2.])'),
    'isnan': ('Whether each element is NaN.', 'x', '[1.0, np.nan, np.inf]', 'array([False,  True, False])'),
    'isinf': ('Whether each element is infinite.', 'x', '[1.0, np.nan, -np.inf]', 'array([False, False,  True])'),
    'isfinite': ('Whether each element is finite (not infinite, not NaN).', 'x', '[1.0, np.nan, np.inf]', 'array([ True, False, False])'),
    'logical_not': ('The logical negation of each element (nonzero is true).', 'x', '[0.0, 1.0, 2.0]', 'array([ True, False, False])'),
    'invert': ('The bitwise inversion (``~x``) of each integer element; logical not of booleans.', 'x', '[0, 1, 2]', 'array([-1, -2, -3])'),
    'arcsinh': ('The inverse hyperbolic sine of each element.', 'x', '[-1.0, 0.0, 1.0]', 'array([-0.88137359,  0.        ,  0.88137359])'),
    'arccosh': ('The inverse hyperbolic cosine of each element (x >= 1).', 'x', '[1.0, 2.0, 10.0]', 'array([0.        , 1.3169579 , 2.99322285])'),
    'arctanh': ('The inverse hyperbolic tangent of each element (-1 < x < 1).', 'x', '[-0.5, 0.0, 0.5]', 'array([-0.54930614,  0.        ,  0.54930614])'),
    'signbit': ('Whether the sign bit of each element is set (true for -0.0).', 'x', '[-1.0, -0.0, 2.0]', 'array([ True,  True, False])'),
    'real': ('The real part of each element (float32 of complex64; a real array is its own real part).', 'x', '[1+2j, 3-1j]', 'array([1., 3.])'),
    'imag': ('The imaginary part of each element (float32 of complex64; zeros for a real array).', 'x', '[1+2j, 3-1j]', 'array([ 2., -1.])'),
    'conj': ('The complex conjugate of each element (a real array is its own).', 'x', '[1+2j, 3-1j]', 'array([1.-2.j, 3.+1.j])'),
    'angle': ('The argument of each element, atan2(imag, real), in radians.', 'x', '[1j, -1.0]', 'array([1.57079633, 3.14159265])'),
    'add': ('The sum of each pair of elements, ``x1 + x2``.', 'x1, x2', ('[1.0, 2.0, 3.0]', '[10.0, 20.0, 30.0]'), 'array([11., 22., 33.])'),
    'subtract': ('The difference of each pair of elements, ``x1 - x2``.', 'x1, x2', ('[10.0, 20.0, 30.0]', '[1.0, 2.0, 3.0]'), 'array([ 9., 18., 27.])'),
    'multiply': ('The product of each pair of elements, ``x1 * x2``.', 'x1, x2', ('[1.0, 2.0, 3.0]', '[10.0, 20.0, 30.0]'), 'array([10., 40., 90.])'),
    'true_divide': ('The quotient of each pair of elements, ``x1 / x2`` (a float for integers).', 'x1, x2', ('[1, 2, 3]', '[2, 2, 2]'), 'array([0.5, 1. , 1.5])'),
    'floor_divide': ('The quotient rounded down, ``x1 // x2``.', 'x1, x2', ('[7, -7, 8]', '[2, 2, 3]'), 'array([ 3, -4,  2])'),
    'remainder': ('The remainder of floor division, ``x1 % x2``, with the sign of x2.', 'x1, x2', ('[7, -7, 8]', '[2, 2, 3]'), 'array([1, 1, 2])'),
    'power': ('x1 raised to x2, ``x1 ** x2``.', 'x1, x2', ('[1.0, 2.0, 3.0]', '[2.0, 2.0, 0.5]'), 'array([1.        , 4.        , 1.73205081])'),
    'minimum': ('The smaller of each pair of elements (NaN if either is NaN).', 'x1, x2', ('[1.0, 5.0, np.nan]', '[2.0, 3.0, 0.0]'), 'array([ 1.,  3., nan])'),
    'maximum': ('The larger of each pair of elements (NaN if either is NaN).', 'x1, x2', ('[1.0, 5.0, np.nan]', '[2.0, 3.0, 0.0]'), 'array([ 2.,  5., nan])'),
    'fmin': ('The smaller of each pair of elements, ignoring a NaN.', 'x1, x2', ('[1.0, 5.0, np.nan]', '[2.0, 3.0, 0.0]'), 'array([1., 3., 0.])'),
    'fmax': ('The larger of each pair of elements, ignoring a NaN.', 'x1, x2', ('[1.0, 5.0, np.nan]', '[2.0, 3.0, 0.0]'), 'array([2., 5., 0.])'),
    'arctan2': ('The angle of the point (x2, x1), ``atan(x1 / x2)`` in the right quadrant, in [-pi, pi].', 'x1, x2', ('[1.0, 1.0, -1.0]', '[1.0, -1.0, -1.0]'), 'array([ 0.78539816,  2.35619449, -2.35619449])'),
    'hypot': ('``sqrt(x1**2 + x2**2)`` without overflow.', 'x1, x2', ('[3.0, 5.0, 1e200]', '[4.0, 12.0, 1e200]'), 'array([5.00000000e+000, 1.30000000e+001, 1.41421356e+200])'),
    'logaddexp': ('``log(exp(x1) + exp(x2))`` without overflow.', 'x1, x2', ('[0.0, 1000.0, -1.0]', '[0.0, 1000.0, 2.0]'), 'array([6.93147181e-01, 1.00069315e+03, 2.04858735e+00])'),
    'copysign': ('The magnitude of x1 with the sign of x2, for each pair of elements.', 'x1, x2', ('[1.0, -2.0, 3.0]', '[-1.0, 1.0, -0.0]'), 'array([-1.,  2., -3.])'),
    'nextafter': ('The next floating-point value after x1 toward x2, for each pair of elements.', 'x1, x2', ('[1.0, 1.0, 0.0]', '[2.0, 0.0, 1.0]'), 'array([1.e+000, 1.e+000, 5.e-324])'),
    'left_shift': ('Each integer element of x1 shifted left by x2 bits, ``x1 << x2``.', 'x1, x2', ('[1, 3, 5]', '[1, 2, 3]'), 'array([ 2, 12, 40])'),
    'right_shift': ('Each integer element of x1 shifted right by x2 bits, ``x1 >> x2``.', 'x1, x2', ('[8, 12, 40]', '[1, 2, 3]'), 'array([4, 3, 5])'),
    'less': ('Whether ``x1 < x2``, for each pair of elements.', 'x1, x2', ('[1, 2, 3]', '[2, 2, 2]'), 'array([ True, False, False])'),
    'less_equal': ('Whether ``x1 <= x2``, for each pair of elements.', 'x1, x2', ('[1, 2, 3]', '[2, 2, 2]'), 'array([ True,  True, False])'),
    'greater': ('Whether ``x1 > x2``, for each pair of elements.', 'x1, x2', ('[1, 2, 3]', '[2, 2, 2]'), 'array([False, False,  True])'),
    'greater_equal': ('Whether ``x1 >= x2``, for each pair of elements.', 'x1, x2', ('[1, 2, 3]', '[2, 2, 2]'), 'array([False,  True,  True])'),
    'equal': ('Whether ``x1 == x2``, for each pair of elements.', 'x1, x2', ('[1, 2, 3]', '[2, 2, 2]'), 'array([False,  True, False])'),
    'not_equal': ('Whether ``x1 != x2``, for each pair of elements.', 'x1, x2', ('[1, 2, 3]', '[2, 2, 2]'), 'array([ True, False,  True])'),
    'logical_and': ('The logical and of each pair of elements (nonzero is true).', 'x1, x2', ('[0, 1, 2]', '[1, 1, 0]'), 'array([False,  True, False])'),
    'logical_or': ('The logical or of each pair of elements (nonzero is true).', 'x1, x2', ('[0, 1, 2]', '[0, 0, 3]'), 'array([False,  True,  True])'),
    'logical_xor': ('The logical exclusive or of each pair of elements (nonzero is true).', 'x1, x2', ('[0, 1, 2]', '[1, 1, 0]'), 'array([ True, False,  True])'),
    'bitwise_and': ('The bitwise and of each pair of integer elements, ``x1 & x2``.', 'x1, x2', ('[12, 10, 7]', '[10, 6, 1]'), 'array([8, 2, 1])'),
    'bitwise_or': ('The bitwise or of each pair of integer elements, ``x1 | x2``.', 'x1, x2', ('[12, 10, 7]', '[10, 6, 1]'), 'array([14, 14,  7])'),
    'bitwise_xor': ('The bitwise exclusive or of each pair of integer elements, ``x1 ^ x2``.', 'x1, x2', ('[12, 10, 7]', '[10, 6, 1]'), 'array([ 6, 12,  6])'),
}



def _docstring(name: str, summary: str, params: str, data: Any, output: str) -> str:
    if params == "x":
        parameters = "x : weft.Array\n    The input."
        example = f">>> x = weft.asarray(np.array({data}))\n>>> weft.{name}(x).get()\n{output}"
    else:
        parameters = ("x1, x2 : weft.Array or number\n    The inputs, broadcast against each other (at least one an\n"
                      "    array; the result's dtype by NumPy's promotion rules).")
        example = (f">>> x1 = weft.asarray(np.array({data[0]}))\n>>> x2 = weft.asarray(np.array({data[1]}))\n"
                   f">>> weft.{name}(x1, x2).get()\n{output}")
    return f"""{summary}

As numpy.{name}. Lazy: the result is an expression that runs, fused with the operations
around it into one generated kernel, when its value is needed.

Parameters
----------
{parameters}
out : weft.Array, optional
    An array of the result's shape to write into (it is returned).
dtype : dtype, optional
    Compute in this dtype (the inputs are converted first).

Returns
-------
weft.Array
    The result, on the inputs' device.

Raises
------
TypeError
    No operand is a weft.Array, or a NumPy array is mixed in (move it with weft.asarray).
weft.InvalidArgument
    The shapes do not broadcast, or the operands are on different devices.

Examples
--------
{example}
"""


def apply(namespace: dict[str, Any]) -> None:
    """Gives each elementwise function of namespace (weft's) its docstring."""
    for name, (summary, params, data, output) in _DOCS.items():
        namespace[name].__doc__ = _docstring(name, summary, params, data, output)
