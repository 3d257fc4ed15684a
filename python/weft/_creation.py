"""Making arrays: empty, full, zeros, ones, arange, linspace, asarray, array, to_device and
the *_like functions, as NumPy's and PyOpenCL's."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, cast

if TYPE_CHECKING:
    from ._typing import ArrayLike, DTypeLike, DeviceLike, ShapeLike
    from ._array import Array

import builtins as _builtins
import functools as _functools
import inspect as _inspect
import numbers as _numbers

import numpy as _np

from . import _weft
from ._device import block_device
from ._dtypes import dtype_name, float64

# (every _weft._Array is a weft.Array: _array registers the class with the extension)
_ArrayBase = cast("type[Array]", _weft._Array)


def _dev(device: DeviceLike) -> DeviceLike:
    """device, or the current one of a ``with device:`` block when None (None outside blocks:
    the extension then takes weft.default_device(); "auto" when WEFT_DEVICE=auto)."""
    if device is not None:
        return device
    d = block_device()
    if d is None and _weft._default_is_auto():
        return "auto"
    return d


def _where(device: DeviceLike) -> tuple[Any, bool]:
    """(the device to make an array on, whether it is automatic): device "auto" makes it in
    host memory where the host backend loads (else on the static default) and automatic."""
    d = _dev(device)
    if isinstance(d, str) and d.strip() == "auto":
        return _auto_home(), True
    return d, False


def _made(a: Array, automatic: bool) -> Array:
    return a.to_auto() if automatic else a


def _queue_first(f: Callable[..., Array]) -> Callable[..., Array]:
    """Also takes pyopencl.array's forms: f(queue, shape, dtype) with a weft.Queue or Context
    first (the array goes to its device; weft runs array operations on the device's own array
    queue), queue= as a keyword, and order="C" and allocator= (weft's memory pool allocates)."""

    @_functools.wraps(f)
    def call(*args: Any, **kwargs: Any) -> Array:
        queue = kwargs.pop("queue", None)
        if args and isinstance(args[0], (_weft.Queue, _weft.Context)):
            if queue is not None:
                raise TypeError(f"{f.__name__}: a queue given twice (first argument and queue=)")
            queue, args = args[0], args[1:]
        if kwargs.pop("order", "C") not in ("C", "c"):
            raise _weft.InvalidArgument(f"{f.__name__}: weft arrays are C-ordered; order='F' is not supported")
        kwargs.pop("allocator", None)
        if queue is not None:
            if kwargs.get("device") is not None:
                raise TypeError(f"{f.__name__}: give a queue or device=, not both")
            kwargs["device"] = queue
        return f(*args, **kwargs)

    call.__doc__ = (_inspect.cleandoc(f.__doc__ or "") + f"\n\nAlso pyopencl.array's form: {f.__name__}(queue, ...) or "
                    f"queue=queue, the array on the queue's device.").lstrip()
    return call  # (help() and inspect.signature show f's parameters: wraps sets __wrapped__)


@_queue_first
def empty(shape: ShapeLike, dtype: DTypeLike = float64, device: DeviceLike = None) -> Array:
    """An array of the given shape whose elements are not set, as numpy.empty.

    Parameters
    ----------
    shape : int or tuple of ints
        The array's shape.
    dtype : dtype, optional
        The element type (float64 by default).
    device : weft.Device, weft.Queue, str or None, optional
        Where the array lives: a device, a queue (its device) or a selector such as ``"host"``
        or ``"cuda:0"``; None: the current device (the innermost ``with device:`` block's, else
        weft.default_device()).

    Returns
    -------
    weft.Array
        The new array.

    Raises
    ------
    weft.InvalidArgument
        The shape or dtype is not one weft arrays take (negative sizes, float16).

    Examples
    --------
    >>> a = weft.empty((2, 3), np.float32)
    >>> a.shape, a.dtype
    ((2, 3), dtype('float32'))
    """
    d, auto = _where(device)
    return _made(_weft._empty(shape, dtype_name(dtype), d), auto)


@_queue_first
def full(shape: ShapeLike, fill_value: complex, dtype: DTypeLike | None = None, device: DeviceLike = None) -> Array:
    """An array filled with one value, as numpy.full.

    Parameters
    ----------
    shape : int or tuple of ints
        The array's shape.
    fill_value : number
        The value of every element.
    dtype : dtype, optional
        The element type; by default the one NumPy gives fill_value.
    device : weft.Device, weft.Queue, str or None, optional
        Where the array lives: a device, a queue (its device) or a selector such as ``"host"``
        or ``"cuda:0"``; None: the current device (the innermost ``with device:`` block's, else
        weft.default_device()).

    Returns
    -------
    weft.Array
        The new array.

    Raises
    ------
    weft.InvalidArgument
        The shape or dtype is not one weft arrays take (negative sizes, float16).

    Examples
    --------
    >>> weft.full((2, 2), 7).get()
    array([[7, 7],
           [7, 7]])
    >>> weft.full(3, 0.5, np.float32).get()
    array([0.5, 0.5, 0.5], dtype=float32)
    """
    if dtype is None:
        dtype = _np.result_type(fill_value)
    d, auto = _where(device)
    return _made(_weft._full(shape, fill_value, dtype_name(dtype), d), auto)


@_queue_first
def zeros(shape: ShapeLike, dtype: DTypeLike = float64, device: DeviceLike = None) -> Array:
    """An array of zeros, as numpy.zeros.

    Parameters
    ----------
    shape : int or tuple of ints
        The array's shape.
    dtype : dtype, optional
        The element type (float64 by default).
    device : weft.Device, weft.Queue, str or None, optional
        Where the array lives: a device, a queue (its device) or a selector such as ``"host"``
        or ``"cuda:0"``; None: the current device (the innermost ``with device:`` block's, else
        weft.default_device()).

    Returns
    -------
    weft.Array
        The new array.

    Raises
    ------
    weft.InvalidArgument
        The shape or dtype is not one weft arrays take (negative sizes, float16).

    Examples
    --------
    >>> weft.zeros((2, 3), np.int32).get()
    array([[0, 0, 0],
           [0, 0, 0]], dtype=int32)
    """
    d, auto = _where(device)
    return _made(_weft._full(shape, 0, dtype_name(dtype), d), auto)


@_queue_first
def ones(shape: ShapeLike, dtype: DTypeLike = float64, device: DeviceLike = None) -> Array:
    """An array of ones, as numpy.ones.

    Parameters
    ----------
    shape : int or tuple of ints
        The array's shape.
    dtype : dtype, optional
        The element type (float64 by default).
    device : weft.Device, weft.Queue, str or None, optional
        Where the array lives: a device, a queue (its device) or a selector such as ``"host"``
        or ``"cuda:0"``; None: the current device (the innermost ``with device:`` block's, else
        weft.default_device()).

    Returns
    -------
    weft.Array
        The new array.

    Raises
    ------
    weft.InvalidArgument
        The shape or dtype is not one weft arrays take (negative sizes, float16).

    Examples
    --------
    >>> weft.ones(4).get()
    array([1., 1., 1., 1.])
    """
    d, auto = _where(device)
    return _made(_weft._full(shape, 1, dtype_name(dtype), d), auto)


@_queue_first
def arange(start: float, stop: float | None = None, step: float = 1, dtype: DTypeLike | None = None,
           device: DeviceLike = None) -> Array:
    """Evenly spaced values in [start, stop), as numpy.arange.

    Parameters
    ----------
    start : number
        The first value; with stop omitted, the end (and the start is 0).
    stop : number, optional
        The end, not included.
    step : number, optional
        The spacing (1 by default).
    dtype : dtype, optional
        The element type; by default the one NumPy gives the arguments.
    device : weft.Device, weft.Queue, str or None, optional
        Where the array lives: a device, a queue (its device) or a selector such as ``"host"``
        or ``"cuda:0"``; None: the current device (the innermost ``with device:`` block's, else
        weft.default_device()).

    Returns
    -------
    weft.Array
        The new array.

    Raises
    ------
    TypeError
        start, stop or step is not a real number.

    Examples
    --------
    >>> weft.arange(5).get()
    array([0, 1, 2, 3, 4])
    >>> weft.arange(1.0, 2.0, 0.25).get()
    array([1.  , 1.25, 1.5 , 1.75])
    """
    if stop is None:
        start, stop = 0, start
    for what, v in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(v, (bool, _np.bool_)) or not isinstance(v, (_numbers.Real, _np.number)):
            raise TypeError(f"arange: {what} must be a real number, not {type(v).__name__}")
    if dtype is None:
        dtype = _np.result_type(start, stop, step)
    d, auto = _where(device)
    return _made(_weft._arange(start, stop, step, dtype_name(dtype), d), auto)


@_queue_first
def linspace(start: float, stop: float, num: int = 50, endpoint: bool = True, dtype: DTypeLike = float64,
             device: DeviceLike = None) -> Array:
    """num evenly spaced values from start to stop, as numpy.linspace.

    Parameters
    ----------
    start, stop : number
        The first and the last value.
    num : int, optional
        How many values (50 by default).
    endpoint : bool, optional
        Whether stop is the last value (True) or just past it.
    dtype : dtype, optional
        The element type (float64 by default).
    device : weft.Device, weft.Queue, str or None, optional
        Where the array lives: a device, a queue (its device) or a selector such as ``"host"``
        or ``"cuda:0"``; None: the current device (the innermost ``with device:`` block's, else
        weft.default_device()).

    Returns
    -------
    weft.Array
        The new array.

    Raises
    ------
    weft.InvalidArgument
        The shape or dtype is not one weft arrays take (negative sizes, float16).

    Examples
    --------
    >>> weft.linspace(0, 1, 5).get()
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    >>> weft.linspace(0, 1, 4, endpoint=False).get()
    array([0.  , 0.25, 0.5 , 0.75])
    """
    d, auto = _where(device)
    return _made(_weft._linspace(start, stop, int(num), bool(endpoint), dtype_name(dtype), d), auto)


def _no_copy(why: str) -> ValueError:
    return ValueError(f"asarray: copy=False, but {why} needs a copy")


def asarray(a: ArrayLike | Array, dtype: DTypeLike | None = None, device: DeviceLike = None,
            copy: bool | None = None) -> Array:
    """a as a weft.Array on a device, as numpy.asarray (and the Array API's asarray).

    A weft.Array already there is returned as it is (or cast); anything else is converted by NumPy
    and copied over once. Objects with ``__cuda_array_interface__`` (CuPy, PyTorch, Numba arrays)
    are used in place.

    Parameters
    ----------
    a : array_like or weft.Array
        The data: a weft.Array, a NumPy array, a nested sequence, a number.
    dtype : dtype, optional
        The element type; by default a's (NumPy's rules for Python data).
    copy : bool or None, optional
        True always copies; False never does (ValueError where a copy is needed: another device,
        another dtype, or host data); None (the default) copies only where needed.
    device : weft.Device, weft.Queue, str or None, optional
        Where the array lives: a device, a queue (its device) or a selector such as ``"host"``
        or ``"cuda:0"``; None: the current device (the innermost ``with device:`` block's, else
        weft.default_device()). ``"auto"``: placed automatically (``Array.to_auto``,
        docs/PLACEMENT.md): host data is copied into host memory (the host backend, where it
        may load) and each operation on it runs where the cost model expects it to finish
        first. With copy=False a writable, aligned, C-contiguous NumPy array (of the dtype
        asked) is used in place, without a copy (ValueError for any other): writes through
        either are seen by the other, as with numpy.asarray, the first operation on another
        device after each wait (below) copies its current data there, and arrays over the
        same or overlapping memory share their copies (docs/PLACEMENT.md, "Memory regions").
        weft's work is lazy and asynchronous: write the NumPy array while work reading it may
        be pending, or read what weft wrote into it, only after a wait: ``weft.synchronize()``,
        a result's ``get()`` or conversion to NumPy or a number, or an event's ``wait()``.

    Returns
    -------
    weft.Array
        The new array.

    Raises
    ------
    weft.InvalidArgument
        The data's dtype is not one weft arrays hold (float16, complex256, objects).
    ValueError
        copy=False, but a copy is needed.
    TypeError
        copy is not True, False or None.

    Examples
    --------
    >>> a = weft.asarray([1.0, 2.0, 3.0])
    >>> a.device.selector, a.dtype
    ('host', dtype('float64'))
    >>> weft.asarray(a) is a
    True
    >>> weft.asarray(np.arange(3), dtype=np.float32).get()
    array([0., 1., 2.], dtype=float32)
    """
    if copy is not None and not isinstance(copy, _builtins.bool):
        raise TypeError(f"asarray: copy must be True, False or None, not {copy!r}")
    if device is None and not isinstance(a, _ArrayBase):
        device = _dev(None)  # the block's, "auto" (WEFT_DEVICE=auto), or None (the default)
    if isinstance(device, str) and device.strip() == "auto":
        # Device auto: the data where it is (host data copied into host memory), then placed per
        # operation. NumPy memory is not used in place (_borrow): weft's expressions are lazy and
        # its writes asynchronous, so a NumPy write after asarray would change a result NumPy
        # computes eagerly, and a read of x could miss weft's pending write.
        if isinstance(a, _ArrayBase):
            return asarray(a, dtype=dtype, device=a.device, copy=copy).to_auto()
        if copy is False and _auto_home() is not None:
            # Asked not to copy: the NumPy memory itself, under the contract above.
            borrowed = _borrow(a, dtype)
            if borrowed is None:
                raise _no_copy("data that is not a writable, aligned, C-contiguous NumPy array of the dtype asked")
            return borrowed
        home = _auto_home()
        return asarray(a, dtype=dtype, device=home or _weft.default_device(), copy=copy).to_auto()
    if isinstance(a, _ArrayBase):
        device = block_device() if device is None else device
        if device is not None and _weft.Device(device) != a.device:
            if copy is False:
                raise _no_copy(f"moving the array from {a.device.selector} to {_weft.Device(device).selector}")
            a, copy = _weft._to_device(a, device), None  # (already a new array)
        if dtype is not None and dtype_name(dtype) != a._dtype:
            if copy is False:
                raise _no_copy(f"converting {a._dtype} to {dtype_name(dtype)}")
            return a.astype(dtype, copy=True)
        return a.copy() if copy else a
    if not isinstance(a, _np.ndarray) and hasattr(a, "__cuda_array_interface__"):
        # A CuPy array, PyTorch CUDA tensor, Numba device array: used in place.
        w = _weft._from_cuda_array_interface(a)
        return asarray(w, dtype=dtype, device=device, copy=copy)
    if copy is False:
        raise _no_copy(f"a {type(a).__name__} (host data copied to a device)")
    host = _np.asarray(a, dtype=dtype)
    if host.dtype.kind not in "biufc" or host.dtype in (_np.float16, _np.clongdouble):
        raise _weft.InvalidArgument(f"asarray: dtype {host.dtype} is not one weft arrays hold")
    if not host.flags.c_contiguous:
        host = host.copy(order="C")  # (ascontiguousarray would make a 0-d array 1-d)
    return _weft._from_host(host, host.shape, host.dtype.name, device)


def _borrow(a: object, dtype: DTypeLike | None) -> Array | None:
    """(asarray(x, device="auto", copy=False)) An automatic array over a NumPy array's own memory (no
    copy), or None where that cannot be done: not a NumPy array of a dtype weft holds (as asked), not C-contiguous, aligned and
    writable (read-only memory may be truly read-only), or empty. Writes through either are
    seen by the other (as numpy.asarray's result); a copy made on another device is refreshed
    from the NumPy memory by the first operation that runs there after each wait."""
    if type(a) is not _np.ndarray or a.size == 0:
        return None
    if dtype is not None and _np.dtype(dtype) != a.dtype:
        return None
    if a.dtype.kind not in "biufc" or a.dtype in (_np.float16, _np.clongdouble) or a.dtype.byteorder == ">":
        return None
    f = a.flags
    if not (f.c_contiguous and f.aligned and f.writeable):
        return None
    w: Array = _weft._borrow_host(a, a.__array_interface__["data"][0], list(a.shape), a.dtype.name)
    return w


@_functools.cache
def _auto_home() -> _weft.Device | None:
    """Where host data given device "auto" is kept: the host backend when WEFT_BACKENDS lets it
    load (its memory is host memory: nothing is copied until an operation runs elsewhere), else
    the current device. Looked up once (the backends are loaded once per process): the search
    made a Device of every device on each weft.asarray(x, device="auto"), about 1 us."""
    for d in _weft.devices():
        if d.selector == "host":
            return d
    return None


def array(obj: ArrayLike | Array, dtype: DTypeLike | None = None, copy: bool = True,
          device: DeviceLike = None) -> Array:
    """A new weft.Array of obj's data, as numpy.array: as asarray, but a weft.Array is copied unless copy=False.

    Parameters
    ----------
    obj : array_like or weft.Array
        The data.
    dtype : dtype, optional
        The element type; by default obj's.
    copy : bool, optional
        Whether a weft.Array is copied (True by default).
    device : weft.Device, weft.Queue, str or None, optional
        Where the array lives: a device, a queue (its device) or a selector such as ``"host"``
        or ``"cuda:0"``; None: the current device (the innermost ``with device:`` block's, else
        weft.default_device()).

    Returns
    -------
    weft.Array
        The new array.

    Raises
    ------
    weft.InvalidArgument
        The data's dtype is not one weft arrays hold.

    Examples
    --------
    >>> a = weft.array([[1, 2], [3, 4]])
    >>> b = weft.array(a)
    >>> b is a, b.get()
    (False, array([[1, 2],
           [3, 4]]))
    """
    # (a NumPy array is copied too: device auto would use its memory in place)
    a = asarray(obj, dtype=dtype, device=device, copy=True if copy and not isinstance(obj, _ArrayBase) else None)
    if copy and a is obj:
        a = a.copy()
    return a


def to_device(queue: DeviceLike, ary: ArrayLike, allocator: object = None, async_: bool = False) -> Array:
    """A copy of a host array on the device of queue, as pyopencl.array.to_device.

    Parameters
    ----------
    queue : weft.Queue, weft.Context, weft.Device or str
        Where the copy goes (a queue's or context's device, a device, a selector).
    ary : array_like
        The host data.
    allocator : object, optional
        Accepted and unused: weft's memory pool allocates.
    async_ : bool, optional
        Accepted and unused: the copy is done when this returns.

    Returns
    -------
    weft.Array
        The copy on the device.

    Raises
    ------
    weft.InvalidArgument
        The data's dtype is not one weft arrays hold.

    Examples
    --------
    >>> queue = weft.Queue(weft.Device("host"))
    >>> a = weft.to_device(queue, np.array([1.0, 2.0]))
    >>> a.device.selector, a.get()
    ('host', array([1., 2.]))
    """
    return asarray(ary, device=queue.device if isinstance(queue, _weft.Queue) else queue)


def _like(f: Callable[..., Array]) -> Callable[..., Array]:
    def like(a: Array, *args: Any, dtype: DTypeLike | None = None, shape: ShapeLike | None = None,
             device: DeviceLike = None, **kwargs: Any) -> Array:
        return f(a.shape if shape is None else shape, *args, dtype=a.dtype if dtype is None else dtype,
                 device=a.device if device is None else device, **kwargs)
    like.__name__ = like.__qualname__ = f"{f.__name__}_like"
    like.__doc__ = f"""An array of a's shape, dtype and device made as weft.{f.__name__} makes it, as
    numpy.{f.__name__}_like.

    Parameters
    ----------
    a : weft.Array
        The array whose shape, dtype and device the result takes (unless given).
    dtype : dtype, optional
        The element type; a's by default.
    shape : int or tuple of ints, optional
        The shape; a's by default.
    device : weft.Device, weft.Queue, str or None, optional
        The device; a's by default.

    Returns
    -------
    weft.Array
        The new array.

    Examples
    --------
    >>> weft.{f.__name__}_like(weft.asarray(np.array([[1, 2], [3, 4]]))).shape
    (2, 2)
    """
    return like


empty_like = _like(empty)
zeros_like = _like(zeros)
ones_like = _like(ones)


def full_like(a: Array, fill_value: complex, dtype: DTypeLike | None = None, device: DeviceLike = None) -> Array:
    """An array of a's shape and dtype filled with fill_value, as numpy.full_like.

    Parameters
    ----------
    a : weft.Array
        The array whose shape, dtype and device the result takes (unless given).
    fill_value : number
        The value of every element.
    dtype : dtype, optional
        The element type; a's by default.
    device : weft.Device, weft.Queue, str or None, optional
        Where the array lives: a device, a queue (its device) or a selector such as ``"host"``
        or ``"cuda:0"``; None: a's device.

    Returns
    -------
    weft.Array
        The new array.

    Raises
    ------
    weft.InvalidArgument
        The shape or dtype is not one weft arrays take (negative sizes, float16).

    Examples
    --------
    >>> weft.full_like(weft.zeros(3, np.int32), 5).get()
    array([5, 5, 5], dtype=int32)
    """
    return full(a.shape, fill_value, dtype=a.dtype if dtype is None else dtype,
                device=a.device if device is None else device)
