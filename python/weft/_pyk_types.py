"""Python kernels (issue 28): the types of the typed subset and their promotion.

A value in a Python kernel has one of three types: a Scalar (a NumPy dtype; Python's literals
are *weak* scalars, as NEP 50 has them: ``x + 1`` keeps x's dtype), an ArrayT (a C-contiguous
array of a dtype and a number of dimensions: a kernel argument, or a row of one) or a TupleT
(a small tuple of scalars, held as one C variable per element)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence, Union

import numpy as _np

from ._dtypes import C_NAMES, dtype_name

SCALAR_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float32", "float64")


@dataclass(frozen=True)
class Scalar:
    """A scalar of a NumPy dtype (name), weak for Python's literals (int, float, bool)."""
    name: str
    weak: bool = False

    @property
    def dtype(self) -> _np.dtype[Any]:
        return _np.dtype(self.name)

    @property
    def kind(self) -> str:
        return "b" if self.name == "bool" else self.dtype.kind

    @property
    def is_int(self) -> bool:
        return self.kind in "iu"

    @property
    def is_float(self) -> bool:
        return self.kind == "f"

    @property
    def c(self) -> str:
        """Its C type for private values (bool stays bool)."""
        return "bool" if self.name == "bool" else C_NAMES[self.name]

    @property
    def c_storage(self) -> str:
        """Its C type in memory and as a kernel argument (bool is one byte, uchar)."""
        return "uchar" if self.name == "bool" else C_NAMES[self.name]

    def strong(self) -> Scalar:
        """The type a variable takes from it: weak int is int64, weak float float64."""
        return Scalar(self.name) if self.weak else self

    def __str__(self) -> str:
        return {"bool": "bool", "int64": "int", "float64": "float"}[self.name] + " literal" if self.weak else self.name


@dataclass(frozen=True)
class ArrayT:
    """An array of dtype name and ndim dimensions: C-contiguous, or (strided) a view with an
    offset and strides of its own (kernel arguments then, like Numba's 'A' layout)."""
    name: str
    ndim: int
    strided: bool = False
    inner: int = 0  # a small last extent (1-4) of a C-contiguous n-d array, written into the code; 0: any

    @property
    def elem(self) -> Scalar:
        return Scalar(self.name)

    def __str__(self) -> str:
        return f"{self.name}[{', '.join([':'] * self.ndim)}]" + (" (strided view)" if self.strided else "")


@dataclass(frozen=True)
class TupleT:
    """A tuple of scalars."""
    elems: tuple[Scalar, ...]

    def __str__(self) -> str:
        return "(" + ", ".join(str(e) for e in self.elems) + ("," if len(self.elems) == 1 else "") + ")"


Type = Union[Scalar, ArrayT, TupleT]

BOOL, INT64, FLOAT64 = Scalar("bool"), Scalar("int64"), Scalar("float64")
WEAK_INT, WEAK_FLOAT, WEAK_BOOL = Scalar("int64", True), Scalar("float64", True), Scalar("bool", True)


def promote(a: Scalar, b: Scalar) -> Scalar:
    """NumPy's result type of a binary operation (NEP 50: a weak literal takes the other
    operand's dtype where its kind allows)."""
    if a.weak and b.weak:
        kinds = "bif"
        k = max(kinds.index(a.kind), kinds.index(b.kind))
        return [WEAK_BOOL, WEAK_INT, WEAK_FLOAT][k]
    if a.weak or b.weak:
        weak, strong = (a, b) if a.weak else (b, a)
        if strong.kind == "f" or (weak.kind in "bi" and strong.kind in "iu") or weak.kind == "b":
            return strong
        if weak.kind == "i" and strong.kind == "b":
            return INT64
        return FLOAT64  # a float literal with an integer or bool
    return Scalar(_np.promote_types(a.dtype, b.dtype).name)


def can_hold(var: Scalar, value: Scalar) -> bool:
    """Whether a variable of type var can take value without changing its type (NumPy's safe
    casting; a weak literal fits where its kind does)."""
    if value.weak:
        if value.kind == "b":
            return True
        if value.kind == "i":
            return var.kind in "iuf"
        return var.kind == "f"
    return bool(_np.can_cast(value.dtype, var.dtype, "safe"))


def float_of(t: Scalar) -> Scalar:
    """The float type a math function gives for t (float32 stays, everything else float64)."""
    return t if t.name == "float32" else FLOAT64


def parse_spec(spec: Any) -> Type | None:
    """A type from an annotation or a show_source argument: a NumPy scalar type or dtype,
    int/float/bool, "float64", "float64[:, :]" (an array) or "(int64, int64)"; None if spec is
    not one of those."""
    if spec is bool:
        return BOOL
    if spec is int:
        return INT64
    if spec is float:
        return FLOAT64
    if isinstance(spec, str):
        s = spec.replace(" ", "")
        if s.startswith("(") and s.endswith(")"):
            parts = [p for p in s[1:-1].split(",") if p]
            elems: Sequence[Type | None] = [parse_spec(p) for p in parts]
            if all(isinstance(e, Scalar) for e in elems):
                return TupleT(tuple(e for e in elems if isinstance(e, Scalar)))
            return None
        if s.endswith("]") and "[" in s:
            base, dims = s[:-1].split("[", 1)
            parts = dims.split(",")
            if not all(p == ":" for p in parts):
                return None
            t = parse_spec(base)
            return ArrayT(t.name, len(parts)) if isinstance(t, Scalar) else None
        if s in ("int", "float"):
            return INT64 if s == "int" else FLOAT64
    if isinstance(spec, tuple) and all(parse_spec(e) is not None for e in spec):
        elems = tuple(parse_spec(e) for e in spec)
        if all(isinstance(e, Scalar) for e in elems):
            return TupleT(tuple(e for e in elems if isinstance(e, Scalar)))
        return None
    try:
        dt = _np.dtype(spec)
    except (TypeError, ValueError):
        return None
    return Scalar(dt.name) if dt.name in SCALAR_NAMES else None


def type_of_value(v: Any) -> Type | None:
    """The type a call's argument gives its parameter, or None for a value outside the subset.
    Python's numbers stay weak (int64, float64 and bool values that take the other operand's
    dtype, as NEP 50 has them), so the function computes what it computes when Python runs it;
    NumPy scalars keep their dtype."""
    if isinstance(v, _np.bool_):
        return BOOL
    if isinstance(v, bool):
        return WEAK_BOOL
    if isinstance(v, _np.generic):
        return Scalar(v.dtype.name) if v.dtype.name in SCALAR_NAMES else None
    if isinstance(v, int):
        return WEAK_INT if -2 ** 63 <= v < 2 ** 63 else None
    if isinstance(v, float):
        return WEAK_FLOAT
    if isinstance(v, tuple):
        elems = tuple(type_of_value(e) for e in v)
        if all(isinstance(e, Scalar) for e in elems):
            return TupleT(tuple(e for e in elems if isinstance(e, Scalar)))
        return None
    dtype, shape = getattr(v, "dtype", None), getattr(v, "shape", None)
    if dtype is not None and shape is not None and len(shape) >= 1:
        name = dtype_name(dtype)
        if name in SCALAR_NAMES:
            from . import _weft
            strided = isinstance(v, _weft._Array) and (v.offset != 0 or not v.flags_c_contiguous)
            return _array_type(name, len(shape), strided, inner_extent(shape, strided))
    return None


def inner_extent(shape: Sequence[int], strided: bool) -> int:
    """The last extent an array type carries: that of a C-contiguous array of 2 or more
    dimensions when it is 1 to 4 (points, pairs, RGBA pixels: ``vertices[i, 1]``'s row stride is
    then a constant the device compiler sees), else 0. Part of the type, so each such extent has
    its own translation."""
    return shape[-1] if not strided and len(shape) >= 2 and 1 <= shape[-1] <= 4 else 0


_ARRAY_TYPES: dict[tuple[str, int, bool, int], ArrayT] = {}


def _array_type(name: str, ndim: int, strided: bool = False, inner: int = 0) -> ArrayT:
    t = _ARRAY_TYPES.get((name, ndim, strided, inner))
    if t is None:
        t = _ARRAY_TYPES[(name, ndim, strided, inner)] = ArrayT(name, ndim, strided, inner)
    return t


def literal(value: float | int | bool, t: Scalar) -> str:
    """A C literal of value as type t."""
    if t.name == "bool":
        return "true" if value else "false"
    if t.is_float:
        f = float(value)
        if f != f:
            return "NAN" if t.name == "float32" else "(double)NAN"
        if f in (float("inf"), float("-inf")):
            s = "INFINITY" if t.name == "float32" else "(double)INFINITY"
            return s if f > 0 else "(-" + s + ")"
        r = repr(f)
        if "e" not in r and "." not in r:
            r += ".0"
        return r + ("f" if t.name == "float32" else "")
    i = int(value)
    suffix = {"int64": "L", "uint64": "UL", "uint32": "U"}.get(t.name, "")
    if t.name == "int64" and i == -(2 ** 63):
        return "(-9223372036854775807L - 1L)"
    if i < 0:
        return f"({i}{suffix})"
    return f"(({t.c}){i}{suffix})" if t.name in ("int8", "int16", "uint8", "uint16") else f"{i}{suffix}"
