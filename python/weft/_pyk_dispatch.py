"""Python kernels (issue 28): the launch plan of a cached @weft.kernel call. A call's argument
types decide its translation and kernel; working them out (type_of_value, annotations, the
compiled-kernel lookups) and building the argument list each time cost more than the launch
itself. A plan, cached per signature (each argument's Python type, and an array's dtype, ndim
and layout) and device, holds the kernel and how each argument becomes kernel arguments, so a
repeated call only reads the arguments' signature and builds the list.

    @weft.kernel
    def axpy(y, x, a): ...
    axpy(q, (n,), None, y, x, 2.0)   # first call: types, translation, build; the plan is kept
    axpy(q, (n,), None, y, x, 3.0)   # the same signature: the plan's kernel, no type work
"""
from __future__ import annotations

import types as _types
from typing import Any

import numpy as _np

from . import _weft
from ._pyk_types import ArrayT, Scalar, TupleT, Type, inner_extent

_ARRAY, _STRIDED, _VALUE, _BOOL, _OTHER = range(5)
_PLAIN = (float, int, bool)


def array_key(a: Any) -> tuple[Any, ...]:
    """A weft array argument's part of a signature: dtype, rank, strided, small inner extent."""
    strided = a.offset != 0 or not a.flags_c_contiguous
    return (a._dtype, a.ndim, strided, inner_extent(a.shape, strided) if a.ndim > 1 else 0)


def signature(args: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """The arguments' signature, or None where a plan does not apply (NumPy arrays, tuples and
    other objects take the full path, which also words the errors)."""
    out: list[Any] = []
    for a in args:
        t = type(a)
        if t in _PLAIN or isinstance(a, _np.generic):
            out.append(t)
        elif isinstance(a, _weft._Array):
            out.append(array_key(a))
        else:
            return None
    return tuple(out)


class Plan:
    """A signature's kernel and how each argument is passed."""

    __slots__ = ("kernel", "kinds", "types")

    def __init__(self, types: tuple[Type, ...], kernel: Any) -> None:
        self.types, self.kernel = types, kernel
        kinds = []
        for t in types:
            if isinstance(t, ArrayT):
                kinds.append(_STRIDED if t.strided else _ARRAY)
            elif isinstance(t, Scalar):
                kinds.append(_BOOL if t.name == "bool" else _VALUE)
            else:
                kinds.append(_OTHER)
        self.kinds = tuple(kinds)

    def arguments(self, args: tuple[Any, ...]) -> list[Any]:
        """The kernel's arguments (numbers as they are: the kernel converts each to its
        parameter's type, refusing values out of its range)."""
        flat: list[Any] = []
        for kind, t, a in zip(self.kinds, self.types, args):
            if kind == _ARRAY:
                flat.append(a)
                flat.extend(a.shape)
            elif kind == _VALUE:
                flat.append(a)
            elif kind == _BOOL:
                flat.append(1 if a else 0)
            elif kind == _STRIDED:
                assert isinstance(t, ArrayT)
                flat.extend(_array_args(t, a))
            else:
                flat.extend(_flat((t,), (a,)))
        return flat


def _flat(types: tuple[Type, ...], args: tuple[Any, ...]) -> list[Any]:
    flat: list[Any] = []
    for t, a in zip(types, args):
        if isinstance(t, ArrayT):
            flat.extend(_array_args(t, a))
        elif isinstance(t, TupleT):
            flat.extend(_scalar(e, x) for e, x in zip(t.elems, a))
        else:
            assert isinstance(t, Scalar)
            flat.append(_scalar(t, a))
    return flat


def _array_args(t: ArrayT, a: Any) -> list[Any]:
    """An array's kernel arguments: the array and its shape; a strided view (no copy) passes the
    allocation from its first element up to the view's last, its offset and strides in elements."""
    if not t.strided:
        return [a, *(_np.int64(n) for n in a.shape)]
    item = a.dtype.itemsize
    strides = [s // item for s in a.strides]
    reach = a.offset + sum(max(0, (n - 1) * s) for n, s in zip(a.shape, strides)) if a.size else a.offset
    whole = _weft._as_strided(a, (reach + 1,), (1,), 0)
    return [whole, *(_np.int64(n) for n in a.shape), _np.int64(a.offset), *(_np.int64(s) for s in strides)]


def _scalar(t: Scalar, v: Any) -> Any:
    return _np.uint8(bool(v)) if t.name == "bool" else t.dtype.type(v)


def made_from_source(src: str, func: Any, filename: str, *values: Any) -> Any:
    """What src's (generated) outer function returns: compiled under filename, with func's
    globals, and called with func's closure cells then values (the generated code reads the
    cells at each call); None where src does not compile."""
    try:
        module = compile(src, filename, "exec")
    except SyntaxError:
        return None
    code = next(k for k in module.co_consts if isinstance(k, _types.CodeType))
    outer = _types.FunctionType(code, func.__globals__)
    return outer(*(func.__closure__ or ()), *values)
