"""The parameter language of CuPy's generator forms (weft.ElementwiseKernel and
weft.ReductionKernel given ``'[raw] TYPE NAME, ...'`` lists): parsing and checking the lists,
binding type placeholders from the arguments' dtypes, and the C source pieces the kernels of
_cupy_kernels are made of (typedefs, renamed identifiers, CuPy's size expressions)."""
from __future__ import annotations

import re as _re
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence, cast

import numpy as _np

from . import _weft
from ._dtypes import C_NAMES

if TYPE_CHECKING:
    from typing import TypeGuard

    from ._array import Array
    from ._weft import Device

# (every _weft._Array is a weft.Array: _array registers the class with the extension)
_ArrayBase = cast("type[Array]", _weft._Array)
_MISS = object()
_PARAM = _re.compile(r"^\s*((?:(?:raw|const)\s+)*)([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*$")
# C tokens: comments, string and character literals, numbers (1.5e-3f is one), identifiers.
_TOKEN = _re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|"
                     r"\.?\d[\w.]*|[A-Za-z_]\w*|->|\S", _re.S)


class _Param:
    __slots__ = ("type", "name", "raw")

    def __init__(self, type_: str, name: str, raw: bool) -> None:
        self.type, self.name, self.raw = type_, name, raw

    @property
    def placeholder(self) -> bool:
        return len(self.type) == 1


def _parse_params(text: object, what: str) -> list[_Param] | None:
    """CuPy's parameter list ('T x, raw float32 y'); None when text is not one (a PyOpenCL
    argument list has pointer stars, an operation has '=' or '[')."""
    if not isinstance(text, str):
        return None
    params = []
    for item in (p for p in text.split(",") if p.strip()):
        m = _PARAM.match(item)
        if not m:
            return None
        params.append(_Param(m.group(2), m.group(3), "raw" in m.group(1).split()))
    return params


def _checked_params(text: object, what: str, kind: str) -> list[_Param]:
    params = _parse_params(text, what)
    if params is None:
        raise _weft.InvalidArgument(f"{kind}: {what} {text!r} is not a CuPy parameter list "
                                    "('[raw] TYPE NAME, ...': TYPE a dtype name such as float64 or a "
                                    "one-letter type placeholder)")
    for p in params:
        if not p.placeholder:
            try:
                name = _np.dtype(p.type).name
            except TypeError:
                name = None
            if name != p.type or (name not in C_NAMES and name != "bool"):
                raise _weft.InvalidArgument(f"{kind}: parameter '{p.name}' has type {p.type!r}: give a dtype "
                                            f"weft holds ({', '.join(sorted(C_NAMES))}, bool) or a one-letter "
                                            "placeholder such as T")
        if p.name in ("i", "a", "b") and kind == "ReductionKernel" or p.name == "i" or p.name.startswith("weft_"):
            raise _weft.InvalidArgument(f"{kind}: parameter name '{p.name}' is reserved (i is the index"
                                        f"{', a and b the reduced values' if kind == 'ReductionKernel' else ''})")
    return params


def is_cupy_form(args: Sequence[object], kwargs: Mapping[str, object]) -> bool:
    """Whether a generator's arguments are CuPy's: two parameter lists, then code."""
    if "in_params" in kwargs or "out_params" in kwargs:
        return True
    return (len(args) >= 3 and all(isinstance(a, str) for a in args[:3])
            and _parse_params(args[0], "") is not None and bool(_parse_params(args[1], "")))


def _substitute(code: str, names: Mapping[str, str]) -> str:
    """code with each identifier in names (not a member after . or ->) replaced by names[id]."""
    out, last = [], ""
    pos = 0
    for m in _TOKEN.finditer(code):
        tok = m.group(0)
        out.append(code[pos:m.start()])
        pos = m.end()
        if tok in names and last not in (".", "->"):
            tok = names[tok]
        out.append(tok)
        if not tok.startswith(("//", "/*")):
            last = tok
    out.append(code[pos:])
    return "".join(out)


_IN_SIZE = _re.compile(r"_in_ind\s*\.\s*size\s*\(\s*\)")
_OUT_SIZE = _re.compile(r"_out_ind\s*\.\s*size\s*\(\s*\)")


def _sizes(code: str, in_size: str, out_size: str) -> str:
    """CuPy's reduction sizes in code: _in_ind.size() (elements read) and _out_ind.size() (results)."""
    return _OUT_SIZE.sub(out_size, _IN_SIZE.sub(in_size, code))


def _count(sig: Iterable[str]) -> str:
    """The name of a generated kernel's element count: n, or weft_n where a parameter is n."""
    return "weft_n" if any(_re.search(r"[\s*]n$", s) for s in sig) else "n"


def _ctype(dtype: str) -> str:
    return "uchar" if dtype == "bool" else C_NAMES[dtype]


def _scalar_dtype(v: object) -> str | None:
    if isinstance(v, _np.generic):
        return v.dtype.name
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int64"
    if isinstance(v, float):
        return "float64"
    return None


def _is_array(v: object) -> TypeGuard[Array]:
    return isinstance(v, _ArrayBase)


def _refuse_foreign(v: object, kind: str, p: _Param) -> None:
    if isinstance(v, _np.ndarray):
        raise TypeError(f"{kind}: argument '{p.name}' is a numpy.ndarray: pass weft.asarray(x) "
                        "(weft copies to the device only when asked, as CuPy)")
    if not _is_array(v) and _scalar_dtype(v) is None:
        raise TypeError(f"{kind}: argument '{p.name}' must be a weft.Array or a number, not {type(v).__name__}")
    if p.raw and not _is_array(v):
        raise TypeError(f"{kind}: raw argument '{p.name}' must be a weft.Array, not {type(v).__name__}")


def _bind_types(kind: str, in_params: Sequence[_Param], ins: Sequence[object], out_params: Sequence[_Param],
                outs: Sequence[Array | None]) -> dict[str, str]:
    """The placeholders' dtypes: from array arguments first, then given outputs, then
    scalars (Python int: int64, float: float64, as CuPy); a typed parameter's array must be
    of its dtype."""
    bound: dict[str, str] = {}

    def bind(p: _Param, dt: str) -> None:
        if p.placeholder:
            if bound.setdefault(p.type, dt) != dt:
                raise TypeError(f"{kind}: type placeholder {p.type} is bound to {bound[p.type]}, but argument "
                                f"'{p.name}' is {dt}")
        elif dt != p.type:
            raise TypeError(f"{kind}: argument '{p.name}' is {dt}, the parameter is {p.type} "
                            f"(cast with .astype({p.type}))")

    for p, v in zip(in_params, ins):
        if _is_array(v):
            bind(p, v._dtype)
    for p, v in zip(out_params, outs):
        if v is not None:
            bind(p, v._dtype)
    for p, v in zip(in_params, ins):
        if not _is_array(v) and p.placeholder and p.type not in bound:
            bound[p.type] = cast(str, _scalar_dtype(v))  # (a number: the callers' _refuse_foreign checked)
    for p in list(in_params) + list(out_params):
        if p.placeholder and p.type not in bound:
            raise TypeError(f"{kind}: cannot tell type placeholder {p.type} of '{p.name}' from the arguments "
                            "(pass an array of that type, or the output)")
    return bound


def _resolved(p: _Param, bound: Mapping[str, str]) -> str:
    return bound[p.type] if p.placeholder else p.type


def _typedefs(bound: Mapping[str, str], in_params: Sequence[_Param], out_params: Sequence[_Param]) -> str:
    lines = [f"typedef {_ctype(t)} {name};" for name, t in sorted(bound.items())]
    lines += [f"typedef {_ctype(_resolved(p, bound))} in{k}_type;" for k, p in enumerate(in_params)]
    lines += [f"typedef {_ctype(_resolved(p, bound))} out{k}_type;" for k, p in enumerate(out_params)]
    return " ".join(lines)


def _whole(a: Array) -> bool:
    return a.offset == 0 and a.flags_c_contiguous


def _prepared(a: Array, shape: Sequence[int]) -> Array:
    """a as a whole contiguous array of shape (broadcast and copied only when it is not one)."""
    if tuple(a.shape) != tuple(shape):
        return a.broadcast_to(shape).copy()
    return a if _whole(a) else a.copy()


def _current_device() -> Device:
    from ._device import current_device
    return current_device()


def _options(options: str | Iterable[object] | None) -> str | None:
    if options is None or isinstance(options, str):
        return options or None
    return " ".join(str(o) for o in options) or None
