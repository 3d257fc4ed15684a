#!/usr/bin/env python3
"""weft's own Python binding, measured by `weft bench` beside its C++ figures and the peers.

Usage: weft_python.py SUITE N REPEAT
launch: host time per tiny kernel call from Python, `prg.tiny(queue, (1,), None, x)` back to
back then one finish (as the PyOpenCL and CuPy peers), with a weft.Buffer and with a
weft.Array argument; and the time from `import weft` to the first launch of a cached kernel
done, in a fresh interpreter.
async: N events (at most 10 000) awaited in one `weft.gather`, per event, with the process's
thread count before and after; N `event.then(callback)` Python callbacks delivered, per
callback.
overlap: SELECTORS after REPEAT; y = 2x + 1 over N bytes of float32 host data (N 0: 1 GiB on
devices with their own memory, 64 MiB elsewhere) in chunks of at most 64 MiB: the serial loop
(asarray, compute, get, per chunk) against weft.stream_map with 3 and 2 queues, results
returned as new arrays and written into one pageable out=; the ratios as info lines.
partition: SELECTORS after REPEAT; weft.partition, argpartition and topk of N float32 and
uint32 keys beside weft.sort and argsort of the same keys.
Prints the harness's record/skip/info lines.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no BLAS here; its idle threads would take a core
import statistics
import subprocess
import sys
import time

SRC = "__kernel void tiny(__global float *x) { x[get_global_id(0)] += 1.0f; }"

FIRST_LAUNCH = r"""
import time
t0 = time.perf_counter()
import weft
prg = weft.Program(weft.Device(DEVICE), SRC).build()
q = weft.Queue(prg.device)
x = weft.Buffer(q.device, 64)
prg.tiny(q, (1,), None, x).wait()
print(time.perf_counter() - t0)
"""


def record(method, device, n, times):
    print(f"record\t{method}\t{device}\t{n}\tfloat32\t{statistics.median(times):.9g}\t{min(times):.9g}\t0", flush=True)


GRAPH = 100  # launches per graph


def graph_launch(weft, np, dev, knl, n, repeat):
    """The same tiny calls batched in a weft.Graph of GRAPH launches (a CUDA graph on CUDA
    devices): replayed n / GRAPH times (the calls recorded once), and recorded afresh for each
    replay (every call made from Python, the graph built each time). Per launch, then one finish."""
    x = weft.Buffer(dev, 64)
    q = weft.Queue(dev, profiling=False)
    weft.enqueue_copy(q, x, np.zeros(16, np.float32))
    replays = max(1, n // GRAPH)
    g = weft.Graph(dev)
    for _ in range(GRAPH):
        knl(g, (1,), None, x)
    total = 0
    times = []
    for r in range(2 + repeat):
        t0 = time.perf_counter()
        for _ in range(replays):
            g.launch(q)
        q.finish()
        total += replays * GRAPH
        if r >= 2:
            times.append((time.perf_counter() - t0) / (replays * GRAPH))
    record(f"weft Python: graph of {GRAPH} launches, replayed (per launch)", dev.selector, replays * GRAPH, times)
    times = []
    rounds = max(1, replays // 10)
    for r in range(2 + repeat):
        t0 = time.perf_counter()
        for _ in range(rounds):
            g = weft.Graph(dev)
            for _ in range(GRAPH):
                knl(g, (1,), None, x)
            g.launch(q)
        q.finish()
        total += rounds * GRAPH
        if r >= 2:
            times.append((time.perf_counter() - t0) / (rounds * GRAPH))
    record(f"weft Python: graph of {GRAPH} launches, recorded and launched once (per launch)", dev.selector,
           rounds * GRAPH, times)
    out = np.empty(16, np.float32)
    weft.enqueue_copy(q, out, x)
    if out[0] != total:
        raise SystemExit(f"weft Python graph launch on {dev.selector}: counter {out[0]}, expected {total}")


def launch(weft, np, n, repeat):
    for dev in weft.devices():
        prg = weft.Program(dev, SRC).build()
        knl = prg.tiny
        for label, x, q in (("Buffer", weft.Buffer(dev, 64), weft.Queue(dev, profiling=True)),
                            ("Array", weft.zeros(16, np.float32, device=dev), weft.Queue(dev, profiling=True)),
                            ("Buffer, queue without profiling", weft.Buffer(dev, 64), weft.Queue(dev, profiling=False))):
            buf = x.data if isinstance(x, weft.Array) else x
            weft.enqueue_copy(q, buf, np.zeros(16, np.float32))
            times = []
            for r in range(2 + repeat):
                t0 = time.perf_counter()
                for _ in range(n):
                    knl(q, (1,), None, x)
                q.finish()
                if r >= 2:
                    times.append((time.perf_counter() - t0) / n)
            out = np.empty(16, np.float32)
            weft.enqueue_copy(q, out, buf)
            if out[0] != n * (2 + repeat):
                raise SystemExit(f"weft Python launch on {dev.selector}: counter {out[0]}, expected {n * (2 + repeat)}")
            record(f"weft Python: launch, back to back ({label})", dev.selector, n, times)
        graph_launch(weft, np, dev, knl, n, repeat)
        # import weft + the first launch of a cached kernel, in a fresh interpreter (median of 5).
        code = f"DEVICE = {dev.selector!r}\nSRC = {SRC!r}\n" + FIRST_LAUNCH
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)  # fills the cache
        times = []
        for _ in range(5):
            r = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
            times.append(float(r.stdout.strip().splitlines()[-1]))
        record("weft Python: import weft + first launch (cached kernel)", dev.selector, 1, times)


def async_events(weft, n, repeat):
    import asyncio
    import threading

    def threads():
        return len(os.listdir("/proc/self/task"))

    for dev in weft.devices():
        q = weft.Queue(dev)
        q.marker().wait()
        awaited = min(n, 10000)
        times, grown = [], 0

        async def gather_all():
            events = [q.marker() for _ in range(awaited)]
            before = threads()
            t0 = time.perf_counter()
            await weft.gather(*events)
            return time.perf_counter() - t0, threads() - before

        for _ in range(1 + repeat):
            t, g = asyncio.run(gather_all())
            times.append(t / awaited)
            grown = max(grown, g)
        record(f"weft Python: events awaited in one weft.gather (per event; threads +{grown})", dev.selector,
               awaited, times[1:])
        times = []
        for _ in range(1 + repeat):
            events = [q.marker() for _ in range(n)]
            done = threading.Event()
            left = [n]

            def callback(_event):
                left[0] -= 1
                if left[0] == 0:
                    done.set()

            t0 = time.perf_counter()
            for e in events:
                e.then(callback)
            done.wait(600)
            times.append((time.perf_counter() - t0) / n)
        record("weft Python: then() callback delivered (per callback)", dev.selector, n, times[1:])


def overlap(weft, np, n, repeat, selectors):
    for sel in selectors:
        dev = weft.Device(sel)
        total = n or ((64 << 20) if dev.memory_is_host else (1 << 30))
        count = max(1, total // 4)
        a = np.ones(count, dtype=np.float32)
        a[::4097] = 3.0  # not all equal: the check below sees misplaced chunks
        chunks = np.array_split(a, max(4, -(-total // (64 << 20))))
        out = np.empty_like(a)
        moved = 2 * a.nbytes

        def serial_new():
            return [(weft.asarray(c, device=dev) * 2 + 1).get() for c in chunks]

        def serial_out():
            row = 0
            for c in chunks:
                (weft.asarray(c, device=dev) * 2 + 1).get(ary=out[row:row + c.size])
                row += c.size
            return out

        def mapped(queues, into):
            return weft.stream_map(lambda x: x * 2 + 1, chunks, device=dev, queues=queues, out=into)

        # (method, run, the serial method it is compared with)
        runs = [("serial loop: upload, compute, get() per chunk", serial_new, None),
                ("weft.stream_map, 3 queues, results returned", lambda: mapped(3, None), 0),
                ("weft.stream_map, 2 queues, results returned", lambda: mapped(2, None), 0),
                ("serial loop: upload, compute, get(ary=out) per chunk", serial_out, None),
                ("weft.stream_map, 3 queues, into out=", lambda: mapped(3, out), 3)]
        medians = {}
        for index, (method, run, _) in enumerate(runs):
            times = []
            for r in range(1 + repeat):
                out.fill(0)
                t0 = time.perf_counter()
                got = run()
                times.append(time.perf_counter() - t0)
                flat = got if isinstance(got, np.ndarray) else np.concatenate(got)
                del got
            ok = np.array_equal(flat[::4097], np.full(flat[::4097].shape, 7.0, np.float32)) and flat[1] == 3.0
            del flat
            if not ok:
                print(f"skip\t{method} on {sel} gave wrong results", flush=True)
                continue
            print(f"record\t{method}\t{sel}\t{a.nbytes}\tfloat32\t{statistics.median(times[1:]):.9g}\t"
                  f"{min(times[1:]):.9g}\t{moved}", flush=True)
            medians[index] = statistics.median(times[1:])
        for index, (method, _, base) in enumerate(runs):
            if base is not None and base in medians and index in medians:
                print(f"info\toverlap on {sel}, {a.nbytes >> 20} MiB in {len(chunks)} chunks: {method} "
                      f"{medians[base] / medians[index]:.2f}x its serial loop", flush=True)


def partition(weft, np, n, repeat, selectors):
    """weft.partition / argpartition at n // 2 and weft.topk(a, 100) (the O(n) radix select of
    python/weft/_partition.py) beside weft.sort and weft.argsort of the same keys, in the same
    run, on each device: float32 uniform in [-1, 1) and uint32 keys, results synchronized."""
    from wall_timing import timed
    rng = np.random.default_rng(42)
    data = {"float32": rng.uniform(-1, 1, n).astype(np.float32),
            "uint32": rng.integers(0, 2**32, n, dtype=np.uint32)}
    for sel in selectors:
        dev = weft.Device(sel)
        for dtype, host in data.items():
            a = weft.asarray(host, device=dev)

            def run(fn):
                def call():
                    r = fn()
                    weft.synchronize(dev)
                    return r
                return call
            kth = n // 2
            p = weft.partition(a, kth).get()
            if p[kth] != np.partition(host, kth)[kth]:
                raise SystemExit(f"partition bench: wrong kth element on {sel}")
            for method, fn, nbytes in (
                    ("weft partition(a, n // 2)", lambda: weft.partition(a, kth), 8.0 * n),
                    ("weft argpartition(a, n // 2)", lambda: weft.argpartition(a, kth), 12.0 * n),
                    ("weft topk(a, 100)", lambda: weft.topk(a, 100), 4.0 * n),
                    ("weft sort(a) (same run)", lambda: weft.sort(a), 8.0 * n),
                    ("weft argsort(a) (same run)", lambda: weft.argsort(a), 12.0 * n)):
                med, mn = timed(run(fn), repeat)
                print(f"record\t{method}\t{sel}\t{n}\t{dtype}\t{med:.9g}\t{mn:.9g}\t{nbytes:.9g}", flush=True)


def main():
    suite, n, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        import numpy as np
        import weft
    except ImportError as e:
        print(f"skip\tthe weft Python package is not installed ({e}); pip install . first")
        return 0
    if suite not in ("launch", "async", "overlap", "partition"):
        print(f"skip\tno weft Python figure for suite {suite}")
        return 0
    print(f"info\tweft Python {weft.__version__} from {os.path.dirname(weft.__file__)}", flush=True)
    if suite == "launch":
        launch(weft, np, n, repeat)
    elif suite == "overlap":
        overlap(weft, np, n, repeat, sys.argv[4:])
    elif suite == "partition":
        partition(weft, np, n, repeat, sys.argv[4:])
    else:
        async_events(weft, n, repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
