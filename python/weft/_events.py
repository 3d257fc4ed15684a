"""Awaiting device work: ``await event`` (weft.Event's __await__, bound in C++, comes here),
``event.as_future()`` (a concurrent.futures.Future), ``weft.gather`` and HostFuture, a copy to
the host under way.

Every callback comes from weft's one callback thread (docs/PYTHON.md, "Events and asyncio"):
an awaited event wakes the loop that awaits it with loop.call_soon_threadsafe, so thousands of
awaited events start no thread, and a loop closed while work is pending is left alone."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable, Generator, cast

import functools as _functools

if TYPE_CHECKING:
    import asyncio
    import concurrent.futures

    from numpy.typing import NDArray

    from ._weft import Event


def _resolve(fut: asyncio.Future[None]) -> None:
    if not fut.done():  # cancelled meanwhile: nothing to deliver
        fut.set_result(None)


def _wake(loop: asyncio.AbstractEventLoop, fut: asyncio.Future[None], _event: Event) -> None:
    """The event is done (on weft's callback thread): resume the awaiting task on its loop."""
    try:
        loop.call_soon_threadsafe(_resolve, fut)
    except RuntimeError:
        pass  # the loop closed while the work was pending: no one awaits it any more


def await_event(event: Event) -> Generator[Any, None, None]:
    """``await event``: resumes when the command is done and raises its error if it failed.
    Cancelling the awaiting task cancels the wait (not the command)."""
    if not event.done:
        import asyncio  # here, not at import: it costs ~10 ms of every `import weft`

        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        event.then(_functools.partial(_wake, loop, fut))
        yield from fut
    event.wait()  # raises if the command failed


def _settle(future: concurrent.futures.Future[Any], value: object, event: Event) -> None:
    """Completes a concurrent.futures.Future from a done event (on weft's callback thread)."""
    if future.done():  # cancelled by its holder
        return
    try:
        event.wait()
    except BaseException as e:  # noqa: BLE001  (the command's error is the future's)
        future.set_exception(e)
    else:
        future.set_result(value() if callable(value) else value)


def as_future(event: Event, value: object = None) -> concurrent.futures.Future[Any]:
    """``event.as_future()``: a concurrent.futures.Future done with the event; its result is
    value (None for an Event, the NumPy array for a HostFuture) or the command's error.
    Usable from threads and from asyncio (``await asyncio.wrap_future(f)``)."""
    import concurrent.futures

    future: concurrent.futures.Future[Any] = concurrent.futures.Future()
    event.then(_functools.partial(_settle, future, value))
    return future


async def gather(*awaitables: Awaitable[Any] | Event, return_exceptions: bool = False) -> list[Any]:
    """Awaits weft events, HostFutures (``a.get_async()``) and any other awaitables together
    and returns their results in order (None for an event, the NumPy array for a HostFuture),
    as asyncio.gather: the first error is raised, or returned in its place with
    return_exceptions=True. No thread is started however many are awaited.

    Parameters
    ----------
    *awaitables : weft.Event, weft.HostFuture or awaitable
        What to wait for.
    return_exceptions : bool, optional
        Return errors in place of the results instead of raising the first.

    Returns
    -------
    list
        The results, in the order given.

    Raises
    ------
    weft.Error
        The first error of a failed event or copy (unless return_exceptions).

    Examples
    --------
    >>> import asyncio
    >>> async def both(a):
    ...     return await weft.gather(a.get_async(), (a * 2).get_async())
    >>> asyncio.run(both(weft.asarray(np.array([1.0, 2.0]))))
    [array([1., 2.]), array([2., 4.])]
    """
    import asyncio

    # (a weft.Event is awaitable: its __await__ is await_event; the extension's stubs say object)
    return await asyncio.gather(*cast("tuple[Awaitable[Any], ...]", awaitables), return_exceptions=return_exceptions)


class HostFuture:
    """A copy to the host under way, from Array.get_async(): ``await`` it, call ``result()`` or
    ``as_future()``; all give the NumPy array. done() says whether the copy has finished.

    Examples
    --------
    >>> future = weft.asarray([1.0, 2.0]).get_async()
    >>> future.result()
    array([1., 2.])
    """

    __slots__ = ("event", "_out")
    event: Event
    _out: NDArray[Any]
    __module__ = "weft"

    def __init__(self, event: Event, out: NDArray[Any]) -> None:
        self.event = event
        self._out = out

    def done(self) -> bool:
        return self.event.done

    def result(self) -> NDArray[Any]:
        self.event.wait()
        return self._out

    def as_future(self) -> concurrent.futures.Future[Any]:
        """A concurrent.futures.Future whose result is the NumPy array."""
        return as_future(self.event, self._result_value)

    def _result_value(self) -> NDArray[Any]:
        return self._out

    def then(self, callback: Callable[[NDArray[Any]], object]) -> HostFuture:
        """Calls callback(array) once the copy is done, on weft's callback thread; returns self."""
        out = self._out
        self.event.then(lambda _event: callback(out))
        return self

    def __await__(self) -> Generator[Any, None, NDArray[Any]]:
        yield from self.event.__await__()  # (await_event)
        return self._out
