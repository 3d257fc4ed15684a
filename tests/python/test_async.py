"""Events and asyncio: await, weft.gather, get_async, concurrent.futures interop, then-chains,
callbacks that raise, cancellation, a loop closed with work pending, and the interpreter's
exit with callbacks pending. Every callback comes from weft's one callback thread: many
awaited events start no thread. Waits are bounded; nothing is timed."""
import asyncio
import concurrent.futures
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import weft

SPIN = """__kernel void spin(__global float *x, int n) {
    size_t i = get_global_id(0); float v = x[i];
    for (int k = 0; k < n; ++k) v = v * 0.999f + 0.5f;
    x[i] = v;
}"""


def _thread_count():
    return len(os.listdir("/proc/self/task"))


def _complete(user_event):
    user_event.set_status(weft.command_execution_status.COMPLETE)


def test_default_queues_do_not_profile_and_say_how(device):
    q = weft.Queue(device)
    assert not q.profiling
    b = weft.Buffer(device, 64)
    ev = weft.enqueue_copy(q, b, np.zeros(16, np.float32))
    with pytest.raises(weft.Error, match=r"without profiling.*profiling=True"):
        ev.profile
    timed = weft.Queue(device, profiling=True)
    assert timed.profiling and "profiling" in repr(timed)
    ev = weft.enqueue_copy(timed, b, np.ones(16, np.float32))
    assert ev.profile.end >= ev.profile.start > 0


def test_await_many_events_with_gather_starts_no_thread(device):
    q = weft.Queue(device)
    q.marker().wait()
    asyncio.run(weft.gather(q.marker()))  # the callback threads, started
    gate = weft.UserEvent()

    async def main():
        # 500 held back: a CUDA stream takes about a thousand commands before enqueuing blocks,
        # and the gate opens only once all are enqueued.
        events = [q.marker([gate] if i == 0 else None) for i in range(500)]
        before = _thread_count()
        asyncio.get_running_loop().call_later(0.01, _complete, gate)
        results = await weft.gather(*events)
        return results, before, _thread_count()

    results, before, after = asyncio.run(asyncio.wait_for(main(), 60))
    assert results == [None] * 500
    assert after <= before + 2


def test_get_async_gives_the_numpy_array_and_gathers_with_events(device):
    a = weft.arange(1000, dtype=np.float32, device=device)
    q = weft.Queue(device)

    async def main():
        got = await (a * 2).get_async()
        both = await weft.gather((a + 1).get_async(), q.marker(), asyncio.sleep(0, "x"))
        return got, both

    got, (plus, marker, other) = asyncio.run(main())
    assert isinstance(got, np.ndarray)
    np.testing.assert_array_equal(got, np.arange(1000, dtype=np.float32) * 2)
    np.testing.assert_array_equal(plus, np.arange(1000, dtype=np.float32) + 1)
    assert marker is None and other == "x"


def test_a_failed_event_raises_in_await_gather_and_as_future():
    gate = weft.UserEvent()
    q = weft.Queue("host")
    after = q.marker([gate])
    gate.set_status(-5)

    async def one():
        await gate

    with pytest.raises(weft.Error, match=r"set_status\(-5\)"):
        asyncio.run(one())
    results = asyncio.run(weft.gather(gate, q.marker(), return_exceptions=True))
    assert isinstance(results[0], weft.Error) and results[1] is None
    with pytest.raises(weft.Error, match=r"set_status\(-5\)"):
        gate.as_future().result(timeout=30)
    with pytest.raises(weft.Error):
        after.wait()  # a command behind a failed event fails too


def test_as_future_interoperates_with_threads_and_asyncio(device):
    gate = weft.UserEvent()
    q = weft.Queue(device)
    f = q.marker([gate]).as_future()
    assert isinstance(f, concurrent.futures.Future) and not f.done()
    threading.Timer(0.01, _complete, (gate,)).start()
    assert f.result(timeout=30) is None
    a = weft.arange(10, dtype=np.int32, device=device)
    hf = (a * 3).get_async().as_future()
    np.testing.assert_array_equal(hf.result(timeout=30), np.arange(10) * 3)

    async def main():
        return await asyncio.wrap_future(q.marker().as_future())

    assert asyncio.run(main()) is None


def test_then_chains_run_in_order_on_one_thread_and_survive_a_raising_callback(device):
    q = weft.Queue(device)
    gate = weft.UserEvent()
    ev = q.marker([gate])
    seen, threads = [], set()
    done = threading.Event()

    def step(k):
        def cb(e):
            assert e is ev
            seen.append(k)
            threads.add(threading.get_ident())
        return cb

    def boom(e):
        raise ValueError("a callback that raises (expected in this test)")

    unraisable = []
    old_hook = sys.unraisablehook
    sys.unraisablehook = lambda u: unraisable.append(u.exc_type)
    try:
        assert ev.then(step(0)).then(boom).then(step(1)) is ev
        _complete(gate)
        ev.wait()
        ev.then(step(2)).then(lambda e: done.set())  # added after completion: still in order
        assert done.wait(30)
    finally:
        sys.unraisablehook = old_hook
    assert seen == [0, 1, 2]
    assert len(threads) == 1 and threading.get_ident() not in threads
    assert ValueError in unraisable


def test_cancelling_an_await_leaves_the_command_and_the_loop_alone(device):
    q = weft.Queue(device)
    gate = weft.UserEvent()
    ev = q.marker([gate])

    async def main():
        task = asyncio.ensure_future(_await(ev))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        _complete(gate)
        await asyncio.sleep(0.05)  # the late wake-up finds the future cancelled: no error
        await ev
        return True

    async def _await(e):
        await e

    assert asyncio.run(main())
    assert ev.done


def test_a_loop_closed_while_work_is_pending_is_left_alone(device):
    q = weft.Queue(device)
    gate = weft.UserEvent()
    ev = q.marker([gate])
    loop = asyncio.new_event_loop()

    pending = []

    async def start():
        pending.append(asyncio.ensure_future(_await(ev)))
        await asyncio.sleep(0)

    async def _await(e):
        await e

    loop.run_until_complete(start())
    loop.close()  # the task never finishes; its loop is gone
    pending[0]._log_destroy_pending = False  # (asyncio's warning about it is this test's point)
    unraisable = []
    old_hook = sys.unraisablehook
    sys.unraisablehook = lambda u: unraisable.append(u)
    try:
        _complete(gate)
        ev.wait()
        done = threading.Event()
        ev.then(lambda e: done.set())  # delivered after the wake-up of the closed loop
        assert done.wait(30)
    finally:
        sys.unraisablehook = old_hook
    assert unraisable == []


PENDING_AT_EXIT = """
import asyncio, sys, numpy as np, weft
dev = weft.Device(sys.argv[1])
q = weft.Queue(dev)
gate = weft.UserEvent()
ev = q.marker([gate])
for _ in range(100):
    ev.then(lambda e: print("never", file=sys.stderr))
f = ev.as_future()
loop = asyncio.new_event_loop()
task = loop.create_task(weft.gather(ev, q.marker()))
loop.run_until_complete(asyncio.sleep(0.01))
print("exiting", flush=True)
# the interpreter exits with the gate never completed: callbacks, a future, a task pending
"""


def test_the_interpreter_exits_with_callbacks_pending(device, tmp_path):
    script = tmp_path / "pending.py"
    script.write_text(PENDING_AT_EXIT)
    r = subprocess.run([sys.executable, str(script), device.selector], capture_output=True, text=True,
                       timeout=120, env=os.environ.copy())
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "exiting"
    assert "never" not in r.stderr


def test_a_kernel_awaited_from_a_loop_in_another_thread(device):
    prg = weft.Program(device, SPIN).build()
    q = weft.Queue(device)
    x = weft.zeros(256, np.float32, device=device)
    result = []

    def in_thread():
        async def main():
            await prg.spin(q, x.shape, None, x, np.int32(100))
            return await x.get_async()

        result.append(asyncio.run(main()))

    t = threading.Thread(target=in_thread)
    t.start()
    t.join(60)
    assert not t.is_alive()
    assert result and result[0].shape == (256,) and np.all(result[0] > 0)


INTERRUPTED = """
import asyncio, os, signal, sys, threading, weft
dev = weft.Device(sys.argv[1])
q = weft.Queue(dev)
gate = weft.UserEvent()
ev = q.marker([gate])
ev.then(lambda e: None)
threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()

async def main():
    await weft.gather(ev, q.marker())

try:
    asyncio.run(main())
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_ctrl_c_ends_an_await_of_work_that_never_completes(device, tmp_path):
    script = tmp_path / "interrupted.py"
    script.write_text(INTERRUPTED)
    r = subprocess.run([sys.executable, str(script), device.selector], capture_output=True, text=True,
                       timeout=120, env=os.environ.copy())
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "interrupted"
