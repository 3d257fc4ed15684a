"""PyOpenCL's names and forms, so that PyOpenCL code runs with ``import weft as cl``:
mem_flags, command_execution_status, device_partition_property, device_type,
command_queue_properties; get_platforms() and Platform; create_some_context(); CommandQueue;
enqueue_marker and enqueue_barrier; and the queue methods some tutorials write
(``queue.enqueue_copy(...)``, ``queue.enqueue_nd_range_kernel(kernel, ...)``).

The objects with state (Context, UserEvent, Buffer, Device.create_sub_devices,
Kernel.set_args, enqueue_nd_range_kernel) are in the extension (python/src/opencl_forms.cpp,
kernel_programs.cpp). docs/MIGRATING.md's "From PyOpenCL" table lists every name and what differs.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from . import _weft


class mem_flags:
    """Buffer flags, OpenCL's values (PyOpenCL's cl.mem_flags).

    weft allocates where it sees fit: READ_ONLY, WRITE_ONLY and ALLOC_HOST_PTR are accepted and
    checked for conflicts, not enforced; COPY_HOST_PTR and USE_HOST_PTR both copy hostbuf (weft's
    buffers never alias host memory).

    Examples
    --------
    >>> ctx = weft.create_some_context()
    >>> mf = weft.mem_flags
    >>> buf = weft.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.arange(4, dtype=np.int32))
    >>> buf.size
    16
    """

    READ_WRITE = 1 << 0
    WRITE_ONLY = 1 << 1
    READ_ONLY = 1 << 2
    USE_HOST_PTR = 1 << 3
    ALLOC_HOST_PTR = 1 << 4
    COPY_HOST_PTR = 1 << 5
    HOST_WRITE_ONLY = 1 << 7
    HOST_READ_ONLY = 1 << 8
    HOST_NO_ACCESS = 1 << 9


class command_execution_status:
    """Event.command_execution_status values (PyOpenCL's); a failed command's is negative.

    Examples
    --------
    >>> q = weft.Queue(weft.Device("host"))
    >>> event = q.marker()
    >>> event.wait()
    >>> event.command_execution_status == weft.command_execution_status.COMPLETE
    True
    """

    COMPLETE = 0
    RUNNING = 1
    SUBMITTED = 2
    QUEUED = 3


class device_partition_property:
    """Device.create_sub_devices properties (OpenCL's values).

    Examples
    --------
    >>> weft.device_partition_property.EQUALLY
    4230
    """

    EQUALLY = 0x1086
    BY_COUNTS = 0x1087
    BY_COUNTS_LIST_END = 0x0
    BY_AFFINITY_DOMAIN = 0x1088


class device_type:
    """Context(dev_type=...) and Platform.get_devices(device_type=...) values (OpenCL's).

    Examples
    --------
    >>> [d.selector for d in weft.get_platforms()[0].get_devices(device_type=weft.device_type.CPU)]
    ['host']
    """

    DEFAULT = 1 << 0
    CPU = 1 << 1
    GPU = 1 << 2
    ACCELERATOR = 1 << 3
    CUSTOM = 1 << 4
    ALL = 0xFFFFFFFF


class command_queue_properties:
    """CommandQueue(properties=...) values (OpenCL's): OUT_OF_ORDER_EXEC_MODE_ENABLE asks for an
    out-of-order queue (OpenCL and CUDA devices; the host backend's queues run in order);
    PROFILING_ENABLE gives the queue's events times (Event.profile).

    Examples
    --------
    >>> flags = weft.command_queue_properties
    >>> q = weft.CommandQueue(weft.Device("host"), properties=flags.OUT_OF_ORDER_EXEC_MODE_ENABLE)
    >>> q.device.selector
    'host'
    """

    OUT_OF_ORDER_EXEC_MODE_ENABLE = 1 << 0
    PROFILING_ENABLE = 1 << 1


_TYPE_BITS = {"cpu": device_type.CPU, "gpu": device_type.GPU, "accelerator": device_type.ACCELERATOR}


def _type_matches(device: _weft.Device, bits: int | None) -> bool:
    return bits in (None, device_type.ALL, device_type.DEFAULT) or bool(bits & _TYPE_BITS.get(device.type, 0))


class Platform:
    """The devices that share one platform (an OpenCL platform, CUDA, the host backend), as
    PyOpenCL's Platform: name, and get_devices(device_type=None).

    Examples
    --------
    >>> platform = weft.get_platforms()[0]
    >>> platform.name, [d.selector for d in platform.get_devices()]
    ('weft host backend', ['host'])
    """

    __module__ = "weft"

    def __init__(self, name: str, devices: Iterable[_weft.Device]) -> None:
        self.name = name
        self._devices = list(devices)

    @property
    def vendor(self) -> str:
        return self._devices[0].vendor if self._devices else ""

    def get_devices(self, device_type: int | None = None) -> list[_weft.Device]:
        """The platform's devices, of device_type (weft.device_type bits) when given."""
        found = [d for d in self._devices if _type_matches(d, device_type)]
        if not found:
            raise _weft.InvalidArgument(f"Platform {self.name!r} has no device of type {device_type}")
        return found

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Platform) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"<weft.Platform {self.name!r}: {len(self._devices)} device(s)>"


def get_platforms() -> list[Platform]:
    """Every platform with a device, as PyOpenCL's get_platforms, in the order `weft devices` lists
    them (host first).

    Returns
    -------
    list of weft.Platform
        Each with get_devices() and name.

    Examples
    --------
    >>> weft.get_platforms()[0].get_devices()[0].selector
    'host'
    """
    order: list[tuple[str, str]] = []
    groups: dict[tuple[str, str], list[_weft.Device]] = {}
    for d in _weft.devices():
        key = (d.backend, d.platform)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(d)
    return [Platform(platform or backend, groups[(backend, platform)]) for backend, platform in order]


def create_some_context(interactive: bool | None = None, answers: Sequence[str] | None = None) -> _weft.Context:
    """A Context on the default device (WEFT_DEVICE, else auto's choice), as PyOpenCL's
    create_some_context. It never prompts.

    Parameters
    ----------
    interactive, answers : optional
        Accepted for PyOpenCL's signature (PYOPENCL_CTX is not read; set WEFT_DEVICE instead).

    Returns
    -------
    weft.Context

    Examples
    --------
    >>> ctx = weft.create_some_context()
    >>> len(ctx.devices)
    1
    """
    return _weft.Context([_weft.default_device()])


class _QueueType(type):
    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, _weft.Queue)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, _weft.Queue)


class CommandQueue(metaclass=_QueueType):
    """PyOpenCL's CommandQueue(context, device=None, properties=None): makes a weft.Queue on device
    (else the context's first device).

    PROFILING_ENABLE gives its events times (Event.profile), as in PyOpenCL;
    OUT_OF_ORDER_EXEC_MODE_ENABLE makes an out-of-order queue where the device has them (OpenCL,
    CUDA). ``isinstance(q, weft.CommandQueue)`` holds for every weft.Queue.

    Parameters
    ----------
    context : weft.Context or weft.Device
        Where the queue goes.
    device : weft.Device, optional
        One of the context's devices.
    properties : int, optional
        weft.command_queue_properties values.

    Raises
    ------
    weft.InvalidArgument
        device is not one of the context's, or properties holds unknown bits.

    Examples
    --------
    >>> ctx = weft.create_some_context()
    >>> q = weft.CommandQueue(ctx)
    >>> type(q).__name__, isinstance(q, weft.CommandQueue)
    ('Queue', True)
    """

    # (returns a weft.Queue, not a CommandQueue: the class only spells PyOpenCL's constructor)
    def __new__(cls, context: _weft.Context | None = None, device: _weft.Device | None = None,  # type: ignore[misc]
                properties: int | None = None) -> _weft.Queue:
        props = int(properties or 0)
        if props & ~(command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE
                     | command_queue_properties.PROFILING_ENABLE):
            raise _weft.InvalidArgument(f"CommandQueue: properties {props} hold bits that are no "
                                        "weft.command_queue_properties value")
        if device is not None and isinstance(context, _weft.Context) and device not in context.devices:
            raise _weft.InvalidArgument(f"CommandQueue: {device!r} is not one of the context's devices")
        out_of_order = bool(props & command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE)
        profiling = bool(props & command_queue_properties.PROFILING_ENABLE)
        return _weft.Queue(device if device is not None else context, out_of_order=out_of_order,
                           profiling=profiling)


def enqueue_marker(queue: _weft.Queue, wait_for: object = None) -> _weft.Event:
    """An event that completes when the queue's work before it (or wait_for) has, as PyOpenCL's
    enqueue_marker.

    Parameters
    ----------
    queue : weft.Queue
        The queue.
    wait_for : list of weft.Event, optional
        Wait for these instead of everything before.

    Returns
    -------
    weft.Event

    Examples
    --------
    >>> q = weft.Queue(weft.Device("host"))
    >>> weft.enqueue_marker(q).wait()
    """
    return queue.marker(wait_for)


def enqueue_barrier(queue: _weft.Queue, wait_for: object = None) -> _weft.Event:
    """A barrier, as PyOpenCL's enqueue_barrier: commands enqueued after it wait for the work before
    it (or wait_for).

    Parameters
    ----------
    queue : weft.Queue
        The queue.
    wait_for : list of weft.Event, optional
        Wait for these instead of everything before.

    Returns
    -------
    weft.Event

    Examples
    --------
    >>> q = weft.Queue(weft.Device("host"), out_of_order=True)
    >>> weft.enqueue_barrier(q).wait()
    """
    return queue.barrier(wait_for)


def _queue_enqueue_copy(self: _weft.Queue, *args: Any, **kwargs: Any) -> _weft.Event:
    """queue.enqueue_copy(dest, src, ...): weft.enqueue_copy on this queue. Some tutorials write
    queue.enqueue_copy(queue, dest, src); the repeated queue is accepted."""
    if args and isinstance(args[0], _weft.Queue):
        if args[0] != self:
            raise _weft.InvalidArgument("Queue.enqueue_copy: the queue given as first argument is not this queue")
        args = args[1:]
    return _weft.enqueue_copy(self, *args, **kwargs)


def _queue_enqueue_nd_range_kernel(self: _weft.Queue, kernel: _weft.Kernel, global_size: object, local_size: object,
                                   *args: object, global_offset: object = None,
                                   wait_for: object = None) -> _weft.Event:
    """``queue.enqueue_nd_range_kernel(kernel, global_size, local_size, *args)``: launches kernel on this
    queue with args (or, without them, with the arguments set_args gave it)."""
    if args:
        return kernel(self, global_size, local_size, *args, global_offset=global_offset, wait_for=wait_for)
    return _weft.enqueue_nd_range_kernel(self, kernel, global_size, local_size, global_offset, wait_for)


def _queue_enqueue_marker(self: _weft.Queue, wait_for: object = None) -> _weft.Event:
    return self.marker(wait_for)


def _queue_enqueue_barrier(self: _weft.Queue, wait_for: object = None) -> _weft.Event:
    return self.barrier(wait_for)


# (setattr: methods added to the extension's class, which its stubs do not declare)
setattr(_weft.Queue, "enqueue_copy", _queue_enqueue_copy)
setattr(_weft.Queue, "enqueue_nd_range_kernel", _queue_enqueue_nd_range_kernel)
setattr(_weft.Queue, "enqueue_marker", _queue_enqueue_marker)
setattr(_weft.Queue, "enqueue_barrier", _queue_enqueue_barrier)
