"""Kernel generators with PyOpenCL's argument conventions: ElementwiseKernel, ReductionKernel,
GenericScanKernel, InclusiveScanKernel and ExclusiveScanKernel (a leading context or device
argument is accepted and ignored: the call's arrays or queue=... choose the device)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence, cast

if TYPE_CHECKING:
    from ._array import Array
    from ._typing import DTypeLike

import numpy as _np

from . import _weft
from ._cupy_kernels import CupyElementwiseKernel, CupyReductionKernel, is_cupy_form
from ._dtypes import C_NAMES, dtype_name, np_dtype


def _drop_context(args: Sequence[Any]) -> Sequence[Any]:
    """PyOpenCL's generators take a context first: weft takes (and ignores) None, a Device, a
    Queue or any other object that is neither a string nor a dtype there."""
    if args and (args[0] is None or isinstance(args[0], (_weft.Device, _weft.Queue))
                 or (not isinstance(args[0], str) and not _is_dtype_like(args[0]))):
        return args[1:]
    return args


def _options(options: str | Iterable[object] | None) -> str | None:
    """Build options as a string; PyOpenCL also takes a list of them."""
    if options is None or isinstance(options, str):
        return options
    return " ".join(str(o) for o in options)


def _is_dtype_like(x: object) -> bool:
    try:
        _np.dtype(cast("DTypeLike", x))  # (TypeError when it is not one)
        return not isinstance(x, (_weft.Device, _weft.Queue))
    except TypeError:
        return False


class ElementwiseKernel(_weft._ElementwiseKernel):
    """A kernel generated from a C operation run for each index i, as PyOpenCL's ElementwiseKernel.

    ``ElementwiseKernel(arguments, operation, name="elementwise", preamble="", options=None)``:
    operation (C, in the dialect) runs for each i in range(n), n the first array argument's size.
    Call it as ``knl(*args, range=None, queue=None, wait_for=None)``; it returns a weft.Event. A
    leading context or device argument is accepted and ignored (PyOpenCL's form).

    CuPy's form is taken too, told apart by its two parameter lists:
    ``ElementwiseKernel('float64 x, T y', 'T z', 'z = x * y', 'mul')`` makes a
    weft.CupyElementwiseKernel (outputs allocated, inputs broadcast, placeholders bound from the
    arguments' dtypes).

    Parameters
    ----------
    arguments : str
        The C parameter list, e.g. ``"float *z, const float *x, float a"``.
    operation : str
        The C statement(s) for element i.
    name : str, optional
        The kernel's name.
    preamble : str, optional
        C code put before the kernel (helper functions, macros).
    options : str or list of str, optional
        Build options.

    Raises
    ------
    weft.BuildError
        The generated kernel did not compile (the log shows the operation's line).

    Examples
    --------
    >>> knl = weft.ElementwiseKernel("float *z, const float *x, float a", "z[i] = a * x[i] + 1")
    >>> x = weft.asarray(np.array([1.0, 2.0, 3.0], np.float32))
    >>> z = weft.empty_like(x)
    >>> knl(z, x, np.float32(2.0)).wait()
    >>> z.get()
    array([3., 5., 7.], dtype=float32)
    """

    __module__ = "weft"

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if is_cupy_form(args, kwargs):
            return CupyElementwiseKernel(*args, **kwargs)
        return super().__new__(cls)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        positional = list(_drop_context(args))
        names = ["arguments", "operation", "name", "preamble", "options"]
        params = dict(zip(names, positional))
        params.update(kwargs)
        params["options"] = _options(params.get("options"))
        super().__init__(**params)


class ReductionKernel(_weft._ReductionKernel):
    """A kernel generated from a map and a reduce expression, as PyOpenCL's ReductionKernel.

    ``ReductionKernel(dtype_out, neutral, reduce_expr, map_expr=None, arguments=None,
    name="reduce", options=None, preamble="")``: map_expr gives each index i's value, reduce_expr
    combines two values a and b, neutral is the identity. Call it as ``knl(*args, queue=None,
    wait_for=None, range=None)``; it returns a 0-d weft.Array (``.get()`` it, or keep using it on
    the device). A leading context or device argument is accepted and ignored.

    CuPy's form is taken too: ``ReductionKernel(in_params, out_params, map_expr, reduce_expr,
    post_map_expr, identity, name)`` makes a weft.CupyReductionKernel.

    Parameters
    ----------
    dtype_out : dtype
        The result's dtype.
    neutral : str
        The reduction's identity, as C (``"0"``).
    reduce_expr : str
        How two values a and b combine, as C (``"a+b"``).
    map_expr : str, optional
        Element i's value, as C (``"x[i]*y[i]"``); the first argument's element by default.
    arguments : str
        The C parameter list.

    Raises
    ------
    weft.InvalidArgument
        arguments is missing.
    weft.BuildError
        The generated kernel did not compile.

    Examples
    --------
    >>> dot = weft.ReductionKernel(np.float32, "0", "a+b", "x[i]*y[i]", "const float *x, const float *y")
    >>> x = weft.asarray(np.array([1.0, 2.0, 3.0], np.float32))
    >>> float(dot(x, x).get())
    14.0
    """

    __module__ = "weft"

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if is_cupy_form(args, kwargs):
            return CupyReductionKernel(*args, **kwargs)
        return super().__new__(cls)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        positional = list(_drop_context(args))
        names = ["dtype_out", "neutral", "reduce_expr", "map_expr", "arguments", "name", "options", "preamble"]
        params = dict(zip(names, positional))
        params.update(kwargs)
        params["dtype_out"] = dtype_name(params["dtype_out"])
        if params.get("map_expr") is None:
            params["map_expr"] = "in[i]"
        if params.get("arguments") is None:
            raise _weft.InvalidArgument("ReductionKernel: give arguments (the C parameter list)")
        params["options"] = _options(params.get("options"))
        super().__init__(**params)


class GenericScanKernel(_weft._GenericScanKernel):
    """A scan kernel generated from expressions, as PyOpenCL's GenericScanKernel: segmented scans,
    stream compaction and other scans with an output statement.

    ``GenericScanKernel(dtype, arguments, input_expr, scan_expr, neutral, output_statement,
    is_segment_start_expr=None, preamble="", name="scan", options=None)``; call it as
    ``knl(*args, size=None, queue=None, wait_for=None)``. input_expr gives item i's value,
    scan_expr combines a and b, output_statement writes with ``item`` (the inclusive value),
    ``prev_item`` (the exclusive one) and ``i``.

    Raises
    ------
    weft.BuildError
        The generated kernel did not compile.

    Examples
    --------
    >>> knl = weft.GenericScanKernel(np.int32, "const int *x, int *out", "x[i]", "a+b", "0", "out[i] = prev_item;")
    >>> x = weft.asarray(np.array([1, 2, 3, 4], np.int32))
    >>> out = weft.empty_like(x)
    >>> _ = knl(x, out)
    >>> out.get()
    array([0, 1, 3, 6], dtype=int32)
    """

    __module__ = "weft"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        positional = list(_drop_context(args))
        names = ["dtype", "arguments", "input_expr", "scan_expr", "neutral", "output_statement",
                 "is_segment_start_expr"]
        params = dict(zip(names, positional))
        params.update(kwargs)
        params["dtype"] = dtype_name(params["dtype"])
        params.pop("input_fetch_exprs", None)
        params.pop("index_dtype", None)
        if "name_prefix" in params:
            params["name"] = params.pop("name_prefix")
        params["options"] = _options(params.get("options"))
        params.pop("devices", None)
        if params.get("is_segment_start_expr"):
            # PyOpenCL's scan_expr may test across_seg_boundary; weft restarts each segment from
            # neutral itself and never combines across a boundary, so it is always false here.
            params["preamble"] = "#define across_seg_boundary 0\n" + (params.get("preamble") or "")
        super().__init__(**params)


class _ScanKernel:
    _output = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        positional = list(_drop_context(args))
        names = ["dtype", "scan_expr", "neutral", "name_prefix", "options", "preamble"]
        params = dict(zip(names, positional))
        params.update(kwargs)
        ctype = C_NAMES[dtype_name(params["dtype"])]
        neutral = params.get("neutral")
        if neutral is None:
            neutral = _infer_neutral(params["scan_expr"], np_dtype(dtype_name(params["dtype"])))
            if neutral is None:
                raise _weft.InvalidArgument(f"{type(self).__name__}: give neutral for scan_expr "
                                            f"{params['scan_expr']!r} (weft infers it only for sums, products, "
                                            "min, max and bitwise operators)")
        self.dtype = np_dtype(dtype_name(params["dtype"]))
        self._scan = GenericScanKernel(
            params["dtype"], f"const {ctype} *input_ary, {ctype} *output_ary", "input_ary[i]",
            params["scan_expr"], str(neutral), self._output, preamble=params.get("preamble") or "",
            name=params.get("name_prefix") or "scan", options=_options(params.get("options")))

    def __call__(self, input_ary: Array, output_ary: Array | None = None, queue: _weft.Queue | None = None,
                 wait_for: Sequence[_weft.Event] | None = None, size: int | None = None) -> Array:
        """Scans input_ary into output_ary (in place when None, as PyOpenCL) and returns output_ary."""
        if output_ary is None:
            output_ary = input_ary
        self._scan(input_ary, output_ary, queue=queue, wait_for=wait_for,
                   size=input_ary.size if size is None else size)
        return output_ary


def _infer_neutral(scan_expr: str, dtype: _np.dtype[Any]) -> str | None:
    """The neutral element of the common scan operators, as C source, or None."""
    e = scan_expr.replace(" ", "")
    lowest = (f"-INFINITY" if dtype.kind == "f" else str(_np.iinfo(dtype).min))
    highest = (f"INFINITY" if dtype.kind == "f" else str(_np.iinfo(dtype).max))
    if dtype.kind == "i" and _np.iinfo(dtype).min == _np.iinfo(_np.int64).min:
        lowest = "(-9223372036854775807L-1)"
    if dtype.kind == "u":
        highest = f"{highest}UL" if dtype.itemsize == 8 else highest
    table = {("a+b", "b+a"): "0", ("a*b", "b*a"): "1", ("a|b", "b|a", "a^b", "b^a"): "0",
             ("max(a,b)", "max(b,a)", "fmax(a,b)", "fmax(b,a)"): lowest,
             ("min(a,b)", "min(b,a)", "fmin(a,b)", "fmin(b,a)"): highest,
             ("a&b", "b&a"): "(~0)" if dtype.kind in "iu" else None}
    for forms, value in table.items():
        if e in forms:
            return value
    return None


class InclusiveScanKernel(_ScanKernel):
    """A kernel of an inclusive scan, as PyOpenCL's: out[i] combines in[0] to in[i].

    ``InclusiveScanKernel(dtype, scan_expr, neutral=None, preamble="")``; call it as
    ``knl(input_ary, output_ary=None, queue=None, wait_for=None, size=None)``: it scans into
    output_ary (in place when None, as PyOpenCL) and returns it. neutral may be left out for
    sums, products, min, max and bitwise operators (weft infers it).

    Raises
    ------
    weft.InvalidArgument
        neutral is needed (another operator) and missing.

    Examples
    --------
    >>> scan = weft.InclusiveScanKernel(np.int32, "a+b")
    >>> scan(weft.asarray(np.array([1, 2, 3, 4], np.int32))).get()
    array([ 1,  3,  6, 10], dtype=int32)
    """

    __module__ = "weft"
    _output = "output_ary[i] = item;"


class ExclusiveScanKernel(_ScanKernel):
    """A kernel of an exclusive scan, as PyOpenCL's: out[i] combines in[0] to in[i-1], and
    out[0] is neutral.

    ``ExclusiveScanKernel(dtype, scan_expr, neutral, preamble="")``; called as
    InclusiveScanKernel's.

    Raises
    ------
    weft.InvalidArgument
        neutral is needed (another operator) and missing.

    Examples
    --------
    >>> scan = weft.ExclusiveScanKernel(np.int32, "a+b", "0")
    >>> scan(weft.asarray(np.array([1, 2, 3, 4], np.int32))).get()
    array([0, 1, 3, 6], dtype=int32)
    """

    __module__ = "weft"
    _output = "output_ary[i] = prev_item;"
