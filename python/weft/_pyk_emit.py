"""Python kernels (issue 28): statements and functions. A FunctionTranslator walks one
function's checked AST for one tuple of argument types and writes dialect (OpenCL C) text
into a ProgramText (_pyk_program); each @weft.jit function it calls becomes one C helper per
argument types in the same program."""
from __future__ import annotations

import ast
import re
from typing import Any

from ._pyk_expr import _BINARY, _PREDICATES, _UNARY, ExprMixin, Val, cast, truth
from ._pyk_frontend import Parsed, refuse, resolve
from ._pyk_loops import LoopMixin
from ._pyk_program import ProgramText
from ._pyk_types import BOOL, INT64, ArrayT, Scalar, TupleT, Type, can_hold, promote

_C_WORDS = set("""auto break case char const continue default do double else enum extern float for goto if inline
int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile
while bool true false half uchar ushort uint ulong size_t ptrdiff_t intptr_t uintptr_t kernel global local
constant private read_only write_only image1d_t image2d_t image3d_t sampler_t event_t class new delete this
template typename operator namespace using public protected friend virtual and or not xor bitand bitor compl
final override import module typeof min max abs fabs sqrt exp log sin cos tan floor ceil pow main NAN
INFINITY barrier printf""".split())
# ... and every function the translation calls (a variable of that name would hide it).
_C_WORDS |= set(_UNARY.values()) | set(_BINARY.values()) | _PREDICATES | {
    "rint", "atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_inc", "atomic_cmpxchg", "fmin", "fmax",
    "atomic_xchg", "atom_add", "atom_sub", "atom_min", "atom_max", "atom_inc", "atom_xchg", "atom_cmpxchg",
    "as_uint", "as_ulong", "as_float", "as_double"}
_VECTOR = re.compile(r"^(u?char|u?short|u?int|u?long|float|double|half|bool)\d*$")
RET = "@@PYK_RET@@"


def c_name(name: str) -> str:
    """A Python identifier as a C one that clashes with no C or OpenCL name nor weft's own."""
    if name in _C_WORDS or _VECTOR.match(name) or name.startswith(("weft", "WEFT", "pyk_", "get_")) \
            or "__" in name or name.startswith("_"):
        return "pyk_v_" + name.strip("_") + f"_{len(name)}"
    return name


class FunctionTranslator(LoopMixin, ExprMixin):
    """One function for one tuple of argument types: its C text, its return type and which of
    its parameters (indices) it writes through."""

    def __init__(self, prog: ProgramText, p: Parsed, types: tuple[Type, ...], mode: str, cname: str) -> None:
        self.prog, self.p, self.mode, self.cname = prog, p, mode, cname
        self.table = prog.table
        self.types = types
        self.vars: dict[str, Val] = {}
        self.decls: list[str] = []
        self.declared_views: dict[str, Val] = {}
        self.lines: list[str] = []
        self.depth = 1
        self.ntemp = 0
        self.written: set[str] = set()
        self.ret: Scalar | None = None
        self.ret_tuple: TupleT | None = None  # a helper returning a tuple (through pointers)
        self.returns_void = False
        self.loops = 0
        self.outer_names: set[str] | None = None  # in a weft.prange body: names from outside it
        self.in_condition = False
        self.top_continue = "return;"  # 'continue' of the NDRange loop (break: out of a do-while)
        self.reductions: dict[str, str] = {}  # prange reduction variables and their operator
        self.param_roots: dict[str, int] = {}
        self.params_c: list[tuple[str, Type, str]] = []  # (C declaration, type, python name)
        self.inline_last: ast.stmt | None = None  # the prange body's last statement (_pyk_inline)
        self.inline_return: Any = None  # inlined into a kernel: a return's value -> its store
        self.row_loads = False  # short rows read into scalars when taken (_pyk_inline.row_loads)
        self.row_scalars: dict[str, list[str]] = {}
        self.setup_params()

    # ---- plumbing
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def temp(self) -> str:
        self.ntemp += 1
        return f"pyk_t{self.ntemp}"

    def need(self, helper: str, t: Scalar) -> str:
        return self.prog.need(helper, t)

    def static_value(self, node: ast.expr) -> tuple[bool, Any]:
        if isinstance(node, ast.Name):
            if node.id in self.vars:
                return False, None
            return resolve(self.p, node.id)
        if isinstance(node, ast.Attribute):
            found, base = self.static_value(node.value)
            if found and hasattr(base, node.attr):
                return True, getattr(base, node.attr)
        return False, None

    # ---- parameters
    def setup_params(self) -> None:
        self.weak_meets = {}
        kernel = self.mode != "helper"
        for k, (name, t) in enumerate(zip(self.p.params, self.types)):
            c = c_name(name)
            if isinstance(t, ArrayT):
                names = tuple(f"pyk_n_{c}_{d}" for d in range(t.ndim))
                # (a known last extent: its argument is still passed, the code uses the constant)
                shape = names[:-1] + (f"{t.inner}L",) if t.inner else names
                strides = tuple(f"pyk_s_{c}_{d}" for d in range(t.ndim)) if t.strided else ()
                code = f"({c} + pyk_o_{c})" if t.strided else c
                self.vars[name] = Val(code, t, shape=shape, root=name, strides=strides)
                self.param_roots[name] = k
                self.params_c.append((f"__global @@CONST_{name}@@{t.elem.c_storage} *{c}", t, name))
                for s in names + ((f"pyk_o_{c}",) if t.strided else ()) + strides:
                    self.params_c.append((f"long {s}", INT64, ""))
            elif isinstance(t, TupleT):
                elems = tuple(Val(f"pyk_e_{c}_{i}", e) for i, e in enumerate(t.elems))
                for e in elems:
                    assert isinstance(e.type, Scalar)
                    st = e.type.c_storage if kernel else e.type.c
                    self.params_c.append((f"{st} {'pyk_a_' if kernel and e.type.name == 'bool' else ''}{e.code}",
                                          e.type, ""))
                    if kernel and e.type.name == "bool":
                        self.decls.append(f"bool {e.code} = pyk_a_{e.code} != 0;")
                self.vars[name] = Val("", t, elems=elems)
            else:
                assert isinstance(t, Scalar)
                if kernel and t.name == "bool":
                    self.params_c.append((f"uchar pyk_a_{c}", t, name))
                    self.decls.append(f"bool {c} = pyk_a_{c} != 0;")
                else:
                    self.params_c.append((f"{t.c} {c}", t, name))
                self.vars[name] = Val(c, t, t.kind in "bu")

    def signature_params(self) -> str:
        out = []
        if self.mode == "helper" and self.prog.boundscheck:
            out.append("__global int *pyk_err, __global uchar *pyk_sink")
        for decl, _, name in self.params_c:
            if "@@CONST_" in decl:
                decl = decl.replace(f"@@CONST_{name}@@", "" if name in self.written else "const ")
            out.append(decl)
        return ", ".join(out)

    def writes(self) -> set[int]:
        return {self.param_roots[r] for r in self.written if r in self.param_roots}

    # ---- variables
    def assign_name(self, name: str, v: Val, node: ast.AST) -> None:
        if self.outer_names is not None and name in self.outer_names and name not in self.reductions:
            refuse(self.p, node, f"'{name}' is assigned inside a weft.prange loop but defined outside it, and "
                   "not as a reduction (the iterations run in parallel)",
                   f"update it as a reduction ({name} += e, {name} -= e, {name} *= e, {name} = min({name}, e), "
                   f"{name} = max({name}, e)), write each iteration's value into an output array element, or "
                   "use a variable of the loop body")
        old = self.vars.get(name)
        if isinstance(v.type, ArrayT):
            if old is None:
                c = c_name(name)
                self.vars[name] = Val(c, v.type, shape=v.shape, root=v.root, space=v.space, strides=v.strides)
                self.declared_views[name] = self.vars[name]
                old = self.vars[name]
            elif (old.type != v.type or old.root != v.root or old.shape != v.shape or old.strides != v.strides
                  or name not in self.declared_views):
                refuse(self.p, node, f"'{name}' views {old.type} of '{old.root}' and cannot be reassigned to "
                       f"{v.type} of '{v.root}'", "use another variable name")
            self.emit(f"{old.code} = {v.code};")
            if self.row_loads:
                from ._pyk_inline import row_loads
                row_loads(self, name, old)
            return
        if isinstance(v.type, TupleT):
            vals = [self.materialize(e) for e in v.elems]
            if old is None:
                c = c_name(name)
                elems = tuple(Val(f"pyk_e_{c}_{i}", e.type.strong()) for i, e in enumerate(v.elems)
                              if isinstance(e.type, Scalar))
                for e in elems:
                    assert isinstance(e.type, Scalar)
                    self.decls.append(f"{e.type.c} {e.code} = 0;")
                old = self.vars[name] = Val("", TupleT(tuple(e.type for e in elems
                                                             if isinstance(e.type, Scalar))), elems=elems)
            if not isinstance(old.type, TupleT) or len(old.elems) != len(vals):
                refuse(self.p, node, f"'{name}' is {old.type} and cannot become {v.type}", "use another variable name")
            for e, x in zip(old.elems, vals):
                self.store_scalar(name, e, x, node)
            return
        if old is None:
            assert isinstance(v.type, Scalar)
            t = v.type.strong()
            c = c_name(name)
            self.decls.append(f"{t.c} {c} = 0;")
            old = self.vars[name] = Val(c, t, bool(v.nonneg and self.loop_only(name)))
        self.store_scalar(name, old, v, node)

    def materialize(self, v: Val) -> Val:
        if v.const is not None or re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", v.code):
            return v
        assert isinstance(v.type, Scalar)
        t = self.temp()
        self.emit(f"{v.type.strong().c} {t} = {v.code};")
        return Val(t, v.type, v.nonneg, v.const)

    def store_scalar(self, name: str, var: Val, v: Val, node: ast.AST) -> None:
        if not isinstance(var.type, Scalar) or not isinstance(v.type, Scalar):
            refuse(self.p, node, f"'{name}' is {var.type} and cannot take {v.type}", "use another variable name")
        if not can_hold(var.type, v.type):
            refuse(self.p, node, f"'{name}' is {var.type} (from its first assignment) and cannot take "
                   f"{v.type} without changing type",
                   f"give it the wider type at its first assignment (for example {name} = 0.0 for a float), "
                   "or convert explicitly (int(...), float(...), weft.float32(...))")
        self.emit(f"{var.code} = {cast(v, var.type)};")

    def store_element(self, target: Val, v: Val, node: ast.AST) -> None:
        if not isinstance(v.type, Scalar):
            refuse(self.p, node, f"an array element cannot take {v.type}", "assign one number per element")
        assert isinstance(target.type, Scalar)
        if target.root:
            self.written.add(target.root)
        t = target.type
        code = f"(uchar){truth(v)}" if t.name == "bool" else cast(v, t)
        self.emit(f"{target.ref} = {code};")

    # ---- statements
    def block(self, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            method = getattr(self, "s_" + type(s).__name__, None)
            if method is None:
                refuse(self.p, s, f"the statement {type(s).__name__} is not supported in Python kernels")
            method(s)

    def s_Pass(self, node: ast.Pass) -> None:
        pass

    def s_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # a docstring
        v = self.expr(node.value)
        if v.code and not v.code.startswith("("):
            self.emit(f"{v.code};")

    def s_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) != 1:
            refuse(self.p, node, "chained assignment (a = b = ...) is not supported", "assign each on its own line")
        self.assign(node.targets[0], node.value, node)

    def s_AnnAssign(self, node: ast.AnnAssign) -> None:
        from ._pyk_types import parse_spec
        if not isinstance(node.target, ast.Name) or node.value is None:
            refuse(self.p, node, "annotated assignments need a variable name and a value", "write x: float = 0.0")
        found, spec = self.static_value(node.annotation)
        t = parse_spec(spec if found else ast.literal_eval(node.annotation) if isinstance(node.annotation,
                                                                                          ast.Constant) else None)
        if not isinstance(t, Scalar):
            refuse(self.p, node.annotation, f"the annotation '{ast.unparse(node.annotation)}' is not a scalar type",
                   "annotate with int, float, bool or a NumPy type (numpy.float32)")
        name = node.target.id
        if name not in self.vars:
            c = c_name(name)
            self.decls.append(f"{t.c} {c} = 0;")
            self.vars[name] = Val(c, t)
        elif self.vars[name].type != t:
            refuse(self.p, node, f"'{name}' is already {self.vars[name].type}, not {t}")
        v = self.expr(node.value)
        if not isinstance(v.type, Scalar):
            refuse(self.p, node.value, f"'{name}' is {t} and cannot take {v.type}")
        self.emit(f"{self.vars[name].code} = {cast(v, t)};")

    def local_array(self, target: ast.expr, value: ast.Call, node: ast.AST) -> None:
        """tile = weft.local_array(shape, dtype): a __local array of the work-group, at the kernel's top."""
        from ._pyk_types import parse_spec
        if self.mode != "kernel":
            refuse(self.p, value, "weft.local_array is for @weft.kernel bodies (work-group memory)",
                   "write it in a @weft.kernel")
        if not isinstance(target, ast.Name) or target.id in self.vars or len(value.args) != 2:
            refuse(self.p, node, "weft.local_array(shape, dtype) is assigned once to a new name",
                   "write tile = weft.local_array(256, numpy.float32)")
        dims_node = value.args[0]
        dims = []
        d: ast.expr | int
        for d in (dims_node.elts if isinstance(dims_node, ast.Tuple) else [dims_node]):
            v = self.scalar(d, "a local array's size")
            if not isinstance(v.const, int) or isinstance(v.const, bool) or v.const < 1:
                refuse(self.p, d, "a local array's shape must be positive integer constants",
                       "use literals or module-level int constants")
            dims.append(v.const)
        found, spec = self.static_value(value.args[1])
        t = parse_spec(spec) if found else None
        if not isinstance(t, Scalar):
            refuse(self.p, value.args[1], f"'{ast.unparse(value.args[1])}' is not a scalar dtype",
                   "give a NumPy type: numpy.float32, numpy.int32 ...")
        c = c_name(target.id)
        total = 1
        for d in dims:
            total *= d
        self.decls.append(f"__local {t.c_storage} {c}[{total}];")
        self.vars[target.id] = Val(c, ArrayT(t.name, len(dims)), shape=tuple(f"{d}L" for d in dims),
                                   space="__local")

    def assign(self, target: ast.expr, value: ast.expr, node: ast.AST) -> None:
        if node is self.inline_last:
            from ._pyk_inline import inline_store
            if inline_store(self, target, value, node):
                return
        if isinstance(value, ast.Call):
            found, fn = self.static_value(value.func)
            if found and self.table.get(id(fn)) == ("group", "local_array"):
                self.local_array(target, value, node)
                return
        if isinstance(target, ast.Tuple):
            v = self.expr(value)
            if not isinstance(v.type, TupleT) or len(v.elems) != len(target.elts):
                refuse(self.p, node, f"unpacking {v.type} into {len(target.elts)} names",
                       "unpack a tuple of as many numbers")
            temps = [self.materialize_copy(e) for e in v.elems]
            for t, e in zip(target.elts, temps):
                self.assign_value(t, e, node)
            return
        self.assign_value(target, self.expr(value), node)

    def materialize_copy(self, v: Val) -> Val:
        if v.const is not None:
            return v
        assert isinstance(v.type, Scalar)
        t = self.temp()
        self.emit(f"{v.type.strong().c} {t} = {v.code};")
        return Val(t, v.type.strong(), v.nonneg)

    def assign_value(self, target: ast.expr, v: Val, node: ast.AST) -> None:
        if isinstance(target, ast.Name):
            self.assign_name(target.id, v, node)
        elif isinstance(target, ast.Subscript):
            t = self.expr(target)
            if not t.lvalue:
                refuse(self.p, target, f"cannot assign to '{ast.unparse(target)}' ({t.type})",
                       "assign to array elements (a[i, j] = ...) or variables")
            self.store_element(t, v, node)
        else:
            refuse(self.p, target, f"cannot assign to '{ast.unparse(target)}'",
                   "assign to variables and array elements")

    def s_AugAssign(self, node: ast.AugAssign) -> None:
        target = node.target
        if isinstance(target, ast.Name):
            if target.id not in self.vars:
                refuse(self.p, target, f"'{target.id}' is used before it is assigned", f"assign {target.id} = 0 first")
            cur = self.vars[target.id]
            self.assign_name(target.id, self.binop(node.op, cur, self.scalar(node.value), node), node)
        elif isinstance(target, ast.Subscript):
            cur = self.expr(target)
            if not cur.lvalue:
                refuse(self.p, target, f"cannot assign to '{ast.unparse(target)}'")
            res = self.binop(node.op, cur, self.scalar(node.value), node)
            self.store_element(cur, res, node)
        else:
            refuse(self.p, target, f"cannot assign to '{ast.unparse(target)}'")

    def condition(self, node: ast.expr) -> str:
        self.in_condition = True
        try:
            return truth(self.scalar(node, "a condition"))
        finally:
            self.in_condition = False

    def s_If(self, node: ast.If) -> None:
        self.emit(f"if ({self.condition(node.test)}) {{")
        self.nested(node.body)
        if node.orelse:
            self.emit("} else {")
            self.nested(node.orelse)
        self.emit("}")

    def nested(self, stmts: list[ast.stmt]) -> None:
        self.depth += 1
        self.block(stmts)
        self.depth -= 1

    def s_While(self, node: ast.While) -> None:
        self.emit("while (1) {")
        self.depth += 1
        self.emit(f"if (!{self.condition(node.test)}) break;")
        self.loops += 1
        self.block(node.body)
        self.loops -= 1
        self.depth -= 1
        self.emit("}")

    def s_Break(self, node: ast.Break) -> None:
        if self.loops == 0:
            refuse(self.p, node, "'break' out of a weft.prange loop (its iterations run in parallel)",
                   "use 'continue' to skip an iteration")
        self.emit("break;")

    def s_Continue(self, node: ast.Continue) -> None:
        self.emit("continue;" if self.loops else self.top_continue)

    def s_Return(self, node: ast.Return) -> None:
        if self.outer_names is not None and self.loops == 0:
            refuse(self.p, node, "'return' inside a weft.prange loop", "use 'continue' to end an iteration early")
        if node.value is None:
            if self.ret is not None or self.ret_tuple is not None:
                refuse(self.p, node, "a return without a value in a function that returns values")
            self.returns_void = True
            self.emit("return;")
            return
        if self.mode == "kernel":
            refuse(self.p, node, "a @weft.kernel returns no value", "write results into an output array")
        v = self.expr(node.value)
        if isinstance(v.type, TupleT) or self.ret_tuple is not None:
            self.return_tuple(node, v)
            return
        if not isinstance(v.type, Scalar):
            refuse(self.p, node.value, f"a return value of {v.type}", "return numbers or tuples of numbers")
        if self.returns_void:
            refuse(self.p, node, "a return with a value in a function that also returns without one")
        self.ret = v.type.strong() if self.ret is None else promote(self.ret, v.type.strong())
        code = f"({RET})({v.code})" if v.const is None else f"({RET}){v.code}"
        if self.inline_return is not None:
            self.emit(self.inline_return(v))
        elif self.mode == "entry":
            self.emit(f"{{ pyk_ret[0] = {code}; return; }}")
        else:
            self.emit(f"return {code};")

    def return_tuple(self, node: ast.Return, v: Val) -> None:
        """A tuple return: a helper's through out-parameters (pyk_out_k), a @weft.jit function's
        called from Python through one-element buffers (pyk_rt_k); each item's type is the
        promotion of what every return gives it, as for a number."""
        if self.mode == "kernel":
            refuse(self.p, node, "a @weft.kernel returns no value", "write results into an output array")
        if not isinstance(v.type, TupleT) or self.ret is not None or self.returns_void:
            refuse(self.p, node, "a function that returns a tuple must return tuples everywhere",
                   "return tuples of as many numbers at every 'return'")
        elems = tuple(e.strong() for e in v.type.elems)
        if self.ret_tuple is None:
            self.ret_tuple = TupleT(elems)
        if len(self.ret_tuple.elems) != len(elems):
            refuse(self.p, node, f"returns a tuple of {len(elems)} items here and of "
                   f"{len(self.ret_tuple.elems)} elsewhere", "return tuples of one length")
        self.ret_tuple = TupleT(tuple(promote(a, b) for a, b in zip(self.ret_tuple.elems, elems)))
        vals = [self.materialize(e) for e in v.elems]  # (all read before any is stored)
        if self.mode == "entry":  # (C converts each to its buffer's type, known at the end)
            outs = [f"pyk_rt_{k}[0] = {truth(e) if e.type.name == 'bool' else e.code};"  # type: ignore[union-attr]
                    for k, e in enumerate(vals)]
        else:
            outs = [f"*pyk_out_{k} = {e.code};" for k, e in enumerate(vals)]
        self.emit("{ " + " ".join(outs) + " return; }")

    # ---- calls between @weft.jit functions
    def call_jit(self, fn: Any, args: list[Val], node: ast.Call) -> Val:
        cname, ret, flat = self.jit_arguments(fn, args, node)
        return self.jit_value(cname, ret, flat)

    def jit_arguments(self, fn: Any, args: list[Val], node: ast.Call) -> tuple[str, Scalar | TupleT | None, list[str]]:
        """A call's helper name, return type and C arguments (array roots it writes are noted)."""
        params = fn.parsed.params
        if len(args) > len(params):
            refuse(self.p, node, f"{fn.__name__}() takes {len(params)} arguments, {len(args)} given")
        for name in params[len(args):]:
            if name not in fn.parsed.defaults:
                refuse(self.p, node, f"{fn.__name__}() needs its argument '{name}'")
            args.append(self.constant(fn.parsed.defaults[name], node))
        types = tuple(arg_type(a) for a in args)
        cname, ret, writes = specialize(self.prog, fn, types, self.p, node)
        flat = []
        for k, a in enumerate(args):
            if isinstance(a.type, ArrayT):
                if a.space != "__global":
                    refuse(self.p, node, f"passing the local array to '{fn.__name__}'",
                           "index local arrays in the kernel's own body")
                flat.append(a.code)
                flat.extend(a.shape)
                if a.type.strided:  # the view's start is in a.code already
                    flat.append("0L")
                    flat.extend(a.strides)
                if k in writes and a.root:
                    self.written.add(a.root)
            elif isinstance(a.type, TupleT):
                flat.extend(cast(e, e.type.strong()) for e in a.elems if isinstance(e.type, Scalar))
            else:
                assert isinstance(a.type, Scalar)
                flat.append(cast(a, a.type.strong()))
        if self.prog.boundscheck:
            flat = ["pyk_err", "pyk_sink"] + flat
        return cname, ret, flat

    def jit_value(self, cname: str, ret: Scalar | TupleT | None, flat: list[str]) -> Val:
        """The value of calling helper cname with C arguments flat."""
        if isinstance(ret, TupleT):  # called here, its values in temporaries
            temps = []
            for t in ret.elems:
                tmp = self.temp()
                self.decls.append(f"{t.c} {tmp} = 0;")
                temps.append(Val(tmp, t))
            self.emit(f"{cname}({', '.join(flat + ['&' + x.code for x in temps])});")
            return Val("", ret, elems=tuple(temps))
        call = f"{cname}({', '.join(flat)})"
        # A function without a value is called as a statement (s_Expr); used as a value, C refuses it.
        return Val(call, ret if ret is not None else Scalar("int32"))

    # ---- the function's text
    def function_text(self) -> str:
        ret = self.ret.c if self.ret is not None else "void"
        body = "\n".join(self.lines).replace(RET, ret)
        decls = ["    " + d for d in self.decls]
        for name, v in self.declared_views.items():
            const = "" if v.root in self.written else "const "
            assert isinstance(v.type, ArrayT)
            decls.append(f"    {v.space} {const}{v.type.elem.c_storage} *{v.code} = 0;")
        params = self.signature_params()
        if self.ret_tuple is not None:
            outs = ", ".join(f"{t.c} *pyk_out_{k}" for k, t in enumerate(self.ret_tuple.elems))
            params = f"{params}, {outs}" if params else outs
        return f"{ret} {self.cname}({params}) {{\n" + "\n".join(decls + [body]) + "\n}"


def arg_type(v: Val) -> Type:
    """The parameter type an argument gives a called @weft.jit function (weak literals stay weak,
    as when Python calls it)."""
    return v.type


def specialize(prog: ProgramText, fn: Any, types: tuple[Type, ...], caller: Parsed,
               node: ast.AST) -> tuple[str, Scalar | TupleT | None, set[int]]:
    """The C helper of fn for types in prog: (name, return type, parameters it writes)."""
    key = (id(fn), types)
    if key in prog.specs:
        return prog.specs[key]
    if key in prog.in_progress:
        refuse(caller, node, f"'{fn.__name__}' calls itself (recursion)", "write the recursion as a loop")
    prog.in_progress.add(key)
    cname = f"pyk_{c_name(fn.__name__)}_{len(prog.specs) + len(prog.in_progress)}"
    tr = FunctionTranslator(prog, fn.parsed, types, "helper", cname)
    tr.block(fn.parsed.tree.body)
    prog.in_progress.discard(key)
    prog.functions.append(tr.function_text())
    prog.specs[key] = (cname, tr.ret_tuple if tr.ret_tuple is not None else tr.ret, tr.writes())
    return prog.specs[key]
