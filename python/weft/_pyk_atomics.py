"""Python kernels (issue 28): atomics in @weft.kernel bodies. ``weft.atomic_add/sub/min/max/
xchg(array, index, value)``, ``weft.atomic_inc(array, index)`` and ``weft.atomic_cas(array,
index, expected, value)`` update one element of a global or local array and return its old
value, for int32, uint32, int64, uint64, float32 and float64 elements:

- 32-bit integers: OpenCL C 1.2's atomic_* functions;
- 64-bit integers: atom_* (the program enables cl_khr_int64_base_atomics, and for min and max
  cl_khr_int64_extended_atomics, on OpenCL; the host and CUDA translations have them always);
- floats: a compare-and-swap loop on the bits (add, sub, min, max), an exchange of the bits
  (xchg), a compare-and-swap of the bits (cas: equal means the same bits). min and max store
  nothing for a NaN value (comparisons with NaN are false).

Every backend runs the same dialect text (the host backend's prelude and the CUDA translation
define the atomic_* and atom_* functions for 32- and 64-bit integers)."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from . import _weft
from ._pyk_frontend import refuse
from ._pyk_types import ArrayT, Scalar

if TYPE_CHECKING:
    from ._pyk_expr import Val
    from ._pyk_program import ProgramText

NAMES = ("atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_inc", "atomic_xchg", "atomic_cas")
TYPES = ("int32", "uint32", "int64", "uint64", "float32", "float64")
_OPERANDS = {"atomic_inc": 0, "atomic_cas": 2}
_FLOAT_UPDATE = {"atomic_add": "old + v", "atomic_sub": "old - v", "atomic_min": "v < old ? v : old",
                 "atomic_max": "v > old ? v : old"}
_FLOAT_STOP = {"atomic_min": "!(v < old)", "atomic_max": "!(v > old)"}  # nothing to store


def _stub(name: str, what: str, operands: str, result: str, example: str, kinds: str) -> Any:
    def f(*args: Any) -> Any:
        raise _weft.Unsupported(f"weft.{name} works in Python kernels only; it has no meaning in plain Python")
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"""In a @weft.kernel or @weft.jit function: ``weft.{name}(array, index{operands})`` {what} the
element atomically and returns its old value. Elements: {kinds} (64-bit integers need OpenCL's
cl_khr_int64_base_atomics, min/max cl_khr_int64_extended_atomics; floats by compare-and-swap).

Parameters
----------
array : array
    A kernel argument array (global) or a weft.local_array.
index : int or tuple of int
    The element's index.{"" if not operands else chr(10) + "value : number" + chr(10) + "    The operand(s), converted to the array's dtype."}

Returns
-------
number
    The element's value before the operation.

Raises
------
weft.Unsupported
    When called from plain Python, or on an array of another dtype.

Examples
--------
>>> @weft.kernel
... def update(a, x):
...     weft.{name}(a, 0{example})
>>> a = weft.asarray(np.array([5, 0], dtype=np.int64))
>>> update(weft.default_device(), (4,), None, a, weft.asarray(np.array([0, 2, 2, 2]))).wait()
>>> a.get()
array({result})
"""
    return f


_ALL = "int32, uint32, int64, uint64, float32 or float64"
atomic_add = _stub("atomic_add", "adds value to", ", value", "[9, 0]", ", 1", _ALL)
atomic_sub = _stub("atomic_sub", "subtracts value from", ", value", "[1, 0]", ", 1", _ALL)
atomic_min = _stub("atomic_min", "takes the minimum of value and", ", value", "[2, 0]", ", x[1]", _ALL)
atomic_max = _stub("atomic_max", "takes the maximum of value and", ", value", "[7, 0]", ", 7", _ALL)
atomic_inc = _stub("atomic_inc", "adds 1 to", "", "[9, 0]", "", "int32, uint32, int64 or uint64")
atomic_xchg = _stub("atomic_xchg", "stores value in", ", value", "[3, 0]", ", 3", _ALL)
atomic_cas = _stub("atomic_cas", "stores value in (where it equals expected: floats compare bits)",
                   ", expected, value", "[6, 0]", ", 5, 6", _ALL)


def _extension(prog: ProgramText, name: str) -> None:
    prog.runtime.setdefault(f"ext_{name}", f"#pragma OPENCL EXTENSION {name} : enable")


def need_float(prog: ProgramText, op: str, t: Scalar, space: str) -> str:
    """A float atomic (a compare-and-swap loop, or an exchange, on the bits) for space (__global or
    __local): its C name."""
    c = t.c
    u, bits = ("uint", "as_uint") if c == "float" else ("ulong", "as_ulong")
    cas = "atomic_cmpxchg" if c == "float" else "atom_cmpxchg"
    if c == "double":
        _extension(prog, "cl_khr_int64_base_atomics")
        prog.uses_double = True
    name = f"pyk_{op}_{c}_{space.strip('_')}"
    if name in prog.runtime:
        return name
    if op == "atomic_xchg":
        xchg = "atomic_xchg" if c == "float" else "atom_xchg"
        body = f"    return as_{c}({xchg}(({space} {u} *)p, {bits}(v)));"
        sig = f"inline {c} {name}({space} {c} *p, {c} v) {{"
    elif op == "atomic_cas":
        body = f"    return as_{c}({cas}(({space} {u} *)p, {bits}(e), {bits}(v)));"
        sig = f"inline {c} {name}({space} {c} *p, {c} e, {c} v) {{"
    else:
        stop = _FLOAT_STOP.get(op)
        body = (f"    {space} {u} *q = ({space} {u} *)p;\n"
                f"    {u} bits = *q, seen;\n"
                f"    for (;;) {{\n"
                f"        {c} old = as_{c}(bits);\n"
                + (f"        if ({stop}) return old;\n" if stop else "")
                + f"        seen = {cas}(q, bits, {bits}(({c})({_FLOAT_UPDATE[op]})));\n"
                f"        if (seen == bits) return old;\n"
                f"        bits = seen;\n"
                f"    }}")
        sig = f"inline {c} {name}({space} {c} *p, {c} v) {{"
    prog.runtime[name] = f"{sig}\n{body}\n}}"
    return name


def call_atomic(tr: Any, name: str, args: list[ast.expr], node: ast.Call) -> Val:
    """weft.atomic_*(array, index, ...) in a kernel: its Val (tr: the translator, an ExprMixin)."""
    from ._pyk_expr import Val, cast
    operands = _OPERANDS.get(name, 1)
    if len(args) != 2 + operands:
        extra = {0: "", 1: ", value", 2: ", expected, value"}[operands]
        refuse(tr.p, node, f"weft.{name} takes (array, index{extra})", f"write weft.{name}(a, i{extra})")
    a = tr.expr(args[0])
    if not isinstance(a.type, ArrayT):
        refuse(tr.p, args[0], f"weft.{name}'s first argument must be an array, not {a.type}")
    items = list(args[1].elts) if isinstance(args[1], ast.Tuple) else [args[1]]
    el = tr.index(a, items, node)
    t = el.type
    if not el.lvalue or not isinstance(t, Scalar) or t.name not in TYPES or (name == "atomic_inc" and t.is_float):
        kinds = "int32, uint32, int64 or uint64" if name == "atomic_inc" else ", ".join(TYPES[:-1]) + " or float64"
        refuse(tr.p, node, f"weft.{name} on {t} elements", f"atomics take one element of {kinds}")
    if a.root:
        tr.written.add(a.root)
    vals = [cast(tr.scalar(v), t) for v in args[2:]]
    if t.is_float:
        fn = need_float(tr.prog, name, t, a.space)
        return Val(f"{fn}(&{el.ref}{''.join(', ' + v for v in vals)})", t)
    if t.dtype.itemsize == 8:
        _extension(tr.prog, "cl_khr_int64_base_atomics")
        if name in ("atomic_min", "atomic_max"):
            _extension(tr.prog, "cl_khr_int64_extended_atomics")
        fn = "atom_" + name[len("atomic_"):]
    else:
        fn = name
    fn = {"atomic_cas": "atomic_cmpxchg", "atom_cas": "atom_cmpxchg"}.get(fn, fn)
    return Val(f"{fn}(&{el.ref}{''.join(', ' + v for v in vals)})", t)
