"""weft: one kernel source and one NumPy-like array API on CPUs, OpenCL devices and CUDA GPUs.

A PyOpenCL or CuPy user should feel at home::

    import numpy as np, weft
    a = weft.asarray(np.arange(10, dtype=np.float32))      # on weft.default_device()
    b = weft.sqrt(a) * 2 + 1                                 # lazy: one fused kernel ...
    print(b.get())                                           # ... run here, copied back

    prg = weft.Program(weft.default_device(), src).build()   # OpenCL C, cached on disk
    ev = prg.vadd(queue, (n,), None, a, b, c)                # returns a weft.Event
"""
from __future__ import annotations

import atexit as _atexit
import builtins as _builtins
import numbers as _numbers

import numpy as _np

from . import _weft
from ._weft import (  # noqa: F401  (re-exported)
    Array,
    Buffer,
    BuildError,
    ConfigError,
    Device,
    DTypeError,
    DeviceError,
    Error,
    Event,
    EventProfile,
    Graph,
    InvalidArgument,
    Kernel,
    LaunchLog,
    LocalMemory,
    OutOfMemory,
    Program,
    Queue,
    Unsupported,
    ValueOutOfRange,
    abs,
    arccos,
    arcsin,
    arctan,
    arctan2,
    array_queue,
    backends,
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    cbrt,
    ceil,
    clip,
    cos,
    cosh,
    default_device,
    devices,
    elementwise_launches,
    enqueue_copy,
    equal,
    exp,
    free_cached_memory,
    from_dlpack,
    memory_stats,
    transfer_stats,
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
    less,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    multiply,
    negative,
    not_equal,
    power,
    reciprocal,
    remainder,
    rint,
    round,  # noqa: A004  (NumPy's round: half to even, integers keep their dtype)
    sin,
    sinh,
    sqrt,
    square,
    subtract,
    synchronize,
    tan,
    tanh,
    true_divide,
    trunc,
    wait_for_events,
    where,
)
from ._weft import add  # noqa: F401

__version__ = "0.1.0"

_atexit.register(_weft._shutdown)

absolute = abs
divide = true_divide
mod = remainder
around = round  # NumPy's round to even, keeping an integer's dtype

bool_ = _np.bool_
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float32, float64 = _np.float32, _np.float64

_DTYPES = {}


def _dtype_name(dtype) -> str:
    """The NumPy name of a dtype-like (np.float32, 'f4', float, np.dtype)."""
    try:
        return _DTYPES[dtype]
    except (KeyError, TypeError):
        pass
    name = _np.dtype(dtype).name
    try:
        _DTYPES[dtype] = name
    except TypeError:
        pass
    return name


_NP_DTYPES = {}


def _np_dtype(name: str):
    t = _NP_DTYPES.get(name)
    if t is None:
        t = _NP_DTYPES[name] = _np.dtype(name)
    return t


# ---------------------------------------------------------------------------------------------
# weft.Array: what the extension gives, plus NumPy's protocols and conveniences.

def _array_dtype(self):
    return _np_dtype(self._dtype)


def _get(self, queue=None, ary=None):
    """The array's elements in a new NumPy array (or in ary), waiting for them (Ctrl-C interrupts)."""
    out = ary if ary is not None else _np.empty(self.shape, dtype=_np_dtype(self._dtype))
    if out.shape != self.shape or out.dtype != _np_dtype(self._dtype) or not out.flags.c_contiguous:
        raise InvalidArgument(f"get: ary must be a C-contiguous {self._dtype} array of shape {self.shape}")
    self._read_into(out)
    return out


class HostFuture:
    """A copy to the host under way: ``await`` it, or call ``result()``; both give the NumPy array."""

    __slots__ = ("event", "_out")

    def __init__(self, event, out):
        self.event = event
        self._out = out

    def done(self) -> bool:
        return self.event.done

    def result(self):
        self.event.wait()
        return self._out

    def __await__(self):
        yield from self.event.__await__()
        return self._out


def _get_async(self):
    """Starts the copy to the host and returns a HostFuture (awaitable) at once."""
    out = _np.empty(self.shape, dtype=_np_dtype(self._dtype))
    return HostFuture(self._read_async(out), out)


def _array(self, dtype=None, copy=None):
    if copy is False:
        raise ValueError("a weft.Array cannot be seen as a NumPy array without a copy to the host")
    host = _get(self)
    return host if dtype is None else host.astype(dtype, copy=False)


def _astype(self, dtype, copy=True):
    return self._astype(_dtype_name(dtype), copy)


def _set(self, ary, queue=None):
    """Copies the host array ary (same shape) into this array."""
    ary = _np.ascontiguousarray(ary, dtype=_np_dtype(self._dtype))
    if ary.shape != self.shape:
        raise InvalidArgument(f"set: shape {ary.shape} given for an array of shape {self.shape}")
    self._set(ary)


def _scalar(self):
    if self.size != 1:
        raise TypeError("only arrays of one element can be converted to Python scalars")
    return _get(self).reshape(()).item()


def _deliver(r, dtype=None, out=None):
    """NumPy's dtype= and out= of a reduction or scan: cast, then write into out if given."""
    if dtype is not None:
        r = r.astype(dtype, copy=False)
    if out is not None:
        return _into(out, r, "out=")
    return r


def _reduction(what):
    def method(self, axis=None, dtype=None, out=None, keepdims=False):
        return _deliver(_weft._reduce(what, self, axis, keepdims), dtype, out)

    method.__name__ = what
    method.__doc__ = f"{what} over axis (None: all), as NumPy's; stays on the device."
    return method


def _arg_extreme(what):
    def method(self, axis=None, out=None, *, keepdims=False):
        return _deliver(_weft._arg_extreme(what, self, axis, keepdims), None, out)

    method.__name__ = what
    method.__doc__ = (f"The index of the first {what[3:]}imum (a NaN counts as the extreme), over every element "
                      "(a flat index) or along axis, as NumPy's; stays on the device.")
    return method


def _spread(what):
    def method(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return _deliver(_weft._var(what, self, axis, keepdims, int(ddof)), dtype, out)

    method.__name__ = what
    method.__doc__ = f"{what} over axis (None: all) dividing by N - ddof, as NumPy's (two passes)."
    return method


def _cumulative(what):
    def method(self, axis=None, dtype=None, out=None):
        return _deliver(_weft._scan(what, self, axis), dtype, out)

    method.__name__ = what
    method.__doc__ = f"{what} of the flattened elements (axis None) or along axis, as NumPy's; one scan kernel."
    return method


def _dot(self, other, out=None):
    return _deliver(_weft._dot(self, other), None, out)


def _matmul(a, b):
    """NumPy's matmul: 1-D and 2-D operands through dot; stacks of matrices (more than two
    dimensions, the leading ones broadcast together) as one fused reduction of the broadcast
    products over the shared dimension, no temporary (a 1-D operand is a row or a column whose
    dimension is removed from the result)."""
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: an operand is 0-d (use * for scalars)")
    if a.ndim <= 2 and b.ndim <= 2:
        return _weft._dot(a, b)
    rows, cols = (a[None, :] if a.ndim == 1 else a), (b[:, None] if b.ndim == 1 else b)
    if rows.shape[-1] != cols.shape[-2]:
        raise ValueError(f"matmul: the first operand's last dimension ({rows.shape[-1]}) differs from the second's "
                         f"dimension before last ({cols.shape[-2]}); shapes {a.shape} and {b.shape}")
    try:
        _np.broadcast_shapes(rows.shape[:-2], cols.shape[:-2])
    except ValueError:
        raise ValueError(f"matmul: the stack dimensions of shapes {a.shape} and {b.shape} do not broadcast "
                         "together") from None
    dtype = _np.result_type(a.dtype, b.dtype)
    products = rows[..., :, :, None] * cols[..., None, :, :]
    r = _weft._reduce("any" if dtype == _np.bool_ else "sum", products, -2, False).astype(dtype, copy=False)
    if a.ndim == 1:
        r = r[..., 0, :]
    if b.ndim == 1:
        r = r[..., 0]
    return r


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    for i in range(self.shape[0]):
        yield self[i]


_GENERATED = {}


def _contiguous(a):
    return a if a.flags_c_contiguous and a.offset == 0 else a.copy()


def _ctype(a):
    return "uchar" if a._dtype == "bool" else _C_NAMES[a._dtype]


def _kernel(key, make):
    k = _GENERATED.get(key)
    if k is None:
        k = _GENERATED[key] = make()
    return k


def _mask_array(a, mask):
    """mask as a weft bool array over a's leading axes (NumPy: a[mask] with mask.shape ==
    a.shape[:mask.ndim]), and how many elements each selected position stands for."""
    m = asarray(mask, device=a.device)
    if m.dtype != bool_:
        raise IndexError(f"a boolean index must be of dtype bool, not {m.dtype}")
    if m.ndim > a.ndim or m.shape != a.shape[:m.ndim]:
        raise IndexError(f"boolean index of shape {m.shape} does not match the array's shape {a.shape} "
                         f"(it must match the leading dimensions {a.shape[:m.ndim]})")
    return m, int(_np.prod(a.shape[m.ndim:], dtype=_np.int64))


def _mask_scan(ctype, compress):
    """The scan over a flat mask that moves rows of inner elements: compress takes the selected
    rows of src to consecutive rows of dst; expand (its inverse) puts consecutive rows of src
    at the selected rows of dst."""
    dst, src = ("(item - 1) * inner", "i * inner") if compress else ("i * inner", "(item - 1) * inner")
    name = "compress" if compress else "expand"
    return _kernel((name, ctype), lambda: GenericScanKernel(
        int64, f"const uchar *mask, const {ctype} *src, {ctype} *dst, long inner", "mask[i] ? 1 : 0", "a+b", "0",
        f"if (prev_item != item) for (long q = 0; q < inner; ++q) dst[{dst} + q] = src[{src} + q];",
        name=f"weft_{name}"))


def _compress(a, mask):
    """a[mask] for a boolean mask of a's leading dimensions: the selected positions in C order,
    each with the dimensions after the mask's."""
    m, inner = _mask_array(a, mask)
    count = int(m.sum())
    out = empty((count,) + a.shape[m.ndim:], dtype=a.dtype, device=a.device)
    if out.size == 0:
        return out
    m = _contiguous(m.evaluate()).ravel()
    _mask_scan(_ctype(a), compress=True)(m, _contiguous(a), out, inner, size=m.size)
    return out


def _values_for(a, value, shape):
    """value as a contiguous device array of a's dtype and the given shape (broadcast)."""
    v = value if isinstance(value, Array) else asarray(_np.asarray(value), device=a.device)
    if v.device != a.device:
        raise InvalidArgument(f"the values are on {v.device.selector}, the array on {a.device.selector}")
    try:
        v = v.astype(a.dtype, copy=False).broadcast_to(shape)
    except InvalidArgument:
        raise ValueError(f"shape mismatch: value array of shape {v.shape} could not be broadcast to indexing "
                         f"result of shape {shape}") from None
    return _contiguous(v.evaluate())


def _write_through(a, fill):
    """Runs fill(target) on a contiguous target holding a's elements, then makes a hold them
    (a itself when it is contiguous)."""
    if a.flags_c_contiguous and a.offset == 0:
        fill(a)
        return
    t = a.copy()
    fill(t)
    _basic_setitem(a, Ellipsis, t)


def _masked_assign(a, mask, value):
    """a[mask] = value: a number is written where the mask is true in one fused where(); an
    array of the selected shape (or one that broadcasts to it) goes to the selected positions
    in order, through a scan of the mask."""
    m, inner = _mask_array(a, mask)
    if not isinstance(value, Array) and _np.ndim(value) == 0:
        _weft._assign_where(a, m.reshape(m.shape + (1,) * (a.ndim - m.ndim)), value)
        return
    count = int(m.sum())
    v = _values_for(a, value, (count,) + a.shape[m.ndim:])
    if v.size == 0:
        return
    m = _contiguous(m.evaluate()).ravel()
    k = _mask_scan(_ctype(a), compress=False)
    _write_through(a, lambda t: k(m, v, t, inner, size=m.size))


_basic_getitem = Array.__getitem__
_basic_setitem = Array.__setitem__


def _is_advanced(key):
    return isinstance(key, (Array, list, _np.ndarray))


def _key_kind(key):
    return key.dtype.kind if isinstance(key, (Array, _np.ndarray)) else _np.asarray(key).dtype.kind


def _as_index(a, key, axis):
    """key (an integer, an integer array or list) as an int64 device array of valid,
    non-negative indices into axis `axis` of a."""
    n = a.shape[axis]
    if isinstance(key, _numbers.Integral):
        if key < -n or key >= n:
            raise IndexError(f"index {key} is out of bounds for axis {axis} with size {n}")
        return asarray(_np.int64(key % n if n else key), device=a.device)
    if isinstance(key, list):
        key = _np.asarray(key)
        if key.size == 0:
            key = key.astype(_np.int64)  # a[[]], as NumPy
    idx = asarray(key, device=a.device)
    if idx.dtype.kind not in "iu":
        raise IndexError(f"arrays used as indices must be of integer (or boolean) type, not {idx.dtype}")
    idx = idx.astype(int64, copy=False)
    if idx.size:
        lo, hi = int(idx.min()), int(idx.max())
        if lo < -n or hi >= n:
            bad = lo if lo < -n else hi
            raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
        if lo < 0:
            idx = where(idx < 0, idx + n, idx)
    return idx


def _mask_indices(a, mask, axis):
    """The positions a boolean mask over axes axis, axis+1, ... of a selects, as one int64
    index array per axis it covers (NumPy: mask.nonzero())."""
    m = asarray(mask, device=a.device)
    covered = a.shape[axis:axis + m.ndim]
    if m.ndim == 0 or m.shape != covered:
        raise IndexError(f"boolean index of shape {m.shape} does not match the array's dimensions {covered} "
                         f"from axis {axis}")
    flat = arange(m.size, dtype=int64, device=a.device)[m.ravel()]
    out, step = [], m.size
    for n in m.shape:
        step //= n
        out.append(flat // step % n if step > 1 else flat % n)
    return out


def _advanced_plan(a, key):
    """NumPy's advanced indexing, planned: returns None when key is basic, else (flat view of
    a's allocation, offsets of the indexed elements (int64, one per broadcast index position),
    offsets of the remaining dimensions (int64), the result's shape, and (nb, post): result
    element i reads flat[off[i // post % nb] + roff[i // (post * nb) * post + i % post]]).
    Index arrays broadcast together; integers beside them count as 0-d index arrays; boolean
    masks stand for their nonzero() positions; the broadcast dimensions replace the indexed
    ones in place when those were next to each other in the key, else they come first."""
    key = key if isinstance(key, tuple) else (key,)
    if not _builtins.any(_is_advanced(x) for x in key):
        return None
    consumed = [0 if x is None or x is Ellipsis else
                (asarray(x).ndim if _is_advanced(x) and _key_kind(x) == "b" else 1) for x in key]
    dots = [i for i, x in enumerate(key) if x is Ellipsis]
    if len(dots) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if _builtins.sum(consumed) > a.ndim:
        raise IndexError(f"too many indices for array: array is {a.ndim}-dimensional, but {_builtins.sum(consumed)} "
                         f"were indexed")
    if dots:
        e = dots[0]
        fill = a.ndim - _builtins.sum(consumed)
        key = key[:e] + (slice(None),) * fill + key[e + 1:]
        consumed = consumed[:e] + [1] * fill + consumed[e + 1:]
    basic, positions, indices, entries = [], [], [], []
    a_axis = v_axis = 0
    for j, (x, c) in enumerate(zip(key, consumed)):
        if x is None:
            basic.append(None)
            v_axis += 1
        elif isinstance(x, slice):
            basic.append(x)
            a_axis += 1
            v_axis += 1
        else:  # an index array, a mask or an integer: indexed dimensions
            if (isinstance(x, _numbers.Integral) and not isinstance(x, bool)) or \
                    (_is_advanced(x) and _key_kind(x) != "b"):
                indices.append(_as_index(a, x, a_axis))
            elif _is_advanced(x):
                indices.extend(_mask_indices(a, x, a_axis))
            else:
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer "
                                 f"or boolean arrays are valid indices (got {type(x).__name__})")
            basic.extend([slice(None)] * c)
            positions.extend(range(v_axis, v_axis + c))
            entries.append(j)
            a_axis += c
            v_axis += c
    view = _basic_getitem(a, tuple(basic))
    try:
        bshape = _np.broadcast_shapes(*[i.shape for i in indices])
    except ValueError:
        shapes = " ".join(str(i.shape) for i in indices)
        raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together with shapes {shapes}") \
            from None
    item = view.itemsize
    strides = [st // item for st in view.strides]
    off = view.offset
    for p, i in zip(positions, indices):
        off = off + i * strides[p]
    off = _contiguous(asarray(off, device=a.device).astype(int64, copy=False).broadcast_to(bshape).evaluate())
    rest = [d for d in range(view.ndim) if d not in positions]
    rshape = tuple(view.shape[d] for d in rest)
    roff = asarray(_np.int64(0), device=a.device)
    for k, d in enumerate(rest):
        shape = [1] * len(rest)
        shape[k] = view.shape[d]
        roff = roff + arange(view.shape[d], dtype=int64, device=a.device).reshape(shape) * strides[d]
    roff = _contiguous(roff.astype(int64, copy=False).broadcast_to(rshape).evaluate())
    adjacent = entries == list(range(entries[0], entries[-1] + 1))
    first = _builtins.sum(1 for d in rest if d < positions[0]) if adjacent else 0
    out_shape = rshape[:first] + tuple(bshape) + rshape[first:]
    post = int(_np.prod(rshape[first:], dtype=_np.int64))
    nb = int(_np.prod(bshape, dtype=_np.int64))
    flat = _weft._as_strided(view, (view.data.size // item,), (1,), 0)
    return flat, off, roff, out_shape, nb, post


_INDEX_READ = "src[off[i / post % nb] + roff[i / (post * nb) * post + i % post]]"


def _getitem(self, key):
    """NumPy indexing: basic indices give views (no copy); integer arrays, lists, boolean masks
    and integers beside them index as NumPy's advanced indexing, into a new array (one gather
    kernel, reading the array where it lies: no copy of a strided source)."""
    if _is_advanced(key) and _key_kind(key) == "b":
        return _compress(self, key)
    plan = _advanced_plan(self, key)
    if plan is None:
        return _basic_getitem(self, key)
    flat, off, roff, shape, nb, post = plan
    out = empty(shape, dtype=self.dtype, device=self.device)
    if out.size == 0:
        return out
    ctype = _ctype(self)
    k = _kernel(("gather", ctype), lambda: ElementwiseKernel(
        f"{ctype} *out, const {ctype} *src, const long *off, const long *roff, long nb, long post",
        f"out[i] = {_INDEX_READ}", name="weft_gather"))
    k(out, flat, off, roff, nb, post, range=out.size)
    return out


def _setitem(self, key, value):
    """NumPy assignment: through a basic index (a view), a boolean mask of the leading
    dimensions, or any advanced index (value broadcast to the indexed shape; where an element
    is indexed more than once, which of its values lands is unspecified, as in CuPy)."""
    if _is_advanced(key) and _key_kind(key) == "b":
        _masked_assign(self, key, value)
        return
    plan = _advanced_plan(self, key)
    if plan is None:
        _basic_setitem(self, key, value)
        return
    flat, off, roff, shape, nb, post = plan
    v = _values_for(self, value, shape)
    if v.size == 0:
        return
    ctype = _ctype(self)
    k = _kernel(("scatter", ctype), lambda: ElementwiseKernel(
        f"{ctype} *src, const {ctype} *v, const long *off, const long *roff, long nb, long post",
        f"{_INDEX_READ} = v[i]", name="weft_scatter"))
    k(flat, v, off, roff, nb, post, range=v.size)


def _to(self, device) -> "Array":
    """The same memory seen from device (weft's residence): nothing is copied now; the first
    kernel that reads it there copies the allocation once, and a write on either side makes the
    other's copy stale (the next read there copies again). Unlike asarray(a, device=...), which
    makes an independent copy, writes through either array are seen by the other."""
    return _weft._to(self, device)


Array.__getitem__ = _getitem
Array.__setitem__ = _setitem
Array.argmin = _arg_extreme("argmin")
Array.argmax = _arg_extreme("argmax")
Array.var = _spread("var")
Array.std = _spread("std")
Array.cumsum = _cumulative("cumsum")
Array.cumprod = _cumulative("cumprod")
Array.dot = _dot
Array.__matmul__ = lambda self, other: _matmul(self, other) if isinstance(other, Array) else NotImplemented
Array.__rmatmul__ = lambda self, other: _matmul(other, self) if isinstance(other, Array) else NotImplemented
Array.to = _to
Array.dtype = property(_array_dtype, doc="The NumPy dtype of the elements.")
Array.get = _get
Array.get_async = _get_async
Array.__array__ = _array
Array.astype = _astype
Array.set = _set
Array.__float__ = lambda self: float(_scalar(self))
Array.__int__ = lambda self: int(_scalar(self))
Array.__bool__ = lambda self: bool(_scalar(self))
Array.__complex__ = lambda self: complex(_scalar(self))
Array.item = _scalar
Array.tolist = lambda self: _get(self).tolist()
Array.__iter__ = _iter
Array.__hash__ = None
Array.__cuda_array_interface__ = property(
    lambda self: self._cuda_array_interface(),
    doc="CUDA's array interface (CUDA devices only), for CuPy, PyTorch and Numba: no copy.")
Array.__array_priority__ = 100
for _name in ("sum", "prod", "min", "max", "mean", "any", "all"):
    setattr(Array, _name, _reduction(_name))


def _format(self):
    return f"weft.Array({_np.array2string(_get(self), separator=', ')}, dtype={self._dtype}, device={self.device.selector!r})"


Array.__str__ = lambda self: str(_get(self))
Array.__format__ = lambda self, spec: format(_get(self), spec) if spec else _format(self)


def _await_event(self):
    """``await event``: resumes when the command is done (the callback runs on a backend thread)."""
    if self.done:
        self.wait()
        return
    import asyncio  # here, not at import: it costs ~10 ms of every `import weft`

    loop = asyncio.get_running_loop()
    fut = loop.create_future()

    def _done(ev):
        loop.call_soon_threadsafe(lambda: fut.done() or fut.set_result(None))

    self.then(_done)
    yield from fut
    self.wait()  # raises if the command failed


Event.__await__ = _await_event

# ---------------------------------------------------------------------------------------------
# NumPy's protocols: np.sin(a) stays on the device and returns a weft.Array.

_UFUNCS = {
    "add": add, "subtract": subtract, "multiply": multiply, "divide": true_divide,
    "true_divide": true_divide, "floor_divide": floor_divide, "remainder": remainder, "mod": remainder,
    "power": power, "negative": negative, "positive": lambda x: x, "absolute": abs, "fabs": fabs,
    "sqrt": sqrt, "cbrt": cbrt, "exp": exp, "exp2": exp2, "expm1": expm1, "log": log, "log2": log2,
    "log10": log10, "log1p": log1p, "sin": sin, "cos": cos, "tan": tan, "arcsin": arcsin,
    "arccos": arccos, "arctan": arctan, "sinh": sinh, "cosh": cosh, "tanh": tanh, "arctan2": arctan2,
    "hypot": hypot, "minimum": minimum, "maximum": maximum, "fmin": fmin, "fmax": fmax,
    "less": less, "less_equal": less_equal, "greater": greater, "greater_equal": greater_equal,
    "equal": equal, "not_equal": not_equal, "logical_and": logical_and, "logical_or": logical_or,
    "logical_xor": logical_xor, "logical_not": logical_not, "bitwise_and": bitwise_and,
    "bitwise_or": bitwise_or, "bitwise_xor": bitwise_xor, "invert": invert, "isnan": isnan,
    "isinf": isinf, "isfinite": isfinite, "floor": floor, "ceil": ceil, "trunc": trunc, "rint": rint,
    "square": square, "reciprocal": reciprocal,
}
_UFUNC_REDUCE = {"add": "sum", "multiply": "prod", "minimum": "min", "maximum": "max",
                 "logical_and": "all", "logical_or": "any"}


def _into(out, r, name):
    """NumPy's out=: the result written into out (a weft.Array of the result's shape, of a
    dtype the result casts to under NumPy's 'same_kind' rule) in one kernel; out returned."""
    if not isinstance(out, Array):
        raise TypeError(f"{name}: out= must be a weft.Array, not {type(out).__name__} (weft makes no copy you did "
                        "not ask for)")
    r = r if isinstance(r, Array) else asarray(r, device=out.device)
    if out.shape != r.shape:
        raise ValueError(f"{name}: out= has shape {out.shape}, but the result has shape {r.shape}")
    if not _np.can_cast(r.dtype, out.dtype, "same_kind"):
        raise TypeError(f"{name}: cannot cast the result from {r.dtype} to out='s {out.dtype} with casting rule "
                        "'same_kind'")
    out[...] = r
    return out


def _typed_call(f, args, dtype, name=None):
    """f(*args) computed in dtype, as a NumPy ufunc's dtype=: array operands cast to it first
    (under NumPy's 'same_kind' rule; numbers adapt as they always do), and the result must be
    of that dtype (a comparison's bool result is not)."""
    dtype = _np.dtype(dtype)
    name = name or f.__name__
    cast = []
    for i, x in enumerate(args):
        if isinstance(x, Array):
            if not _np.can_cast(x.dtype, dtype, "same_kind"):
                raise TypeError(f"{name}: cannot cast input {i} from {x.dtype} to {dtype} with casting rule "
                                "'same_kind'")
            x = x.astype(dtype, copy=False)
        cast.append(x)
    r = f(*cast)
    if isinstance(r, Array) and r.dtype != dtype:
        raise TypeError(f"{name}: no loop computes {dtype} (its result is {r.dtype})")
    return r


def _with_out(f):
    """f with NumPy's out= and dtype= keywords."""
    def ufunc(*args, out=None, dtype=None):
        r = f(*args) if dtype is None else _typed_call(f, args, dtype)
        return r if out is None else _into(out, r, f.__name__)
    ufunc.__name__ = ufunc.__qualname__ = f.__name__
    ufunc.__doc__ = f.__doc__
    return ufunc


for _f in {f for f in _UFUNCS.values() if isinstance(f, type(sin))} | {clip}:
    globals()[_f.__name__] = _with_out(_f)
absolute, divide, mod = abs, true_divide, remainder  # noqa: F811  (the aliases, now with out=)
del _f


def _array_ufunc(self, ufunc, method, *inputs, out=None, **kwargs):
    if _builtins.any(isinstance(x, _np.ndarray) for x in inputs):
        raise TypeError(f"np.{ufunc.__name__} with a NumPy array and a weft.Array: move the NumPy array with "
                        "weft.asarray() first (weft makes no copy you did not ask for)")
    dtype = kwargs.pop("dtype", None) if method == "__call__" else None
    if kwargs.get("where", True) is not True or (kwargs.get("dtype") is not None):
        return NotImplemented
    if method == "__call__" and ufunc.__name__ == "matmul":
        r = _matmul(*inputs) if dtype is None else _typed_call(_matmul, inputs, dtype, "matmul")
    elif method == "__call__":
        f = _UFUNCS.get(ufunc.__name__)
        if f is None:
            return NotImplemented
        r = f(*inputs) if dtype is None else _typed_call(f, inputs, dtype)
    elif method == "reduce" and ufunc.__name__ in _UFUNC_REDUCE:
        r = _weft._reduce(_UFUNC_REDUCE[ufunc.__name__], inputs[0], kwargs.get("axis", 0),
                          kwargs.get("keepdims", False))
    else:
        return NotImplemented
    if out is not None:
        return _into(out[0] if isinstance(out, tuple) else out, r, f"np.{ufunc.__name__}")
    return r


def _like(f):
    def like(a, *args, dtype=None, shape=None, **kwargs):
        return f(a.shape if shape is None else shape, *args, dtype=a.dtype if dtype is None else dtype,
                 device=a.device, **kwargs)
    return like


_FUNCTIONS = {}


def _implements(np_func):
    def register(f):
        _FUNCTIONS[np_func] = f
        return f
    return register


def _array_function(self, func, types, args, kwargs):
    f = _FUNCTIONS.get(func)
    if f is None:
        return NotImplemented
    if not _builtins.all(issubclass(t, (Array, _np.ndarray)) for t in types):
        return NotImplemented
    return f(*args, **kwargs)


Array.__array_ufunc__ = _array_ufunc
Array.__array_function__ = _array_function

# ---------------------------------------------------------------------------------------------
# Making arrays.


def _device_of(device):
    return device if device is None or isinstance(device, (Device, str)) else Device(device)


def empty(shape, dtype=float64, device=None) -> Array:
    """An array of shape with undefined contents."""
    return _weft._empty(shape, _dtype_name(dtype), device)


def full(shape, fill_value, dtype=None, device=None) -> Array:
    if dtype is None:
        dtype = _np.result_type(fill_value)
    return _weft._full(shape, fill_value, _dtype_name(dtype), device)


def zeros(shape, dtype=float64, device=None) -> Array:
    return _weft._full(shape, 0, _dtype_name(dtype), device)


def ones(shape, dtype=float64, device=None) -> Array:
    return _weft._full(shape, 1, _dtype_name(dtype), device)


def arange(start, stop=None, step=1, dtype=None, device=None) -> Array:
    """Evenly spaced values in [start, stop), as NumPy's arange."""
    if stop is None:
        start, stop = 0, start
    if dtype is None:
        dtype = _np.result_type(start, stop, step)
    return _weft._arange(start, stop, step, _dtype_name(dtype), device)


def linspace(start, stop, num=50, endpoint=True, dtype=float64, device=None) -> Array:
    return _weft._linspace(float(start), float(stop), int(num), bool(endpoint), _dtype_name(dtype), device)


def asarray(a, dtype=None, device=None) -> Array:
    """a on device (the default device when None): a weft.Array already there is returned as it
    is (or cast); anything else is converted by NumPy and copied over once."""
    if isinstance(a, Array):
        if device is not None and Device(device) != a.device:
            a = _weft._to_device(a, device)
        return a if dtype is None else a.astype(dtype, copy=False)
    if not isinstance(a, _np.ndarray) and hasattr(a, "__cuda_array_interface__"):
        # A CuPy array, PyTorch CUDA tensor, Numba device array: used in place.
        w = _weft._from_cuda_array_interface(a)
        return asarray(w, dtype=dtype, device=device)
    host = _np.asarray(a, dtype=dtype)
    if host.dtype.kind not in "biuf" or host.dtype == _np.float16:
        raise InvalidArgument(f"asarray: dtype {host.dtype} is not one weft arrays hold")
    if not host.flags.c_contiguous:
        host = host.copy(order="C")  # (ascontiguousarray would make a 0-d array 1-d)
    return _weft._from_host(host, host.shape, host.dtype.name, device)


def array(obj, dtype=None, copy=True, device=None) -> Array:
    """As asarray, but a weft.Array is copied unless copy=False."""
    a = asarray(obj, dtype=dtype, device=device)
    if copy and a is obj:
        a = a.copy()
    return a


def to_device(queue, ary) -> Array:
    """PyOpenCL's pyopencl.array.to_device: a copy of the host array on the queue's device."""
    return asarray(ary, device=queue.device if isinstance(queue, Queue) else queue)


empty_like = _like(empty)
zeros_like = _like(zeros)
ones_like = _like(ones)


def full_like(a, fill_value, dtype=None, device=None):
    return full(a.shape, fill_value, dtype=a.dtype if dtype is None else dtype,
                device=a.device if device is None else device)


def sum(a, axis=None, dtype=None, out=None, keepdims=False):  # noqa: A001
    return Array.sum(a, axis, dtype, out, keepdims)


def prod(a, axis=None, dtype=None, out=None, keepdims=False):
    return Array.prod(a, axis, dtype, out, keepdims)


def mean(a, axis=None, dtype=None, out=None, keepdims=False):
    return Array.mean(a, axis, dtype, out, keepdims)


def amin(a, axis=None, out=None, keepdims=False):
    return Array.min(a, axis, None, out, keepdims)


def amax(a, axis=None, out=None, keepdims=False):
    return Array.max(a, axis, None, out, keepdims)


min = amin  # noqa: A001
max = amax  # noqa: A001


def any(a, axis=None, out=None, keepdims=False):  # noqa: A001
    return Array.any(a, axis, None, out, keepdims)


def all(a, axis=None, out=None, keepdims=False):  # noqa: A001
    return Array.all(a, axis, None, out, keepdims)


def argmin(a, axis=None, out=None, *, keepdims=False):
    return Array.argmin(a, axis, out, keepdims=keepdims)


def argmax(a, axis=None, out=None, *, keepdims=False):
    return Array.argmax(a, axis, out, keepdims=keepdims)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return Array.var(a, axis, dtype, out, ddof, keepdims)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    return Array.std(a, axis, dtype, out, ddof, keepdims)


def cumsum(a, axis=None, dtype=None, out=None):
    return Array.cumsum(a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    return Array.cumprod(a, axis, dtype, out)


def dot(a, b, out=None):
    return _dot(a, b, out)


def matmul(a, b, out=None, dtype=None):
    """NumPy's matmul; dtype= computes in that dtype (operands cast under 'same_kind')."""
    r = _matmul(a, b) if dtype is None else _typed_call(_matmul, (a, b), dtype, "matmul")
    return r if out is None else _into(out, r, "matmul")


def reshape(a, newshape):
    return a.reshape(newshape)


def transpose(a, axes=None):
    return a.transpose() if axes is None else a.transpose(axes)


def ravel(a):
    return a.ravel()


def copy(a):
    return a.copy()


def broadcast_to(a, shape):
    return a.broadcast_to(shape)


def result_type(*arrays_and_dtypes):
    """NumPy's result_type for weft arrays and dtypes (Python numbers adopt the others' type)."""
    names = [x._dtype if isinstance(x, Array) else _dtype_name(x)
             for x in arrays_and_dtypes if not isinstance(x, _numbers.Number)]
    out = names[0]
    for n in names[1:]:
        out = _weft._result_type(out, n)
    return _np_dtype(out)


for _np_f, _f in [(_np.argmin, argmin), (_np.argmax, argmax), (_np.var, var), (_np.std, std),
                  (_np.cumsum, cumsum), (_np.cumprod, cumprod), (_np.dot, dot),
                  (_np.sum, sum), (_np.prod, prod), (_np.mean, mean), (_np.min, amin), (_np.max, amax),
                  (_np.amin, amin), (_np.amax, amax), (_np.any, any), (_np.all, all), (_np.where, where),
                  (_np.clip, clip), (_np.reshape, reshape), (_np.transpose, transpose), (_np.ravel, ravel),
                  (_np.copy, copy), (_np.broadcast_to, broadcast_to), (_np.zeros_like, zeros_like),
                  (_np.ones_like, ones_like), (_np.empty_like, empty_like), (_np.full_like, full_like),
                  (_np.round, round), (_np.result_type, result_type),
                  (_np.shape, lambda a: a.shape), (_np.ndim, lambda a: a.ndim), (_np.size, lambda a: a.size)]:
    _implements(_np_f)(_f)

# ---------------------------------------------------------------------------------------------
# Kernel generators with PyOpenCL's argument conventions (a leading context or device argument
# is accepted and ignored: the call's arrays or queue=... choose the device).


def _drop_context(args):
    """PyOpenCL's generators take a context first: weft takes (and ignores) None, a Device, a
    Queue or any other object that is neither a string nor a dtype there."""
    if args and (args[0] is None or isinstance(args[0], (Device, Queue))
                 or (not isinstance(args[0], str) and not _is_dtype_like(args[0]))):
        return args[1:]
    return args


def _options(options):
    """Build options as a string; PyOpenCL also takes a list of them."""
    if options is None or isinstance(options, str):
        return options
    return " ".join(str(o) for o in options)


def _is_dtype_like(x):
    try:
        _np.dtype(x)
        return not isinstance(x, (Device, Queue))
    except TypeError:
        return False


class ElementwiseKernel(_weft._ElementwiseKernel):
    """ElementwiseKernel(arguments, operation, name="elementwise", preamble="", options=None):
    operation runs for each i in range(n); call it as knl(*args, range=None, queue=None, wait_for=None)
    (n: the first array argument's size) and get a weft.Event."""

    def __init__(self, *args, **kwargs):
        args = list(_drop_context(args))
        names = ["arguments", "operation", "name", "preamble", "options"]
        params = dict(zip(names, args))
        params.update(kwargs)
        params["options"] = _options(params.get("options"))
        super().__init__(**params)


class ReductionKernel(_weft._ReductionKernel):
    """ReductionKernel(dtype_out, neutral, reduce_expr, map_expr=None, arguments=None, name="reduce",
    options=None, preamble=""): call it as knl(*args, queue=None, wait_for=None, range=None) and get a
    0-d weft.Array (``.get()`` it, or keep using it on the device)."""

    def __init__(self, *args, **kwargs):
        args = list(_drop_context(args))
        names = ["dtype_out", "neutral", "reduce_expr", "map_expr", "arguments", "name", "options", "preamble"]
        params = dict(zip(names, args))
        params.update(kwargs)
        params["dtype_out"] = _dtype_name(params["dtype_out"])
        if params.get("map_expr") is None:
            params["map_expr"] = "in[i]"
        if params.get("arguments") is None:
            raise InvalidArgument("ReductionKernel: give arguments (the C parameter list)")
        params["options"] = _options(params.get("options"))
        super().__init__(**params)


class GenericScanKernel(_weft._GenericScanKernel):
    """GenericScanKernel(dtype, arguments, input_expr, scan_expr, neutral, output_statement,
    is_segment_start_expr=None, preamble="", name="scan", options=None), as PyOpenCL's; call it as
    knl(*args, size=None, queue=None, wait_for=None)."""

    def __init__(self, *args, **kwargs):
        args = list(_drop_context(args))
        names = ["dtype", "arguments", "input_expr", "scan_expr", "neutral", "output_statement",
                 "is_segment_start_expr"]
        params = dict(zip(names, args))
        params.update(kwargs)
        params["dtype"] = _dtype_name(params["dtype"])
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

    def __init__(self, *args, **kwargs):
        args = list(_drop_context(args))
        names = ["dtype", "scan_expr", "neutral", "name_prefix", "options", "preamble"]
        params = dict(zip(names, args))
        params.update(kwargs)
        ctype = _C_NAMES[_dtype_name(params["dtype"])]
        neutral = params.get("neutral")
        if neutral is None:
            neutral = _infer_neutral(params["scan_expr"], _np_dtype(_dtype_name(params["dtype"])))
            if neutral is None:
                raise InvalidArgument(f"{type(self).__name__}: give neutral for scan_expr {params['scan_expr']!r} "
                                      "(weft infers it only for sums, products, min, max and bitwise operators)")
        self.dtype = _np_dtype(_dtype_name(params["dtype"]))
        self._scan = GenericScanKernel(
            params["dtype"], f"const {ctype} *input_ary, {ctype} *output_ary", "input_ary[i]",
            params["scan_expr"], str(neutral), self._output, preamble=params.get("preamble") or "",
            name=params.get("name_prefix") or "scan", options=_options(params.get("options")))

    def __call__(self, input_ary, output_ary=None, queue=None, wait_for=None, size=None):
        """Scans input_ary into output_ary (in place when None, as PyOpenCL) and returns output_ary."""
        if output_ary is None:
            output_ary = input_ary
        self._scan(input_ary, output_ary, queue=queue, wait_for=wait_for,
                   size=input_ary.size if size is None else size)
        return output_ary


def _infer_neutral(scan_expr, dtype):
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
    """InclusiveScanKernel(dtype, scan_expr, neutral=None, preamble=""): out[i] = in[0] op ... op in[i].
    neutral may be left out for sums, products, min, max and bitwise operators (weft infers it);
    other operators need it (PyOpenCL's inclusive scans do not)."""
    _output = "output_ary[i] = item;"


class ExclusiveScanKernel(_ScanKernel):
    """ExclusiveScanKernel(dtype, scan_expr, neutral, preamble=""): out[i] = in[0] op ... op in[i-1]."""
    _output = "output_ary[i] = prev_item;"


_C_NAMES = {"int8": "char", "int16": "short", "int32": "int", "int64": "long", "uint8": "uchar",
            "uint16": "ushort", "uint32": "uint", "uint64": "ulong", "float32": "float", "float64": "double"}

# ---------------------------------------------------------------------------------------------
# Algorithms.


def polygon_mask(vertices, height, width, device=None, border_value=1):
    """The polygon exercise's mask: a (height, width) uint8 NumPy array, 1 inside the polygon
    (even-odd rule, pixel centres), border_value on its edges. vertices: (N, 2) of (x, y)."""
    v = _np.ascontiguousarray(vertices, dtype=_np.float64)
    if v.ndim != 2 or v.shape[1] != 2:
        raise InvalidArgument(f"polygon_mask: vertices must have shape (N, 2), got {v.shape}")
    out = _np.empty((int(height), int(width)), dtype=_np.uint8)
    _weft._polygon_mask(v, int(height), int(width), device, int(border_value), out)
    return out


def random_polygon(n, seed, width, height):
    """The exercise's random polygon of n vertices inside width x height, as an (n, 2) array."""
    return _np.asarray(_weft._random_polygon(int(n), int(seed), int(width), int(height)),
                       dtype=_np.float64).reshape(-1, 2)


for _cls in (Array, Buffer, Device, Event, EventProfile, Graph, Kernel, LocalMemory, Program, Queue):
    _cls.__module__ = "weft"

__all__ = [n for n in dir() if not n.startswith("_")]
