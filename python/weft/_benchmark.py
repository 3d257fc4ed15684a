"""weft.benchmark, as cupyx.profiler.benchmark: CPU time (the call returning) and device time
(the call's commands on the device, from events) of repeated calls, after warm-up runs."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    from ._typing import ArrayLike

import math as _math
import time as _time

import numpy as _np

from . import _weft


class BenchmarkResult:
    """What weft.benchmark measured, as cupyx's _PerfCaseResult: times in seconds, cpu_times
    (n_repeat,) and gpu_times (one row per device: (len(devices), n_repeat)), device_times the
    same as gpu_times. Print it for a summary (mean +/- standard deviation, min and max).

    Examples
    --------
    >>> r = weft.benchmark(lambda: weft.ones(100).sum(), n_repeat=3, n_warmup=1, name="sum")
    >>> r.name, r.cpu_times.shape, r.gpu_times.shape
    ('sum', (3,), (1, 3))
    """

    __module__ = "weft"

    def __init__(self, name: str, cpu_times: ArrayLike, gpu_times: ArrayLike, devices: Sequence[_weft.Device]) -> None:
        self.name = name
        self.cpu_times = _np.asarray(cpu_times, dtype=_np.float64)
        self.gpu_times = _np.asarray(gpu_times, dtype=_np.float64).reshape(len(devices), -1)
        self.devices = list(devices)

    # weft's word for the device times, beside CuPy's
    @property
    def device_times(self) -> _np.ndarray[Any, Any]:
        return self.gpu_times

    @staticmethod
    def _summary(label: str, t: _np.ndarray[Any, Any]) -> str:
        us = t * 1e6
        return (f"    {label}: {us.mean():9.3f} us +/- {us.std():6.3f} "
                f"(min: {us.min():9.3f} / max: {us.max():9.3f}) us")

    def __str__(self) -> str:
        lines = [f"{self.name}:", self._summary("CPU", self.cpu_times)]
        for d, t in zip(self.devices, self.gpu_times):
            lines.append(self._summary(f"{d.selector}", t))
        return "\n".join(lines)

    __repr__ = __str__

    def to_str(self, show_gpu: bool = True) -> str:
        return str(self) if show_gpu else "\n".join(str(self).splitlines()[:2])


def _device_seconds(start: _weft.Event, end: _weft.Event, wall: float) -> float:
    """end - start from the markers' profiles (nanoseconds); the host clock's wall when the
    queue's markers carry no times."""
    try:
        t = (end.profile.end - start.profile.start) * 1e-9
    except _weft.Error:  # an OpenCL queue made without profiling
        return wall
    return t if t > 0 else wall


def benchmark(func: Callable[..., object], args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None,
              n_repeat: int = 10000, *, name: str | None = None, n_warmup: int = 10, max_duration: float = _math.inf,
              devices: Sequence[_weft.Device] | None = None,
              queues: Sequence[_weft.Queue] | None = None) -> BenchmarkResult:
    """Times repeated calls of a function, as cupyx.profiler.benchmark: CPU time and device time.

    Calls ``func(*args, **kwargs)`` n_warmup times, then up to n_repeat times (stopping once
    max_duration seconds have passed). CPU time: the call, on the host clock. Device time: per
    device, from a marker enqueued before the call to one enqueued after it on the device's array
    queue (where array operations, the kernel generators and RawKernel launches go), waited for
    before the next call (so calls never overlap), from the markers' profiles: markers carry
    times on host and CUDA queues with or without profiling; elsewhere (an OpenCL queue made
    without profiling, as the array queue is) the host clock until the wait returns stands in.

    Parameters
    ----------
    func : callable
        What to time.
    args : sequence, optional
        Its positional arguments.
    kwargs : dict, optional
        Its keyword arguments.
    n_repeat : int, optional
        How many timed calls at most (10000 by default).
    name : str, optional
        The name printed (func's by default).
    n_warmup : int, optional
        Untimed calls first (10 by default).
    max_duration : float, optional
        Stop after this many seconds of timed calls.
    devices : sequence of weft.Device, optional
        The devices whose time to measure (the current one by default).
    queues : sequence of weft.Queue, optional
        Other queues the function launches on, to time instead.

    Returns
    -------
    BenchmarkResult
        cpu_times and gpu_times (device_times) in seconds; print it for a summary.

    Examples
    --------
    >>> a = weft.ones(1000)
    >>> r = weft.benchmark(lambda: (a * 2).sum(), n_repeat=5, n_warmup=1)
    >>> r.cpu_times.shape, r.device_times.shape
    ((5,), (1, 5))
    """
    from ._device import current_device
    kwargs = kwargs or {}
    name = name if name is not None else getattr(func, "__name__", "benchmark")
    if n_repeat < 1:
        raise _weft.InvalidArgument(f"benchmark: n_repeat must be at least 1, not {n_repeat}")
    if queues is None:
        devs = list(devices) if devices is not None else [current_device()]
        queues = [_weft.array_queue(_weft.Device(d) if not isinstance(d, _weft.Device) else d) for d in devs]
    else:
        queues = list(queues)
    for _ in range(n_warmup):
        func(*args, **kwargs)
    for q in queues:
        q.finish()
    cpu: list[float]
    dev: list[list[float]]
    cpu, dev = [], [[] for _ in queues]
    begin = _time.perf_counter()
    for _ in range(n_repeat):
        starts = [q.marker() for q in queues]
        t0 = _time.perf_counter()
        func(*args, **kwargs)
        t1 = _time.perf_counter()
        ends = [q.marker() for q in queues]
        for e in ends:
            e.wait()
        wall = _time.perf_counter() - t0
        cpu.append(t1 - t0)
        for row, s, e in zip(dev, starts, ends):
            row.append(_device_seconds(s, e, wall))
        if _time.perf_counter() - begin > max_duration:
            break
    return BenchmarkResult(name, cpu, dev, [q.device for q in queues])
