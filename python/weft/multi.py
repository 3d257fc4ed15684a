"""One array over several devices in one process (VexCL's multi-device split): ``weft.multi``.

A MultiArray is one logical array cut along an axis (the first by default) into parts, each a
weft.Array resident on its own device. Operations run part by part on each part's device, and
weft's operations only enqueue (on each device's array queue), so the devices work at the same
time; only the few values that join the parts (a reduction's partial results, a scan's carries)
come to the host.

- elementwise: NumPy's ufuncs and the arithmetic operators, between MultiArrays split the same
  way, scalars, and arrays that broadcast along the split axis (copied to each device) or have
  the whole shape (cut like the MultiArray);
- reductions ``sum``, ``prod``, ``min``, ``max``, ``mean``, ``any``, ``all``: over every axis or
  axes that include the split one, each device reduces its part and the host joins the partial
  results (a NumPy value); over other axes the result is a MultiArray split as before;
- scans ``cumsum`` and ``cumprod``: along the split axis each device scans its part, the host
  takes each part's last values, and each part then gets the carry of the parts before it on its
  own device; along other axes each part is scanned where it is;
- ``get()``: every part's copy to the host started before any is waited for;
- basic indexing (integers, slices, ``...``) part by part, and ``@`` (rows split on the left
  times a right operand copied to each device, or a left operand copied times columns split).

Examples
--------
>>> import weft.multi
>>> x = np.arange(12.0).reshape(6, 2)
>>> m = weft.multi.split(x, ["host", "host"])
>>> [p.shape for p in m.parts]
[(3, 2), (3, 2)]
>>> float((m * 2 + 1).sum())
144.0
>>> m.cumsum(axis=0).get()[:, 0]
array([ 0.,  2.,  6., 12., 20., 30.])
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as _np
from numpy.lib.mixins import NDArrayOperatorsMixin

from . import _pyopencl, _weft
from ._array import Array
from ._result_memory import result_empty

__all__ = ["MultiArray", "split", "sub_devices"]


def _norm_axis(axis: int, ndim: int, what: str) -> int:
    if not -ndim <= axis < ndim:
        raise _weft.InvalidArgument(f"{what}: axis {axis} is out of range for {ndim} dimensions")
    return axis % ndim


def _device(d: Any) -> _weft.Device:
    return d if isinstance(d, _weft.Device) else _weft.Device(str(d))


def split(x: Any, devices: Sequence[Any], axis: int = 0, weights: Sequence[float] | None = None) -> MultiArray:
    """x cut along axis into one part per device, each part copied to its device.

    Parameters
    ----------
    x : array_like
        A NumPy array (or anything np.asarray takes; a weft.Array is copied through the host).
    devices : sequence of weft.Device or str
        One part per entry (a device may repeat).
    axis : int, optional
        The axis that is cut (0 by default).
    weights : sequence of float, optional
        The parts' relative sizes (equal by default), e.g. the devices' compute units.

    Returns
    -------
    MultiArray

    Raises
    ------
    weft.InvalidArgument
        devices is empty, x is 0-d, axis is out of range, or weights are not one positive
        number per device.

    Examples
    --------
    >>> import weft.multi
    >>> m = weft.multi.split(np.arange(10), ["host", "host"], weights=[3, 2])
    >>> [p.shape for p in m.parts], m.offsets
    ([(6,), (4,)], [0, 6, 10])
    """
    devs = [_device(d) for d in devices]
    if not devs:
        raise _weft.InvalidArgument("split: devices is empty (give one device or selector per part)")
    host = x.get() if isinstance(x, Array) else _np.asarray(x)
    if host.ndim == 0:
        raise _weft.InvalidArgument("split: x is 0-d; give an array of at least one dimension")
    ax = _norm_axis(axis, host.ndim, "split")
    w = [1.0] * len(devs) if weights is None else [float(v) for v in weights]
    if len(w) != len(devs) or not all(v > 0 for v in w):
        raise _weft.InvalidArgument(f"split: weights must be one positive number per device ({len(devs)}), got {weights}")
    n = host.shape[ax]
    total = sum(w)
    bounds = [0]
    acc = 0.0
    for v in w[:-1]:
        acc += v
        bounds.append(int(round(n * acc / total)))
    bounds.append(n)
    parts = []
    for d, lo, hi in zip(devs, bounds[:-1], bounds[1:]):
        index = [slice(None)] * host.ndim
        index[ax] = slice(lo, hi)
        parts.append(_weft_asarray(_np.ascontiguousarray(host[tuple(index)]), d))
    return MultiArray(parts, ax)


def _weft_asarray(a: Any, device: _weft.Device) -> Array:
    from . import asarray
    return asarray(a, device=device)


def sub_devices(device: Any, count: int | None = None) -> list[_weft.Device]:
    """Sub-devices of one device (OpenCL device fission, as PoCL's CPU device allows): count of
    them with equal compute units (one per compute unit by default).

    Raises
    ------
    weft.Unsupported
        The device cannot be split.

    Examples
    --------
    >>> import weft.multi
    >>> subs = weft.multi.sub_devices("opencl:0:0", 2)  # doctest: +SKIP
    >>> [s.selector for s in subs]  # doctest: +SKIP
    ['opencl:0:0/0', 'opencl:0:0/1']
    """
    d = _device(device)
    units = max(1, int(d.compute_units) // count) if count else 1
    subs = list(d.create_sub_devices([_pyopencl.device_partition_property.EQUALLY, units]))
    return subs[:count] if count else subs


def _replicate(x: Any, device: _weft.Device) -> Array:
    """x (a NumPy array or a weft.Array, on any device) as a weft.Array on device."""
    if isinstance(x, Array) and x.device == device:
        return x
    return _weft_asarray(x.get() if isinstance(x, Array) else _np.asarray(x), device)


def _read_all(arrays: Sequence[Array],
              outs: Sequence[_np.ndarray[Any, Any]] | None = None) -> list[_np.ndarray[Any, Any]]:
    """Each array's elements on the host (in outs, C-contiguous arrays of their sizes, or new
    ones), every copy started and every queue flushed before any is waited for, so that the
    devices copy at the same time. The outs are let go when this returns (not later, from the
    callback thread), so that a pooled result block is free for the next get()."""
    if outs is None:
        outs = [result_empty(a.shape, _np.dtype(a.dtype), a.device) for a in arrays]
    Array._read_all_into(list(arrays), list(outs))
    return list(outs)


_REDUCE_JOIN: dict[str, Callable[..., Any]] = {
    "sum": _np.add.reduce, "prod": _np.multiply.reduce, "min": _np.minimum.reduce,
    "max": _np.maximum.reduce, "any": _np.logical_or.reduce, "all": _np.logical_and.reduce,
}


class MultiArray(NDArrayOperatorsMixin):
    """One array split along ``axis`` over devices: ``parts[k]`` is a weft.Array on
    ``devices[k]`` holding the rows ``offsets[k]:offsets[k+1]`` of the split axis (the module's
    docstring says what runs where). ``shape``, ``ndim``, ``dtype`` and ``size`` are the whole
    array's.

    Examples
    --------
    >>> import weft.multi
    >>> a = weft.asarray(np.ones((2, 3)), device="host")
    >>> m = weft.multi.MultiArray([a, a * 2])
    >>> m.shape, m.max(axis=1).get()
    ((4, 3), array([1., 1., 2., 2.]))
    """

    def __init__(self, parts: Sequence[Array], axis: int = 0) -> None:
        self.parts = list(parts)
        if not self.parts or not all(isinstance(p, Array) for p in self.parts):
            raise _weft.InvalidArgument("MultiArray: parts must be a non-empty list of weft.Array")
        first = self.parts[0]
        if first.ndim == 0:
            raise _weft.InvalidArgument("MultiArray: parts are 0-d; they need the split axis")
        self.axis = _norm_axis(axis, first.ndim, "MultiArray")
        for p in self.parts[1:]:
            rest = [s for i, s in enumerate(p.shape) if i != self.axis]
            want = [s for i, s in enumerate(first.shape) if i != self.axis]
            if p.ndim != first.ndim or rest != want or p.dtype != first.dtype:
                raise _weft.InvalidArgument(f"MultiArray: part of shape {p.shape} and dtype {p.dtype} does not join "
                                            f"{first.shape} {first.dtype} along axis {self.axis}")
        self.offsets = [0]
        for p in self.parts:
            self.offsets.append(self.offsets[-1] + p.shape[self.axis])
        # (plain attributes: the parts do not change; weft.Array's are the documented dtype and shape)
        self.devices: list[_weft.Device] = [p.device for p in self.parts]
        whole = list(first.shape)
        whole[self.axis] = self.offsets[-1]
        self.shape: tuple[int, ...] = tuple(whole)
        self.ndim: int = len(whole)
        self.dtype: _np.dtype[Any] = _np.dtype(first.dtype)
        self.size: int = int(_np.prod(whole))

    def __len__(self) -> int:
        return self.shape[0]

    def __repr__(self) -> str:
        where = ", ".join(f"{p.shape}@{p.device.selector}" for p in self.parts)
        return f"MultiArray(shape={self.shape}, dtype={self.dtype}, axis={self.axis}, parts=[{where}])"

    def get(self) -> _np.ndarray[Any, Any]:
        """The whole array on the host, the parts copied from every device at once.

        Every part's copy is started before any is waited for, so the devices copy side by side.
        When the parts are contiguous pieces of the result (split along the first axis, or axes
        before the split one of length 1) each device copies straight into its rows of the
        result (pinned memory of the first device whose memory is not the host's, allocated
        portable: every CUDA context copies into it at full speed); otherwise each part lands in
        its own block and the blocks are joined on the host. The result's block comes from
        weft's pool of result memory and goes back to it when the result goes, so that getting
        an array of the same size again costs no new pinned allocation.

        Examples
        --------
        >>> import weft.multi
        >>> weft.multi.split(np.arange(6).reshape(3, 2), ["host", "host"]).get()
        array([[0, 1],
               [2, 3],
               [4, 5]])
        """
        if all(s == 1 for s in self.shape[:self.axis]):
            pinned_by = next((d for d in self.devices if not d.memory_is_host), self.devices[0])
            out = result_empty(self.shape, self.dtype, pinned_by)
            if self.size == 0:
                return out
            rows = out.reshape((self.shape[self.axis], -1))
            cut = [(p, rows[lo:hi]) for p, lo, hi in zip(self.parts, self.offsets[:-1], self.offsets[1:]) if hi > lo]
            _read_all([p for p, _ in cut], [r for _, r in cut])
            return out
        return _np.concatenate(_read_all(self.parts), axis=self.axis)

    def __array__(self, dtype: Any = None, copy: Any = None) -> _np.ndarray[Any, Any]:
        out = self.get()
        return out if dtype is None else out.astype(dtype)

    def evaluate(self) -> MultiArray:
        """Enqueues every part's pending (lazy) work on its device, without waiting; self."""
        for p in self.parts:
            p.evaluate()
        return self

    def astype(self, dtype: Any) -> MultiArray:
        return MultiArray([p.astype(dtype) for p in self.parts], self.axis)

    def _like(self, parts: Sequence[Array]) -> MultiArray:
        return MultiArray(parts, self.axis)

    # ---- indexing ----
    def __getitem__(self, key: Any) -> Any:
        """Basic indexing (integers, slices, ``...``): each part indexed on its device.

        A slice of the split axis keeps the parts that hold some of its elements (in the slice's
        order: a negative step reverses them) and the result is a MultiArray; an integer there
        picks the one part that holds the element, and the result is that part's weft.Array.
        The other axes' entries index every part. Other keys (arrays, None) are refused.

        Examples
        --------
        >>> import weft.multi
        >>> m = weft.multi.split(np.arange(12).reshape(6, 2), ["host", "host"])
        >>> m[1:5, 1].get(), [p.shape for p in m[::-2].parts]
        (array([3, 5, 7, 9]), [(2, 2), (1, 2)])
        >>> m[4].get()
        array([8, 9])
        """
        key = key if isinstance(key, tuple) else (key,)
        if any(k is Ellipsis for k in key):
            at = next(i for i, k in enumerate(key) if k is Ellipsis)
            if any(k is Ellipsis for k in key[at + 1:]):
                raise IndexError("MultiArray: an index can only have a single ellipsis ('...')")
            key = key[:at] + (slice(None),) * (self.ndim - len(key) + 1) + key[at + 1:]
        for k in key:
            if not (isinstance(k, slice) or (isinstance(k, (int, _np.integer)) and not isinstance(k, bool))):
                raise IndexError(f"MultiArray: index {k!r} is not supported; it accepts integers, slices and "
                                 "'...' (basic indexing); get() the array or index a part for more")
        if len(key) > self.ndim:
            raise IndexError(f"MultiArray: too many indices ({len(key)}) for an array of {self.ndim} dimensions")
        key = key + (slice(None),) * (self.ndim - len(key))
        before = key[:self.axis]
        after = key[self.axis + 1:]
        new_axis = self.axis - sum(not isinstance(k, slice) for k in before)
        n = self.shape[self.axis]
        k = key[self.axis]
        if not isinstance(k, slice):
            i = int(k)
            if not -n <= i < n:
                raise IndexError(f"MultiArray: index {i} is out of bounds for axis {self.axis} of size {n}")
            i %= n
            part = next(j for j in range(len(self.parts)) if self.offsets[j] <= i < self.offsets[j + 1])
            return self.parts[part][before + (i - self.offsets[part],) + after]
        start, stop, step = k.indices(n)
        count = len(range(start, stop, step))
        pieces: list[Array] = []
        order = range(len(self.parts)) if step > 0 else range(len(self.parts) - 1, -1, -1)
        for j in order:
            lo, hi = self.offsets[j], self.offsets[j + 1]
            # the first and last of the slice's indices start + m * step inside [lo, hi)
            if step > 0:
                m0 = max(0, -(-(lo - start) // step))
                m1 = min(count - 1, (hi - 1 - start) // step)
            else:
                m0 = max(0, -(-(start - (hi - 1)) // -step))
                m1 = min(count - 1, (start - lo) // -step)
            if m0 > m1:
                continue
            first, last = start + m0 * step - lo, start + m1 * step - lo
            end = last + (1 if step > 0 else -1)
            local = slice(first, None if end < 0 else end, step)
            pieces.append(self.parts[j][before + (local,) + after])
        if not pieces:  # (an empty slice: one empty part on the first device)
            pieces.append(self.parts[0][before + (slice(0, 0),) + after])
        return MultiArray(pieces, new_axis)

    # ---- matrix products ----
    def _matmul(self, a: Any, b: Any) -> MultiArray:
        """a @ b with one of them self: split rows of the left operand times the right one copied
        to each device, or the left one copied to each device times split columns of the right."""
        if a is self and not isinstance(b, MultiArray):
            if self.ndim < 2 or self.axis >= self.ndim - 1:
                raise _weft.InvalidArgument(f"MultiArray @: the left operand {self!r} is split along the axis the "
                                            "product sums over; split it along its rows (axis 0) instead")
            other = b
            parts = [p @ _replicate(other, p.device) for p in self.parts]
            return MultiArray(parts, self.axis)  # (a 1-D right operand drops the last axis, never the split one)
        if b is self and not isinstance(a, MultiArray):
            if self.ndim < 2 or self.axis != self.ndim - 1:
                raise _weft.InvalidArgument(f"MultiArray @: the right operand {self!r} is split along the axis the "
                                            "product sums over; split it along its columns (the last axis) instead")
            parts = [_replicate(a, p.device) @ p for p in self.parts]
            return MultiArray(parts, parts[0].ndim - 1)
        raise _weft.InvalidArgument("MultiArray @: both operands are MultiArrays; split one of them and give the "
                                    "other whole (a NumPy array or weft.Array), which is copied to each device")

    def __matmul__(self, other: Any) -> Any:
        return self._matmul(self, other)

    def __rmatmul__(self, other: Any) -> Any:
        return self._matmul(other, self)

    # ---- elementwise ----
    def _operand_parts(self, x: Any) -> list[Any]:
        """x as one operand per part: a MultiArray's parts, a scalar as is, an array cut or
        copied to each part's device."""
        if isinstance(x, MultiArray):
            if x.axis != self.axis or x.offsets != self.offsets or x.ndim != self.ndim:
                raise _weft.InvalidArgument(f"MultiArray: operands are split differently ({x!r} and {self!r}); "
                                            "split both the same way")
            return list(x.parts)
        if isinstance(x, (_np.ndarray, Array)) and x.ndim == 0:
            x = (x.get() if isinstance(x, Array) else x)[()]  # (a number, whichever device it was on)
        if _np.isscalar(x):
            return [x] * len(self.parts)
        a = x.get() if isinstance(x, Array) else _np.asarray(x)
        k = self.axis - (self.ndim - a.ndim)  # the split axis among a's (broadcast from the right)
        if a.ndim > self.ndim:
            raise _weft.InvalidArgument(f"MultiArray: an operand of shape {a.shape} has more dimensions than {self.shape}")
        if k < 0 or a.shape[k] == 1:
            return [_weft_asarray(a, p.device) for p in self.parts]
        if a.shape[k] != self.shape[self.axis]:
            raise _weft.InvalidArgument(f"MultiArray: an operand of shape {a.shape} does not broadcast to {self.shape}")
        out = []
        for p, lo, hi in zip(self.parts, self.offsets[:-1], self.offsets[1:]):
            index = [slice(None)] * a.ndim
            index[k] = slice(lo, hi)
            out.append(_weft_asarray(_np.ascontiguousarray(a[tuple(index)]), p.device))
        return out

    def __array_ufunc__(self, ufunc: _np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if method != "__call__" or "out" in kwargs or ufunc.nout != 1:
            return NotImplemented
        if ufunc is _np.matmul and len(inputs) == 2 and not kwargs:
            return self._matmul(*inputs)
        per = [self._operand_parts(x) for x in inputs]
        parts = [ufunc(*(ops[k] for ops in per), **kwargs) for k in range(len(self.parts))]
        return self._like(parts)

    # ---- reductions ----
    def _axes(self, axis: int | tuple[int, ...] | None) -> tuple[int, ...]:
        if axis is None:
            return tuple(range(self.ndim))
        axes = axis if isinstance(axis, tuple) else (axis,)
        return tuple(sorted({_norm_axis(int(a), self.ndim, "MultiArray reduction") for a in axes}))

    def _reduce(self, name: str, axis: int | tuple[int, ...] | None, keepdims: bool) -> Any:
        axes = self._axes(axis)
        if self.axis not in axes:
            # Each part reduced where it is; still split (the split axis moves left past removed axes).
            parts = [getattr(p, name)(axis=axes, keepdims=keepdims) for p in self.parts]
            new_axis = self.axis if keepdims else self.axis - sum(a < self.axis for a in axes)
            return MultiArray(parts, new_axis)
        live = [p for p in self.parts if p.shape[self.axis] > 0] or self.parts[:1]
        partial = [getattr(p, name)(axis=axes, keepdims=True) for p in live]  # (all enqueued first)
        host = _np.stack(_read_all(partial))
        joined = _REDUCE_JOIN[name](host, axis=0)
        if not keepdims:
            joined = joined.reshape([s for i, s in enumerate(joined.shape) if i not in axes])
        return joined[()] if joined.ndim == 0 else joined

    def sum(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:
        """The sum: a NumPy value when the split axis is reduced, else a MultiArray."""
        return self._reduce("sum", axis, keepdims)

    def prod(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:
        """The product (as sum)."""
        return self._reduce("prod", axis, keepdims)

    def min(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:
        """The minimum (as sum)."""
        return self._reduce("min", axis, keepdims)

    def max(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:
        """The maximum (as sum)."""
        return self._reduce("max", axis, keepdims)

    def any(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:
        """Whether any element is true (as sum)."""
        return self._reduce("any", axis, keepdims)

    def all(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:
        """Whether every element is true (as sum)."""
        return self._reduce("all", axis, keepdims)

    def mean(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:
        """The mean (as sum): the parts' sums joined, divided by the count; integers give float64."""
        axes = self._axes(axis)
        count = int(_np.prod([self.shape[a] for a in axes]))
        if self.axis not in axes:
            return MultiArray([p.mean(axis=axes, keepdims=keepdims) for p in self.parts],
                              self.axis if keepdims else self.axis - sum(a < self.axis for a in axes))
        src = self if self.dtype.kind == "f" else self.astype(_np.float64)
        total = src._reduce("sum", axes, keepdims)
        mean = _np.asarray(total / count).astype(src.dtype)
        return mean[()] if mean.ndim == 0 else mean

    # ---- scans ----
    def _scan(self, name: str, axis: int) -> MultiArray:
        ax = _norm_axis(axis, self.ndim, f"MultiArray.{name}")
        scanned = [getattr(p, name)(axis=ax) for p in self.parts]  # (every device scans at once)
        if ax != self.axis:
            return self._like(scanned)
        # The carry into part k joins the last values of parts 0..k-1 (on the host: one value per
        # row across the split axis per part), then is applied on part k's device.
        lasts = []
        for s in scanned:
            n = s.shape[ax]
            index = [slice(None)] * self.ndim
            index[ax] = slice(n - 1, n)
            lasts.append(s[tuple(index)] if n else None)
        read = iter(_read_all([t for t in lasts if t is not None]))
        host = [None if t is None else next(read) for t in lasts]
        join = _np.add if name == "cumsum" else _np.multiply
        out: list[Array] = []
        carry: Any = None
        for s, last in zip(scanned, host):
            out.append(s if carry is None or s.shape[ax] == 0 else join(s, _weft_asarray(carry, s.device)))
            if last is not None:
                carry = last if carry is None else join(carry, last)
        return self._like(out)

    def cumsum(self, axis: int = 0) -> MultiArray:
        """The inclusive running sum along axis, still split the same way."""
        return self._scan("cumsum", axis)

    def cumprod(self, axis: int = 0) -> MultiArray:
        """The inclusive running product along axis (as cumsum)."""
        return self._scan("cumprod", axis)
