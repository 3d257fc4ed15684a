"""Python kernels (issue 28): a function's kernel for one tuple of argument types.

A @weft.kernel body becomes the kernel's body (one work-item each). A @weft.jit function
called from Python becomes a kernel too: its outermost weft.prange loops (up to three, nested
directly or written weft.prange(h, w)) become the NDRange, the innermost loop dimension 0;
without one, the whole function runs as one work-item and its return value comes back through
a one-element buffer."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

import numpy as _np

from ._pyk_emit import RET, FunctionTranslator, c_name
from ._pyk_program import ProgramText
from ._pyk_expr import Val
from ._pyk_frontend import Parsed, refuse
from ._pyk_types import INT64, Scalar, TupleT, Type, literal


@dataclass
class Dim:
    """One NDRange dimension of a prange loop: its variable and its bounds (Python expressions,
    evaluated on the host from the call's arguments)."""
    name: str
    start: ast.expr | None
    stop: ast.expr
    step: ast.expr | None


@dataclass
class Compiled:
    """A translated kernel: its source, name, NDRange dims (outermost first), return type and
    the parameters (indices) it writes."""
    source: str
    name: str
    dims: list[Dim] = field(default_factory=list)
    ret: Scalar | None = None
    writes: set[int] = field(default_factory=set)
    reductions: list[tuple[str, str, Scalar]] = field(default_factory=list)  # (name, operator, type)
    returns: str | None = None  # the reduction variable returned after the prange loop
    returns_tuple: tuple[str, ...] = ()  # ... or the reduction variables returned as a tuple
    ret_tuple: TupleT | None = None  # the tuple returned (without prange), one buffer per item
    sites: list[tuple[str, str, str, int, str]] = field(default_factory=list)  # bounds-checked indices
    lets: dict[str, ast.expr] = field(default_factory=dict)  # locals the prange bounds use


def _prange_call(tr: FunctionTranslator, stmt: ast.stmt) -> bool:
    if not isinstance(stmt, ast.For) or not isinstance(stmt.iter, ast.Call):
        return False
    found, fn = tr.static_value(stmt.iter.func)
    return found and tr.table.get(id(fn)) == ("builtin", "prange")


def _dims_of(tr: FunctionTranslator, loop: ast.For) -> list[Dim]:
    it = loop.iter
    assert isinstance(it, ast.Call)
    if isinstance(loop.target, ast.Tuple):
        if len(loop.target.elts) != len(it.args) or not all(isinstance(t, ast.Name) for t in loop.target.elts):
            refuse(tr.p, loop.target, f"weft.prange over {len(it.args)} dimensions needs as many names",
                   "write for y, x in weft.prange(h, w)")
        return [Dim(t.id, None, a, None) for t, a in zip(loop.target.elts, it.args)
                if isinstance(t, ast.Name)]
    if not isinstance(loop.target, ast.Name):
        refuse(tr.p, loop.target, "a weft.prange loop's variable must be a name")
    a = it.args
    if not 1 <= len(a) <= 3:
        refuse(tr.p, it, "weft.prange takes 1 to 3 arguments (stop; start, stop; start, stop, step)")
    if len(a) == 1:
        return [Dim(loop.target.id, None, a[0], None)]
    return [Dim(loop.target.id, a[0], a[1], a[2] if len(a) == 3 else None)]


def _check_bound(tr: FunctionTranslator, node: ast.expr | None, params: list[str],
                 lets: dict[str, ast.expr]) -> None:
    """A prange bound must be computable on the host: from the arguments, globals, builtins and
    math, and locals assigned once before the loop from such values (lets)."""
    if node is None:
        return
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in tr.vars and n.id not in params and n.id not in lets:
            refuse(tr.p, n, f"the weft.prange bound '{ast.unparse(node)}' uses the local variable '{n.id}', "
                   "which is not assigned once before the loop from the arguments",
                   "compute the NDRange loop's bounds from the function's arguments (n, a.shape[0], len(a)), "
                   "directly or through variables assigned once before the loop")
        if isinstance(n, ast.Call):
            found, fn = tr.static_value(n.func)
            if not found or tr.table.get(id(fn), ("", ""))[0] not in ("builtin", "math", "dtype"):
                refuse(tr.p, n, f"the weft.prange bound '{ast.unparse(node)}' calls '{ast.unparse(n.func)}'",
                       "compute the bounds from the arguments with arithmetic, len(), min(), max() and .shape")


def _lets(tr: FunctionTranslator, pre: list[ast.stmt], params: list[str]) -> dict[str, ast.expr]:
    """The variables assigned once, before the prange loop, from values the host can compute."""
    lets: dict[str, ast.expr] = {}
    for s in pre:
        if (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                and tr.loop_only(s.targets[0].id)):
            try:
                _check_bound(tr, s.value, params, lets)
            except Exception:  # noqa: BLE001  (not computable on the host: not a let)
                continue
            lets[s.targets[0].id] = s.value
    return lets


def _reductions(tr: FunctionTranslator, body: list[ast.stmt]) -> dict[str, str]:
    """The prange body's scalar reductions, recognised as Numba recognises them: a variable
    assigned before the loop and updated in it only by ``s += e``, ``s -= e``, ``s *= e``,
    ``s = min(s, e)`` or ``s = max(s, e)``, and not read otherwise in the loop."""
    found: dict[str, str] = {}
    updates: set[int] = set()
    outer = {n for n, v in tr.vars.items() if n not in tr.p.params and isinstance(v.type, Scalar)}
    tree = ast.Module(body=body, type_ignores=[])
    for n in ast.walk(tree):
        name, op, value, node = None, None, None, n
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            name, value = n.target.id, n.value
            op = {ast.Add: "+", ast.Sub: "+", ast.Mult: "*"}.get(type(n.op))
        elif (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
              and isinstance(n.value, ast.Call) and len(n.value.args) == 2):
            found_fn, fn = tr.static_value(n.value.func)
            kind = tr.table.get(id(fn)) if found_fn else None
            target = n.targets[0].id
            own = [a for a in n.value.args if isinstance(a, ast.Name) and a.id == target]
            if kind in (("builtin", "min"), ("builtin", "max")) and own:
                name, op = target, kind[1]
                updates.add(id(own[0]))
                value = next(a for a in n.value.args if a is not own[0])
        if name is None or name not in outer or op is None or value is None:
            continue
        if found.get(name, op) != op:
            refuse(tr.p, node, f"the reduction variable '{name}' is updated with both {found[name]} and {op}",
                   "use one operator per reduction variable")
        if any(isinstance(x, ast.Name) and x.id == name for x in ast.walk(value)):
            refuse(tr.p, node, f"the reduction of '{name}' reads '{name}' in its operand",
                   f"write {name} += expression without {name} in it")
        found[name] = op
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and n.id in found and isinstance(n.ctx, ast.Load) and id(n) not in updates:
            refuse(tr.p, n, f"'{n.id}' is a reduction of the weft.prange loop and cannot be read inside it "
                   "(each iteration sees only its part)", f"read {n.id} after the loop")
    return found


def _returns_reductions(value: ast.expr, tr: FunctionTranslator) -> bool:
    """Whether value (what a return after the prange loop gives) is a reduction variable or a
    tuple of them."""
    names = value.elts if isinstance(value, ast.Tuple) else [value]
    return bool(names) and all(isinstance(n, ast.Name) and n.id in tr.reductions for n in names)


def _identity(op: str, t: Scalar) -> str:
    if op in ("+", "*"):
        return literal(0 if op == "+" else 1, t)
    if t.is_float:
        return literal(float("inf") if op == "min" else float("-inf"), t)
    info = _np.iinfo(t.dtype)
    return literal(info.max if op == "min" else info.min, t)


def _constant(node: ast.expr | None, default: int) -> int | None:
    """A prange bound's value where it is an integer literal (or left out), else None."""
    if node is None:
        return default
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
            and type(node.operand.value) is int):
        return -node.operand.value
    return None


def _positive(node: ast.expr | None, default: int, strict: bool) -> bool:
    if node is None:
        return True
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value > 0 if strict else node.value >= 0
    return False


def translate(p: Parsed, types: tuple[Type, ...], mode: str, boundscheck: bool = False) -> Compiled:
    """The kernel of p for types: mode "kernel" (@weft.kernel) or "entry" (@weft.jit from Python);
    with boundscheck, every array index is checked (a bad one is recorded in pyk_err and its
    access goes to the scratch buffer pyk_sink instead)."""
    prog = ProgramText()
    prog.boundscheck = boundscheck
    name = f"pyk_{c_name(p.tree.name)}"[:100]
    tr = FunctionTranslator(prog, p, types, "kernel" if mode == "kernel" else "entry", name)
    body = list(p.tree.body)
    out = Compiled("", name)
    if mode == "kernel":
        tr.block(body)
        extra: list[str] = []
    else:
        k = next((i for i, s in enumerate(body) if _prange_call(tr, s)), None)
        if k is None:
            tr.block(body)
            extra = []
        else:
            after = body[k + 1:]
            tr.block(body[:k])
            loop = body[k]
            assert isinstance(loop, ast.For)
            dims = _dims_of(tr, loop)
            while len(loop.body) == 1 and _prange_call(tr, loop.body[0]):
                inner = loop.body[0]
                assert isinstance(inner, ast.For)
                more = _dims_of(tr, inner)
                if len(dims) + len(more) > 3:
                    break
                dims += more
                loop = inner
            if len(dims) > 3:
                refuse(p, loop, "weft.prange over more than 3 dimensions", "nest the fourth as a range() loop inside")
            out.lets = _lets(tr, body[:k], p.params)
            for d in dims:
                for b in (d.start, d.stop, d.step):
                    _check_bound(tr, b, p.params, out.lets)
            extra = []
            n = len(dims)
            for j, d in enumerate(dims):
                extra += [f"long pyk_start_{j}", f"long pyk_step_{j}"]
                nonneg = _positive(d.start, 0, False) and _positive(d.step, 1, True)
                start, step = _constant(d.start, 0), _constant(d.step, 1)
                # (literal bounds, prange(n) most of all, are written in: the work-item's index is then
                # plainly linear in its id, which lets the device compiler vectorize its accesses)
                gid = f"(long)get_global_id({n - 1 - j})"
                scaled = gid if step == 1 else f"{gid} * {step if step is not None else f'pyk_step_{j}'}"
                v = Val(f"({scaled})" if start == 0 else f"({start if start is not None else f'pyk_start_{j}'}"
                        f" + {scaled})", INT64, nonneg)
                fresh = d.name not in tr.vars
                tr.assign_name(d.name, v, loop)
                c = tr.vars[d.name].code
                if fresh and tr.decls[-1] == f"long {c} = 0;" and tr.lines[-1].strip() == f"{c} = {v.code};":
                    # declared with its value (from the parameters and the work-item id only), which
                    # the host's loop interchange recomputes per work-item rather than storing
                    tr.decls[-1] = f"long {c} = {v.code};"
                    tr.lines.pop()
                if nonneg and tr.loop_only(d.name):
                    tr.vars[d.name] = Val(tr.vars[d.name].code, INT64, True)
            tr.outer_names = set(tr.vars) - {d.name for d in dims}
            tr.reductions = _reductions(tr, loop.body)
            for s in after:
                if not (isinstance(s, ast.Return) and (s.value is None or _returns_reductions(s.value, tr))):
                    refuse(p, s, "statements after the function's weft.prange loop",
                           "put them before the loop (or, after it, only 'return' of reduction variables: "
                           "return s or return s, m)")
                if isinstance(s, ast.Return) and isinstance(s.value, ast.Name):
                    out.returns = s.value.id
                elif isinstance(s, ast.Return) and isinstance(s.value, ast.Tuple):
                    out.returns_tuple = tuple(e.id for e in s.value.elts if isinstance(e, ast.Name))
            if tr.reductions:
                lin = " + ".join(f"{' * '.join([f'get_global_size({e})' for e in range(d)] + [f'get_global_id({d})'])}"
                                 for d in range(n))
                tr.emit(f"const long pyk_item = {lin};")
                for var, op in tr.reductions.items():
                    v = tr.vars[var]
                    assert isinstance(v.type, Scalar)
                    extra.append(f"__global {v.type.c_storage} *pyk_red_{v.code}")
                    out.reductions.append((var, op, v.type))
                    tr.emit(f"if (pyk_item != 0) {v.code} = {_identity(op, v.type)};")
                extra += [f"long pyk_count_{j}" for j in range(n)]
                live = " && ".join(f"get_global_id({n - 1 - j}) < pyk_count_{j}" for j in range(n))
                tr.emit(f"if ({live}) do {{")
                tr.top_continue = "break;"
                tr.depth += 1
                tr.block(loop.body)
                tr.depth -= 1
                tr.emit("} while (0);")
                for var in tr.reductions:
                    tr.emit(f"pyk_red_{tr.vars[var].code}[pyk_item] = {tr.vars[var].code};")
            else:
                tr.inline_last = loop.body[-1] if loop.body else None
                tr.block(loop.body)
            out.dims = dims
    if tr.ret is not None:
        extra.append(f"__global {tr.ret.c_storage} *pyk_ret")
    if tr.ret_tuple is not None:
        extra += [f"__global {t.c_storage} *pyk_rt_{k}" for k, t in enumerate(tr.ret_tuple.elems)]
    if boundscheck:
        extra += ["__global int *pyk_err", "__global uchar *pyk_sink"]
    params = tr.signature_params()
    params = ", ".join([x for x in [params] if x] + extra)
    text = tr.function_text()
    body_text = text[text.index("{\n") + 2:]
    kernel = f"__kernel void {name}({params}) {{\n" + body_text.replace(RET, tr.ret.c if tr.ret else "void")
    out.source = prog.text(kernel, f"'{p.tree.name}' ({p.filename}:{p.line0 + p.tree.lineno})")
    out.ret, out.writes, out.sites, out.ret_tuple = tr.ret, tr.writes(), prog.sites, tr.ret_tuple
    return out


_CODE: dict[int, tuple[ast.expr, Any]] = {}  # compiled prange bounds, by node


def evaluate_dims(p: Parsed, dims: list[Dim], args: dict[str, Any],
                  lets: dict[str, ast.expr] | None = None) -> list[tuple[int, int, int]]:
    """(start, step, count) of each dimension, from the call's arguments."""
    env = dict(args)
    code: CodeType | tuple[ast.expr, Any] | None
    code = p.func.__code__
    if p.func.__closure__:
        for name, cell in zip(code.co_freevars, p.func.__closure__):
            env.setdefault(name, cell.cell_contents)

    def ev(node: ast.expr | None, default: int) -> int:
        if node is None:
            return default
        code = _CODE.get(id(node))
        if code is None or code[0] is not node:
            expr = ast.Expression(body=node)
            ast.fix_missing_locations(expr)
            code = _CODE[id(node)] = (node, compile(expr, p.filename, "eval"))
        return int(eval(code[1], p.func.__globals__, env))  # noqa: S307

    for name, node in (lets or {}).items():
        expr = ast.Expression(body=node)
        ast.fix_missing_locations(expr)
        code = _CODE.get(id(node))
        if code is None or code[0] is not node:
            code = _CODE[id(node)] = (node, compile(expr, p.filename, "eval"))
        env[name] = eval(code[1], p.func.__globals__, env)  # noqa: S307
    out = []
    for d in dims:
        start, stop, step = ev(d.start, 0), ev(d.stop, 0), ev(d.step, 1)
        if step == 0:
            raise ValueError(f"{p.filename}: weft.prange step of 0 in '{p.tree.name}'")
        count = max(0, (stop - start + step - (1 if step > 0 else -1)) // step)
        out.append((start, step, count))
    return out
