"""weft arrays as Dask chunks: ``dask.array`` over weft.Array blocks, on the threaded scheduler
or a ``dask.distributed`` cluster with one worker process per device.

Importing this module (``import weft.dask``; ``import weft`` alone never imports Dask) registers
weft.Array with Dask: as a chunk type (``dask.array.core.register_chunk_type``) and with
``dask.array``'s dispatch tables (concatenate, take, tensordot, einsum, percentile, numel,
nannumel, to_numpy). Everything else Dask calls on chunks goes through NumPy's protocols
(``__array_function__`` and ``__array_ufunc__``; weft._chunk_protocols has the functions that
only libraries such as Dask need, ``like=`` creation among them). Chunks move between worker
processes pickled (weft._pickle: the elements on the host, landing on the receiving worker's
device).

A recipe::

    import distributed, numpy as np, weft.dask
    x = np.random.default_rng(0).random((4000, 4000))
    with weft.dask.local_cluster() as cluster, distributed.Client(cluster):
        d = weft.dask.from_numpy(x, chunks=(1000, 1000))      # weft chunks on each worker's device
        r = weft.dask.to_numpy((d * 2 + 1).sum(axis=0))       # NumPy result on the client

Workers of a ``local_cluster`` each have WEFT_DEVICE set to their device, so
``weft.default_device()`` in a task (and every chunk made or unpickled there) is that device.
"""
# Dask's own functions (dispatch registration, from_array, LocalCluster) carry no annotations: calling
# them is what this module is for.
# mypy: disallow-untyped-calls=False
from __future__ import annotations

import copy as _copy
from typing import Any, Sequence, cast

import numpy as _np

import dask.array as _da
from dask.array.chunk_types import register_chunk_type as _register_chunk_type
from dask.array.dispatch import (
    concatenate_lookup as _concatenate_lookup,
    einsum_lookup as _einsum_lookup,
    nannumel_lookup as _nannumel_lookup,
    numel_lookup as _numel_lookup,
    percentile_lookup as _percentile_lookup,
    take_lookup as _take_lookup,
    tensordot_lookup as _tensordot_lookup,
    to_numpy_dispatch as _to_numpy_dispatch,
)

import weft as _weft
from . import _chunk_protocols, _device, _einsum

__all__ = ["from_numpy", "local_cluster", "meta", "to_numpy"]


# ---- registration with dask.array -----------------------------------------------------------

def _numel(x: _weft.Array, **kwargs: Any) -> Any:
    """dask's numel of a chunk, as a weft.Array of the chunk's device (so that mean's and std's
    combine steps divide weft arrays by weft arrays)."""
    from dask.array.backends import _numel_arraylike
    return _numel_arraylike(x, **kwargs)


def _nannumel(x: _weft.Array, **kwargs: Any) -> Any:
    """The number of elements that are not NaN, as dask's nannumel (a weft.Array)."""
    return (~_weft.isnan(x)).sum(**kwargs)


def _percentile(a: _weft.Array, q: Any, method: str = "linear") -> Any:
    """dask's percentile of one chunk: np.percentile of the chunk on its device (one sort), its
    few values then copied to the host, where Dask merges the chunks' percentiles with NumPy."""
    from dask.array.percentile import _percentile as _dask_percentile
    vals, n = _dask_percentile(a, q, method)
    return (vals.get() if isinstance(vals, _weft.Array) else vals), n


def _to_numpy(data: _weft.Array, **kwargs: Any) -> _np.ndarray[Any, Any]:
    return data.get()


def _concatenate(arrays: Sequence[Any], axis: int = 0) -> _weft.Array:
    return _weft.concatenate(list(arrays), axis=axis)


_register_chunk_type(_weft.Array)
_concatenate_lookup.register(_weft.Array, _concatenate)
_take_lookup.register(_weft.Array, _weft.take)
_tensordot_lookup.register(_weft.Array, _chunk_protocols.tensordot)
_einsum_lookup.register(_weft.Array, _einsum.einsum)
_percentile_lookup.register(_weft.Array, _percentile)
_numel_lookup.register(_weft.Array, _numel)
_nannumel_lookup.register(_weft.Array, _nannumel)
_to_numpy_dispatch.register(_weft.Array, _to_numpy)
# (empty_lookup is left to NumPy: Dask calls it without an array to take the device from, and its
# results join weft arrays, which take NumPy arrays to their device, in np.concatenate.)


# ---- dask arrays of weft chunks ---------------------------------------------------------------

def meta(ndim: int, dtype: Any, device: Any = None) -> _weft.Array:
    """The ``meta`` of a dask array of weft chunks: an empty weft.Array of ndim dimensions.

    Parameters
    ----------
    ndim : int
        The number of dimensions.
    dtype : dtype
        The element type.
    device : weft.Device, str or None, optional
        Where the meta lives (the current device by default); chunks are made on their worker's.

    Returns
    -------
    weft.Array
        ``weft.empty((0,) * ndim, dtype)``.

    Examples
    --------
    >>> m = weft.dask.meta(2, np.float32)
    >>> type(m).__name__, m.shape, m.dtype
    ('Array', (0, 0), dtype('float32'))
    """
    return _weft.empty((0,) * ndim, dtype=dtype, device=device)


def _block_to_weft(block: _np.ndarray[Any, Any], device: str | None) -> _weft.Array:
    return _weft.asarray(block, device=device)


def _block_to_numpy(block: Any) -> _np.ndarray[Any, Any]:
    return block.get() if isinstance(block, _weft.Array) else _np.asarray(block)


def from_numpy(x: Any, chunks: Any = "auto", device: Any = None) -> _da.Array:
    """A dask array of weft chunks holding the elements of the NumPy array x.

    Parameters
    ----------
    x : numpy.ndarray or array_like
        The elements (kept in the task graph, as ``dask.array.from_array`` keeps them).
    chunks : int, tuple, str or "auto", optional
        The chunk shape, as ``dask.array.from_array``'s.
    device : weft.Device, str or None, optional
        Where the chunks live. None (the default): the device of this thread's ``with device:``
        block when there is one (as for weft's creation functions), else each chunk on the default
        device of the process that makes it (on a ``local_cluster``, each worker's own device).

    Returns
    -------
    dask.array.Array
        Its ``_meta`` is a weft.Array, and so is every computed chunk.

    Raises
    ------
    weft.InvalidArgument
        x's dtype is not one weft arrays hold.

    Examples
    --------
    >>> import weft.dask
    >>> d = weft.dask.from_numpy(np.arange(10.0), chunks=4)
    >>> d.numblocks, type(d._meta).__name__
    ((3,), 'Array')
    >>> float((d * 2).sum().compute(scheduler="threads"))
    90.0
    """
    x = _np.asarray(x)
    if x.dtype.kind not in "biuf" or x.dtype == _np.float16:
        raise _weft.InvalidArgument(f"from_numpy: dtype {x.dtype} is not one weft arrays hold")
    if device is None:
        device = _device.block_device()  # (Dask's threads do not see this thread's block)
    selector = None if device is None else _weft.Device(device).selector
    host = _da.from_array(x, chunks=chunks, asarray=True)  # (unannotated in Dask: Any)
    return cast(_da.Array, host.map_blocks(_block_to_weft, selector, dtype=x.dtype,
                                           meta=meta(x.ndim, x.dtype, device)))


def to_numpy(darr: _da.Array, **compute_kwargs: Any) -> _np.ndarray[Any, Any]:
    """The elements of a dask array of weft (or NumPy) chunks as one NumPy array: each chunk is
    copied to the host where it was computed, then Dask gathers the NumPy chunks.

    Parameters
    ----------
    darr : dask.array.Array
        The array to compute.
    **compute_kwargs
        Passed to ``compute`` (``scheduler="threads"``, ...); by default Dask's current scheduler
        (a distributed Client's when one is active).

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> import weft.dask
    >>> d = weft.dask.from_numpy(np.arange(6).reshape(2, 3), chunks=(1, 2))
    >>> weft.dask.to_numpy(d.T + 1, scheduler="threads")
    array([[1, 4],
           [2, 5],
           [3, 6]])
    """
    if not isinstance(darr, _da.Array):
        return _block_to_numpy(darr)
    # (Dask declares Array.map_blocks through functools.wraps, which type checkers read as unbound)
    host = darr.map_blocks(_block_to_numpy, dtype=darr.dtype,  # type: ignore[call-arg, arg-type]
                           meta=_np.empty((0,) * darr.ndim, darr.dtype))
    return _np.asarray(host.compute(**compute_kwargs))


# ---- a cluster with one worker process per device -------------------------------------------

def _selectors(devices: Any) -> list[str]:
    if devices is None:
        devices = _weft.devices()
    elif isinstance(devices, (str, _weft.Device)):
        devices = [devices]
    selectors = [d.selector if isinstance(d, _weft.Device) else str(d) for d in devices]
    if not selectors:
        raise _weft.InvalidArgument("local_cluster: devices is empty (give device selectors or None for all)")
    return selectors


def local_cluster(devices: Any = None, threads_per_worker: int = 1, **kwargs: Any) -> Any:
    """A ``dask.distributed`` LocalCluster with one worker process per device.

    Each worker process is started by a Nanny with the environment variable WEFT_DEVICE set to its
    device's selector (the Nanny's ``env=``), so that weft.default_device() there, the chunks its
    tasks make, and the chunks it unpickles, are on that device. A worker that dies is restarted by
    its Nanny with the same device.

    Parameters
    ----------
    devices : sequence of weft.Device or str, str, or None, optional
        One worker per entry (a selector may repeat: two workers on one device). None (the
        default): one per device ``weft.devices()`` lists (on CI: the host backend and PoCL).
    threads_per_worker : int, optional
        Threads of each worker (1 by default: a device runs one chunk's kernels at a time well).
    **kwargs
        Passed to ``distributed.LocalCluster`` (``memory_limit=``, ``dashboard_address=``,
        ``silence_logs=`` ...); ``n_workers`` and ``processes`` are set by this function.

    Returns
    -------
    distributed.LocalCluster
        Started, with its workers up; use it in a ``with`` block or ``close()`` it.

    Raises
    ------
    weft.InvalidArgument
        devices is empty, or kwargs sets n_workers or processes.

    Examples
    --------
    >>> import distributed, weft.dask
    >>> with weft.dask.local_cluster(["host", "host"], dashboard_address=None) as cluster:  # doctest: +SKIP
    ...     with distributed.Client(cluster) as client:
    ...         sorted(client.run(lambda: weft.default_device().selector).values())
    ['host', 'host']
    """
    from distributed import LocalCluster

    for key in ("n_workers", "processes"):
        if key in kwargs:
            raise _weft.InvalidArgument(f"local_cluster: {key}= is set by local_cluster (one worker process per "
                                        "device); give devices instead")
    selectors = _selectors(devices)

    class _DeviceCluster(LocalCluster):
        """A LocalCluster whose next worker gets the first device of selectors no worker has."""

        def new_worker_spec(self) -> dict[Any, Any]:
            free = list(selectors)
            for spec in self.worker_spec.values():
                if spec["options"].get("env", {}).get("WEFT_DEVICE") in free:
                    free.remove(spec["options"]["env"]["WEFT_DEVICE"])
            device = free[0] if free else selectors[len(self.worker_spec) % len(selectors)]
            ((name, spec),) = super().new_worker_spec().items()
            spec = _copy.deepcopy(spec)
            spec["options"]["env"] = {**spec["options"].get("env", {}), "WEFT_DEVICE": device}
            return {name: spec}

    cluster = _DeviceCluster(n_workers=0, processes=True, threads_per_worker=threads_per_worker, **kwargs)
    try:
        cluster.scale(len(selectors))
        cluster.wait_for_workers(len(selectors))
    except BaseException:
        cluster.close()
        raise
    return cluster
