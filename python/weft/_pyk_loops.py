"""Python kernels (issue 28): for loops of a FunctionTranslator (_pyk_emit): range() and
weft.prange() outside the NDRange (sequential loops, n-d prange as nested loops), enumerate()
over an array's rows and loops over rows."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from ._pyk_expr import Val, cast
from ._pyk_frontend import refuse
from ._pyk_types import INT64, ArrayT, Scalar, promote


class LoopMixin:
    """The for statements of a FunctionTranslator."""

    p: Any
    vars: dict[str, Val]
    table: dict[int, tuple[str, str]]
    loops: int
    depth: int

    if TYPE_CHECKING:  # provided by FunctionTranslator and ExprMixin
        def static_value(self, node: ast.expr) -> tuple[bool, Any]: ...  # pragma: no cover
        def expr(self, node: ast.expr) -> Val: ...  # pragma: no cover
        def scalar(self, node: ast.expr, what: str = "this value") -> Val: ...  # pragma: no cover
        def emit(self, line: str) -> None: ...  # pragma: no cover
        def temp(self) -> str: ...  # pragma: no cover
        def block(self, stmts: list[ast.stmt]) -> None: ...  # pragma: no cover
        def assign_name(self, name: str, v: Val, node: ast.AST) -> None: ...  # pragma: no cover
        def assign_value(self, target: ast.expr, v: Val, node: ast.AST) -> None: ...  # pragma: no cover

    def s_For(self, node: ast.For) -> None:
        it = node.iter
        found, fn = self.static_value(it.func) if isinstance(it, ast.Call) else (False, None)
        family, name = self.table.get(id(fn), ("", "")) if found else ("", "")
        if isinstance(it, ast.Call) and name in ("range", "prange"):
            targets = list(node.target.elts) if isinstance(node.target, ast.Tuple) else [node.target]
            if name == "range" and len(targets) != 1:
                refuse(self.p, node.target, "range() gives one name per iteration", "write for i in range(...)")
            ranges = [it.args] if name == "range" or len(targets) == 1 else [[a] for a in it.args]
            if len(ranges) != len(targets):
                refuse(self.p, node.target, f"weft.prange over {len(ranges)} dimensions needs {len(ranges)} names",
                       "write for y, x in weft.prange(h, w)")
            self.range_loops(list(zip(targets, ranges)), node.body, node)
            return
        if isinstance(it, ast.Call) and name == "enumerate":
            if len(it.args) != 1 or not isinstance(node.target, ast.Tuple) or len(node.target.elts) != 2:
                refuse(self.p, node, "enumerate() loops take one array and two names",
                       "write for i, row in enumerate(a)")
            self.array_loop(node.target.elts[0], node.target.elts[1], it.args[0], node)
            return
        v = self.expr(it)
        if isinstance(v.type, ArrayT):
            self.array_loop(None, node.target, it, node)
            return
        refuse(self.p, it, f"a for loop over {ast.unparse(it)}", "loop over range(...), weft.prange(...), "
               "enumerate(array) or an array's rows")

    def range_loops(self, loops: list[tuple[ast.expr, list[ast.expr]]], body: list[ast.stmt], node: ast.For) -> None:
        opened = 0
        for target, args in loops:
            if not isinstance(target, ast.Name):
                refuse(self.p, target, "a range loop's variable must be a name")
            if not 1 <= len(args) <= 3:
                refuse(self.p, node.iter, "range takes 1 to 3 arguments")
            vals = [self.scalar(a, "a range bound") for a in args]
            v: Val | None
            for a, v in zip(args, vals):
                assert isinstance(v.type, Scalar)
                if not (v.type.is_int or v.type.kind == "b"):
                    refuse(self.p, a, f"a range bound of type {v.type}", "range bounds are integers: write int(x)")
            start, stop, step = (vals[0].__class__("0", vals[0].type, True, 0), vals[0], None) if len(vals) == 1 \
                else (vals[0], vals[1], vals[2] if len(vals) == 3 else None)
            t = INT64
            for v in (start, stop, step):
                if v is not None:
                    assert isinstance(v.type, Scalar)
                    t = promote(t, v.type.strong()) if not v.type.weak else t
            if t.kind != "i" and t.kind != "u":
                t = INT64
            c, lo, hi, st = self.temp(), self.temp(), self.temp(), self.temp()
            self.emit("{")
            self.depth += 1
            stepc = cast(step, t) if step is not None else "1"
            self.emit(f"{t.c} {lo} = {cast(start, t)}, {hi} = {cast(stop, t)}, {st} = {stepc};")
            if step is not None and step.const == 0:
                refuse(self.p, node.iter, "a range step of 0", "the step must not be zero")
            if step is None or (step.const is not None and step.const > 0):
                cond = f"{c} < {hi}"
            elif step.const is not None:
                cond = f"{c} > {hi}"
            else:
                cond = f"({st} > 0 ? {c} < {hi} : {c} > {hi})"
            self.emit(f"for ({t.c} {c} = {lo}; {cond}; {c} += {st}) {{")
            self.depth += 1
            nonneg = bool(start.nonneg and (step is None or (step.const is not None and step.const > 0)))
            self.assign_name(target.id, Val(c, t, nonneg), target)
            if nonneg and self.loop_only(target.id):
                self.vars[target.id] = Val(self.vars[target.id].code, self.vars[target.id].type, True)
            opened += 1
        self.loops += 1
        self.block(body)
        self.loops -= 1
        for _ in range(opened):
            self.depth -= 1
            self.emit("}")
            self.depth -= 1
            self.emit("}")

    def loop_only(self, name: str) -> bool:
        """Whether name is stored to at one place only (an assignment or a loop's target), so that
        what is known of that value (never negative) holds wherever the name is read."""
        if name in self.p.params:
            return False
        if self.p.stores is None:
            counts: dict[str, int] = {}
            for n in ast.walk(self.p.tree):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    counts[n.id] = counts.get(n.id, 0) + 1
            self.p.stores = counts
        return bool(self.p.stores.get(name, 0) == 1)

    def array_loop(self, index: ast.expr | None, target: ast.expr, array: ast.expr, node: ast.For) -> None:
        a = self.expr(array)
        if not isinstance(a.type, ArrayT):
            refuse(self.p, array, f"enumerate() of {a.type}", "enumerate an array")
        c = self.temp()
        self.emit(f"for (long {c} = 0; {c} < {a.shape[0]}; ++{c}) {{")
        self.depth += 1
        if index is not None:
            if not isinstance(index, ast.Name):
                refuse(self.p, index, "enumerate()'s index must be a name")
            self.assign_name(index.id, Val(c, INT64, True), index)
            if self.loop_only(index.id):
                self.vars[index.id] = Val(self.vars[index.id].code, INT64, True)
        row = self.row(a, c)
        if isinstance(target, ast.Tuple):
            refuse(self.p, target, "unpacking an array's row in the loop header",
                   "write for row in a: x, y = row[0], row[1]")
        self.assign_value(target, row, node)
        self.loops += 1
        self.block(node.body)
        self.loops -= 1
        self.depth -= 1
        self.emit("}")

    def row(self, a: Val, i: str) -> Val:
        assert isinstance(a.type, ArrayT)
        from ._pyk_expr import stride, sub_array
        s = stride(a, 0)
        off = f"{i} * {s}" if s else i
        if a.type.ndim == 1:
            t = a.type.elem
            ref = f"{a.code}[{off}]"
            return Val(f"({ref} != 0)" if t.name == "bool" else ref, t, t.kind in "bu", lvalue=True, root=a.root,
                       ref=ref)
        return sub_array(a, f"({a.code} + {off})", 1)
