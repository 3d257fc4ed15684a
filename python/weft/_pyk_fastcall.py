"""Python kernels (issue 28): the fast path of a cached call. A launch plan (_pyk_dispatch,
_pyk_jitcall) is found by the arguments' signature, a tuple built and hashed on every call;
that and the plan's generic argument packing cost several times the launch itself. Once a
signature has its plan, this module writes one Python function for it (as Numba's dispatcher
has a compiled type check per signature): it guards the call (each argument's exact Python
type; an array's dtype, rank, layout, small inner extent and device, exactly the parts of the
signature), and where all hold it packs the kernel arguments (an array and its shape), works
out the prange bounds and launches on the plan's queue, in straight-line code. Where a guard
fails it returns MISS and the call takes the signature path (which words every error), so a
call with other types, ranks or layouts still gets its own translation.

    @weft.jit
    def axpy(y, x, a):
        for i in weft.prange(len(y)):
            y[i] += a * x[i]
    axpy(y, x, 2.0)   # first call: types, translation, build, the plan and its fast function
    axpy(y, x, 3.0)   # the fast function: guards, len(y), the launch
    axpy(y64, x64, 3.0)  # float64 arrays: the guard fails, the signature path, a new plan
"""
from __future__ import annotations

import ast
from typing import Any, Callable

from . import _weft
from ._pyk_dispatch import _ARRAY, _BOOL, _STRIDED, _VALUE, made_from_source

MISS = object()  # a guard failed: take the signature path
KEEP = 4  # fast functions kept per function (the most recently made first)


def _array_guard(j: int, name: str, a: Any, strided: bool, device: str | None, out: list[str]) -> None:
    """The guard lines of weft array argument `name` (the j-th): its dtype, rank, layout, inner
    extent (_pyk_dispatch.array_key) and (with device, a name) device, as `a`'s are; its shape
    kept in pyk_s{j}. One call of _weft._pyk_guard where the extension has it."""
    ndim, inner = a.ndim, (a.shape[-1] if a.ndim >= 2 and 1 <= a.shape[-1] <= 4 and not strided else 0)
    if device is not None and hasattr(_weft, "_pyk_guard"):
        out.append(f"    pyk_s{j} = pyk_guard({name}, {a._dtype!r}, {ndim}, {strided}, {device})")
        out.append(f"    if pyk_s{j} is None: return pyk_MISS")
    else:
        layout = f"(not {name}.offset and {name}.flags_c_contiguous)" if strided else \
            f"({name}.offset or not {name}.flags_c_contiguous)"
        same = f" or {name}.device != {device}" if device is not None else ""
        out.append(f"    if {name}._dtype != {a._dtype!r} or {layout}{same}: return pyk_MISS")
        out.append(f"    pyk_s{j} = {name}.shape")
        out.append(f"    if pyk_len(pyk_s{j}) != {ndim}: return pyk_MISS")
    if ndim >= 2 and not strided:
        last = f"pyk_s{j}[{ndim - 1}]"
        test = f"{last} != {inner}" if inner else f"1 <= {last} <= 4"
        out.append(f"    if {test}: return pyk_MISS")


def _names(nodes: list[ast.expr]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}


def make_fast(parsed: Any, kinds: tuple[int, ...], args: tuple[Any, ...], device: Any, kernel: Any,
              arguments: Callable[..., list[Any]], call: Callable[..., Any] | None = None,
              dims: list[Any] | None = None, lets: dict[str, ast.expr] | None = None,
              mode: str = "jit") -> Callable[..., Any] | None:
    """The fast function of a plan made by a call with args (weft arrays and numbers, one per
    parameter) on device: called with the same arguments (mode "kernel": after the queue, global
    and local sizes, and it launches kernel on that queue), it returns MISS where a guard fails,
    else the call's result. In mode "jit", with dims (a plan whose prange launch returns nothing)
    it launches kernel on the device's array queue; otherwise it returns call(args, device).
    arguments(args) packs the kernel arguments where they are not only arrays and numbers. None
    where the function's names would meet the generated ones."""
    params = list(parsed.params)
    free = list(parsed.func.__code__.co_freevars) if parsed.func.__closure__ else []
    exprs = [e for d in (dims or []) for e in (d.start, d.stop, d.step) if e is not None] + list((lets or {}).values())
    if any(n.startswith("pyk_") for n in [*params, *free, *(lets or {}), *_names(exprs)]):
        return None
    consts: dict[str, Any] = {"pyk_MISS": MISS, "pyk_D": device, "pyk_call": call, "pyk_K": kernel,
                              "pyk_args": arguments, "pyk_Q": _weft.array_queue(device), "pyk_cur": None,
                              "pyk_QT": _weft.Queue, "pyk_guard": getattr(_weft, "_pyk_guard", None),
                              # builtins by names of ours: a parameter or global named type, int or
                              # len would shadow the bare names in the generated code
                              "pyk_type": type, "pyk_int": int, "pyk_len": len, "pyk_VE": ValueError}
    head = ["pyk_q", "pyk_g", "pyk_l"] if mode == "kernel" else []
    lines = []
    types = [f"pyk_type({name}) is not pyk_T{j}" for j, name in enumerate(params)]
    for j, a in enumerate(args):
        consts[f"pyk_T{j}"] = type(a)
    if types:
        lines.append(f"    if {' or '.join(types)}: return pyk_MISS")
    if mode == "kernel":  # (the launch refuses an array of another device, as the plan's did)
        lines.append("    if pyk_type(pyk_q) is not pyk_QT: return pyk_MISS")
        lines.append("    pyk_d = pyk_q.device")
        lines.append("    if pyk_d != pyk_D: return pyk_MISS")
    arrays = [a for a in args if isinstance(a, _weft._Array)]
    for j, (name, kind, a) in enumerate(zip(params, kinds, args)):
        if isinstance(a, _weft._Array):
            _array_guard(j, name, a, kind == _STRIDED, "pyk_d" if mode == "kernel" else "pyk_D", lines)
    if not arrays and mode != "kernel":
        from ._device import current_device
        consts["pyk_cur"] = current_device
        lines.append("    if pyk_cur() != pyk_D: return pyk_MISS")
    tup = f"({''.join(name + ', ' for name in params)})"
    flat: list[str] = []
    if all(k in (_ARRAY, _VALUE, _BOOL) for k in kinds):
        for j, (name, kind) in enumerate(zip(params, kinds)):
            flat += [name, f"*pyk_s{j}"] if kind == _ARRAY else [f"(1 if {name} else 0)"] if kind == _BOOL else [name]
    else:
        flat.append(f"*pyk_args({tup})")
    if mode == "kernel":
        lines.append(f"    return pyk_K({', '.join(['pyk_q', 'pyk_g', 'pyk_l', *flat])})")
    elif dims:
        lines += [f"    {name} = {ast.unparse(node)}" for name, node in (lets or {}).items()]
        sizes: list[str] = []
        bounds: list[str] = []
        for j, d in enumerate(dims):
            stop = f"pyk_int({ast.unparse(d.stop)})"
            if d.start is None and d.step is None:  # prange(stop): the count is stop
                lines.append(f"    pyk_c{j} = {stop}")
                bounds += ["0", "1"]
            else:
                start = f"pyk_int({ast.unparse(d.start)})" if d.start is not None else "0"
                step = f"pyk_int({ast.unparse(d.step)})" if d.step is not None else "1"
                lines += [f"    pyk_a{j}, pyk_b{j}, pyk_t{j} = {start}, {stop}, {step}",
                          f"    if pyk_t{j} == 0: raise pyk_VE('weft.prange step of 0 in {parsed.tree.name}')",
                          f"    pyk_c{j} = (pyk_b{j} - pyk_a{j} + pyk_t{j} - (1 if pyk_t{j} > 0 else -1)) // pyk_t{j}"]
                bounds += [f"pyk_a{j}", f"pyk_t{j}"]
            lines.append(f"    if pyk_c{j} <= 0: return None")
            sizes.insert(0, f"pyk_c{j}")
        lines.append(f"    pyk_K({', '.join(['pyk_Q', '(' + ', '.join(sizes) + ',)', 'None', *flat, *bounds])})")
        lines.append("    return None")
    else:
        lines.append(f"    return pyk_call({tup}, pyk_D)")
    # Closure variables are read from their cells at each call (a bound of prange(n) with n
    # rebound by nonlocal follows it, as the function itself would).
    lines[:0] = [f"    {name} = pyk_cell{i}.cell_contents" for i, name in enumerate(free)]
    outer = [*(f"pyk_cell{i}" for i in range(len(free))), *consts]
    src = (f"def pyk_outer({', '.join(outer)}):\n  def pyk_fast({', '.join(head + params)}):\n"
           + "\n".join("  " + line for line in lines) + "\n  return pyk_fast\n")
    fast: Callable[..., Any] | None = made_from_source(src, parsed.func, parsed.filename, *consts.values())
    if fast is not None:
        fast.__doc__ = src  # (what it checks, for the curious)
    return fast


def remember(fasts: list[Callable[..., Any]], fast: Callable[..., Any] | None) -> None:
    """Puts a new fast function first, keeping KEEP."""
    if fast is not None:
        fasts.insert(0, fast)
        del fasts[KEEP:]
