"""Python kernels (issue 28): a @weft.jit call inlined into the kernel that stores its value.

When a weft.prange body ends with ``mask[y, x] = inside(vertices, (x, y))``, the callee's body is
written into the kernel (its names prefixed ``pyk_i<n>_``) and each ``return v`` becomes
``{ mask[...] = v; return; }``: the store is the body's last statement, so a return there ends
the work-item as the call's return did. The kernel then holds the callee's loop itself, where the
host backend's loop interchange (src/dialect/strip_mine.hpp) can run it for 64 work-items at a
time. Bounds-checked builds, callees that return tuples or nothing or may end without a return,
@weft.kernel bodies and reductions keep the call. For example::

    @weft.jit
    def pixels(v, mask):
        for y in weft.prange(mask.shape[0]):
            for x in weft.prange(mask.shape[1]):
                mask[y, x] = inside(v, (x, y))   # inside's loop is now in the kernel
"""
from __future__ import annotations

import ast
import re
from typing import Any

from ._pyk_expr import Val, cast, truth
from ._pyk_types import Scalar

# C identifiers and numbers (a number's letters, as in 1.5e3f, are not names).
_TOKEN = re.compile(r"\d[\w.]*|[A-Za-z_]\w*")
_STORE = "@@PYK_STORE@@"


def _declared(decl: str) -> str:
    """The name a generated declaration (``T name = 0;``, ``__global T *name``) declares."""
    head = decl.split("=")[0].split("[")[0]
    names: list[str] = _NAME.findall(head)
    return names[-1]


# Where a name is assigned (``n =``, ``n op=``, ``++n``, ``n--``): one pattern for every name,
# matched at every position (the lookahead), so the names are found in one pass instead of one
# pattern compiled per name (which cost a new process ~0.3 ms per name at its first translation).
_ASSIGNS = re.compile(r"(?=(?<![\w.])([A-Za-z_]\w*)\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)"
                      r"|(?:\+\+|--)\s*([A-Za-z_]\w*)\b|\b([A-Za-z_]\w*)\s*(?:\+\+|--))")
_TEMP = re.compile(r"\bpyk_t\d+\b")
_NAME = re.compile(r"[A-Za-z_]\w*")
_NAME_OR_NUMBER = re.compile(r"[A-Za-z_]\w*|\d+L?")


def _assigned_names(text: str) -> set[str]:
    """The variables text may assign themselves (not what they point to)."""
    return {g for m in _ASSIGNS.finditer(text) for g in m.groups() if g}


def _ends_in_return(stmts: list[ast.stmt]) -> bool:
    """True when every path through stmts ends at a return."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and _ends_in_return(last.body) and _ends_in_return(last.orelse)


def _rename(text: str, names: dict[str, str]) -> str:
    return _TOKEN.sub(lambda m: names.get(m.group(0), m.group(0)), text)


def inline_store(tr: Any, target: ast.expr, value: ast.expr, node: ast.AST) -> bool:
    """Writes ``target = value`` with value's @weft.jit call inlined; False (nothing written) when
    the statement is not of that shape."""
    from ._pyk_api import JitFunction
    from ._pyk_emit import FunctionTranslator, arg_type
    if tr.mode != "entry" or tr.prog.boundscheck or tr.loops or tr.top_continue != "return;":
        return False
    if not isinstance(value, ast.Call) or value.keywords or not isinstance(target, ast.Subscript):
        return False
    found, fn = tr.static_value(value.func)
    if not found or not isinstance(fn, JitFunction) or not _ends_in_return(list(fn.parsed.tree.body)):
        return False
    args: list[Val] = [tr.expr(a) for a in value.args]
    made = len(tr.prog.functions)
    cname, ret, flat = tr.jit_arguments(fn, args, value)  # (appends the defaults to args)
    # The helper this call made (not one an earlier call made): unused once inlined, as no call
    # follows the prange body's last statement (recursion is refused when it is made).
    fresh = len(tr.prog.functions) > made and tr.prog.functions[-1].split("(")[0].endswith(f" {cname}")
    fresh_at = len(tr.prog.functions) - 1  # (the store target and the callee may make helpers after it)
    if not isinstance(ret, Scalar):
        tr.assign_value(target, tr.jit_value(cname, ret, flat), node)
        return True
    place = tr.expr(target)
    if not place.lvalue or not isinstance(place.type, Scalar):
        tr.assign_value(target, tr.jit_value(cname, ret, flat), node)  # (refused there, as before)
        return True
    r: Scalar = ret
    t: Scalar = place.type

    def store(v: Val) -> str:  # a return's value stored as the call's value would be
        x = Val(f"(({r.c})({v.code}))", r)
        rhs = f"(uchar){truth(x)}" if t.name == "bool" else cast(x, t)
        return f"{{ {_STORE} = {rhs}; return; }}"

    sub = FunctionTranslator(tr.prog, fn.parsed, tuple(arg_type(a) for a in args), "helper", cname)
    sub.inline_return = store
    sub.row_loads = reads_only(tr, fn.parsed.tree)
    sub.block(fn.parsed.tree.body)
    if sub.ret != r or sub.ret_tuple is not None or len(sub.params_c) != len(flat):
        tr.store_element(place, tr.jit_value(cname, ret, flat), node)
        return True
    text = sub.function_text()
    inner = text[text.index("{\n") + 2:text.rindex("\n}")].split("\n")
    ndecl = len(sub.decls) + len(sub.declared_views)
    decls, lines = inner[:ndecl], inner[ndecl:]
    body = "\n".join(lines)
    tr.prog.ninline += 1
    prefix = f"pyk_i{tr.prog.ninline}_"
    names = {n: prefix + n for n in set(_TEMP.findall(body))}
    assigned = _assigned_names(body)
    names.update({_declared(d): prefix + _declared(d) for d in decls})
    for (decl, _, pyname), arg in zip(sub.params_c, flat):
        p = _declared(decl)
        if _NAME_OR_NUMBER.fullmatch(arg) and p not in assigned:
            names[p] = arg  # a name or literal the callee only reads: used in place
            continue
        names[p] = prefix + p
        if "@@CONST_" in decl:
            decl = decl.replace(f"@@CONST_{pyname}@@", "" if pyname in sub.written else "const ")
        tr.decls.append(f"{decl[:decl.rindex(p)]}{prefix}{p} = 0;")
        tr.emit(f"{prefix}{p} = {arg};")
    for d in decls:
        tr.decls.append(_rename(d.strip(), names))
    if place.root:
        tr.written.add(place.root)
    if fresh:
        del tr.prog.functions[fresh_at]
    indent = "    " * (tr.depth - 1)
    for line in lines:
        tr.lines.append(indent + _rename(line, names).replace(_STORE, place.ref))
    return True


def reads_only(tr: Any, tree: ast.AST) -> bool:
    """True when the function stores into no array and calls only built-ins and math (no
    @weft.jit function, no atomics): memory does not change while it runs, so a row's elements
    can be read when the row is taken (row_loads)."""
    for n in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(n, ast.Assign):
            targets = list(n.targets)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)):
            targets = [n.target]
        for t in targets:
            if any(isinstance(x, ast.Subscript) for x in ast.walk(t)):
                return False
        if isinstance(n, ast.Call):
            found, fn = tr.static_value(n.func)
            if not found or tr.table.get(id(fn), ("", ""))[0] not in ("builtin", "math", "np", "dtype"):
                return False
    return True


def row_loads(tr: Any, name: str, view: Val) -> None:
    """After ``row = a[i]`` (or a row of enumerate) of a short row of known length in a function
    that only reads memory: the row's elements into scalars, so that ``row[0]`` reads one (a
    uniform value of the strip for the host's loop interchange, not a load under a per-item
    condition). Python has checked the row exists when it is taken."""
    from ._pyk_types import ArrayT
    t = view.type
    if not tr.row_loads or not isinstance(t, ArrayT) or t.ndim != 1 or view.strides or view.space != "__global":
        return
    m = re.fullmatch(r"(\d+)L", view.shape[0])
    if m is None or not 1 <= int(m.group(1)) <= 4 or t.elem.name == "bool":
        return
    if name not in tr.row_scalars:
        tr.row_scalars[name] = [tr.temp() for _ in range(int(m.group(1)))]
        tr.decls += [f"{t.elem.c} {c} = 0;" for c in tr.row_scalars[name]]
    for j, c in enumerate(tr.row_scalars[name]):
        tr.emit(f"{c} = {view.code}[{j}L];")


def row_element(tr: Any, node: ast.Subscript) -> Val | None:
    """``row[k]`` (k a constant) of a row that row_loads read: its scalar; else None."""
    if not isinstance(node.value, ast.Name) or node.value.id not in tr.row_scalars:
        return None
    k = node.slice
    neg = isinstance(k, ast.UnaryOp) and isinstance(k.op, ast.USub)
    if neg:
        assert isinstance(k, ast.UnaryOp)
        k = k.operand
    if not isinstance(k, ast.Constant) or not isinstance(k.value, int) or isinstance(k.value, bool):
        return None
    cells = tr.row_scalars[node.value.id]
    i = -k.value if neg else k.value
    if not -len(cells) <= i < len(cells):
        return None
    elem = tr.vars[node.value.id].type.elem
    return Val(cells[i], elem, elem.kind in "bu")
