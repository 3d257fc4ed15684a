"""Python kernels (issue 28): weft.jit, weft.kernel, weft.prange, the work-item functions and
weft.show_source. The pipeline: Python AST (_pyk_frontend) -> typed values (_pyk_types,
_pyk_expr) -> dialect source (_pyk_emit, _pyk_kernels) -> weft.Program, whose disk cache keeps
the compiled form (keyed by the source, which holds the argument types and the closure's
constants), so every backend runs it."""
from __future__ import annotations

import functools
import typing
from typing import Any, Callable, TypeVar

import numpy as _np

from . import _weft
from ._pyk_dispatch import Plan, _flat, signature
from ._device import current_device
from ._pyk_fastcall import MISS, make_fast, remember
from ._pyk_launch import KernelLaunch
from ._pyk_frontend import Parsed, parse
from ._pyk_jitcall import (JitPlan, borrow, check_writable, jit_signature, launch, numpy_arguments, numpy_type,
                           results)
from ._pyk_kernels import Compiled, evaluate_dims, translate
from ._pyk_disk import translation
from . import _pyk_inline as _pyk_inline  # noqa: F401,E402  (loaded with weft, not at the first translation)
from ._pyk_types import ArrayT, Scalar, TupleT, Type, parse_spec, type_of_value

F = TypeVar("F", bound=Callable[..., Any])


def prange(*args: int) -> range:
    """A loop whose iterations may run in parallel: in a @weft.jit function called from Python,
    the outermost ``for i in weft.prange(n)`` loops (``for y, x in weft.prange(h, w)``, or nested
    prange loops, up to three) become the kernel's NDRange; elsewhere it is range(). Outside
    compiled code it is ``range(*args)`` (so the 2-d form ``for y, x in weft.prange(h, w)`` needs
    compiling; in compiled code the loop's names tell the forms apart: one name is
    prange(start, stop[, step]), as Numba's).

    Parameters
    ----------
    args : int
        ``stop``, or ``start, stop[, step]`` as range()'s; in compiled code, with two or three
        loop names, one extent per dimension.

    Returns
    -------
    range
        Outside compiled code, ``range(*args)``.

    Examples
    --------
    >>> list(weft.prange(3))
    [0, 1, 2]
    """
    return range(*args)


def _work_item(name: str, opencl: str) -> Callable[[int], int]:
    def f(dim: int) -> int:
        raise _weft.Unsupported(f"weft.{name}({dim}) is the work-item's {opencl.replace('get_', '')} in a "
                                "@weft.kernel; it has no value in plain Python")
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"In a @weft.kernel: this work-item's {opencl}(dim) (OpenCL C's), as an int64.\n\n"
                 "Parameters\n----------\ndim : int\n    The dimension, 0, 1 or 2 (a constant).\n\n"
                 "Returns\n-------\nint\n    The value, of type int64 in the kernel.\n\n"
                 "Raises\n------\nweft.Unsupported\n    When called from plain Python.\n\n"
                 "Examples\n--------\n>>> @weft.kernel\n... def fill(x):\n"
                 f"...     x[weft.{name}(0)] = 1\n>>> callable(fill)\nTrue\n")
    return f


global_id = _work_item("global_id", "get_global_id")
local_id = _work_item("local_id", "get_local_id")
group_id = _work_item("group_id", "get_group_id")
global_size = _work_item("global_size", "get_global_size")
local_size = _work_item("local_size", "get_local_size")
num_groups = _work_item("num_groups", "get_num_groups")


def _group_only(name: str, doc: str) -> Callable[..., Any]:
    def f(*args: Any) -> Any:
        raise _weft.Unsupported(f"weft.{name} works in @weft.kernel bodies only; it has no meaning in plain Python")
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


local_array = _group_only("local_array", """In a @weft.kernel: ``tile = weft.local_array(shape, dtype)`` is an
array in the work-group's local memory (OpenCL C's ``__local``), shape constant.

Parameters
----------
shape : int or tuple of int
    The array's shape: constants (numbers or names bound to constants).
dtype : NumPy dtype
    Its element type.

Returns
-------
array
    The work-group's array (in the kernel).

Raises
------
weft.Unsupported
    When called from plain Python, or with a shape that is not constant.

Examples
--------
>>> @weft.kernel
... def reverse_groups(x):
...     tile = weft.local_array(4, np.float32)
...     i = weft.local_id(0)
...     tile[i] = x[weft.global_id(0)]
...     weft.barrier()
...     x[weft.global_id(0)] = tile[3 - i]
>>> x = weft.asarray(np.arange(8, dtype=np.float32))
>>> reverse_groups(weft.default_device(), (8,), (4,), x).wait()
>>> x.get()
array([3., 2., 1., 0., 7., 6., 5., 4.], dtype=float32)
""")
barrier = _group_only("barrier", """In a @weft.kernel: waits until every work-item of the work-group has
reached it, local and global memory written before it visible after it (OpenCL C's
``barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)``). It takes no arguments.

Raises
------
weft.Unsupported
    When called from plain Python or outside a @weft.kernel.

Examples
--------
>>> @weft.kernel
... def shift_left(x):
...     tile = weft.local_array(4, np.int32)
...     i = weft.local_id(0)
...     tile[i] = x[i]
...     weft.barrier()
...     x[i] = tile[(i + 1) % 4]
>>> x = weft.asarray(np.arange(4, dtype=np.int32))
>>> shift_left(weft.default_device(), (4,), (4,), x).wait()
>>> x.get()
array([1, 2, 3, 0], dtype=int32)
""")


from ._pyk_atomics import atomic_add as atomic_add  # noqa: E402  (re-exported: weft.atomic_*)
from ._pyk_atomics import atomic_cas as atomic_cas  # noqa: E402
from ._pyk_atomics import atomic_inc as atomic_inc  # noqa: E402
from ._pyk_atomics import atomic_max as atomic_max  # noqa: E402
from ._pyk_atomics import atomic_min as atomic_min  # noqa: E402
from ._pyk_atomics import atomic_sub as atomic_sub  # noqa: E402
from ._pyk_atomics import atomic_xchg as atomic_xchg  # noqa: E402


def _annotation(p: Parsed, name: str) -> Type | None:
    """The type an annotation fixes, or None where the argument decides (no annotation, or an
    array annotation without a kernel type: weft.Array, numpy.ndarray, numpy.typing.NDArray)."""
    spec = p.annotations.get(name)
    if spec is None:
        return None
    if isinstance(spec, str):  # from __future__ import annotations
        t = parse_spec(spec)
        if t is not None:
            return t
        try:
            spec = eval(spec, p.func.__globals__)  # noqa: S307  (the user's own annotation)
        except Exception:  # noqa: BLE001
            spec = None
    t = parse_spec(spec)
    if t is not None:
        return t
    origin = typing.get_origin(spec)
    if origin is tuple:
        elems = [parse_spec(a) for a in typing.get_args(spec)]
        if elems and all(isinstance(e, Scalar) for e in elems):
            return TupleT(tuple(e for e in elems if isinstance(e, Scalar)))
    if origin is _np.ndarray or (isinstance(spec, type) and issubclass(spec, (_np.ndarray, _weft._Array))):
        return None
    raise _weft.Unsupported(f"{p.filename}:{p.line0 + p.tree.lineno}: parameter '{name}' of "
                            f"'{p.tree.name}' is annotated {p.annotations.get(name)!r}, which is not a kernel "
                            "type; annotate with int, float, bool, a NumPy type (numpy.float32), tuple[int, int], "
                            "an array type string ('float64[:, :]'), weft.Array or numpy.typing.NDArray")


def _arg_types(p: Parsed, args: tuple[Any, ...], what: str) -> tuple[Type, ...]:
    out = []
    for name, a in zip(p.params, args):
        t = type_of_value(a)
        want = _annotation(p, name)
        if t is None:
            raise TypeError(f"{what} '{p.tree.name}': argument '{name}' is a {type(a).__name__}, which kernels do "
                            "not take; pass weft or NumPy arrays, numbers (int, float, bool, NumPy scalars) "
                            "or tuples of numbers")
        if want is not None:
            if isinstance(want, ArrayT) or isinstance(t, ArrayT):
                if not (isinstance(want, ArrayT) and isinstance(t, ArrayT) and (want.name, want.ndim) == (t.name, t.ndim)):
                    raise _weft.DTypeError(f"{what} '{p.tree.name}': argument '{name}' is {t}, annotated {want}")
                want = t  # (a strided view keeps its layout)
            t = want
        out.append(t)
    return tuple(out)


def _bind(p: Parsed, args: tuple[Any, ...], what: str) -> tuple[Any, ...]:
    if len(args) > len(p.params):
        raise TypeError(f"{what} '{p.tree.name}' takes {len(p.params)} arguments, {len(args)} given")
    out = list(args)
    for name in p.params[len(args):]:
        if name not in p.defaults:
            raise TypeError(f"{what} '{p.tree.name}' needs its argument '{name}'")
        out.append(p.defaults[name])
    return tuple(out)


class _Compiler:
    """Translations per argument types and kernels per (types, device), for one function."""

    def __init__(self, p: Parsed, mode: str, boundscheck: bool) -> None:
        # WEFT_BOUNDS_CHECK=1 checks every Python kernel as boundscheck=True does.
        self.p, self.mode, self.boundscheck = p, mode, boundscheck or bool(_weft._bounds_check())
        self.sources: dict[tuple[Type, ...], Compiled] = {}
        self.kernels: dict[tuple[tuple[Type, ...], Any], _weft.Kernel] = {}

    def compiled(self, types: tuple[Type, ...]) -> Compiled:
        c = self.sources.get(types)
        if c is None:
            c = self.sources[types] = translation(self.p, types, self.mode, self.boundscheck, translate)
        return c

    def kernel(self, types: tuple[Type, ...], device: Any) -> tuple[Compiled, _weft.Kernel]:
        c = self.compiled(types)
        k = self.kernels.get((types, device))
        if k is None:
            k = self.kernels[(types, device)] = _weft.Program(device, c.source).build().kernel(c.name)
        return c, k

    def check_buffers(self, device: Any) -> list[Any]:
        """The error record and scratch buffer of a bounds-checked launch ([] without checks)."""
        if not self.boundscheck:
            return []
        from ._creation import zeros
        return [zeros(8, _np.int32, device=device), zeros(16, _np.uint8, device=device)]

    def raise_bad_index(self, c: Compiled, event: Any, checks: list[Any], args: dict[str, Any], what: str) -> None:
        """Waits for a bounds-checked launch and raises weft.IndexOutOfRange for its first bad index."""
        if not checks:
            return
        event.wait()
        err = checks[0].get()
        if err[0] == 0:
            return
        where, expr, root, axis, function = c.sites[int(err[0]) - 1]
        index = int(_np.uint32(err[1])) | (int(err[2]) << 32)
        size = int(_np.uint32(err[6])) | (int(err[7]) << 32)
        if function == self.p.tree.name and root in args:
            of = f"argument '{root}' of shape {tuple(getattr(args[root], 'shape', ()))}"
        else:
            of = f"parameter '{root}' of '{function}'"
        raise _weft.IndexOutOfRange(
            f"{where}: in {what} '{self.p.tree.name}': index {index} is out of bounds for axis {axis} with size "
            f"{size} of '{expr}' ({of}), in work-item ({err[3]}, {err[4]}, {err[5]}); "
            "the access was not performed (boundscheck=True or WEFT_BOUNDS_CHECK=1)")


class JitFunction:
    """A function compiled by @weft.jit: callable from kernels and other jit functions (a helper
    function of their program), and from Python, where its weft.prange loops become the kernel's
    NDRange (without one it runs as a single work-item and returns its value)."""

    __module__ = "weft"
    __name__: str  # (functools.update_wrapper sets it, and __doc__ ..., from func)

    def __init__(self, func: Callable[..., Any], boundscheck: bool = False) -> None:
        self.parsed = parse(func, "@weft.jit")
        self._compiler = _Compiler(self.parsed, "entry", boundscheck)
        self._plans: dict[tuple[Any, ...], JitPlan] = {}  # (signature, device) -> JitPlan (_pyk_jitcall)
        self._fast: list[Callable[..., Any]] = []  # the plans' guarded calls, newest first (_pyk_fastcall)
        self._nparams = len(self.parsed.params)
        functools.update_wrapper(self, func)

    def __call__(self, *args: Any) -> Any:
        if len(args) == self._nparams:  # (a fast function takes exactly the parameters)
            for fast in self._fast:
                r = fast(*args)
                if r is not MISS:
                    return r
        else:
            args = _bind(self.parsed, args, "@weft.jit function")  # (defaults: then the plan applies)
        if not self._compiler.boundscheck:
            sig = jit_signature(args)
            if sig is not None:
                device = sig[1] if sig[1] is not None else current_device()
                plan = self._plans.get((sig[0], device))
                if plan is not None:
                    return plan.call(args, device)
        return self._call(args)

    def _call(self, args: tuple[Any, ...]) -> Any:
        """A call without a plan: binding, checks, types, translation, build and NumPy arguments;
        then keeps the plan where the arguments are weft arrays and numbers."""
        p = self.parsed
        args = _bind(p, args, "@weft.jit function")
        device = next((a.device for a in args if isinstance(a, _weft._Array)), None)
        if device is None:
            device = current_device()
        types = list(_arg_types(p, args, "@weft.jit function"))
        borrowed: dict[int, list[Any]] = {}  # NumPy arrays used in place on the host: their kernel arguments
        for i, (t, a) in enumerate(zip(types, args)):
            if isinstance(a, _np.ndarray) and isinstance(t, ArrayT):
                nt = numpy_type(a, device)
                if nt is not None:
                    types[i] = nt
                    borrowed[i] = borrow(nt, a)
        compiled, k = self._compiler.kernel(tuple(types), device)
        check_writable(p, "@weft.jit function", args, borrowed, compiled.writes)
        if len(args) == len(p.params) and not self._compiler.boundscheck:
            sig = jit_signature(args)
            if sig is not None and (sig[0], device) not in self._plans:  # (a plan's fast function once)
                plan = self._plans[(sig[0], device)] = JitPlan(p, tuple(types), compiled, k)
                remember(self._fast, plan.fast(args, device))
        run_args: list[Any]  # (weft arrays, contiguous copies of views, scalars)
        copies: list[tuple[int, Any, Any]]
        run_args, copies = [], []
        from ._creation import asarray
        for i, (t, a) in enumerate(zip(types, args)):
            if isinstance(t, ArrayT) and i not in borrowed:
                if isinstance(a, _weft._Array):
                    if a.device != device:
                        raise _weft.InvalidArgument(f"@weft.jit function '{p.tree.name}': its arrays are on "
                                                    f"{device.selector} and {a.device.selector}; move them to one "
                                                    "device (a.to_device(d))")
                    run_args.append(a)  # (a view is a strided kernel argument: no copy)
                else:
                    w = asarray(_np.ascontiguousarray(a), device=device)
                    copies.append((i, a, w))
                    run_args.append(w)
            else:
                run_args.append(a)
        env = dict(zip(p.params, run_args))
        dims = evaluate_dims(p, compiled.dims, env, compiled.lets) if compiled.dims else []
        flat: list[Any] = []
        for i, (t, a) in enumerate(zip(types, run_args)):
            flat.extend(borrowed[i] if i in borrowed else _flat((t,), (a,)))
        checks = self._compiler.check_buffers(device)
        ev, partials, rets = launch(k, compiled, device, flat, dims, checks)
        if ev is not None:
            self._compiler.raise_bad_index(compiled, ev, checks, env, "@weft.jit function")
            if copies or borrowed:
                ev.wait()  # (NumPy arrays hold the results when the call returns)
        for i, orig, w in copies:
            if i in compiled.writes:
                orig[...] = w.get().reshape(orig.shape) if isinstance(orig, _np.ndarray) else w
        return results(compiled, partials, rets)

    def __repr__(self) -> str:
        return f"<weft.jit {self.__name__}>"


class KernelFunction:
    """A kernel compiled by @weft.kernel: ``k(queue_or_device, global_size, local_size, *args)``
    launches it as an OpenCL C kernel would be and returns the weft.Event; ``k[a.shape](a, ...)`` too."""

    __module__ = "weft"
    __name__: str  # (functools.update_wrapper sets it, and __doc__ ..., from func)

    def __init__(self, func: Callable[..., Any], boundscheck: bool = False) -> None:
        self.parsed = parse(func, "@weft.kernel")
        self._compiler = _Compiler(self.parsed, "kernel", boundscheck)
        self._plans: dict[tuple[Any, ...], Plan] = {}  # (signature, device) -> Plan (_pyk_dispatch)
        self._fast: list[Callable[..., Any]] = []  # the plans' guarded launches, newest first (_pyk_fastcall)
        functools.update_wrapper(self, func)

    def __call__(self, queue: Any, global_size: Any, local_size: Any, *args: Any) -> _weft.Event:
        if len(args) == len(self.parsed.params):  # (a fast function takes exactly the parameters)
            for fast in self._fast:
                r = fast(queue, global_size, local_size, *args)
                if r is not MISS:
                    return r  # type: ignore[no-any-return]
        if type(queue) is _weft.Queue and not self._compiler.boundscheck:
            sig = signature(args)
            if sig is not None:
                plan = self._plans.get((sig, queue.device))
                if plan is not None:
                    return plan.kernel(queue, global_size, local_size, *plan.arguments(args))  # type: ignore[no-any-return]
        return self._launch(queue, global_size, local_size, args)

    def _launch(self, queue: Any, global_size: Any, local_size: Any, args: tuple[Any, ...]) -> _weft.Event:
        """A call without a plan: checks, types, translation and build; then keeps the plan."""
        p = self.parsed
        if isinstance(queue, _weft.Device):
            queue = _weft.array_queue(queue)
        if not isinstance(queue, _weft.Queue):
            raise TypeError(f"@weft.kernel '{p.tree.name}': the first argument is a weft.Queue or weft.Device "
                            f"to run on, not {type(queue).__name__}")
        args = _bind(p, args, "@weft.kernel")
        types = list(_arg_types(p, args, "@weft.kernel"))
        # NumPy arrays: used in place on the host backend (views through their strides), else copied
        # to the device and, where the kernel writes them, back; either way the launch is waited for.
        flat_of, copies = numpy_arguments(types, args, queue.device)
        c, k = self._compiler.kernel(tuple(types), queue.device)
        check_writable(p, "@weft.kernel", args, [i for i in flat_of if i not in {j for j, _, _ in copies}], c.writes)
        sig = signature(args) if len(args) == len(p.params) else None
        if sig is not None and not self._compiler.boundscheck and (sig, queue.device) not in self._plans:
            plan = self._plans[(sig, queue.device)] = Plan(tuple(types), k)
            remember(self._fast, make_fast(p, plan.kinds, args, queue.device, k, plan.arguments, mode="kernel"))
        checks = self._compiler.check_buffers(queue.device)
        flat: list[Any] = []
        for i, (t, a) in enumerate(zip(types, args)):
            flat.extend(flat_of[i] if i in flat_of else _flat((t,), (a,)))
        ev = k(queue, global_size, local_size, *flat, *checks)
        self._compiler.raise_bad_index(c, ev, checks, dict(zip(p.params, args)), "@weft.kernel")
        if flat_of:
            ev.wait()
        for i, orig, w in copies:
            if i in c.writes:
                orig[...] = w.get().reshape(orig.shape)
        return ev

    def __getitem__(self, key: Any) -> KernelLaunch:
        """``k[shape]``, ``k[shape, local_size]``: a launch over a shape (python/weft/_pyk_launch.py)."""
        return KernelLaunch.of(self, key)

    def __repr__(self) -> str:
        return f"<weft.kernel {self.__name__}>"


def jit(func: F | None = None, *, boundscheck: bool = False) -> Any:
    """Compiles a Python function of the kernel subset for every device (issue 28).

    From Python, ``f(*args)`` (weft or NumPy arrays, numbers, tuples of numbers) runs it on the
    arrays' device: its outermost ``weft.prange`` loops become the NDRange (NumPy arrays are used
    in place on the host backend, strided views through their strides; elsewhere the ones it
    writes are copied back); without one it runs as one work-item and returns its value (a
    number or a tuple of numbers; after a prange loop, its reductions'). From
    a @weft.kernel or another @weft.jit function it is a helper function of the same program.
    Types come from the arguments on first call (or from annotations); weft.show_source shows
    the dialect source. Constructs outside the subset raise weft.Unsupported naming the file,
    line and column. ``@weft.jit(boundscheck=True)`` checks every array index (negative ones
    count from the end): a bad one is not performed and the call raises weft.IndexOutOfRange
    naming the line, the array, the index, its shape and the work-item (the call then waits
    for the kernel).

    Parameters
    ----------
    func : callable
        The function (``@weft.jit`` and ``@weft.jit(boundscheck=True)`` are both accepted).
    boundscheck : bool, optional
        Whether every array index is checked (default False).

    Returns
    -------
    JitFunction
        The compiled function, callable from Python and from other weft Python kernels.

    Raises
    ------
    weft.Unsupported
        At decoration or first call, for a construct outside the subset (with file, line and
        column).
    weft.IndexOutOfRange
        At a call, with ``boundscheck=True``, for an index outside an array.

    Examples
    --------
    >>> @weft.jit
    ... def scale(x, y, a):
    ...     for i in weft.prange(len(x)):
    ...         y[i] = a * x[i] + 1
    >>> x = np.arange(4.0)
    >>> y = np.zeros(4)
    >>> scale(x, y, 2.0)
    >>> y
    array([1., 3., 5., 7.])
    >>> @weft.jit
    ... def floor_divmod(a, b):
    ...     return a // b, a % b
    >>> floor_divmod(-7, 2)
    (np.int64(-4), np.int64(1))
    """
    if func is None:
        return functools.partial(jit, boundscheck=boundscheck)
    return JitFunction(func, boundscheck)


def kernel(func: F | None = None, *, boundscheck: bool = False) -> Any:
    """Compiles a Python function as an NDRange kernel (issue 28): the body runs once per
    work-item (``weft.global_id(0)``, ``weft.local_id``, ``weft.group_id``, ``weft.global_size``),
    called ``k(queue_or_device, global_size, local_size, *args)`` with weft arrays and numbers, as
    an OpenCL C kernel is; it returns the launch's weft.Event. NumPy arrays are taken too (used in
    place on the host backend, else copied and the written ones copied back; the launch is then
    waited for). ``k[shape](*args)`` or ``k[shape, local_size](*args)`` launches it over a shape on
    its arrays' device. ``@weft.kernel(boundscheck=True)`` checks every array index (and waits).

    Parameters
    ----------
    func : callable
        The kernel's body (``@weft.kernel`` and ``@weft.kernel(boundscheck=True)`` both work).
    boundscheck : bool, optional
        Whether every array index is checked (default False).

    Returns
    -------
    KernelFunction
        Called ``k(queue_or_device, global_size, local_size, *args)`` or ``k[shape](*args)``.

    Raises
    ------
    weft.Unsupported
        At decoration or first call, for a construct outside the subset (with file, line and
        column).
    weft.IndexOutOfRange
        At a call, with ``boundscheck=True``, for an index outside an array.

    Examples
    --------
    >>> @weft.kernel
    ... def axpy(y, x, a):
    ...     i = weft.global_id(0)
    ...     y[i] += a * x[i]
    >>> x = weft.asarray(np.arange(4.0))
    >>> y = weft.zeros(4)
    >>> axpy(weft.default_device(), (4,), None, y, x, 3.0).wait()
    >>> y.get()
    array([0., 3., 6., 9.])
    >>> @weft.kernel
    ... def add_rows(m, r):
    ...     i, j = weft.global_id(0), weft.global_id(1)
    ...     m[i, j] += r[j]
    >>> m = weft.zeros((2, 3))
    >>> add_rows[m.shape](m, weft.asarray(np.arange(3.0))).wait()
    >>> m.get()
    array([[0., 1., 2.],
           [0., 1., 2.]])
    """
    if func is None:
        return functools.partial(kernel, boundscheck=boundscheck)
    return KernelFunction(func, boundscheck)


def show_source(f: Any, *types_or_example_args: Any) -> str:
    """The dialect (OpenCL C) source weft generates for a @weft.jit or @weft.kernel function and
    argument types, printed and returned. Give example arguments (arrays, numbers, tuples) or
    types: NumPy types for numbers, ``"float64[:, :]"`` for a 2-d array, ``("int64", "int64")`` for
    a tuple.

    Parameters
    ----------
    f : JitFunction or KernelFunction
        The function.
    types_or_example_args : types or values
        One type or example value per parameter of f.

    Returns
    -------
    str
        The generated source (also printed).

    Raises
    ------
    TypeError
        When f is not a @weft.jit or @weft.kernel function.
    weft.Unsupported
        For a construct outside the subset.

    Examples
    --------
    >>> @weft.jit
    ... def twice(x):
    ...     return 2 * x
    >>> src = weft.show_source(twice, np.int32)  # doctest: +ELLIPSIS
    // Generated by weft from the Python kernel 'twice' ...
    >>> "__kernel void pyk_twice(int x, __global int *pyk_ret)" in src
    True
    """
    if not isinstance(f, (JitFunction, KernelFunction)):
        raise TypeError(f"show_source: give a @weft.jit or @weft.kernel function, not {type(f).__name__}")
    p = f.parsed
    vals = _bind(p, types_or_example_args, "show_source:")
    types = []
    for name, v in zip(p.params, vals):
        t = parse_spec(v) if isinstance(v, (str, type, _np.dtype, tuple)) else None
        t = t if t is not None else type_of_value(v)
        if t is None:
            raise TypeError(f"show_source: argument '{name}' ({v!r}) is neither a kernel type nor an example value")
        want = _annotation(p, name)
        types.append(want if want is not None and not isinstance(t, ArrayT) else t)
    src = f._compiler.compiled(tuple(types)).source
    print(src)
    return src

