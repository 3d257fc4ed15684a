"""weft.stream_map: a function of device arrays mapped over host chunks with the upload of chunk
i+1, the computation of chunk i and the download of chunk i-1 overlapped.

The computation runs on the device's array queue (weft.array_queue: every weft.Array operation
goes there); the copies run on one or two queues made with ``ordered_with_arrays=False``, so
they are not serialized with the array work, and events order the three: the computation of a
chunk after its upload (blocking, from this thread, while the device computes the chunk before),
its download after its computation (a marker on the array queue), and the next upload into the
same device slot after that slot's last download. Up to three chunks are in flight. The
downloads are made from one helper thread: a copy into pageable memory blocks its caller on
CUDA, and from this thread it would hold back the next upload."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

import numpy as _np

from . import _weft
from ._result_memory import result_empty

if TYPE_CHECKING:
    from concurrent.futures import Future

    from numpy.typing import NDArray

    from ._array import Array
    from ._typing import DeviceLike

_SLOTS = 3  # device input buffers in flight: upload i+1 never waits for download i-1


def _contiguous_result(y: object, i: int) -> Array:
    from ._array import Array
    from ._functions import copy

    if not isinstance(y, Array):
        raise TypeError(f"stream_map: fn returned {type(y).__name__} for chunk {i}; it must return a weft.Array")
    if not y.flags_c_contiguous:
        y = copy(y)  # a C-contiguous copy of a strided view
    return y.evaluate()


class _Output:
    """Where result i goes: a slice of out (results stacked along axis 0), out[i] of a list, or
    a new NumPy array."""

    def __init__(self, out: NDArray[Any] | Sequence[NDArray[Any]] | None) -> None:
        self.out = out
        self.row = 0
        self.results: list[NDArray[Any]] = []
        if isinstance(out, _np.ndarray):
            if out.ndim == 0 or not out.flags.c_contiguous or not out.flags.writeable:
                raise _weft.InvalidArgument("stream_map: out must be a writable C-contiguous NumPy array of at least one "
                                            f"dimension (got ndim {out.ndim}, contiguous {out.flags.c_contiguous})")

    def destination(self, i: int, y: Array) -> NDArray[Any]:
        out, dtype = self.out, _np.dtype(y.dtype)
        if out is None:
            dest: NDArray[Any] = result_empty(y.shape, dtype, y.device)
        elif isinstance(out, _np.ndarray):
            rows = y.shape[0] if y.ndim == out.ndim else -1
            if rows < 0 or y.shape[1:] != out.shape[1:] or dtype != out.dtype:
                raise _weft.InvalidArgument(f"stream_map: out of shape {out.shape} and dtype {out.dtype} stacks results "
                                            f"along axis 0, but chunk {i} gave shape {y.shape} and dtype {dtype}")
            if self.row + rows > out.shape[0]:
                raise _weft.InvalidArgument(f"stream_map: out has {out.shape[0]} rows; the results up to chunk {i} "
                                            f"need {self.row + rows}")
            dest = out[self.row:self.row + rows]
            self.row += rows
        else:
            if i >= len(out):
                raise _weft.InvalidArgument(f"stream_map: out lists {len(out)} arrays, fewer than the chunks")
            dest = out[i]
            if (not isinstance(dest, _np.ndarray) or dest.shape != y.shape or dest.dtype != dtype
                    or not dest.flags.c_contiguous or not dest.flags.writeable):
                raise _weft.InvalidArgument(f"stream_map: out[{i}] must be a writable C-contiguous {dtype} NumPy array of "
                                            f"shape {y.shape} (chunk {i}'s result)")
        self.results.append(dest)
        return dest

    def finish(self, chunks: int) -> NDArray[Any] | list[NDArray[Any]]:
        out = self.out
        if isinstance(out, _np.ndarray):
            if self.row != out.shape[0]:
                raise _weft.InvalidArgument(f"stream_map: the results filled {self.row} of out's {out.shape[0]} rows")
            return out
        if out is not None and len(out) != chunks:
            raise _weft.InvalidArgument(f"stream_map: out lists {len(out)} arrays for {chunks} chunks")
        return self.results


def _download(queue: _weft.Queue, dest: NDArray[Any], y: Array, computed: _weft.Event) -> None:
    _weft.enqueue_copy(queue, dest, y.data, wait_for=[computed], src_offset=y.offset * y.itemsize, byte_count=y.nbytes)


class _Downloads:
    """The downloads, each a blocking copy made on one helper thread (GIL released while it
    copies): a copy to pageable memory blocks its caller on CUDA (and on most OpenCL drivers),
    so made from the calling thread it would hold back the next upload. Each keeps its result
    array alive (its memory unreused) until it is done."""

    def __init__(self) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="weft-stream-map")
        self.pending: list[Future[None]] = []  # oldest first

    def submit(self, queue: _weft.Queue, dest: NDArray[Any], y: Array, computed: _weft.Event) -> Future[None]:
        future = self.pool.submit(_download, queue, dest, y, computed)
        self.pending.append(future)
        while len(self.pending) > _SLOTS:
            self.pending.pop(0).result()  # (raises a copy's error)
        return future

    def close(self, raise_errors: bool) -> None:
        """Waits for every download (so none writes after stream_map returns); raises the first
        error if asked."""
        first: BaseException | None = None
        try:
            for future in self.pending:
                try:
                    future.result()
                except Exception as e:  # noqa: BLE001  (a copy's error, raised below)
                    first = first or e
        finally:
            self.pool.shutdown(wait=True)
        if first is not None and raise_errors:
            raise first


def stream_map(fn: Callable[[Array], Array], chunks: Iterable[Any], *, device: DeviceLike = None, queues: int = 3,
               out: NDArray[Any] | Sequence[NDArray[Any]] | None = None) -> NDArray[Any] | list[NDArray[Any]]:
    """Maps fn over host chunks on a device with the copies overlapped: the upload of chunk
    i+1, fn's work on chunk i and the download of chunk i-1 run at the same time (a
    bandwidth-bound pipeline then takes about its longest copy rather than the sum).

    fn receives each chunk as a weft.Array on the device and returns a weft.Array; its work
    runs on the device's array queue (every weft.Array operation does, and so does a kernel
    on a queue made with the default ordered_with_arrays=True). The argument array is reused
    for a later chunk once fn's result has been downloaded, so fn must not keep it.

    Parameters
    ----------
    fn : callable
        weft.Array -> weft.Array, called once per chunk, in order.
    chunks : iterable of array_like
        The host chunks (NumPy arrays, e.g. ``np.array_split(a, 8)``); read as they are
        needed, so a generator streams.
    device : weft.Device, str or None, optional
        Where fn runs (None: the default device).
    queues : {3, 2}, optional
        3: uploads and downloads on two queues of their own beside the array queue (both
        copy directions at once, as a GPU's two copy engines allow); 2: on one copy queue.
    out : numpy.ndarray or list of numpy.ndarray, optional
        Where the results go: one C-contiguous array they fill in order along axis 0 (each
        result of the same number of dimensions), or one array per chunk of its result's
        shape. None: a new NumPy array per chunk.

    Returns
    -------
    numpy.ndarray or list of numpy.ndarray
        out when it is one array, else the results in chunk order.

    Raises
    ------
    weft.InvalidArgument
        queues is not 2 or 3, or out does not fit the results (shape, dtype, rows).
    TypeError
        fn returned something other than a weft.Array.
    Exception
        Whatever fn, the chunks' iterator or a copy raised; the commands in flight are
        waited for first, so no copy writes into out after stream_map returns or raises.

    Examples
    --------
    >>> a = np.arange(12.0)
    >>> weft.stream_map(lambda x: x * 2, np.array_split(a, 3), device="host")
    [array([0., 2., 4., 6.]), array([ 8., 10., 12., 14.]), array([16., 18., 20., 22.])]
    >>> out = np.empty(12)
    >>> _ = weft.stream_map(lambda x: x + 1, np.array_split(a, 4), device="host", out=out)
    >>> out[:3]
    array([1., 2., 3.])
    """
    from ._creation import empty

    if queues not in (2, 3):
        raise _weft.InvalidArgument(f"stream_map: queues must be 2 or 3 (the array queue and one or two copy queues), "
                                    f"not {queues!r}")
    output = _Output(out)
    slots: list[Array | None] = [None] * _SLOTS
    freed: list[Future[None] | None] = [None] * _SLOTS  # each slot's last download
    downloads = _Downloads()
    arrays: _weft.Queue | None = None
    up: _weft.Queue | None = None
    down: _weft.Queue | None = None
    count = 0
    try:
        for i, chunk in enumerate(chunks):
            host = _np.ascontiguousarray(chunk)
            k = i % _SLOTS
            x = slots[k]
            wait: list[_weft.Event] = []
            if x is None or x.shape != host.shape or x.dtype != host.dtype:
                x = slots[k] = empty(host.shape, host.dtype, device=device if arrays is None else arrays.device)
                if arrays is None:
                    arrays = _weft.array_queue(x.device)
                    up = _weft.Queue(x.device, ordered_with_arrays=False)
                    down = up if queues == 2 else _weft.Queue(x.device, ordered_with_arrays=False)
                # a new array's memory may have been another array's until the array work so far
                wait = [arrays.marker()]
            previous = freed[k]
            if previous is not None:
                previous.result()  # the slot's last chunk is downloaded (fn may return its argument)
            assert arrays is not None and up is not None and down is not None
            if host.size:
                loaded = _weft.enqueue_copy(up, x.data, host, wait_for=wait, dst_offset=x.offset * x.itemsize)
                if not loaded.done:
                    arrays.barrier([loaded])
            y = _contiguous_result(fn(x), i)
            dest = output.destination(i, y)
            freed[k] = downloads.submit(down, dest, y, arrays.marker()) if y.size else None
            count = i + 1
    except BaseException:
        downloads.close(raise_errors=False)
        raise
    downloads.close(raise_errors=True)
    return output.finish(count)
