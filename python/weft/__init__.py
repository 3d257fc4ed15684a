"""weft: one kernel source and one NumPy-like array API on CPUs, OpenCL devices and CUDA GPUs.

A PyOpenCL or CuPy user should feel at home::

    import numpy as np, weft
    a = weft.asarray(np.arange(10, dtype=np.float32))      # on weft.default_device()
    b = weft.sqrt(a) * 2 + 1                                 # lazy: one fused kernel ...
    print(b.get())                                           # ... run here, copied back

    prg = weft.Program(weft.default_device(), src).build()   # OpenCL C, cached on disk
    ev = prg.vadd(queue, (n,), None, a, b, c)                # returns a weft.Event

The package: the extension weft._weft (C++: devices, queues, kernels, arrays) and a module
per concept on top of it: _dtypes, _array (weft.Array), _indexing, _creation, _reductions,
_functions, _ufuncs, _protocols (NumPy's __array_ufunc__ and __array_function__), _chunk_protocols
(the NumPy functions Dask calls on chunks: like= creation, tensordot, nan* reductions), _pickle
(pickling arrays), _linalg, _generators, _events, _polygon, _sorting, the _pyk_* modules (Python
kernels: weft.jit, weft.kernel) and _pyopencl (PyOpenCL's names: mem_flags, CommandQueue,
get_platforms ...), and the public modules array, scan, elementwise and reduction
(pyopencl.array's, pyopencl.scan's ... names). This file only gathers their public names.
weft.dask (weft arrays as Dask chunks) is imported by `import weft.dask` only, so that weft
never needs Dask.
"""
from __future__ import annotations

import atexit as _atexit

from . import _device, _weft
from ._weft import (  # noqa: F401  (re-exported)
    Buffer,
    BuildError,
    ConfigError,
    Context,
    Device,
    DTypeError,
    DeviceError,
    Error,
    Event,
    EventProfile,
    Graph,
    IndexOutOfRange,
    InvalidArgument,
    Kernel,
    LaunchLog,
    LinAlgError,
    LocalMemory,
    OutOfMemory,
    Program,
    Queue,
    Unsupported,
    UserEvent,
    ValueOutOfRange,
    array_queue,
    backends,
    devices,
    elementwise_launches,
    enqueue_copy,
    enqueue_nd_range_kernel,
    free_cached_memory,
    memory_stats,
    synchronize,
    transfer_stats,
    wait_for_events,
)
from . import cache, cuda  # noqa: F401  (weft.cache.info(), weft.cuda.Device(0))
from ._array import Array  # noqa: F401
from ._benchmark import BenchmarkResult, benchmark  # noqa: F401
from ._cupy_kernels import CupyElementwiseKernel, CupyReductionKernel  # noqa: F401
from ._device import get_array_module  # noqa: F401
from ._creation import (  # noqa: F401
    arange,
    array,
    asarray,
    empty,
    empty_like,
    full,
    full_like,
    linspace,
    ones,
    ones_like,
    to_device,
    zeros,
    zeros_like,
)
from ._dtypes import (  # noqa: F401
    bool,  # (the Array API's name; this file never calls the builtin bool)
    bool_,
    complex64,
    complex128,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from ._events import HostFuture, gather  # noqa: F401
from ._stream import stream_map  # noqa: F401
from ._functions import (  # noqa: F401
    all,
    amax,
    amin,
    any,
    argmax,
    argmin,
    broadcast_to,
    copy,
    cumprod,
    cumsum,
    dot,
    matmul,
    max,
    mean,
    min,
    prod,
    ravel,
    reshape,
    result_type,
    std,
    sum,
    transpose,
    var,
)
from ._generators import (  # noqa: F401
    ElementwiseKernel,
    ExclusiveScanKernel,
    GenericScanKernel,
    InclusiveScanKernel,
    ReductionKernel,
)
from ._histogram import bincount, histogram, histogram2d  # noqa: F401
from ._manipulation import (  # noqa: F401  (the Array API's creation, manipulation, indexing, statistics)
    broadcast_arrays,
    concat,
    concatenate,
    count_nonzero,
    cumulative_prod,
    cumulative_sum,
    diff,
    expand_dims,
    eye,
    flip,
    meshgrid,
    moveaxis,
    permute_dims,
    repeat,
    roll,
    squeeze,
    stack,
    take,
    take_along_axis,
    tile,
    tril,
    triu,
    unstack,
)
from ._namespace import (  # noqa: F401  (the Array API's names: docs/PYTHON.md)
    __array_api_version__,
    __array_namespace_info__,
    astype,
    can_cast,
    conj,
    e,
    finfo,
    from_dlpack,
    iinfo,
    inf,
    isdtype,
    nan,
    newaxis,
    pi,
    real,
)
from ._placement import explain  # noqa: F401
from ._polygon import polygon_mask, random_polygon  # noqa: F401
from ._pyk_api import (  # noqa: F401  (Python kernels: issue 28)
    atomic_add,
    atomic_cas,
    atomic_inc,
    atomic_max,
    atomic_min,
    atomic_sub,
    atomic_xchg,
    barrier,
    global_id,
    global_size,
    group_id,
    jit,
    kernel,
    local_array,
    local_id,
    local_size,
    num_groups,
    prange,
    show_source,
)
from ._pyk_vectorize import vectorize  # noqa: F401  (issue 28: elementwise, lazy, fused)
from ._pyopencl import (  # noqa: F401  (PyOpenCL's names: docs/MIGRATING.md, "From PyOpenCL")
    CommandQueue,
    Platform,
    command_execution_status,
    command_queue_properties,
    create_some_context,
    device_partition_property,
    device_type,
    enqueue_barrier,
    enqueue_marker,
    get_platforms,
    mem_flags,
)
from . import random  # noqa: F401  (weft.random: the Philox generator)
from . import fft  # noqa: F401  (weft.fft: the Array API's fft extension)
from ._raw import RawKernel, RawModule  # noqa: F401
from ._partition import argpartition, partition, topk  # noqa: F401
from ._sorting import (  # noqa: F401
    argsort,
    argwhere,
    compress,
    extract,
    flatnonzero,
    nonzero,
    searchsorted,
    sort,
    sort_by_key,
    unique,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
)
from ._ufuncs import (  # noqa: F401
    abs,
    absolute,
    add,
    angle,
    imag,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctan2,
    arctanh,
    around,
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    cbrt,
    ceil,
    clip,
    copysign,
    cos,
    cosh,
    divide,
    equal,
    exp,
    exp2,
    expm1,
    fabs,
    floor,
    floor_divide,
    fmax,
    fmin,
    greater,
    greater_equal,
    hypot,
    invert,
    isfinite,
    isinf,
    isnan,
    left_shift,
    less,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logaddexp,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    mod,
    multiply,
    negative,
    nextafter,
    not_equal,
    positive,
    power,
    reciprocal,
    remainder,
    rint,
    right_shift,
    round,
    sign,
    signbit,
    sin,
    sinh,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    true_divide,
    trunc,
    where,
)

# The Array API's names of functions weft has under NumPy's names.
acos, asin, atan, atan2, bitwise_invert, pow = arccos, arcsin, arctan, arctan2, invert, power  # noqa: A001
acosh, asinh, atanh, bitwise_left_shift, bitwise_right_shift = arccosh, arcsinh, arctanh, left_shift, right_shift

# weft.array is a module (pyopencl.array's names) that is also NumPy's array() when called.
# (The ignore: to type checkers weft.array stays _creation.array, which calling the module runs.)
import importlib as _importlib

array = _importlib.import_module(".array", __name__)  # type: ignore[assignment]  # noqa: F811
from . import elementwise, reduction, scan  # noqa: E402,F401

__version__ = "0.1.0"

# CuPy's current device: `with weft.Device(...):` / `with dev:` (python/weft/_device.py). (The
# ignores: the stub declares these methods, python/stubs.pat; they are defined here.)
Device.__enter__ = _device._enter  # type: ignore[method-assign]
Device.__exit__ = _device._exit  # type: ignore[method-assign]
Device.use = _device.use  # type: ignore[method-assign]


def default_device() -> Device:
    """The current device: this thread's innermost ``with device:`` block's, else the device
    WEFT_DEVICE names (auto's choice when unset).

    Returns
    -------
    weft.Device
        The device arrays are made on when no device is named.

    Raises
    ------
    weft.ConfigError
        WEFT_DEVICE is malformed or names no device this machine has.

    Examples
    --------
    >>> with weft.Device("host"):
    ...     weft.default_device().selector
    'host'
    """
    return _device.current_device()


_atexit.register(_weft._shutdown)

from . import _ufunc_docs  # noqa: E402  (the elementwise functions' docstrings)

_ufunc_docs.apply(globals())
from . import _chunk_protocols  # noqa: E402,F401  (NumPy's functions Dask calls on chunks: like=, tensordot, nan*)
from . import _einsum  # noqa: E402,F401  (np.einsum on weft arrays)
from . import linalg  # noqa: E402  (weft.linalg: BLAS/LAPACK, and np.linalg on weft arrays)
from . import multi  # noqa: E402,F401  (weft.multi: one array split over several devices)
from .linalg import matrix_transpose, tensordot, vecdot  # noqa: E402
from . import _linalg_numpy  # noqa: E402,F401  (np.linalg on weft arrays)

# Written out, not computed, so that type checkers (mypy --strict: names imported here are not
# exported unless listed) see what the package exports; tests/python/test_typing.py checks it
# against the public names the package binds, so a new name missing here fails there.
__all__ = [
    "Array", "BenchmarkResult", "Buffer", "BuildError", "CommandQueue", "ConfigError", "Context",
    "CupyElementwiseKernel", "CupyReductionKernel", "DTypeError", "Device", "DeviceError",
    "ElementwiseKernel", "Error", "Event", "EventProfile", "ExclusiveScanKernel",
    "GenericScanKernel", "Graph", "HostFuture", "InclusiveScanKernel", "IndexOutOfRange",
    "InvalidArgument", "Kernel", "LaunchLog", "LinAlgError", "LocalMemory", "OutOfMemory", "Platform", "Program",
    "Queue", "RawKernel", "RawModule", "ReductionKernel", "Unsupported", "UserEvent",
    "ValueOutOfRange", "abs", "absolute", "acos", "acosh", "add", "all", "amax", "amin", "any",
    "arange", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "argmax", "astype",
    "argmin", "argpartition", "argsort", "argwhere", "around", "array", "array_queue", "asarray",
    "asin", "asinh", "atan", "atan2", "atanh", "backends", "benchmark", "bincount", "bitwise_and",
    "bitwise_invert", "bitwise_left_shift", "bitwise_or", "bitwise_right_shift", "bitwise_xor",
    "bool", "bool_", "broadcast_arrays", "angle", "complex64", "complex128", "imag", "broadcast_to", "cache", "can_cast", "cbrt", "ceil",
    "clip", "command_execution_status", "command_queue_properties", "compress", "concat",
    "concatenate", "conj", "copy", "copysign", "cos", "cosh", "count_nonzero",
    "create_some_context", "cuda", "cumprod", "cumsum", "cumulative_prod", "cumulative_sum",
    "default_device", "device_partition_property", "device_type", "devices", "diff", "divide",
    "dot", "e", "elementwise", "elementwise_launches", "empty", "empty_like", "enqueue_barrier",
    "enqueue_copy", "enqueue_marker", "enqueue_nd_range_kernel", "equal", "exp", "exp2",
    "expand_dims", "explain", "expm1", "extract", "eye", "fabs", "fft", "finfo", "flatnonzero", "flip",
    "float32",
    "float64", "floor", "floor_divide", "fmax", "fmin", "free_cached_memory", "from_dlpack", "full",
    "full_like", "gather", "get_array_module", "get_platforms", "greater", "greater_equal",
    "histogram", "histogram2d", "hypot", "iinfo", "inf", "int16", "int32", "int64", "int8",
    "invert", "isdtype", "isfinite", "isinf", "isnan", "left_shift", "less", "less_equal",
    "linalg", "linspace", "log", "log10", "log1p", "log2", "logaddexp", "logical_and", "logical_not",
    "logical_or", "logical_xor", "matmul", "matrix_transpose", "max", "maximum", "mean", "mem_flags", "memory_stats",
    "meshgrid", "min", "minimum", "mod", "moveaxis", "multi", "multiply", "nan", "negative", "newaxis",
    "nextafter", "nonzero", "not_equal", "ones", "ones_like", "partition", "permute_dims", "pi",
    "polygon_mask", "positive", "pow", "power", "prod", "random", "random_polygon", "ravel", "real",
    "reciprocal", "reduction", "remainder", "repeat", "reshape", "result_type", "right_shift",
    "rint", "roll", "round", "scan", "searchsorted", "sign", "signbit", "sin", "sinh", "sort",
    "sort_by_key", "sqrt", "square", "squeeze", "stack", "std", "stream_map", "subtract", "sum", "synchronize",
    "take", "take_along_axis", "tan", "tanh", "tensordot", "tile", "to_device", "topk", "transfer_stats", "transpose",
    "tril", "triu", "true_divide", "trunc", "uint16", "uint32", "uint64", "uint8", "unique",
    "unique_all", "unique_counts", "unique_inverse", "unique_values", "unstack", "var", "vecdot",
    "wait_for_events", "where", "zeros", "zeros_like",
    # Python kernels (issue 28)
    "atomic_add", "atomic_cas", "atomic_inc", "atomic_max", "atomic_min", "atomic_sub", "atomic_xchg", "barrier", "local_array", "global_id", "global_size", "group_id", "jit", "kernel", "local_id", "local_size", "num_groups", "prange",
    "show_source", "vectorize",
]

# Public names are weft's, whichever module defines them (their reprs, help() and pickles say
# weft.sum, not weft._reductions.sum).
for _name in __all__:
    _obj = globals()[_name]
    if getattr(_obj, "__module__", "").startswith("weft._") and _obj.__module__ != "weft._weft":
        _obj.__module__ = "weft"
for _obj in (Array, Buffer, Context, Device, Event, EventProfile, Graph, Kernel, LocalMemory, Program, Queue, UserEvent):
    _obj.__module__ = "weft"
del _name, _obj
