"""Python kernels (issue 28): a @weft.jit function called from Python. The call's argument types
decide its kernel; its weft.prange bounds, evaluated from the arguments, its NDRange. A call
whose arguments are weft arrays and numbers keeps a launch plan per signature and device (as
@weft.kernel's, _pyk_dispatch): the kernel, how each argument is passed and the prange bounds
compiled to one Python function, so a repeated call only reads the arguments' signature,
evaluates the bounds and launches.

NumPy arguments: on the host backend a NumPy array is used in place, a strided view (x[:, ::2],
x.T, x[::-1]) through its own strides, no copy (the call then waits for the kernel, so the
array holds the results when it returns); elsewhere it is copied to the device, and the copy
of one the function writes is copied back.

    @weft.jit
    def scale(x, a):
        for i in weft.prange(len(x)):
            x[i] *= a
    scale(w, 2.0)          # first call: types, translation, build; the plan is kept
    scale(w, 3.0)          # the plan: no type work
    scale(np_view, 2.0)    # host: the view's own memory, through its strides
"""
from __future__ import annotations

import ast
from typing import Any, Callable

import numpy as _np

from . import _weft
from ._pyk_dispatch import _PLAIN, Plan, _flat, array_key, made_from_source
from ._pyk_kernels import Compiled, evaluate_dims
from ._dtypes import dtype_name
from ._pyk_types import SCALAR_NAMES, ArrayT, Scalar, Type, inner_extent


def jit_signature(args: tuple[Any, ...]) -> tuple[tuple[Any, ...], Any] | None:
    """(the arguments' signature, the first array's device or None), or None where a plan does not
    apply (NumPy arrays, tuples and other objects take the full path)."""
    out: list[Any] = []
    device = None
    for a in args:
        t = type(a)
        if t in _PLAIN or isinstance(a, _np.generic):
            out.append(t)
        elif isinstance(a, _weft._Array):
            out.append(array_key(a))
            if device is None:
                device = a.device
            elif a.device != device:
                return None  # (the full path words the error)
        else:
            return None
    return tuple(out), device


def numpy_type(a: _np.ndarray, device: Any) -> ArrayT | None:
    """A NumPy argument's type where the host backend uses its memory in place (strided when it
    is not C-contiguous), else None (it is copied)."""
    if device.backend != "host" or a.size == 0 or a.ndim == 0 or a.dtype.byteorder == ">":
        return None
    name = dtype_name(a.dtype)
    if name not in SCALAR_NAMES or not a.flags.aligned or any(s % a.itemsize for s in a.strides):
        return None
    strided = not a.flags.c_contiguous
    return ArrayT(name, a.ndim, strided, inner_extent(a.shape, strided))


def borrow(t: ArrayT, a: _np.ndarray) -> list[Any]:
    """The kernel arguments of NumPy array a used in place on the host: the memory from its lowest
    to its highest element as a weft array, its shape, and for a strided view its first element's
    offset and its strides, in elements (negative ones too)."""
    item = a.itemsize
    data = a.__array_interface__["data"][0]
    low = data + sum((n - 1) * s for n, s in zip(a.shape, a.strides) if s < 0)
    high = data + sum((n - 1) * s for n, s in zip(a.shape, a.strides) if s > 0)
    whole = _weft._borrow_host(a, low, [(high - low) // item + 1] if t.strided else list(a.shape), t.name)
    shape = [_np.int64(n) for n in a.shape]
    if not t.strided:
        return [whole, *shape]
    return [whole, *shape, _np.int64((data - low) // item), *(_np.int64(s // item) for s in a.strides)]


def numpy_arguments(types: list[Type], args: tuple[Any, ...], device: Any) -> tuple[dict[int, list[Any]],
                                                                                 list[tuple[int, Any, Any]]]:
    """A @weft.kernel launch's NumPy arguments: ({index: kernel arguments}, [(index, array, device
    copy)]): used in place on the host backend (types[index] then says how), else copied."""
    flat_of: dict[int, list[Any]] = {}
    copies: list[tuple[int, Any, Any]] = []
    for i, (t, a) in enumerate(zip(types, args)):
        if isinstance(a, _np.ndarray) and isinstance(t, ArrayT):
            nt = numpy_type(a, device)
            if nt is not None:
                types[i], flat_of[i] = nt, borrow(nt, a)
            else:
                from ._creation import asarray
                w = asarray(_np.ascontiguousarray(a), device=device)
                copies.append((i, a, w))
                flat_of[i] = _flat((t,), (w,))
    return flat_of, copies


def check_writable(parsed: Any, what: str, args: tuple[Any, ...], borrowed: Any, writes: set[int]) -> None:
    """ValueError for a read-only NumPy array used in place that the function writes (as NumPy's
    'assignment destination is read-only')."""
    for i in borrowed:
        if i in writes and not args[i].flags.writeable:
            raise ValueError(f"{what} '{parsed.tree.name}': argument '{parsed.params[i]}' is a read-only NumPy "
                             "array and the function writes it; pass a writable array (a.copy())")


def dims_function(p: Any, c: Compiled) -> Callable[..., list[tuple[int, int, int]]] | None:
    """The prange bounds as one Python function of the parameters (its lets first), made with the
    function's globals and closure values: (start, step, count) per dimension; None without
    prange loops or when the bounds cannot be written so (evaluate_dims then serves)."""
    if not c.dims:
        return None
    params = list(p.params)
    free = list(p.func.__code__.co_freevars) if p.func.__closure__ else []
    if any(n.startswith("pyk_") for n in [*params, *free, *c.lets]):
        return None
    # Closure variables read from their cells at each call; builtins by names of ours (a
    # parameter or global named int or max would shadow the bare names).
    body = [f"    {name} = pyk_cell{i}.cell_contents" for i, name in enumerate(free)]
    body += [f"    {name} = {ast.unparse(node)}" for name, node in c.lets.items()]
    out = []
    for j, d in enumerate(c.dims):
        start = ast.unparse(d.start) if d.start is not None else "0"
        step = ast.unparse(d.step) if d.step is not None else "1"
        body += [f"    pyk_a{j}, pyk_b{j}, pyk_s{j} = pyk_int({start}), pyk_int({ast.unparse(d.stop)}), pyk_int({step})",
                 f"    if pyk_s{j} == 0: raise pyk_VE('weft.prange step of 0 in {p.tree.name}')",
                 f"    pyk_c{j} = pyk_max(0, (pyk_b{j} - pyk_a{j} + pyk_s{j} - (1 if pyk_s{j} > 0 else -1)) // pyk_s{j})"]
        out.append(f"(pyk_a{j}, pyk_s{j}, pyk_c{j})")
    outer_params = [*(f"pyk_cell{i}" for i in range(len(free))), "pyk_int", "pyk_max", "pyk_VE"]
    src = (f"def pyk_outer({', '.join(outer_params)}):\n  def pyk_dims({', '.join(params)}):\n"
           + "\n".join(body) + f"\n    return [{', '.join(out)}]\n  return pyk_dims\n")
    return made_from_source(src, p.func, p.filename, int, max, ValueError)  # type: ignore[no-any-return]


class JitPlan:
    """A signature's kernel for @weft.jit calls from Python: the kernel, how arguments are passed
    (Plan), the bounds function and what comes back."""

    __slots__ = ("compiled", "arguments", "kinds", "kernel", "dims", "params", "parsed", "plain")

    def __init__(self, parsed: Any, types: tuple[Type, ...], compiled: Compiled, kernel: Any) -> None:
        self.parsed, self.compiled, self.kernel = parsed, compiled, kernel
        plan = Plan(types, kernel)
        self.arguments, self.kinds = plan.arguments, plan.kinds
        self.dims = dims_function(parsed, compiled)
        # prange loops, nothing to return: the launch alone (no buffers, no waiting)
        self.plain = self.dims is not None and not compiled.reductions and compiled.ret is None \
            and compiled.ret_tuple is None

    def call(self, args: tuple[Any, ...], device: Any) -> Any:
        """The call with this plan's kernel: its value (None without one)."""
        if self.plain:
            assert self.dims is not None
            flat = self.arguments(args)
            size = []
            for start, step, count in self.dims(*args):
                if count <= 0:
                    return None
                flat += (start, step)
                size.append(count)
            self.kernel(_weft.array_queue(device), tuple(reversed(size)), None, *flat)
            return None
        ev, partials, rets = launch(self.kernel, self.compiled, device, self.arguments(args), self.dims_of(args), [])
        return results(self.compiled, partials, rets) if partials or rets else None

    def fast(self, args: tuple[Any, ...], device: Any) -> Callable[..., Any] | None:
        """The plan's guarded call for arguments like args (_pyk_fastcall), or None."""
        from ._pyk_fastcall import make_fast
        c = self.compiled
        return make_fast(self.parsed, self.kinds, args, device, self.kernel, self.arguments, self.call,
                         c.dims if self.plain else None, c.lets)

    def dims_of(self, args: tuple[Any, ...]) -> list[tuple[int, int, int]]:
        if self.dims is not None:
            return self.dims(*args)
        c = self.compiled
        return evaluate_dims(self.parsed, c.dims, dict(zip(self.parsed.params, args)), c.lets) if c.dims else []


def launch(plan_kernel: Any, compiled: Compiled, device: Any, flat: list[Any], dims: list[tuple[int, int, int]],
           checks: list[Any]) -> tuple[Any, list[Any], list[Any]]:
    """Launches the kernel over dims with the reduction and return buffers appended: (the event or
    None, the reductions' partial buffers, the return buffers)."""
    for start, step, _ in dims:
        flat += (start, step)  # (ints: the kernel takes them as its long parameters)
    partials: list[Any] = []
    if compiled.reductions:
        total = 1
        for _, _, count in dims:
            total *= count
        from ._creation import empty
        for _, _, t in compiled.reductions:
            partials.append(empty(max(1, total), _np.uint8 if t.name == "bool" else t.dtype, device=device))
        flat += partials
        flat += [count for _, _, count in dims]
        dims = [(start, step, max(1, count)) for start, step, count in dims]  # work-item 0 keeps the start value
    rets: list[Any] = []
    items = compiled.ret_tuple.elems if compiled.ret_tuple is not None else (
        (compiled.ret,) if compiled.ret is not None else ())
    if items:
        from ._creation import empty
        rets = [empty(1, _np.uint8 if t.name == "bool" else t.dtype, device=device) for t in items]
        flat += rets
    flat += checks
    ev = None
    if all(count > 0 for _, _, count in dims):
        size = tuple(count for _, _, count in reversed(dims)) or (1,)
        ev = plan_kernel(_weft.array_queue(device), size, None, *flat)
    return ev, partials, rets


def results(compiled: Compiled, partials: list[Any], rets: list[Any]) -> Any:
    """The call's value: the reductions' (one or a tuple), the returned number or tuple, or None."""
    if partials:
        from . import _functions
        reduce: dict[str, Callable[..., Any]] = {"+": _functions.sum, "*": _functions.prod,
                                                 "min": _functions.min, "max": _functions.max}
        values = {name: t.dtype.type(reduce[op](part).get()) for (name, op, t), part
                  in zip(compiled.reductions, partials)}
        if compiled.returns_tuple:
            return tuple(values[n] for n in compiled.returns_tuple)
        return values[compiled.returns] if compiled.returns else None
    if not rets:
        return None
    items = compiled.ret_tuple.elems if compiled.ret_tuple is not None else (compiled.ret,)
    vals = []
    for t, r in zip(items, rets):
        assert isinstance(t, Scalar)
        v = r.get()[0]
        vals.append(bool(v) if t.name == "bool" else v)
    return tuple(vals) if compiled.ret_tuple is not None else vals[0]
