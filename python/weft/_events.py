"""Awaiting device work from asyncio: ``await event`` (weft.Event's __await__, bound in C++,
comes here) and HostFuture, a copy to the host under way."""
from __future__ import annotations


def await_event(event):
    """``await event``: resumes when the command is done (the callback runs on a backend thread)."""
    if event.done:
        event.wait()
        return
    import asyncio  # here, not at import: it costs ~10 ms of every `import weft`

    loop = asyncio.get_running_loop()
    fut = loop.create_future()

    def _done(ev):
        loop.call_soon_threadsafe(lambda: fut.done() or fut.set_result(None))

    event.then(_done)
    yield from fut
    event.wait()  # raises if the command failed


class HostFuture:
    """A copy to the host under way, from Array.get_async(): ``await`` it, or call ``result()``;
    both give the NumPy array. done() says whether the copy has finished.

    Examples
    --------
    >>> future = weft.asarray([1.0, 2.0]).get_async()
    >>> future.result()
    array([1., 2.])
    """

    __slots__ = ("event", "_out")
    __module__ = "weft"

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
