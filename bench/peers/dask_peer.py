#!/usr/bin/env python3
"""weft arrays as Dask chunks (issue 31), measured by `weft bench dask` or run on its own.

Usage: dask_peer.py [--devices SEL,SEL...] [--chunk N] [--tasks-per-worker T] [--rounds R]
                    [--numpy-chunk N] [--budget-s S] [--n N] [--repeat R]
                    [--cases chain,from-numpy,multi] [--json FILE]

Three cases, each timed as the median and minimum of --repeat runs after untimed ones (each
result checked first):

``chain`` (the issue's scaling target): T chunks per worker of --chunk float32 elements each,
made where they are computed (chunk i is ``arange(chunk) / chunk + i / 1000``: no data crosses
from the client), then --rounds rounds of ``y = sin(y + x) * 0.5 + 1`` (arithmetic-bound: weft
fuses the rounds and the reduction into one kernel per chunk) and the sum of every element. The
work per task grows with --chunk and --rounds while Dask's per-task and per-graph overhead does
not, so big chunks and many rounds measure the devices, not the scheduler.
Measured three ways:

- weft in one process on each device: the same chunks, one after another, no Dask;
- dask.array with weft chunks (``map_blocks`` making each chunk on its worker) on
  weft.dask.local_cluster(devices): one worker process per device;
- dask.array with NumPy chunks on the same cluster (of --numpy-chunk elements: NumPy's CPU
  rounds on a GPU-sized chunk would take minutes; the throughput, in element-rounds per second,
  is comparable).

The sizes fit the case in --budget-s seconds (default 60, the cluster's start-up included):
unless --chunk is given, each device runs one chunk first (after an untimed run that compiles
its kernel) and the chunk is the power of two whose runs, every way and every repeat, fit what
is left (at most 2^27); the NumPy chunk is sized so that the cluster's NumPy runs take about as
long as its weft runs. The sizing only picks the sizes: every timed run does its chunks. Each
worker computes a chunk of the timed size (client.run) before any timing, so that its kernels
are compiled; no timed run starts past the budget once one has been (an info line says so).
Every record is printed, flushed, as soon as it is measured.

The line "... reach P% of N x one-process" compares the cluster's weft throughput with the sum
of the one-process throughputs of its workers' devices (the issue asks for 80% when each worker
has a device of its own; workers that share a device, or CPU devices that share cores, cannot
reach it).

``from-numpy`` (the first workload): ``(sin(x)*2+1).sum(0)`` and ``(x*2+1).sum(0)`` over a
float32 matrix of about --n elements made by NumPy on the client, in chunks of a quarter of its
rows persisted on the workers first; here each run moves little work per task, so Dask's
overhead dominates on fast devices.

``multi`` (no Dask: weft.multi in one process): a float32 vector of --n elements split over the
devices, MultiArray.get() (every part read at once) beside the parts read one after another and
one device reading the whole; and ``(sin(x)*2+1).sum()`` split beside one device.

Every result is checked against NumPy's in float64. Prints the harness's lines:
  record<TAB>method<TAB>device<TAB>n<TAB>dtype<TAB>median_s<TAB>min_s<TAB>bytes
"info<TAB>text" for what a reader should know, "skip<TAB>reason" when Dask is missing; --json
also writes the records and the ratios to FILE.
"""
import argparse
import json
import math
import os
import statistics
import sys
import time
import warnings

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

from wall_timing import timed, timed_runs  # noqa: E402

RECORDS = []
RATIOS = []


def emit(method, device, n, med, mn, nbytes):
    RECORDS.append({"method": method, "device": device, "n": n, "dtype": "float32", "median_s": med, "min_s": mn,
                    "bytes": nbytes})
    print(f"record\t{method}\t{device}\t{n}\tfloat32\t{med:.9g}\t{mn:.9g}\t{nbytes}", flush=True)


def info(text):
    print(f"info\t{text}", flush=True)


def count(text):
    """1000, 1e6 or 2^20, as `weft bench` takes counts."""
    if "^" in text:
        base, exp = text.split("^")
        return int(base) ** int(exp)
    return int(float(text))


# ---- the chain case: chunks made on the workers ------------------------------------------------

def chain_chunk(xp, i, chunk, rounds, device=None):
    """Chunk i of the chain case, its rounds applied (lazy on weft: one fused kernel with the sum).
    y = sin(y + x) * 0.5 + 1 contracts (to a fixed point that depends on x), so y stays in
    [0.5, 1.5] and float32 follows float64 closely, however many rounds."""
    if xp is np:
        x = np.arange(chunk, dtype=np.float32) * np.float32(1 / chunk) + np.float32(i / 1000)
    else:
        x = xp.arange(chunk, dtype=np.float32, device=device) * np.float32(1 / chunk) + np.float32(i / 1000)
    y = x
    for _ in range(rounds):
        y = xp.sin(y + x) * np.float32(0.5) + np.float32(1)
    return y


SAMPLE = 1 << 14
TOP_CHUNK = 1 << 27  # the sizing's largest chunk (512 MiB of float32)
MAX_ROUNDS = 128  # and most rounds
MAX_TASKS = 64  # and most chunks per worker


def chain_want(tasks, chunk, rounds):
    """The chain case's sum in float64 NumPy. Chunks of more than SAMPLE elements are estimated
    from every s-th element (their mean times the chunk's length: the elements vary smoothly
    along the chunk, so the estimate is within s / chunk of the sum, far inside the check's 1e-3)."""
    total = 0.0
    step = max(1, chunk // SAMPLE)
    for i in range(tasks):
        x = np.arange(0, chunk, step, dtype=np.float64) / chunk + i / 1000
        y = x
        for _ in range(rounds):
            y = np.sin(y + x) * 0.5 + 1
        total += float(y.mean()) * chunk
    return total


def _block(block_info=None, xp_name="weft", chunk=0, rounds=0):
    """map_blocks' function: the chunk at this block's location, made on this worker."""
    i = block_info[None]["chunk-location"][0]
    if xp_name == "numpy":
        return chain_chunk(np, i, chunk, rounds)
    import weft
    return chain_chunk(weft, i, chunk, rounds)


def dask_chain(da, xp_name, tasks, chunk, rounds, meta):
    """The chain case as one dask.array: T blocks made by map_blocks, the sum of every element."""
    d = da.map_blocks(_block, dtype=np.float32, chunks=((chunk,) * tasks,), meta=meta, xp_name=xp_name,
                      chunk=chunk, rounds=rounds)
    return d.sum()


def _warm(chunk=0, rounds=0):
    """Run on every worker before the timing (client.run): one chunk at the timed size, so that
    the worker's kernels are compiled and its device's memory pool holds what a task needs."""
    import weft
    return float(chain_chunk(weft, 0, chunk, rounds).sum())


def pow2_floor(v, lo, hi):
    """The largest power of two <= v, clamped to [lo, hi] (both powers of two)."""
    v = max(lo, min(hi, int(v)))
    return 1 << (v.bit_length() - 1)


def chain_speed(run, rounds, start, top, at_least=0.05):
    """element-rounds per second of run(chunk) (one chunk of the chain case), after one untimed
    run that compiles what it needs: the chunk grows from start until a run takes at_least
    seconds (so that launch costs do not count) or reaches top. Returns the speed and the
    seconds of the first run."""
    chunk = start
    t0 = time.perf_counter()
    run(chunk)
    first = time.perf_counter() - t0
    while True:
        t0 = time.perf_counter()
        run(chunk)
        dt = time.perf_counter() - t0
        if dt >= at_least or chunk >= top:
            return chunk * rounds / dt, first
        chunk = min(top, pow2_floor(chunk * max(2.0, 2 * at_least / max(dt, 1e-6)), start, top))


def size_chain(args, devices, weft, began):
    """Sets args.chunk and args.numpy_chunk where not given, from each device's measured speed,
    so that the case's runs fit in what is left of args.budget_s (cluster start-up included).
    Every run after the sizing does the chunks it was given: the sizing only picks the sizes."""
    rounds, tasks = args.rounds, args.tasks_per_worker * len(devices)
    speed = {}
    compile_s = 0.0
    for sel in dict.fromkeys(devices):
        gpu = weft.Device(sel).type == "gpu"
        speed[sel], first = chain_speed(lambda c, sel=sel: float(chain_chunk(weft, 0, c, rounds, device=sel).sum()),
                                        rounds, 1 << 16 if gpu else 1 << 12, TOP_CHUNK)
        info(f"dask chain: sizing: weft on {sel}: {speed[sel] / 1e9:.3g} G element-rounds/s on one chunk (the "
             f"first run, which compiles {rounds} rounds, took {first:.2f} s)")
        compile_s = max(compile_s, first)
    np_speed, _ = chain_speed(lambda c: float(chain_chunk(np, 0, c, rounds).sum()), rounds, 1 << 10, 1 << 22)
    info(f"dask chain: sizing: NumPy in this process: {np_speed / 1e9:.3g} G element-rounds/s on one chunk")
    runs = 2 + args.repeat  # the checked run, one untimed, the timed ones
    # seconds one element-round costs over every run of the three ways: each device alone, the
    # cluster with weft chunks (the devices side by side), the cluster with NumPy chunks (sized
    # to take as long as the weft one: its chunk is scaled by NumPy's speed over the devices')
    per = runs * (sum(1 / speed[s] for s in dict.fromkeys(devices)) + 2 / sum(speed[s] for s in devices))
    left = args.budget_s - (time.perf_counter() - began) - (4.0 + 3.0 * len(devices))  # (the cluster's start)
    left = max(left, 0.1 * args.budget_s)
    if not args.chunk:
        want = left / per / (tasks * rounds)
        args.chunk = pow2_floor(want, 1 << 10, TOP_CHUNK)
        # Fast devices fill their time with more rounds (then more chunks) rather than chunks
        # past TOP_CHUNK: a task's work grows while Dask's cost per task and per graph does not.
        more = want / args.chunk
        # (while compiling the longer kernel, about first run x the factor, stays cheap)
        more_rounds = min(more, max(1.0, 0.02 * args.budget_s / max(compile_s, 1e-3)))
        if more_rounds >= 2 and not args.rounds_given:
            base = rounds
            args.rounds = rounds = pow2_floor(rounds * more_rounds, rounds, MAX_ROUNDS)
            more *= base / rounds
        if more >= 2 and not args.tasks_given:
            args.tasks_per_worker = pow2_floor(args.tasks_per_worker * more, args.tasks_per_worker, MAX_TASKS)
    if not args.numpy_chunk:
        want = args.chunk * np_speed * len(devices) / sum(speed[s] for s in devices)
        args.numpy_chunk = pow2_floor(want, 1 << 8, args.chunk)
    info(f"dask chain: sized for --budget-s {args.budget_s:g}: {args.tasks_per_worker * len(devices)} chunks of "
         f"{args.chunk} (NumPy: of "
         f"{args.numpy_chunk}), {rounds} rounds")


def run_chain(args, devices, da, distributed, weft):
    began = time.perf_counter()
    if not args.chunk or not args.numpy_chunk:
        size_chain(args, devices, weft, began)
    deadline = began + args.budget_s
    chunk, rounds = args.chunk, args.rounds
    tasks = args.tasks_per_worker * len(devices)
    np_chunk = args.numpy_chunk
    work = tasks * chunk * rounds  # element-rounds per run
    np_work = tasks * np_chunk * rounds
    what = f"chain ({rounds} rounds, {tasks} chunks of {chunk})"
    want = chain_want(tasks, chunk, rounds)
    np_want = chain_want(tasks, np_chunk, rounds)

    def check(got, want, who):
        got = float(np.asarray(got))
        if not math.isclose(got, want, rel_tol=1e-3):
            raise SystemExit(f"dask_peer: {who} summed {got}, NumPy says {want}")

    def runs(fn, share):
        """The timed runs of fn, leaving share of the time to the deadline to what follows."""
        now = time.perf_counter()
        times = timed_runs(fn, args.repeat, warmup=1, deadline=now + (deadline - now) * share)
        if len(times) < args.repeat:
            info(f"dask chain: {len(times)} timed run(s) of {args.repeat}: --budget-s {args.budget_s:g} reached")
        return statistics.median(times), min(times)

    one = {}
    distinct = list(dict.fromkeys(devices))  # each device once, in order
    for k, sel in enumerate(distinct):
        def run_one(sel=sel):
            # every chunk queued on the device, their partial sums added at the end (one readback)
            parts = [chain_chunk(weft, i, chunk, rounds, device=sel).sum() for i in range(tasks)]
            return float(weft.stack(parts).sum())
        check(run_one(), want, f"weft on {sel}")
        med, mn = runs(run_one, 1 / (len(distinct) - k + 3))
        one[sel] = work / med
        emit(f"{what}: weft, one process", sel, tasks * chunk, med, mn, tasks * chunk * 4)
        info(f"dask chain: weft in one process on {sel}: {work / med / 1e9:.3g} G element-rounds/s")

    label = "+".join(devices)
    t0 = time.perf_counter()
    with weft.dask.local_cluster(devices, dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        client.wait_for_workers(len(devices))
        # every worker compiles its kernels and fills its memory pool before any timing
        client.run(_warm, chunk=chunk, rounds=rounds)
        info(f"dask chain: a LocalCluster of {len(devices)} worker(s) started and warmed up in "
             f"{time.perf_counter() - t0:.1f} s")
        dw = dask_chain(da, "weft", tasks, chunk, rounds, weft.dask.meta(1, np.float32))
        dn = dask_chain(da, "numpy", tasks, np_chunk, rounds, np.empty((0,), np.float32))
        check(weft.dask.to_numpy(dw), want, "dask with weft chunks")
        med_w, mn_w = runs(lambda: weft.dask.to_numpy(dw), 1 / 3)
        emit(f"{what}: dask, weft chunks, {len(devices)} workers ({100 * work / med_w / sum(one[s] for s in devices):.0f}%"
             f" of {len(devices)} x one-process)", label, tasks * chunk, med_w, mn_w, tasks * chunk * 4)
        check(weft.dask.to_numpy(dn), np_want, "dask with NumPy chunks")
        med_n, mn_n = runs(lambda: weft.dask.to_numpy(dn), 1)
        emit(f"{what}: dask, NumPy chunks of {np_chunk}, {len(devices)} workers", label, tasks * np_chunk, med_n, mn_n,
             tasks * np_chunk * 4)
    ideal = sum(one[s] for s in devices)  # each worker's device, side by side
    ratio = work / med_w / ideal
    np_speed = np_work / med_n
    cpus = all(weft.Device(s).type == "cpu" for s in devices)
    shared = len(set(devices)) < len(devices) or (len(devices) > 1 and cpus)
    info(f"dask chain: weft chunks on {len(devices)} workers: {work / med_w / 1e9:.3g} G element-rounds/s = "
         f"{100 * ratio:.0f}% of the workers' devices' one-process throughput summed ({ideal / 1e9:.3g} G/s; the "
         f"issue's target: 80%)"
         f"{' [these workers share CPU cores or a device: not the target setting]' if shared else ''}"
         f"; {work / med_w / np_speed:.2f}x the NumPy chunks' {np_speed / 1e9:.3g} G element-rounds/s "
         f"(the case took {time.perf_counter() - began:.0f} s)")
    RATIOS.append({"case": "chain", "devices": devices, "chunk": chunk, "rounds": rounds, "tasks": tasks,
                   "numpy_chunk": np_chunk, "one_process_element_rounds_per_s": {s: one[s] for s in one},
                   "dask_weft_element_rounds_per_s": work / med_w, "dask_numpy_element_rounds_per_s": np_speed,
                   "ratio_to_n_x_one_process": ratio, "vs_numpy_chunks": work / med_w / np_speed,
                   "workers_share_hardware": shared})


# ---- the from-numpy case: the first workload ----------------------------------------------------

def run_from_numpy(args, devices, da, distributed, weft):
    # (from_numpy keeps the matrix in the graph, as dask.array.from_array does; it is sent once,
    # by the untimed persist)
    warnings.filterwarnings("ignore", message="Sending large graph")
    side = max(4, math.isqrt(args.n))
    n = side * side
    x = np.random.default_rng(31).random((side, side), dtype=np.float32)
    nbytes = x.nbytes
    chunks = (max(1, side // 4), side)
    # name: (the expression on an array module's arrays, what NumPy in float64 says)
    workloads = {
        "(sin(x)*2+1).sum(0)": (lambda m, a: (m.sin(a) * 2 + 1).sum(axis=0),
                                (np.sin(x.astype(np.float64)) * 2 + 1).sum(axis=0)),
        "(x*2+1).sum(0)": (lambda m, a: (a * 2 + 1).sum(axis=0), (x.astype(np.float64) * 2 + 1).sum(axis=0)),
    }

    def check(got, want, what):
        np.testing.assert_allclose(np.asarray(got, dtype=np.float64), want, rtol=1e-3, atol=1e-2 * math.sqrt(side),
                                   err_msg=what)

    one = {}
    for sel in dict.fromkeys(devices):
        a = weft.asarray(x, device=sel)
        for name, (f, want) in workloads.items():
            check(f(weft, a).get(), want, f"weft on {sel}")
            med, mn = timed(lambda: f(weft, a).get(), args.repeat)
            one[name, sel] = med
            emit(f"{name}: weft, one process", sel, n, med, mn, nbytes)

    label = "+".join(devices)
    cluster_med = {}
    with weft.dask.local_cluster(devices, dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        dw = client.persist(weft.dask.from_numpy(x, chunks=chunks))
        dn = client.persist(da.from_array(x, chunks=chunks))
        distributed.wait([dw, dn])
        for name, (f, want) in workloads.items():
            for chunk_kind, d in [("weft", dw), ("NumPy", dn)]:
                check(weft.dask.to_numpy(f(da, d)), want, f"{name} on {chunk_kind} chunks")
                med, mn = timed(lambda: weft.dask.to_numpy(f(da, d)), args.repeat)
                cluster_med[name, chunk_kind] = med
                emit(f"{name}: dask, {chunk_kind} chunks, {len(devices)} workers", label, n, med, mn, nbytes)
    for name in workloads:
        ideal = sum(1 / one[name, s] for s in devices)  # runs per second of the devices side by side
        ratio = 1 / cluster_med[name, "weft"] / ideal
        vs_numpy = cluster_med[name, "NumPy"] / cluster_med[name, "weft"]
        info(f"dask {name}: weft chunks on {len(devices)} workers reach {100 * ratio:.0f}% of the devices' "
             f"one-process throughput summed, and run {vs_numpy:.2f}x as fast as NumPy chunks on the same cluster")
        RATIOS.append({"case": f"from-numpy {name}", "devices": devices, "n": n, "ratio_to_n_x_one_process": ratio,
                       "vs_numpy_chunks": vs_numpy})


# ---- the multi case: weft.multi in one process, no Dask ----------------------------------------

def run_multi(args, devices, weft):
    """weft.multi over the devices in this process: MultiArray.get() (every part read at once)
    beside the parts read one after another and one device's get() of the whole; and an
    elementwise chain + sum on the split array beside the same on one device."""
    import weft.multi as wm
    n = args.n
    x = np.random.default_rng(31).random(n, dtype=np.float32)
    nbytes = x.nbytes
    label = "+".join(devices)
    one = weft.asarray(x, device=devices[0])
    m = wm.split(x, devices)
    np.testing.assert_array_equal(m.get(), x)
    med1, mn1 = timed(one.get, args.repeat)
    emit("multi: get(), the whole array from one device", devices[0], n, med1, mn1, nbytes)
    med_seq, mn_seq = timed(lambda: np.concatenate([p.get() for p in m.parts]), args.repeat)
    emit(f"multi: get() of the {len(devices)} parts one after another", label, n, med_seq, mn_seq, nbytes)
    from weft import _weft
    idle = []  # the result pool's idle bytes as each get() starts: a 1 GiB block found there is reused

    def get_all():
        idle.append(_weft._idle_result_memory())
        return m.get()
    times = timed_runs(get_all, args.repeat, warmup=2)
    med_m, mn_m = statistics.median(times), min(times)
    emit(f"multi: MultiArray.get(), {len(devices)} parts at once", label, n, med_m, mn_m, nbytes)
    info("multi: MultiArray.get() one by one: " + ", ".join(f"{1e3 * t:.1f} ms" for t in times) +
         " (the result pool idle as each began: " + ", ".join(f"{b >> 20} MiB" for b in idle[2:]) + ")")
    want = float((np.sin(x.astype(np.float64)) * 2 + 1).sum())
    for who, a in [(devices[0], one), (label, m)]:
        got = float((np.sin(a) * 2 + 1).sum())
        if not math.isclose(got, want, rel_tol=1e-3):
            raise SystemExit(f"dask_peer: multi (sin(x)*2+1).sum() on {who} gave {got}, NumPy says {want}")
    med_s1, mn_s1 = timed(lambda: float((np.sin(one) * 2 + 1).sum()), args.repeat)
    emit("multi: (sin(x)*2+1).sum(), one device", devices[0], n, med_s1, mn_s1, nbytes)
    med_sm, mn_sm = timed(lambda: float((np.sin(m) * 2 + 1).sum()), args.repeat)
    emit(f"multi: (sin(x)*2+1).sum(), split over {len(devices)} devices", label, n, med_sm, mn_sm, nbytes)
    info(f"multi: MultiArray.get() over {label} takes {med_m / med1:.2f}x one device's get() of the whole "
         f"({med1 / med_m:.2f}x its throughput; the parts one after another: {med1 / med_seq:.2f}x); the split "
         f"(sin(x)*2+1).sum() runs {med_s1 / med_sm:.2f}x as fast as on {devices[0]} alone")
    RATIOS.append({"case": "multi", "devices": devices, "n": n, "get_vs_one_device": med1 / med_m,
                   "sequential_get_vs_one_device": med1 / med_seq, "sum_vs_one_device": med_s1 / med_sm})


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--devices", default="", help="comma-separated selectors, a worker each (default: every device)")
    p.add_argument("--chunk", type=count, default=None,
                   help="chain: elements per chunk (default: sized from the devices' speed to fit --budget-s)")
    p.add_argument("--tasks-per-worker", type=count, default=None,
                   help="chain: chunks per worker (default 16; more, up to 64, when --chunk is sized and its top "
                        "of 2^27 leaves time)")
    p.add_argument("--rounds", type=count, default=None,
                   help="chain: sin rounds per element (default 16, GPUs 32; more, up to 128, when --chunk is sized "
                        "and its top of 2^27 leaves time)")
    p.add_argument("--numpy-chunk", type=count, default=None,
                   help="chain: elements per NumPy chunk (default: sized so that the NumPy runs take about as long "
                        "as the weft ones on the cluster, at most --chunk)")
    p.add_argument("--budget-s", type=float, default=60.0,
                   help="chain: seconds the case should take, cluster start-up included (default 60): sizes the "
                        "chunks left unset, and no timed run starts past it once one has been timed")
    p.add_argument("--n", type=count, default=1 << 24, help="from-numpy and multi: elements (default 2^24)")
    p.add_argument("--repeat", type=count, default=5, help="timed runs (default 5)")
    p.add_argument("--cases", default="chain,from-numpy,multi",
                   help="some of chain, from-numpy, multi, comma-separated (default: all three)")
    p.add_argument("--json", default="", help="also write the records and ratios to this file")
    args = p.parse_args(argv[1:])
    try:
        import dask.array as da
        import distributed
        import weft
        import weft.dask
    except ImportError as e:
        print(f"skip\tdask: {e}", flush=True)
        return 0
    devices = [s for s in args.devices.split(",") if s] or [d.selector for d in weft.devices()]
    gpus = all(weft.Device(s).type == "gpu" for s in devices)
    args.rounds_given, args.tasks_given = args.rounds is not None, args.tasks_per_worker is not None
    args.rounds = args.rounds or (32 if gpus else 16)
    args.tasks_per_worker = args.tasks_per_worker or 16
    if args.budget_s <= 0:
        p.error(f"--budget-s: {args.budget_s:g}; it accepts a number of seconds above 0")
    cases = [c for c in args.cases.split(",") if c]
    for c in cases:
        if c not in ("chain", "from-numpy", "multi"):
            p.error(f"--cases: no case '{c}'; it accepts chain, from-numpy and multi, comma-separated")
    info(f"dask: {', '.join(cases)} on {','.join(devices)} (the Dask cases: a LocalCluster of {len(devices)} worker "
         "process(es), one per entry)")
    if "chain" in cases:
        run_chain(args, devices, da, distributed, weft)
    if "from-numpy" in cases:
        run_from_numpy(args, devices, da, distributed, weft)
    if "multi" in cases:
        run_multi(args, devices, weft)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"records": RECORDS, "ratios": RATIOS}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
