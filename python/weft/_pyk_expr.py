"""Python kernels (issue 28): typed expressions. Each Python expression becomes a Val, a piece
of the typed IR: its C code, its type (_pyk_types), and what the translation knows of it (a
constant's value, that it is never negative, an array's shape and the parameter it views)."""
from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

import numpy as _np

from ._pyk_frontend import refuse
from ._pyk_types import (BOOL, FLOAT64, INT64, WEAK_BOOL, WEAK_FLOAT, WEAK_INT, ArrayT, Scalar, TupleT, Type,
                         float_of, literal, promote)

if TYPE_CHECKING:
    from ._pyk_program import ProgramText


@dataclass
class Val:
    """A typed value: C code (an array's: its pointer), shape and root for arrays, elements for tuples."""
    code: str
    type: Type
    nonneg: bool = False
    const: Any = None
    shape: tuple[str, ...] = ()
    root: str | None = None
    elems: tuple[Val, ...] = ()
    lvalue: bool = False
    ref: str = ""  # an array element's C lvalue
    space: str = "__global"  # an array's address space (__local: weft.local_array)
    strides: tuple[str, ...] = ()  # a strided view's strides in elements (C-contiguous: from the shape)


def stride(a: Val, k: int) -> str:
    """The C expression of array a's stride along axis k, in elements ("" for 1)."""
    if a.strides:
        return a.strides[k]
    return " * ".join(a.shape[k + 1:])


def sub_array(a: Val, code: str, skip: int) -> Val:
    """The array of a's last dimensions after the first skip ones, starting at code."""
    assert isinstance(a.type, ArrayT)
    return Val(code, ArrayT(a.type.name, a.type.ndim - skip, a.type.strided), shape=a.shape[skip:], root=a.root,
               space=a.space, strides=a.strides[skip:])


def cast(v: Val, t: Scalar) -> str:
    """v's code as a value of type t."""
    assert isinstance(v.type, Scalar)
    if v.const is not None and not isinstance(v.const, str):
        return literal(v.const, t)
    if v.type.name == t.name:
        return v.code
    if t.name == "bool":
        return f"({v.code} != 0)"
    return f"(({t.c}){v.code})"


def truth(v: Val) -> str:
    assert isinstance(v.type, Scalar)
    return v.code if v.type.name == "bool" else f"({v.code} != 0)"


_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}
_BITS = {ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}
_CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_FOLD: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b}

# math.* and NumPy's / weft's functions: C name and arity. math's floor/ceil/trunc give ints.
_UNARY = {"sqrt": "sqrt", "exp": "exp", "log": "log", "log2": "log2", "log10": "log10", "log1p": "log1p",
          "expm1": "expm1", "sin": "sin", "cos": "cos", "tan": "tan", "asin": "asin", "acos": "acos",
          "atan": "atan", "arcsin": "asin", "arccos": "acos", "arctan": "atan", "sinh": "sinh", "cosh": "cosh",
          "tanh": "tanh", "asinh": "asinh", "acosh": "acosh", "atanh": "atanh", "arcsinh": "asinh",
          "arccosh": "acosh", "arctanh": "atanh", "floor": "floor", "ceil": "ceil", "trunc": "trunc",
          "fabs": "fabs", "cbrt": "cbrt", "erf": "erf", "erfc": "erfc", "gamma": "tgamma", "lgamma": "lgamma",
          "exp2": "exp2", "rint": "rint"}
_BINARY = {"atan2": "atan2", "arctan2": "atan2", "hypot": "hypot", "pow": "pow", "power": "pow",
           "copysign": "copysign", "fmod": "fmod", "fmin": "fmin", "fmax": "fmax"}
_PREDICATES = {"isnan", "isinf", "isfinite"}
_WORK_ITEM = {"global_id": "get_global_id", "local_id": "get_local_id", "group_id": "get_group_id",
              "global_size": "get_global_size", "local_size": "get_local_size", "num_groups": "get_num_groups"}


def function_table() -> dict[int, tuple[str, str]]:
    """id(callable) -> (family, name) for the functions kernels may call."""
    import builtins

    from . import _pyk_api
    table: dict[int, tuple[str, str]] = {}
    for name in list(_UNARY) + list(_BINARY) + list(_PREDICATES):
        if hasattr(math, name):
            table[id(getattr(math, name))] = ("math", name)
    import weft
    for mod in (_np, weft):
        for name in list(_UNARY) + list(_BINARY) + list(_PREDICATES) + ["abs", "absolute", "minimum", "maximum"]:
            f = getattr(mod, name, None)
            if f is not None and id(f) not in table:
                table[id(f)] = ("np", name)
        for name in ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32",
                     "float64"):
            table[id(getattr(_np, name))] = ("dtype", "bool" if name == "bool_" else name)
    for name in ("len", "min", "max", "abs", "int", "float", "bool", "round", "range", "enumerate"):
        table[id(getattr(builtins, name))] = ("builtin", name)
    for name in _WORK_ITEM:
        table[id(getattr(_pyk_api, name))] = ("workitem", name)
    table[id(_pyk_api.prange)] = ("builtin", "prange")
    from ._pyk_atomics import NAMES
    for name in ("local_array", "barrier") + NAMES:
        table[id(getattr(_pyk_api, name))] = ("group", name)
    from . import _pyk_random
    for name in _pyk_random.__all__:
        table[id(getattr(_pyk_random, name))] = ("random", name)
    return table


class ExprMixin:
    """Expressions of a FunctionTranslator (_pyk_emit)."""

    p: Any
    vars: dict[str, Val]
    prog: ProgramText
    written: set[str]

    if TYPE_CHECKING:  # helpers the translator provides
        def static_value(self, node: ast.expr) -> tuple[bool, Any]: ...  # pragma: no cover
        def call_jit(self, fn: Any, args: list[Val], node: ast.Call) -> Val: ...  # pragma: no cover
        def need(self, helper: str, t: Scalar) -> str: ...  # pragma: no cover

    def scalar(self, node: ast.expr, what: str = "this value") -> Val:
        v = self.expr(node)
        if not isinstance(v.type, Scalar):
            refuse(self.p, node, f"{what} is {v.type}, where a number is needed",
                   "index arrays down to one element (a[i, j]) and tuples to one item (t[0])")
        return v

    def expr(self, node: ast.expr) -> Val:
        method = getattr(self, "e_" + type(node).__name__, None)
        if method is None:
            refuse(self.p, node, f"the expression {type(node).__name__} is not supported in Python kernels",
                   "use numbers, arrays, tuples, arithmetic, comparisons, calls of math/weft functions and "
                   "@weft.jit functions")
        return method(node)  # type: ignore[no-any-return]

    def e_Constant(self, node: ast.Constant) -> Val:
        v = node.value
        if isinstance(v, bool):
            return Val(literal(v, BOOL), WEAK_BOOL, True, v)
        if isinstance(v, int):
            if not -2 ** 63 <= v < 2 ** 63:
                refuse(self.p, node, f"the integer {v} does not fit in int64", "use a float or a smaller integer")
            return Val(literal(v, INT64), WEAK_INT, v >= 0, v)
        if isinstance(v, float):
            return Val(literal(v, FLOAT64), WEAK_FLOAT, v >= 0, v)
        refuse(self.p, node, f"the constant {v!r} is not supported", "kernels use bool, int and float constants")

    def e_Name(self, node: ast.Name) -> Val:
        if node.id in self.vars:
            return self.vars[node.id]
        found, value = self.static_value(node)
        if found and isinstance(value, (bool, int, float, _np.generic)) and not isinstance(value, _np.ndarray):
            return self.constant(value, node)
        if found:
            refuse(self.p, node, f"'{node.id}' is a {type(value).__name__}, which a kernel cannot use as a value",
                   "pass arrays as arguments; global constants may be bool, int or float")
        refuse(self.p, node, f"the variable '{node.id}' is used before it is assigned",
               "assign it first (kernel variables take their type at their first assignment)")

    def constant(self, value: Any, node: ast.AST) -> Val:
        if isinstance(value, _np.generic):
            t = Scalar(value.dtype.name)
            # (the ignore: a NumPy number compares with 0, which np.generic does not declare)
            return Val(literal(value.item(), t), t, bool(value >= 0), value.item())  # type: ignore[operator]
        return self.e_Constant(ast.copy_location(ast.Constant(value), node))

    def e_Tuple(self, node: ast.Tuple) -> Val:
        elems = tuple(self.scalar(e, "a tuple's item") for e in node.elts)
        return Val("", TupleT(tuple(e.type for e in elems if isinstance(e.type, Scalar))), elems=elems)

    def e_Attribute(self, node: ast.Attribute) -> Val:
        if isinstance(node.value, ast.Name) and node.value.id in self.vars:
            a = self.vars[node.value.id]
            if isinstance(a.type, ArrayT):
                if node.attr == "shape":
                    dims = tuple(Val(s, WEAK_INT, True) for s in a.shape)
                    return Val("", TupleT(tuple(INT64 for _ in dims)), elems=dims)
                if node.attr == "ndim":
                    return self.constant(a.type.ndim, node)
                if node.attr == "size":
                    return Val("(" + " * ".join(a.shape) + ")", WEAK_INT, True)
            refuse(self.p, node, f"'.{node.attr}' of {a.type} is not supported",
                   "arrays have .shape, .ndim and .size in kernels")
        found, value = self.static_value(node)
        if found and isinstance(value, (bool, int, float, _np.generic)):
            return self.constant(value, node)
        refuse(self.p, node, f"'{ast.unparse(node)}' is not a value a kernel can use",
               "use numbers, arrays and tuples; math.pi and other numeric constants are fine")

    def e_Subscript(self, node: ast.Subscript) -> Val:
        if getattr(self, "row_scalars", None):
            from ._pyk_inline import row_element
            cell = row_element(self, node)
            if cell is not None:
                return cell
        base = self.expr(node.value)
        idx = node.slice
        items = list(idx.elts) if isinstance(idx, ast.Tuple) else [idx]
        if isinstance(base.type, TupleT):
            if len(items) != 1:
                refuse(self.p, node, "a tuple takes one index", "write t[0]")
            k = self.expr(items[0])
            if not isinstance(k.const, int) or isinstance(k.const, bool):
                refuse(self.p, items[0], "tuples take constant integer indices only",
                       "write t[0], t[1], ... (or use an array for indices computed at run time)")
            n = len(base.elems)
            if not -n <= k.const < n:
                refuse(self.p, items[0], f"index {k.const} is out of range for a tuple of {n} items")
            return base.elems[k.const]
        if not isinstance(base.type, ArrayT):
            refuse(self.p, node, f"{base.type} cannot be indexed", "index arrays and tuples")
        return self.index(base, items, node)

    def index(self, a: Val, items: list[ast.expr], node: ast.AST) -> Val:
        assert isinstance(a.type, ArrayT)
        nd = a.type.ndim
        if len(items) > nd:
            refuse(self.p, node, f"{len(items)} indices for a {nd}-d array ({a.type})", f"give at most {nd}")
        terms, checked = [], []
        for k, item in enumerate(items):
            i = self.scalar(item, "an index")
            assert isinstance(i.type, Scalar)
            if not i.type.is_int:
                refuse(self.p, item, f"an index of type {i.type}", "indices must be integers: write int(x)")
            code = cast(i, INT64)
            if self.prog.boundscheck and a.space == "__global":
                root = self.vars.get(a.root or "")
                site = self.prog.site(self.p, item, node, a, k,
                                      root.type.ndim if root is not None and isinstance(root.type, ArrayT) else 0)
                checked.append(f"pyk_bc({code}, {a.shape[k]}, {site}, pyk_err)")
            if isinstance(i.const, int) and i.const < 0:
                code = f"({a.shape[k]} + {code})"
            elif not i.nonneg and i.type.kind == "i":
                code = f"({code} < 0 ? {code} + {a.shape[k]} : {code})"
            s = stride(a, k)
            terms.append(f"{code} * {s}" if s else code)
        off = " + ".join(terms) if terms else "0"
        t = a.type.elem
        if checked and a.strides:  # a strided view: LONG_MIN for a bad index (offsets may be negative)
            self.prog.need_strided_at(a.type.elem.c_storage)
            off = f"pyk_sj(0, {checked[0]}, {a.strides[0]})"
            for k in range(1, len(checked)):
                off = f"pyk_sj({off}, {checked[k]}, {a.strides[k]})"
            if len(items) == nd:
                c = a.type.elem.c_storage
                ref = f"(*pyk_ats_{c}({a.code}, {off}, pyk_sink))"
                load = f"(*pyk_atsc_{c}({a.code}, {off}, pyk_sink))"
                return Val(f"({load} != 0)" if t.name == "bool" else load, t, t.kind in "bu", lvalue=True,
                           root=a.root, ref=ref)
            return sub_array(a, f"({a.code} + pyk_srow({off}))", len(items))
        if checked:  # bounds checked: -1 for a bad index, whose access goes to a scratch buffer instead
            off = checked[0]
            for k in range(1, len(checked)):
                off = f"pyk_join({off}, {checked[k]}, {a.shape[k]})"
            if len(items) == nd:
                c = t.c_storage
                ref = f"(*pyk_at_{c}({a.code}, {off}, pyk_sink))"
                load = f"(*pyk_atc_{c}({a.code}, {off}, pyk_sink))"
                self.prog.need_at(c)
                return Val(f"({load} != 0)" if t.name == "bool" else load, t, t.kind in "bu", lvalue=True,
                           root=a.root, ref=ref)
            return sub_array(a, f"({a.code} + pyk_row({off}) * {' * '.join(a.shape[len(items):nd])})", len(items))
        if len(items) == nd:
            ref = f"{a.code}[{off}]"
            return Val(f"({ref} != 0)" if t.name == "bool" else ref, t, t.kind in "bu", lvalue=True,
                       root=a.root, ref=ref)
        return sub_array(a, f"({a.code} + {off})", len(items))

    def e_UnaryOp(self, node: ast.UnaryOp) -> Val:
        v = self.scalar(node.operand)
        assert isinstance(v.type, Scalar)
        if isinstance(node.op, ast.Not):
            return Val(f"(!{truth(v)})", BOOL)
        t = INT64 if v.type.kind == "b" else v.type
        if isinstance(node.op, ast.Invert):
            if v.type.kind == "b":
                return Val(f"(!{v.code})", BOOL)
            if not t.is_int:
                refuse(self.p, node, f"'~' of {v.type}", "'~' takes integers and bools")
            return Val(f"(({t.c})~{cast(v, t)})", t)
        if isinstance(node.op, ast.USub):
            if v.const is not None:
                return Val(literal(-v.const, t), t, -v.const >= 0, -v.const)
            return Val(f"(({t.c})-{cast(v, t)})" if t.is_int else f"(-{cast(v, t)})", t)
        return Val(cast(v, t), t, v.nonneg)

    def e_BinOp(self, node: ast.BinOp) -> Val:
        a, b = self.scalar(node.left), self.scalar(node.right)
        return self.binop(node.op, a, b, node)

    def binop(self, op: ast.operator, a: Val, b: Val, node: ast.AST) -> Val:
        assert isinstance(a.type, Scalar) and isinstance(b.type, Scalar)
        t = promote(a.type, b.type)
        if t.is_int and not t.weak and t.name != "int64":  # a weak int meets a narrower dtype (NEP 50)
            for x in (a, b):
                if isinstance(x.type, Scalar) and x.type.weak and x.type.kind == "i" and x.const is None:
                    self.weak_meets.setdefault(x.code, set()).add(t.name)
        if t.kind == "b" and not isinstance(op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            t = WEAK_INT if t.weak else INT64
        both_const = a.const is not None and b.const is not None
        if type(op) in _ARITH:
            if both_const and t.is_int and type(op) in _FOLD:
                v = _FOLD[type(op)](a.const, b.const)
                if -2 ** 63 <= v < 2 ** 63:
                    return Val(literal(v, t), t, v >= 0, v)
            code = f"({cast(a, t)} {_ARITH[type(op)]} {cast(b, t)})"
            if t.name in ("int8", "int16", "uint8", "uint16"):
                code = f"(({t.c}){code})"
            nonneg = a.nonneg and b.nonneg and not isinstance(op, ast.Sub)
            return Val(code, t, nonneg)
        if isinstance(op, ast.Div):
            ft = t if t.is_float else (WEAK_FLOAT if t.weak else FLOAT64)
            return Val(f"({cast(a, ft)} / {cast(b, ft)})", ft, a.nonneg and b.nonneg)
        if isinstance(op, (ast.FloorDiv, ast.Mod)):
            kind = "floordiv" if isinstance(op, ast.FloorDiv) else "mod"
            if t.is_int and a.nonneg and b.nonneg:
                kind = "u" + kind
            fn = self.need(kind, t.strong())
            return Val(f"{fn}({cast(a, t)}, {cast(b, t)})", t, a.nonneg and b.nonneg)
        if isinstance(op, ast.Pow):
            if isinstance(b.const, int) and not isinstance(b.const, bool) and 0 <= b.const <= 8 and t.is_int:
                return Val("(" + " * ".join([cast(a, t)] * b.const) + ")" if b.const else literal(1, t), t)
            if t.is_int:
                refuse(self.p, node, "an integer power with an exponent that is not a constant from 0 to 8",
                       "write float(a) ** b for a float power, or multiply in a loop")
            return Val(f"pow({cast(a, t)}, {cast(b, t)})", t)
        if type(op) in _BITS:
            if not (t.is_int or t.kind == "b"):
                refuse(self.p, node, f"'{_BITS[type(op)]}' of {a.type} and {b.type}",
                       "bit operations take integers and bools")
            return Val(f"(({t.c})({cast(a, t)} {_BITS[type(op)]} {cast(b, t)}))", t, a.nonneg and b.nonneg)
        refuse(self.p, node, f"the operator {type(op).__name__} is not supported",
               "use + - * / // % ** and bit operators")

    def e_Compare(self, node: ast.Compare) -> Val:
        parts = []
        left = self.scalar(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            right = self.scalar(right_node)
            if type(op) not in _CMP:
                refuse(self.p, node, f"the comparison {type(op).__name__} is not supported",
                       "compare numbers with < <= > >= == !=")
            assert isinstance(left.type, Scalar) and isinstance(right.type, Scalar)
            t = promote(left.type, right.type)
            parts.append(f"({cast(left, t)} {_CMP[type(op)]} {cast(right, t)})")
            left = right
        return Val(parts[0] if len(parts) == 1 else "(" + " && ".join(parts) + ")", BOOL)

    def e_BoolOp(self, node: ast.BoolOp) -> Val:
        vals = [self.scalar(v) for v in node.values]
        for v, n in zip(vals, node.values):
            assert isinstance(v.type, Scalar)
            if v.type.kind != "b" and not getattr(self, "in_condition", False):
                refuse(self.p, n, f"'{'and' if isinstance(node.op, ast.And) else 'or'}' of {v.type} values "
                       "(Python gives one of the operands, not a bool)",
                       "compare explicitly (x != 0) or use it in an if/while condition")
        op = " && " if isinstance(node.op, ast.And) else " || "
        return Val("(" + op.join(truth(v) for v in vals) + ")", BOOL)

    def e_IfExp(self, node: ast.IfExp) -> Val:
        c, a, b = self.scalar(node.test), self.scalar(node.body), self.scalar(node.orelse)
        assert isinstance(a.type, Scalar) and isinstance(b.type, Scalar)
        t = promote(a.type, b.type)
        return Val(f"({truth(c)} ? {cast(a, t)} : {cast(b, t)})", t, a.nonneg and b.nonneg)

    def e_Call(self, node: ast.Call) -> Val:
        found, fn = self.static_value(node.func)
        if not found:
            refuse(self.p, node.func, f"'{ast.unparse(node.func)}' is not a function kernels can call",
                   "call @weft.jit functions, math.*, weft.* math and min/max/abs/len/int/float/bool")
        from ._pyk_api import JitFunction
        if isinstance(fn, JitFunction):
            return self.call_jit(fn, [self.expr(a) for a in node.args], node)
        family, name = self.table.get(id(fn), ("", ""))
        args = node.args
        if family == "workitem":
            if len(args) != 1:
                refuse(self.p, node, f"weft.{name} takes one argument, the dimension", f"write weft.{name}(0)")
            d = self.scalar(args[0])
            if not isinstance(d.const, int) or not 0 <= d.const <= 2:
                refuse(self.p, args[0], "the dimension must be a constant 0, 1 or 2")
            return Val(f"((long){_WORK_ITEM[name]}({d.const}))", INT64, True)
        if family == "builtin":
            return self.call_builtin(name, args, node)
        if family == "group":
            return self.call_group(name, args, node)
        if family == "random":
            from ._pyk_random import call_random
            return call_random(self, name, args, node)
        if family in ("math", "np"):
            return self.call_math(family, name, args, node)
        if family == "dtype":
            self.arity(node, name, 1)
            return Val(cast(self.scalar(args[0]), Scalar(name)), Scalar(name))
        refuse(self.p, node.func, f"'{ast.unparse(node.func)}' ({type(fn).__name__}) cannot be called in a kernel",
               "decorate it with @weft.jit, or use math.*, weft.* math and min/max/abs/len/int/float/bool")

    def call_group(self, name: str, args: list[ast.expr], node: ast.Call) -> Val:
        """weft.local_array and weft.barrier (@weft.kernel only) and the atomics (_pyk_atomics)."""
        if name.startswith("atomic_"):
            from ._pyk_atomics import call_atomic
            return call_atomic(self, name, args, node)
        if getattr(self, "mode", "") != "kernel":
            refuse(self.p, node, f"weft.{name} is for @weft.kernel bodies (work-groups)",
                   "write it in a @weft.kernel, or use weft.prange in a @weft.jit function")
        if name == "barrier":
            self.arity(node, name, 0)
            return Val("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)", Scalar("int32"))
        if name == "local_array":
            refuse(self.p, node, "weft.local_array(shape, dtype) makes a variable",
                   "assign it to a name on its own line: tile = weft.local_array(256, numpy.float32)")
        refuse(self.p, node, f"weft.{name} is not a kernel function")

    def arity(self, node: ast.Call, name: str, n: int) -> None:
        if len(node.args) != n:
            refuse(self.p, node, f"{name}() takes {n} argument{'s' if n != 1 else ''} in kernels, "
                   f"{len(node.args)} given")

    def call_builtin(self, name: str, args: list[ast.expr], node: ast.Call) -> Val:
        if name == "len":
            self.arity(node, name, 1)
            a = self.expr(args[0])
            if isinstance(a.type, TupleT):
                return self.constant(len(a.elems), node)
            if not isinstance(a.type, ArrayT):
                refuse(self.p, node, f"len() of {a.type}", "len() takes arrays and tuples")
            return Val(a.shape[0], WEAK_INT, True)
        if name in ("min", "max"):
            if len(args) < 2:
                refuse(self.p, node, f"{name}() of one argument", f"write {name}(a, b, ...) with two or more numbers")
            vals = [self.scalar(a) for a in args]
            out = vals[0]
            for v in vals[1:]:
                assert isinstance(out.type, Scalar) and isinstance(v.type, Scalar)
                t = promote(out.type, v.type)
                out = Val(f"{name}({cast(out, t)}, {cast(v, t)})", t, out.nonneg and v.nonneg
                          if name == "min" else out.nonneg or v.nonneg)
            return out
        if name == "abs":
            self.arity(node, name, 1)
            return self.call_math("np", "abs", args, node)
        if name in ("int", "float", "bool"):
            self.arity(node, name, 1)
            v = self.scalar(args[0])
            t = {"int": WEAK_INT, "float": WEAK_FLOAT, "bool": WEAK_BOOL}[name]
            return Val(truth(v) if name == "bool" else cast(v, t), t, v.nonneg and name != "float")
        if name == "round":
            self.arity(node, name, 1)
            v = self.scalar(args[0])
            assert isinstance(v.type, Scalar)
            return Val(f"((long)rint({cast(v, float_of(v.type))}))" if v.type.is_float else cast(v, INT64), WEAK_INT)
        refuse(self.p, node, f"{name}() is only supported as a for loop's iterable",
               f"write: for i in {name}(...):")

    def call_math(self, family: str, name: str, args: list[ast.expr], node: ast.Call) -> Val:
        vals = [self.scalar(a) for a in args]
        t: Type
        if name in ("abs", "absolute"):
            self.arity(node, name, 1)
            v = vals[0]
            assert isinstance(v.type, Scalar)
            t = v.type if v.type.kind != "b" else (WEAK_INT if v.type.weak else INT64)
            if t.is_float:
                return Val(f"fabs({cast(v, t)})", t, True)
            return Val(f"(({t.c})abs({cast(v, t)}))", t, t.kind == "u")
        if name in ("minimum", "maximum"):
            self.arity(node, name, 2)
            return self.call_builtin(name[:3], args, node)
        ts = [v.type for v in vals]
        t = ts[0] if len(ts) == 1 else promote(ts[0], ts[1])  # type: ignore[arg-type]
        assert isinstance(t, Scalar)
        ft = FLOAT64 if family == "math" else float_of(t.strong())
        if name in _PREDICATES:
            self.arity(node, name, 1)
            if not t.is_float:
                return Val("true" if name == "isfinite" else "false", BOOL)
            return Val(f"({name}({cast(vals[0], ft)}) != 0)", BOOL)
        if name in _UNARY:
            self.arity(node, name, 1)
            code = f"{_UNARY[name]}({cast(vals[0], ft)})"
            if family == "math" and name in ("floor", "ceil", "trunc"):
                return Val(f"((long){code})", WEAK_INT) if t.is_float else Val(cast(vals[0], INT64), WEAK_INT,
                                                                                 vals[0].nonneg)
            return Val(code, WEAK_FLOAT if family == "math" else ft, name in ("sqrt", "exp", "fabs", "exp2"))
        if name in _BINARY:
            self.arity(node, name, 2)
            return Val(f"{_BINARY[name]}({cast(vals[0], ft)}, {cast(vals[1], ft)})",
                       WEAK_FLOAT if family == "math" else ft)
        refuse(self.p, node, f"{family}.{name} is not supported in kernels")

    table: dict[int, tuple[str, str]]
    # C code of a weak int value -> the integer dtypes arithmetic converted it to: a vectorized
    # function checks its Python int arguments fit them, as NumPy 2 does (OverflowError).
    weak_meets: dict[str, set[str]]


def weak_of(value: Any) -> Scalar:
    return WEAK_BOOL if isinstance(value, bool) else WEAK_INT if isinstance(value, int) else WEAK_FLOAT

