"""Python kernels (issue 28): one program's text. A ProgramText gathers a kernel, the @weft.jit
helper functions it calls and the small runtime functions they need (Python's floor division
and modulo, and with boundscheck=True the index checks and their error record)."""
from __future__ import annotations

import ast
import re
from typing import Any

from ._pyk_expr import function_table
from ._pyk_frontend import Parsed
from ._pyk_types import Scalar, TupleT, Type


class ProgramText:
    """The helpers and runtime functions one program needs, in the order they were made."""

    def __init__(self) -> None:
        self.functions: list[str] = []
        self.runtime: dict[str, str] = {}
        self.specs: dict[tuple[int, tuple[Type, ...]], tuple[str, Scalar | TupleT | None, set[int]]] = {}
        self.in_progress: set[tuple[int, tuple[Type, ...]]] = set()
        self.table = function_table()
        self.uses_double = False
        self.boundscheck = False
        self.ninline = 0  # calls inlined into the kernel (_pyk_inline)
        self.sites: list[tuple[str, str, str, int, str]] = []  # (file:line:col, array, parameter, axis, function)

    def site(self, p: Parsed, item: ast.AST, node: ast.AST, a: Any, k: int, root_ndim: int = 0) -> int:
        """A bounds-checked index's number: where it is, what it indexes and which axis."""
        from ._pyk_frontend import where
        shape = a.shape[k]
        m = re.fullmatch(r"pyk_n_(.+)_(\d+)", shape)
        root = a.root or ""
        axis = int(m.group(2)) if m else k
        if not m and root_ndim:  # a known last extent (ArrayT.inner): the root's last axis
            axis = root_ndim - len(a.shape) + k
        target = ast.unparse(node.value) if isinstance(node, ast.Subscript) else root
        self.sites.append((where(p, item), target, root, axis, p.tree.name))
        if "pyk_bc" not in self.runtime:
            self.runtime["pyk_bc"] = (
                "inline long pyk_bc(long i, long n, int site, __global int *err) {\n"
                "    long j = i < 0 ? i + n : i;\n"
                "    if (j >= 0 && j < n) return j;\n"
                "    if (atomic_cmpxchg(err, 0, site + 1) == 0) {\n"
                "        err[1] = (int)(i & 0xffffffffL); err[2] = (int)(i >> 32);\n"
                "        err[3] = (int)get_global_id(0); err[4] = (int)get_global_id(1);\n"
                "        err[5] = (int)get_global_id(2);\n"
                "        err[6] = (int)(n & 0xffffffffL); err[7] = (int)(n >> 32);\n"
                "    }\n"
                "    return -1;\n}\n"
                "inline long pyk_join(long a, long b, long n) { return a < 0 || b < 0 ? -1 : a * n + b; }\n"
                "inline long pyk_row(long a) { return a < 0 ? 0 : a; }")
        return len(self.sites) - 1

    def need_strided_at(self, c: str) -> None:
        """Bounds-checked access to a strided view: offsets join as sums of index * stride, which may be
        negative, so a bad index is LONG_MIN (its access goes to the scratch buffer)."""
        if "pyk_sj" not in self.runtime:
            self.runtime["pyk_sj"] = (
                "inline long pyk_sj(long acc, long i, long s) { return acc == LONG_MIN || i < 0 ? LONG_MIN : acc + i * s; }\n"
                "inline long pyk_srow(long off) { return off == LONG_MIN ? 0 : off; }")
        if f"pyk_ats_{c}" not in self.runtime:
            self.runtime[f"pyk_ats_{c}"] = (
                f"inline __global {c} *pyk_ats_{c}(__global {c} *a, long i, __global uchar *sink) "
                f"{{ return i == LONG_MIN ? (__global {c} *)sink : a + i; }}\n"
                f"inline __global const {c} *pyk_atsc_{c}(__global const {c} *a, long i, __global uchar *sink) "
                f"{{ return i == LONG_MIN ? (__global const {c} *)sink : a + i; }}")

    def need_at(self, c: str) -> None:
        if f"pyk_at_{c}" not in self.runtime:
            self.runtime[f"pyk_at_{c}"] = (
                f"inline __global {c} *pyk_at_{c}(__global {c} *a, long i, __global uchar *sink) "
                f"{{ return i < 0 ? (__global {c} *)sink : a + i; }}\n"
                f"inline __global const {c} *pyk_atc_{c}(__global const {c} *a, long i, __global uchar *sink) "
                f"{{ return i < 0 ? (__global const {c} *)sink : a + i; }}")

    def need(self, kind: str, t: Scalar) -> str:
        name = f"pyk_{kind}_{t.c}"
        if name in self.runtime:
            return name
        c = t.c
        if t.is_float:
            # CPython's float floor division (float_floor_div): from fmod, so 1.0 // 0.1 is 9.0 as in
            # Python and NumPy, where floor(1.0 / 0.1) would be 10.0.
            fdiv = (f"if (b == 0) return a / b; {c} m = fmod(a, b); {c} d = (a - m) / b; "
                    f"if (m != 0 && ((b < 0) != (m < 0))) d -= 1; "
                    f"if (d == 0) return copysign(({c})0, a / b); {c} f = floor(d); "
                    f"if (d - f > ({c})0.5) f += 1; return f;")
            body = {"floordiv": fdiv, "ufloordiv": fdiv,
                    "mod": f"{c} r = fmod(a, b); if (r != 0 && ((r < 0) != (b < 0))) r += b; return r;",
                    "umod": "return fmod(a, b);"}[kind]
        else:
            signed = t.kind == "i"
            body = {
                "floordiv": (f"if (b == 0) return 0; {c} q = a / b; "
                             + ("if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1; " if signed else "") + "return q;"),
                "mod": (f"if (b == 0) return 0; {c} r = a % b; "
                        + ("if (r != 0 && ((r < 0) != (b < 0))) r += b; " if signed else "") + "return r;"),
                "ufloordiv": "return b == 0 ? 0 : a / b;",
                "umod": "return b == 0 ? 0 : a % b;",
            }[kind]
        self.runtime[name] = f"inline {c} {name}({c} a, {c} b) {{ {body} }}"
        return name

    def text(self, kernel: str, origin: str) -> str:
        head = [f"// Generated by weft from the Python kernel {origin} (weft.show_source shows this)."]
        if self.uses_double or "double" in kernel or any("double" in f for f in self.functions):
            head.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable")
        return "\n".join(head + list(self.runtime.values()) + self.functions + [kernel]) + "\n"
