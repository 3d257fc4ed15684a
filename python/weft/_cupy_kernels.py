"""CuPy's generator forms, on weft's generators (so on every backend):

    mul = weft.ElementwiseKernel('float64 x, float64 y', 'float64 z', 'z = x * y', 'mul')
    z = mul(x, y)                          # z allocated, x and y broadcast, a weft.Array back
    l2 = weft.ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0', 'l2norm')
    l2(x, axis=1)

A parameter is ``[raw] TYPE NAME``: TYPE a NumPy dtype name or a one-letter placeholder that
the call binds from its arguments' dtypes (as CuPy). Non-raw parameters are elements in the
operation (``z = x * y``); raw ones are whole arrays indexed by ``i`` (``z = x[n - 1 - i]``).
Each set of bound types is translated once into a PyOpenCL-form kernel (weft's own
ElementwiseKernel/ReductionKernel) and kept.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence, Tuple, Union, cast

import math as _math
import re as _re

import numpy as _np

from . import _weft
from ._cupy_params import (  # noqa: F401  (is_cupy_form: for _generators)
    _MISS,
    _bind_types,
    _checked_params,
    _count,
    _ctype,
    _current_device,
    _is_array,
    _options,
    _prepared,
    _refuse_foreign,
    _resolved,
    _sizes,
    _substitute,
    _typedefs,
    _whole,
    is_cupy_form as is_cupy_form,
)
from ._dtypes import dtype_name

if TYPE_CHECKING:
    from ._array import Array
    from ._cupy_params import _Param
    from ._generators import ElementwiseKernel, ReductionKernel
    from ._weft import Device

    # A kernel's bound types (placeholder, dtype name), sorted.
    _Bound = Tuple[Tuple[str, str], ...]
    # CupyReductionKernel's kernels: an "axis" key's one kernel, a "full" key's reduction and
    # post-map (None when the post-map is `y = a`).
    _ReductionKernels = Union[ElementwiseKernel, Tuple[ReductionKernel, Union[ElementwiseKernel, None]]]
    # A reduction's plan: (mode, kernels, out_shape, out_dtype, m, n_out); see CupyReductionKernel._run.
    _Plan = Tuple[str, _ReductionKernels, Tuple[int, ...], str, int, int]


class CupyElementwiseKernel:
    """CuPy's ElementwiseKernel, made by weft.ElementwiseKernel when given CuPy's form.

    ``ElementwiseKernel(in_params, out_params, operation, name='kernel', reduce_dims=True,
    preamble='', no_return=False, return_tuple=False, options=())``. Call it with the inputs
    (and optionally the outputs): ``knl(x, y)`` or ``knl(x, y, z, size=None)``; it returns the
    output (a tuple for several). Outputs are allocated, inputs broadcast, type placeholders
    (``T x``) bound from the arguments' dtypes.

    Raises
    ------
    TypeError
        An argument of another dtype than its typed parameter, or a NumPy array.

    Examples
    --------
    >>> mul = weft.ElementwiseKernel("float64 x, float64 y", "float64 z", "z = x * y", "mul")
    >>> type(mul).__name__
    'CupyElementwiseKernel'
    >>> mul(weft.asarray([1.0, 2.0]), weft.asarray([3.0, 4.0])).get()
    array([3., 8.])
    """

    __module__ = "weft"

    def __init__(self, in_params: str, out_params: str, operation: str, name: str = "kernel", reduce_dims: bool = True,
                 preamble: str = "", no_return: bool = False, return_tuple: bool = False, loop_prep: str = "",
                 after_loop: str = "", options: str | Sequence[str] = (), **kwargs: Any) -> None:
        kind = "ElementwiseKernel"
        unknown = set(kwargs) - {"type_preamble"}
        if unknown:
            raise TypeError(f"{kind}: unexpected keyword argument {sorted(unknown)[0]!r}")
        if loop_prep or after_loop:
            raise _weft.Unsupported(f"{kind}: loop_prep and after_loop are not supported by weft")
        self.in_params = _checked_params(in_params, "in_params", kind)
        self.out_params = _checked_params(out_params, "out_params", kind)
        if not self.out_params:
            raise _weft.InvalidArgument(f"{kind}: out_params is empty: give at least one output")
        names = [p.name for p in self.in_params + self.out_params]
        if len(set(names)) != len(names):
            raise _weft.InvalidArgument(f"{kind}: parameter names repeat: {names}")
        self.operation, self.name, self.preamble = operation, name, preamble or ""
        self.no_return, self.return_tuple = no_return, return_tuple
        self.options = _options(options)
        self._kernels: dict[tuple[_Bound, tuple[bool, ...]], ElementwiseKernel] = {}
        # Calls whose arguments are all whole arrays of one shape (the outputs given or left to
        # weft), by the arguments' dtypes: (kernel, output dtypes). Such a call skips the type
        # binding and broadcasting (16 elements: 28 -> 10 us a call on the 2-core VM).
        self._plans: dict[tuple[str, ...], tuple[ElementwiseKernel, tuple[str, ...]]] = {}
        self._plain = not any(p.raw for p in self.in_params + self.out_params)

    @property
    def nin(self) -> int:
        return len(self.in_params)

    @property
    def nout(self) -> int:
        return len(self.out_params)

    @property
    def nargs(self) -> int:
        return self.nin + self.nout

    def _kernel(self, key: tuple[_Bound, tuple[bool, ...]], bound: Mapping[str, str],
                scalar_ins: tuple[bool, ...]) -> ElementwiseKernel:
        k = self._kernels.get(key)
        if k is None:
            sig, names = [], {}
            for p, scalar in zip(self.in_params, scalar_ins):
                c = _ctype(_resolved(p, bound))
                if scalar:
                    sig.append(f"{c} {p.name}")
                elif p.raw:
                    sig.append(f"const {c} *{p.name}")
                else:
                    sig.append(f"const {c} *weft_p_{p.name}")
                    names[p.name] = f"weft_p_{p.name}[i]"
            for p in self.out_params:
                c = _ctype(_resolved(p, bound))
                if p.raw:
                    sig.append(f"{c} *{p.name}")
                else:
                    sig.append(f"{c} *weft_p_{p.name}")
                    names[p.name] = f"weft_p_{p.name}[i]"
            op = _typedefs(bound, self.in_params, self.out_params) + "\n" + _substitute(self.operation, names)
            op = _re.sub(r"\b_ind\s*\.\s*size\s*\(\s*\)", _count(sig), op)
            from ._generators import ElementwiseKernel
            k = self._kernels[key] = ElementwiseKernel(", ".join(sig), op, self.name, self.preamble, self.options)
        return k

    def _planned(self, args: tuple[Any, ...]) -> object:
        """The result of a call on the plan of earlier calls like it, or _MISS."""
        try:
            plan = self._plans.get(tuple(a._dtype for a in args))
        except AttributeError:  # a number among the arguments
            return _MISS
        if plan is None:
            return _MISS
        a0 = args[0]
        shape, device = a0.shape, a0.device
        for a in args:
            if a.shape != shape or a.offset != 0 or not a.flags_c_contiguous or (a is not a0 and a.device != device):
                return _MISS
        k, out_dtypes = plan
        outs = list(args[self.nin:]) or [_weft._empty(shape, dt, device) for dt in out_dtypes]
        n = _math.prod(shape)
        if n:
            k(*args[:self.nin], *outs, range=n)
        if self.no_return:
            return None
        return outs[0] if len(outs) == 1 and not self.return_tuple else tuple(outs)

    def __call__(self, *args: Any, size: int | None = None, block_size: int | None = None, stream: Any = None,
                 queue: Any = None) -> Any:
        """Runs on stream (CuPy's word) or queue, a weft.Queue; else on the array queue of the
        arrays' device. block_size is accepted and left to weft."""
        queue = stream if queue is None else queue
        if self._plain and size is None and queue is None and args and len(args) in (self.nin, self.nargs):
            r = self._planned(args)
            if r is not _MISS:
                return r
        kind = f"ElementwiseKernel {self.name}"
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"{kind}: takes {self.nin} inputs (and optionally {self.nout} outputs), "
                            f"{len(args)} arguments were given")
        ins, outs = list(args[:self.nin]), list(args[self.nin:]) or [None] * self.nout
        for p, v in zip(self.in_params, ins):
            _refuse_foreign(v, kind, p)
        for p, v in zip(self.out_params, outs):
            if v is not None and not _is_array(v):
                raise TypeError(f"{kind}: output '{p.name}' must be a weft.Array, not {type(v).__name__}")
        bound = _bind_types(kind, self.in_params, ins, self.out_params, outs)
        shaped = [v for p, v in zip(self.in_params + self.out_params, ins + outs) if _is_array(v) and not p.raw]
        arrays = [v for v in ins + outs if _is_array(v)]
        if size is not None and shaped:
            raise ValueError(f"{kind}: size= can be given only when every array argument is raw")
        if shaped:
            try:
                shape = _np.broadcast_shapes(*(tuple(v.shape) for v in shaped))
            except ValueError:
                raise ValueError(f"{kind}: the shapes {[tuple(v.shape) for v in shaped]} do not broadcast") from None
        elif size is not None:
            shape = (int(size),)
        else:
            raise ValueError(f"{kind}: loop size is undecided: pass a non-raw array or size=")
        device = arrays[0].device if arrays else _current_device()
        for v in arrays[1:]:
            if v.device != device:
                raise _weft.InvalidArgument(f"{kind}: the arrays are on {device.selector} and {v.device.selector}")
        n = int(_np.prod(shape, dtype=_np.int64))
        call_ins = []
        for p, v in zip(self.in_params, ins):
            call_ins.append(_prepared(v, shape) if _is_array(v) and not p.raw else v)
        results, call_outs, write_back = [], [], []
        for p, v in zip(self.out_params, outs):
            if v is None:
                v = _weft._empty(shape if not p.raw else (n,), _resolved(p, bound), device)
            elif not p.raw and tuple(v.shape) != tuple(shape):
                raise ValueError(f"{kind}: output '{p.name}' has shape {tuple(v.shape)}, the broadcast shape is {shape}")
            results.append(v)
            if not p.raw and not _whole(v):
                tmp = _weft._empty(shape, v._dtype, device)
                write_back.append((v, tmp))
                v = tmp
            call_outs.append(v)
        if n > 0:
            scalar_ins = tuple(not _is_array(v) for v in ins)
            key = (tuple(sorted(bound.items())), scalar_ins)
            k = self._kernel(key, bound, scalar_ins)
            if queue is None and not arrays:
                queue = _weft.array_queue(device)
            k(*call_ins, *call_outs, range=n, queue=queue)
            for dst, tmp in write_back:
                dst[...] = tmp
            if self._plain and queue is None and all(_is_array(v) for v in args):
                self._plans[tuple(v._dtype for v in args)] = (k, tuple(v._dtype for v in results))
        if self.no_return:
            return None
        if len(results) == 1 and not self.return_tuple:
            return results[0]
        return tuple(results)

    def __repr__(self) -> str:
        return f"<weft.ElementwiseKernel {self.name} (CuPy form)>"


class CupyReductionKernel:
    """CuPy's ReductionKernel, made by weft.ReductionKernel when given CuPy's form.

    ``ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
    name='reduce_kernel', reduce_type=None, reduce_dims=True, preamble='', options=())``:
    map_expr gives each element's value from the inputs, reduce_expr combines a and b,
    post_map_expr writes the output from the reduced a. Call ``knl(x, ..., out=None, axis=None,
    keepdims=False)``.

    Raises
    ------
    weft.Unsupported
        More than one output, or a raw one.

    Examples
    --------
    >>> l2 = weft.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    >>> float(l2(weft.asarray([3.0, 4.0])).get())
    5.0
    """

    __module__ = "weft"

    def __init__(self, in_params: str, out_params: str, map_expr: str, reduce_expr: str, post_map_expr: str,
                 identity: str | None, name: str = "reduce_kernel", reduce_type: str | None = None,
                 reduce_dims: bool = True, preamble: str = "", options: str | Sequence[str] = (),
                 **kwargs: Any) -> None:
        kind = "ReductionKernel"
        if kwargs:
            raise TypeError(f"{kind}: unexpected keyword argument {sorted(kwargs)[0]!r}")
        self.in_params = _checked_params(in_params, "in_params", kind)
        self.out_params = _checked_params(out_params, "out_params", kind)
        if len(self.out_params) != 1 or self.out_params[0].raw:
            raise _weft.Unsupported(f"{kind}: weft's CuPy form takes exactly one non-raw output")
        if any(p.raw for p in self.in_params):
            raise _weft.Unsupported(f"{kind}: raw inputs are not supported in weft's CuPy-form reductions")
        if identity is None:
            raise _weft.InvalidArgument(f"{kind}: give identity (the neutral element of reduce_expr, as C source)")
        if reduce_type is not None and len(str(reduce_type)) != 1:
            reduce_type = dtype_name(reduce_type)
        self.map_expr, self.reduce_expr, self.post_map_expr = map_expr, reduce_expr, post_map_expr
        self.identity, self.name, self.reduce_type = str(identity), name, reduce_type
        self.preamble, self.options = preamble or "", _options(options)
        self._kernels: dict[tuple[str, _Bound, tuple[bool, ...]], _ReductionKernels] = {}
        # Calls on whole arrays of one shape, reducing trailing axes (or all), by the inputs'
        # dtypes and shape, axis and keepdims: what the call runs (see _run). Such a call skips
        # the type binding and the axis arithmetic (16 elements: 34 -> 7 us on the 2-core VM).
        self._plans: dict[tuple[tuple[str, ...], tuple[int, ...], int | tuple[int, ...] | None, bool], _Plan] = {}

    def _reduce_dtype(self, bound: Mapping[str, str]) -> str:
        rt = self.reduce_type
        if rt is None:
            return _resolved(self.out_params[0], bound)
        if len(rt) == 1:
            if rt not in bound:
                raise TypeError(f"ReductionKernel {self.name}: reduce_type {rt} is not bound by the arguments")
            return bound[rt]
        return rt

    def _post_map(self, bound: Mapping[str, str], rt: str, count: str) -> str:
        """The post-map statement over element i, from the reduced value `a` (count: the name
        of the kernel's element count; weft_m: elements per result)."""
        p = self.out_params[0]
        body = _substitute(_sizes(self.post_map_expr, f"(weft_m * {count})", count), {p.name: f"weft_p_{p.name}[i]"})
        return f"{_typedefs(bound, self.in_params, self.out_params)} {{ const {_ctype(rt)} a = weft_acc; {body}; }}"

    def _trivial_post_map(self, bound: Mapping[str, str], rt: str) -> bool:
        p = self.out_params[0]
        return (_re.fullmatch(rf"\s*{p.name}\s*=\s*a\s*;?\s*", self.post_map_expr) is not None
                and _resolved(p, bound) == rt)

    def _planned(self, ins: Sequence[Any], axis: int | tuple[int, ...] | None, keepdims: bool) -> object:
        """The result of a call on the plan of an earlier call like it, or _MISS."""
        try:
            key = (tuple(a._dtype for a in ins), ins[0].shape,
                   axis if axis is None or type(axis) is int else tuple(cast("tuple[int, ...]", axis)), bool(keepdims))
            plan = self._plans.get(key)
        except (AttributeError, TypeError):  # a number among the inputs, an axis of another kind
            return _MISS
        if plan is None:
            return _MISS
        a0 = ins[0]
        shape, device = a0.shape, a0.device
        for a in ins:
            if a.shape != shape or a.offset != 0 or not a.flags_c_contiguous or (a is not a0 and a.device != device):
                return _MISS
        return self._run(plan, ins, device, None)

    def _run(self, plan: _Plan, ins: Sequence[Any], device: Device, queue: Any) -> Array:
        """Runs a plan: ("full", (reduction, post-map or None), out_shape, out_dtype, m, n_out) or
        ("axis", kernel, ...). A reduction over everything whose post-map is `y = a` returns
        the reduction's own result (no copy)."""
        mode, k, out_shape, out_dtype, m, n_out = plan
        full = cast("tuple[ReductionKernel, ElementwiseKernel | None]", k)  # (what k is when mode is "full")
        if mode == "full" and full[1] is None:
            r = full[0](*ins, range=m, queue=queue)
            return r if out_shape == () else r.reshape(out_shape)
        result = _weft._empty(out_shape, out_dtype, device)
        if mode == "full":
            r = full[0](*ins, range=m, queue=queue)
            # (a "full" plan's post-map here: the one without returned above)
            cast("ElementwiseKernel", full[1])(r.reshape(1), result.reshape(1), m, range=1, queue=queue)
        elif n_out:
            cast("ElementwiseKernel", k)(*ins, result, m, range=n_out, queue=queue)  # (an "axis" plan's kernel)
        return result

    def __call__(self, *args: Any, out: Any = None, axis: int | tuple[int, ...] | None = None, keepdims: bool = False,
                 stream: Any = None, queue: Any = None) -> Any:
        """Runs on stream (CuPy's word) or queue, a weft.Queue; else on the array queue of the
        inputs' device."""
        queue = stream if queue is None else queue
        nin = len(self.in_params)
        if out is None and queue is None and len(args) == nin:
            r = self._planned(args, axis, keepdims)
            if r is not _MISS:
                return r
        kind = f"ReductionKernel {self.name}"
        if len(args) not in (nin, nin + 1):
            raise TypeError(f"{kind}: takes {nin} inputs (and optionally the output), {len(args)} were given")
        ins = list(args[:nin])
        if len(args) > nin:
            if out is not None:
                raise TypeError(f"{kind}: the output is given twice (as an argument and out=)")
            out = args[nin]
        for p, v in zip(self.in_params, ins):
            _refuse_foreign(v, kind, p)
        if out is not None and not _is_array(out):
            raise TypeError(f"{kind}: out= must be a weft.Array, not {type(out).__name__}")
        bound = _bind_types(kind, self.in_params, ins, self.out_params, [out])
        rt = self._reduce_dtype(bound)
        arrays = [v for v in ins if _is_array(v)]
        if not arrays:
            raise ValueError(f"{kind}: give at least one array input")
        device = arrays[0].device
        shape = _np.broadcast_shapes(*(tuple(v.shape) for v in arrays))
        ndim = len(shape)
        if axis is None:
            axes = tuple(range(ndim))
        else:
            axes = tuple(sorted({int(a) % ndim if ndim else int(a) for a in
                                 cast("tuple[int, ...]", (axis,) if _np.ndim(axis) == 0 else axis)}))
            if any(a >= max(ndim, 1) or a < 0 for a in axes) or (ndim == 0 and axes):
                raise getattr(_np, "exceptions", _np).AxisError(f"{kind}: axis {axis} is out of bounds for {ndim} dimensions")
        kept = tuple(d for d in range(ndim) if d not in axes)
        out_shape = tuple(1 if d in axes else shape[d] for d in range(ndim)) if keepdims else \
            tuple(shape[d] for d in kept)
        out_dtype = _resolved(self.out_params[0], bound)
        if out is not None and tuple(out.shape) != out_shape:
            raise ValueError(f"{kind}: out has shape {tuple(out.shape)}, the result's is {out_shape}")
        # Inputs as contiguous arrays whose leading dimensions are the kept ones.
        perm = kept + axes
        m = int(_np.prod([shape[d] for d in axes], dtype=_np.int64))
        n_out = int(_np.prod([shape[d] for d in kept], dtype=_np.int64))
        call_ins = []
        for v in ins:
            if _is_array(v):
                v = v.broadcast_to(shape) if tuple(v.shape) != shape else v
                if perm != tuple(range(ndim)):
                    v = v.transpose(*perm)
                v = v if _whole(v) else v.copy()
            call_ins.append(v)
        scalar_ins = tuple(not _is_array(v) for v in ins)
        plan: _Plan
        if len(kept) == 0 and m > 0:
            plan = ("full", self._full_kernels(bound, rt, scalar_ins), out_shape, out_dtype, m, n_out)
        else:
            plan = ("axis", self._axis_kernel(bound, rt, scalar_ins), out_shape, out_dtype, m, n_out)
        result = self._run(plan, call_ins, device, queue)
        if (queue is None and all(_is_array(v) for v in ins) and perm == tuple(range(ndim))
                and all(tuple(v.shape) == shape for v in ins)):
            key = (tuple(v._dtype for v in ins), shape,
                   axis if axis is None or type(axis) is int else tuple(cast("tuple[int, ...]", axis)), bool(keepdims))
            self._plans[key] = plan
        if out is not None:
            out[...] = result
            return out
        return result

    def _sig(self, bound: Mapping[str, str], scalar_ins: tuple[bool, ...]) -> tuple[list[str], dict[str, str]]:
        sig, names = [], {}
        for p, scalar in zip(self.in_params, scalar_ins):
            c = _ctype(_resolved(p, bound))
            if scalar:
                sig.append(f"{c} {p.name}")
            else:
                sig.append(f"const {c} *weft_p_{p.name}")
                names[p.name] = f"weft_p_{p.name}[weft_j]"
        return sig, names

    def _axis_kernel(self, bound: Mapping[str, str], rt: str, scalar_ins: tuple[bool, ...]) -> ElementwiseKernel:
        """One work-item per output element, each folding its m contiguous elements."""
        key = ("axis", tuple(sorted(bound.items())), scalar_ins)
        k = self._kernels.get(key)
        if k is None:
            sig, names = self._sig(bound, scalar_ins)
            p = self.out_params[0]
            sig += [f"{_ctype(_resolved(p, bound))} *weft_p_{p.name}", "long weft_m"]
            c, count = _ctype(rt), _count(sig)
            op = (f"{_typedefs(bound, self.in_params, self.out_params)}\n"
                  f"{c} weft_acc = ({c})({self.identity});\n"
                  f"for (long weft_k = 0; weft_k < weft_m; ++weft_k) {{\n"
                  f"  const long weft_j = i * weft_m + weft_k;\n"
                  f"  const {c} weft_b = ({c})({_substitute(_sizes(self.map_expr, f'(weft_m * {count})', count), names)});\n"
                  f"  {{ const {c} a = weft_acc; const {c} b = weft_b; weft_acc = ({c})({self.reduce_expr}); }}\n"
                  f"}}\n{self._post_map(bound, rt, count)}")
            from ._generators import ElementwiseKernel
            k = self._kernels[key] = ElementwiseKernel(", ".join(sig), op, self.name, self.preamble, self.options)
        return cast("ElementwiseKernel", k)  # (an "axis" key's entry)

    def _full_kernels(self, bound: Mapping[str, str], rt: str,
                      scalar_ins: tuple[bool, ...]) -> tuple[ReductionKernel, ElementwiseKernel | None]:
        """A reduction over every element: weft's ReductionKernel, then the post-map (one
        element; None when it is `y = a` of the reduction's type)."""
        key = ("full", tuple(sorted(bound.items())), scalar_ins)
        k = self._kernels.get(key)
        if k is None:
            sig, names = self._sig(bound, scalar_ins)
            names = {name: sub.replace("[weft_j]", "[i]") for name, sub in names.items()}
            typedefs = _typedefs(bound, self.in_params, self.out_params)
            from ._generators import ElementwiseKernel, ReductionKernel
            map_expr = _substitute(_sizes(self.map_expr, _count(sig), "1"), names)
            red = ReductionKernel(rt, self.identity, self.reduce_expr, map_expr,
                                  ", ".join(sig), name=self.name, options=self.options,
                                  preamble=typedefs + "\n" + self.preamble)
            post = None
            if not self._trivial_post_map(bound, rt):
                p = self.out_params[0]
                post_sig = (f"const {_ctype(rt)} *weft_r, {_ctype(_resolved(p, bound))} *weft_p_{p.name}, "
                            "long weft_m")
                post = ElementwiseKernel(post_sig, f"const {_ctype(rt)} weft_acc = weft_r[0];\n" +
                                         self._post_map(bound, rt, "n"), self.name + "_post", self.preamble,
                                         self.options)
            k = self._kernels[key] = (red, post)
        return cast("tuple[ReductionKernel, ElementwiseKernel | None]", k)  # (a "full" key's entry)

    def __repr__(self) -> str:
        return f"<weft.ReductionKernel {self.name} (CuPy form)>"
