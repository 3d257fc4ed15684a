"""weft.random in Python kernels (issue 28): counter-based functions of (seed, position) that give
element ``i`` of a fresh ``weft.random.Generator(seed)``'s call, in a @weft.jit function, a
@weft.kernel or a prange body, bit for bit the Generator's on every backend.

    @weft.jit
    def estimate_pi(seed, n):
        inside = 0
        for i in weft.prange(n):
            x = weft.random.random_at(seed, 2 * i)
            y = weft.random.random_at(seed, 2 * i + 1)
            if x * x + y * y < 1.0:
                inside += 1
        return inside

A kernel's program includes the generator's own Philox helpers (src/kernels/cl/random.cl,
random_f64.cl, through ``weft._weft._random_source``), so the numbers are computed by the code
that computes ``Generator.random``'s; called from plain Python the functions ask a Generator."""
from __future__ import annotations

import ast
import operator
import re
from typing import TYPE_CHECKING, Any, SupportsIndex

import numpy as _np

from . import _weft
from ._pyk_frontend import refuse
from ._pyk_types import FLOAT64, Scalar

if TYPE_CHECKING:
    from ._pyk_expr import Val
    from ._pyk_program import ProgramText

__all__ = ["normal_at", "random_at", "raw_at", "uniform_at"]

_PER_BLOCK = {"float32": 4, "float64": 2}


def _dtype(dtype: Any, who: str) -> str:
    try:
        name = str(_np.dtype(dtype).name)
    except TypeError:
        name = ""
    if name not in _PER_BLOCK:
        raise _weft.DTypeError(f"weft.random.{who}: dtype must be float32 or float64, not {dtype!r}")
    return name


def _element(seed_: SupportsIndex, i_: SupportsIndex, dtype: str, draw: str, *params: float) -> Any:
    from .random import Generator
    seed, i = operator.index(seed_), operator.index(i_)
    if i < 0:
        raise ValueError(f"weft.random: the position i must be >= 0, not {i}")
    per = _PER_BLOCK.get(dtype, 4)
    g = Generator(seed)
    g.advance(i // per)
    if draw == "raw":
        return g.random_raw(per).get()[i % per]
    return getattr(g, draw)(*params, size=per, dtype=dtype).get()[i % per]


def random_at(seed: SupportsIndex, i: SupportsIndex, dtype: Any = _np.float64) -> Any:
    """Element ``i`` of ``weft.random.Generator(seed).random(n, dtype)`` (any n > i): a number in
    [0, 1). In Python kernels it is computed in the work-item, from the Philox block that holds
    it, bit for bit as the Generator computes it; from plain Python it asks a Generator.

    Parameters
    ----------
    seed : int
        The Generator's seed (a 64-bit number).
    i : int
        The position in the stream, >= 0 (float32: block i // 4, float64: block i // 2).
    dtype : numpy.float32 or numpy.float64, optional
        The element type (a constant in kernels; default float64).

    Returns
    -------
    numpy.float32 or numpy.float64
        The number.

    Examples
    --------
    >>> u = weft.random.default_rng(7).random(5, dtype=np.float32).get()
    >>> bool(weft.random.random_at(7, 3, np.float32) == u[3])
    True
    """
    return _element(seed, i, _dtype(dtype, "random_at"), "random")


def uniform_at(seed: SupportsIndex, i: SupportsIndex, low: float, high: float, dtype: Any = _np.float64) -> Any:
    """Element ``i`` of ``weft.random.Generator(seed).uniform(low, high, n, dtype)``: ``low +
    (high - low) * u`` rounded once (an fma), as the Generator's (range computed in dtype).

    Parameters
    ----------
    seed, i : int
        The seed and the position, as random_at's.
    low, high : float
        The interval.
    dtype : numpy.float32 or numpy.float64, optional
        The element type (a constant in kernels; default float64).

    Returns
    -------
    numpy.float32 or numpy.float64
        The number.

    Examples
    --------
    >>> u = weft.random.default_rng(1).uniform(-2.0, 2.0, 4).get()
    >>> bool(weft.random.uniform_at(1, 2, -2.0, 2.0) == u[2])
    True
    """
    return _element(seed, i, _dtype(dtype, "uniform_at"), "uniform", low, high)


def normal_at(seed: SupportsIndex, i: SupportsIndex, loc: float = 0.0, scale: float = 1.0, dtype: Any = _np.float64) -> Any:
    """Element ``i`` of ``weft.random.Generator(seed).normal(loc, scale, n, dtype)`` (Box-Muller
    on the Philox words, weft's own log/sin/cos: the same bits on every backend).

    Parameters
    ----------
    seed, i : int
        The seed and the position, as random_at's.
    loc, scale : float, optional
        The mean and the standard deviation (0 and 1).
    dtype : numpy.float32 or numpy.float64, optional
        The element type (a constant in kernels; default float64).

    Returns
    -------
    numpy.float32 or numpy.float64
        The number.

    Examples
    --------
    >>> z = weft.random.default_rng(3).normal(0.0, 1.0, 4).get()
    >>> bool(weft.random.normal_at(3, 1) == z[1])
    True
    """
    return _element(seed, i, _dtype(dtype, "normal_at"), "normal", loc, scale)


def raw_at(seed: SupportsIndex, i: SupportsIndex) -> Any:
    """Word ``i`` of ``weft.random.Generator(seed).random_raw(n)``: word i % 4 of Philox block i // 4,
    a uint32.

    Parameters
    ----------
    seed, i : int
        The seed and the position, as random_at's.

    Returns
    -------
    numpy.uint32
        The word.

    Examples
    --------
    >>> w = weft.random.default_rng(5).random_raw(8).get()
    >>> bool(weft.random.raw_at(5, 6) == w[6])
    True
    """
    return _element(seed, i, "uint32", "raw")


# ---- kernels: the number of arguments each takes (without dtype) and the C helpers.
_ARGS = {"random_at": (2,), "uniform_at": (4,), "normal_at": (2, 4), "raw_at": (2,)}

_HELPERS = {
    "random_float": "inline float pyk_random_at_float(ulong seed, ulong i) {\n"
                    "    uint w[4]; weft_philox_block(seed, 0, 0, i >> 2, w); return weft_unit_f32(w[i & 3]);\n}",
    "random_double": "inline double pyk_random_at_double(ulong seed, ulong i) {\n"
                     "    uint w[4]; weft_philox_block(seed, 0, 0, i >> 1, w);\n"
                     "    uint k = (uint)(i & 1) * 2; return weft_unit_f64(w[k], w[k + 1]);\n}",
    "uniform_float": "inline float pyk_uniform_at_float(ulong seed, ulong i, float low, float high) {\n"
                     "    return fma(high - low, pyk_random_at_float(seed, i), low);\n}",
    "uniform_double": "inline double pyk_uniform_at_double(ulong seed, ulong i, double low, double high) {\n"
                      "    return fma(high - low, pyk_random_at_double(seed, i), low);\n}",
    "normal_float": "inline float pyk_normal_at_float(ulong seed, ulong i, float mean, float scale) {\n"
                    "    uint w[4]; weft_philox_block(seed, 0, 0, i >> 2, w);\n"
                    "    uint k = (uint)(i & 2); float2 p = weft_box_muller_f32(w[k], w[k + 1]);\n"
                    "    return fma(scale, (i & 1) ? p.y : p.x, mean);\n}",
    "normal_double": "inline double pyk_normal_at_double(ulong seed, ulong i, double mean, double scale) {\n"
                     "    uint w[4]; weft_philox_block(seed, 0, 0, i >> 1, w);\n"
                     "    double r = sqrt(-2.0 * weft_log_f64(weft_top53(w[0], w[1]) + 1));\n"
                     "    double2 sc = weft_sincos_turns_f64(weft_top53(w[2], w[3]));\n"
                     "    return fma(scale, (i & 1) ? r * sc.x : r * sc.y, mean);\n}",
    "raw_uint": "inline uint pyk_raw_at_uint(ulong seed, ulong i) {\n"
                "    uint w[4]; weft_philox_block(seed, 0, 0, i >> 2, w); return w[i & 3];\n}",
}


def _library(fp64: bool) -> str:
    """The generator's helpers without its kernels (a program of Python kernels needs no more)."""
    src = _weft._random_source(fp64)
    return re.sub(r"\n__kernel void [^{]*\{.*?\n\}\n", "\n", src, flags=re.S)


def need_random(prog: ProgramText, helper: str, fp64: bool) -> str:
    """The C helper's name, with the Philox library and the helpers it builds on added to prog."""
    if fp64:
        prog.uses_double = True
    have = prog.runtime.get("weft_random")
    if have is None or (fp64 and "weft_log_f64" not in have):
        prog.runtime["weft_random"] = _library(fp64)
    kind, c = helper.rsplit("_", 1)
    if kind in ("uniform",):
        need_random(prog, f"random_{c}", fp64)
    name = f"pyk_{kind}_at_{c}"
    if name not in prog.runtime:
        prog.runtime[name] = _HELPERS[helper]
    return name


def call_random(tr: Any, name: str, args: list[ast.expr], node: ast.Call) -> Val:
    """A weft.random.*_at call in a kernel: its Val (tr: the translator, an ExprMixin)."""
    from ._pyk_expr import Val, cast
    counts = _ARGS[name]
    with_dtype = name != "raw_at"
    if len(args) not in counts + tuple(n + 1 for n in counts if with_dtype):
        params = {"uniform_at": ", low, high", "normal_at": "[, loc, scale]"}.get(name, "")
        refuse(tr.p, node, f"weft.random.{name} takes (seed, i{params}{'[, dtype]' if with_dtype else ''}) "
               f"in kernels, {len(args)} arguments given",
               f"write weft.random.{name}(seed, i{params.strip('[]')}{', numpy.float32' if with_dtype else ''})")
    dtype = "float64"
    if len(args) not in counts:  # the last is the dtype
        found, value = tr.static_value(args[-1])
        try:
            dtype = _np.dtype(value).name if found else ""
        except TypeError:
            dtype = ""
        if dtype not in _PER_BLOCK:
            refuse(tr.p, args[-1], f"weft.random.{name}'s dtype must be a constant float32 or float64",
                   "write numpy.float32 or numpy.float64")
        args = args[:-1]
    t = Scalar("uint32") if name == "raw_at" else FLOAT64 if dtype == "float64" else Scalar("float32")
    u64 = Scalar("uint64")
    vals = [cast(tr.scalar(a, "the seed" if k == 0 else "the position"), u64) for k, a in enumerate(args[:2])]
    for a in args[2:]:
        vals.append(cast(tr.scalar(a), t))
    if name == "normal_at" and len(args) == 2:
        vals += ["0.0f" if t.c == "float" else "0.0", "1.0f" if t.c == "float" else "1.0"]
    fn = need_random(tr.prog, f"{name[:-3]}_{t.c}", dtype == "float64" and name != "raw_at")
    return Val(f"{fn}({', '.join(vals)})", t, name in ("random_at", "raw_at"))
