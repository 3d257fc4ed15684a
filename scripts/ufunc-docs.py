# Writes python/weft/_ufunc_docs.py: numpy-style docstrings of the elementwise functions, with
# examples whose outputs are computed here by weft on the host (the doctests of
# scripts/docs.sh check them afterwards). Run from the repository root with weft importable:
#   PYTHONPATH=build/python python3 scripts/ufunc-docs.py
import numpy as np, weft, textwrap, pprint
weft.Device("host").use()

U = "x = weft.asarray(np.array({}))"
unary = {
 "negative": ("The negative of each element, ``-x``.", "[1.0, -2.0, 3.0]"),
 "positive": ("Each element unchanged, ``+x`` (a copy).", "[1.0, -2.0, 3.0]"),
 "abs": ("The absolute value of each element.", "[-1.5, 0.0, 2.0]"),
 "fabs": ("The absolute value of each element, as a float.", "[-1.5, 0.0, 2.0]"),
 "sign": ("-1, 0 or 1 by the sign of each element.", "[-2.5, 0.0, 4.0]"),
 "sqrt": ("The non-negative square root of each element.", "[1.0, 4.0, 9.0]"),
 "cbrt": ("The cube root of each element.", "[1.0, -8.0, 27.0]"),
 "square": ("Each element squared, ``x * x``.", "[1.0, -2.0, 3.0]"),
 "reciprocal": ("The reciprocal of each element, ``1 / x``.", "[1.0, 2.0, 4.0]"),
 "exp": ("e raised to each element.", "[0.0, 1.0, 2.0]"),
 "exp2": ("2 raised to each element.", "[0.0, 1.0, 10.0]"),
 "expm1": ("``exp(x) - 1``, accurate for small x.", "[0.0, 1e-10, 1.0]"),
 "log": ("The natural logarithm of each element.", "[1.0, 2.718281828459045, 100.0]"),
 "log2": ("The base-2 logarithm of each element.", "[1.0, 8.0, 1024.0]"),
 "log10": ("The base-10 logarithm of each element.", "[1.0, 10.0, 1000.0]"),
 "log1p": ("``log(1 + x)``, accurate for small x.", "[0.0, 1e-10, 1.0]"),
 "sin": ("The sine of each element (radians).", "[0.0, 0.5, 1.0]"),
 "cos": ("The cosine of each element (radians).", "[0.0, 0.5, 1.0]"),
 "tan": ("The tangent of each element (radians).", "[0.0, 0.5, 1.0]"),
 "arcsin": ("The inverse sine of each element, in [-pi/2, pi/2].", "[-1.0, 0.0, 1.0]"),
 "arccos": ("The inverse cosine of each element, in [0, pi].", "[-1.0, 0.0, 1.0]"),
 "arctan": ("The inverse tangent of each element, in [-pi/2, pi/2].", "[-1.0, 0.0, 1.0]"),
 "sinh": ("The hyperbolic sine of each element.", "[-1.0, 0.0, 1.0]"),
 "cosh": ("The hyperbolic cosine of each element.", "[-1.0, 0.0, 1.0]"),
 "tanh": ("The hyperbolic tangent of each element.", "[-1.0, 0.0, 1.0]"),
 "floor": ("The largest integer not above each element.", "[-1.5, 0.2, 2.7]"),
 "ceil": ("The smallest integer not below each element.", "[-1.5, 0.2, 2.7]"),
 "trunc": ("Each element rounded toward zero.", "[-1.5, 0.2, 2.7]"),
 "rint": ("Each element rounded to the nearest integer, halves to even.", "[-1.5, 0.5, 2.5]"),
 "isnan": ("Whether each element is NaN.", "[1.0, np.nan, np.inf]"),
 "isinf": ("Whether each element is infinite.", "[1.0, np.nan, -np.inf]"),
 "isfinite": ("Whether each element is finite (not infinite, not NaN).", "[1.0, np.nan, np.inf]"),
 "logical_not": ("The logical negation of each element (nonzero is true).", "[0.0, 1.0, 2.0]"),
 "invert": ("The bitwise inversion (``~x``) of each integer element; logical not of booleans.", "[0, 1, 2]"),
 "arcsinh": ("The inverse hyperbolic sine of each element.", "[-1.0, 0.0, 1.0]"),
 "arccosh": ("The inverse hyperbolic cosine of each element (x >= 1).", "[1.0, 2.0, 10.0]"),
 "arctanh": ("The inverse hyperbolic tangent of each element (-1 < x < 1).", "[-0.5, 0.0, 0.5]"),
 "signbit": ("Whether the sign bit of each element is set (true for -0.0).", "[-1.0, -0.0, 2.0]"),
 "real": ("The real part of each element: a copy for the real dtypes weft arrays hold.", "[1.0, -2.0, 3.0]"),
 "conj": ("The complex conjugate: a copy of x for the real dtypes weft arrays hold.", "[1.0, -2.0, 3.0]"),
}
binary = {
 "add": ("The sum of each pair of elements, ``x1 + x2``.", "[1.0, 2.0, 3.0]", "[10.0, 20.0, 30.0]"),
 "subtract": ("The difference of each pair of elements, ``x1 - x2``.", "[10.0, 20.0, 30.0]", "[1.0, 2.0, 3.0]"),
 "multiply": ("The product of each pair of elements, ``x1 * x2``.", "[1.0, 2.0, 3.0]", "[10.0, 20.0, 30.0]"),
 "true_divide": ("The quotient of each pair of elements, ``x1 / x2`` (a float for integers).", "[1, 2, 3]", "[2, 2, 2]"),
 "floor_divide": ("The quotient rounded down, ``x1 // x2``.", "[7, -7, 8]", "[2, 2, 3]"),
 "remainder": ("The remainder of floor division, ``x1 % x2``, with the sign of x2.", "[7, -7, 8]", "[2, 2, 3]"),
 "power": ("x1 raised to x2, ``x1 ** x2``.", "[1.0, 2.0, 3.0]", "[2.0, 2.0, 0.5]"),
 "minimum": ("The smaller of each pair of elements (NaN if either is NaN).", "[1.0, 5.0, np.nan]", "[2.0, 3.0, 0.0]"),
 "maximum": ("The larger of each pair of elements (NaN if either is NaN).", "[1.0, 5.0, np.nan]", "[2.0, 3.0, 0.0]"),
 "fmin": ("The smaller of each pair of elements, ignoring a NaN.", "[1.0, 5.0, np.nan]", "[2.0, 3.0, 0.0]"),
 "fmax": ("The larger of each pair of elements, ignoring a NaN.", "[1.0, 5.0, np.nan]", "[2.0, 3.0, 0.0]"),
 "arctan2": ("The angle of the point (x2, x1), ``atan(x1 / x2)`` in the right quadrant, in [-pi, pi].", "[1.0, 1.0, -1.0]", "[1.0, -1.0, -1.0]"),
 "hypot": ("``sqrt(x1**2 + x2**2)`` without overflow.", "[3.0, 5.0, 1e200]", "[4.0, 12.0, 1e200]"),
 "logaddexp": ("``log(exp(x1) + exp(x2))`` without overflow.", "[0.0, 1000.0, -1.0]", "[0.0, 1000.0, 2.0]"),
 "copysign": ("The magnitude of x1 with the sign of x2, for each pair of elements.", "[1.0, -2.0, 3.0]", "[-1.0, 1.0, -0.0]"),
 "nextafter": ("The next floating-point value after x1 toward x2, for each pair of elements.", "[1.0, 1.0, 0.0]", "[2.0, 0.0, 1.0]"),
 "left_shift": ("Each integer element of x1 shifted left by x2 bits, ``x1 << x2``.", "[1, 3, 5]", "[1, 2, 3]"),
 "right_shift": ("Each integer element of x1 shifted right by x2 bits, ``x1 >> x2``.", "[8, 12, 40]", "[1, 2, 3]"),
 "less": ("Whether ``x1 < x2``, for each pair of elements.", "[1, 2, 3]", "[2, 2, 2]"),
 "less_equal": ("Whether ``x1 <= x2``, for each pair of elements.", "[1, 2, 3]", "[2, 2, 2]"),
 "greater": ("Whether ``x1 > x2``, for each pair of elements.", "[1, 2, 3]", "[2, 2, 2]"),
 "greater_equal": ("Whether ``x1 >= x2``, for each pair of elements.", "[1, 2, 3]", "[2, 2, 2]"),
 "equal": ("Whether ``x1 == x2``, for each pair of elements.", "[1, 2, 3]", "[2, 2, 2]"),
 "not_equal": ("Whether ``x1 != x2``, for each pair of elements.", "[1, 2, 3]", "[2, 2, 2]"),
 "logical_and": ("The logical and of each pair of elements (nonzero is true).", "[0, 1, 2]", "[1, 1, 0]"),
 "logical_or": ("The logical or of each pair of elements (nonzero is true).", "[0, 1, 2]", "[0, 0, 3]"),
 "logical_xor": ("The logical exclusive or of each pair of elements (nonzero is true).", "[0, 1, 2]", "[1, 1, 0]"),
 "bitwise_and": ("The bitwise and of each pair of integer elements, ``x1 & x2``.", "[12, 10, 7]", "[10, 6, 1]"),
 "bitwise_or": ("The bitwise or of each pair of integer elements, ``x1 | x2``.", "[12, 10, 7]", "[10, 6, 1]"),
 "bitwise_xor": ("The bitwise exclusive or of each pair of integer elements, ``x1 ^ x2``.", "[12, 10, 7]", "[10, 6, 1]"),
}
np.set_printoptions(legacy=False)
docs = {}
for name, (summary, data) in unary.items():
    f = getattr(weft, name)
    x = weft.asarray(np.array(eval(data)))
    with np.errstate(all="ignore"):
        out = repr(f(x).get())
    np_name = "numpy." + name
    docs[name] = (summary, "x", data, out)
for name, (summary, a, b) in binary.items():
    f = getattr(weft, name)
    x1 = weft.asarray(np.array(eval(a))); x2 = weft.asarray(np.array(eval(b)))
    with np.errstate(all="ignore"):
        out = repr(f(x1, x2).get())
    docs[name] = (summary, "x1, x2", (a, b), out)
src = ['"""Docstrings of the elementwise functions (weft.sqrt, weft.add, ...), which are the',
       "extension's functions wrapped for NumPy's out= and dtype= (python/weft/_protocols.py's",
       "with_out) and have no def to hold one. Written by scripts/ufunc-docs.py from one table; each example's",
       'output is what weft printed, and the doctests (scripts/docs.sh) check it still is."""',
       "from __future__ import annotations", "", "from typing import Any", "", "# name: (summary, parameters, the example's input(s), what weft printed)", "_DOCS = {"] + [f"    {k!r}: {v!r}," for k, v in docs.items()] + ["}", "",
'''

def _docstring(name: str, summary: str, params: str, data: Any, output: str) -> str:
    if params == "x":
        parameters = "x : weft.Array\\n    The input."
        example = f">>> x = weft.asarray(np.array({data}))\\n>>> weft.{name}(x).get()\\n{output}"
    else:
        parameters = ("x1, x2 : weft.Array or number\\n    The inputs, broadcast against each other (at least one an\\n"
                      "    array; the result's dtype by NumPy's promotion rules).")
        example = (f">>> x1 = weft.asarray(np.array({data[0]}))\\n>>> x2 = weft.asarray(np.array({data[1]}))\\n"
                   f">>> weft.{name}(x1, x2).get()\\n{output}")
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
''']
open("python/weft/_ufunc_docs.py", "w").write("\n".join(src))
