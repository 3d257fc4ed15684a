"""Where the time of weft bench dask's chain case goes, in one process on one device.

Usage: chain_probe.py [--device SEL] [--chunks 2^16,2^20,...] [--rounds 8,32,64] [--tasks T]
                      [--budget-s S]

For each chunk size and number of rounds, T chunks of dask_peer.py's chain case (the same
chain_chunk: float32 x from arange, then y = sin(y + x) * 0.5 + 1 per round, and the sum),
queued one after another and read back once at the end, as dask_peer.py's "weft, one process":

- ``queue``: milliseconds per chunk until every chunk is queued (the host's side: building the
  lazy expressions, their evaluation in bounded fused groups, the launches; on the host
  backend and PoCL, which share the CPU with the caller, the kernels' work as well);
- ``total``: milliseconds per chunk until the sum is read back;
- ``launches``: elementwise launches per chunk (weft.elementwise_launches: the fused groups);
- ``one kernel``: the same rounds written by hand as one ElementwiseKernel with a loop (x from
  i, no temporaries, then the same sum): what the device does when the chain costs one launch
  and no memory traffic, the ceiling the lazy chain can approach.

Each line gives element-rounds per second for both and their ratio. A ratio far below 1 with
``queue`` close to ``total`` says the host side is the bottleneck; with ``queue`` far below
``total``, the generated kernels are (their groups, temporaries or code).

  PYTHONPATH=build/python python3 bench/peers/chain_probe.py --device cuda:0 \\
      --chunks 2^20,2^24,2^27 --rounds 8,64 --budget-s 60

Records go to stdout as ``record<TAB>...`` lines (dask_peer.py's form) and a readable line each.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dask_peer import chain_chunk, count  # noqa: E402  (the same workload as weft bench dask)

import weft  # noqa: E402

ONE_KERNEL = """
float x = (float)i * s + t;
float v = x;
for (int r = 0; r < rounds; ++r) v = sin(v + x) * 0.5f + 1.0f;
y[i] = v;
"""


def lazy_run(dev, chunk, rounds, tasks):
    """Seconds until every chunk's sum is queued, then until it is read back; and the sum."""
    t0 = time.perf_counter()
    parts = [chain_chunk(weft, i, chunk, rounds, device=dev).sum() for i in range(tasks)]
    t1 = time.perf_counter()
    total = float(weft.stack(parts).sum())
    return t1 - t0, time.perf_counter() - t0, total


def kernel_run(knl, dev, chunk, rounds, tasks):
    """The same with the hand-written one-kernel chain."""
    t0 = time.perf_counter()
    parts = []
    for i in range(tasks):
        y = weft.empty((chunk,), dtype=np.float32, device=dev)
        knl(y, np.float32(1 / chunk), np.float32(i / 1000), np.int32(rounds))
        parts.append(y.sum())
    t1 = time.perf_counter()
    total = float(weft.stack(parts).sum())
    return t1 - t0, time.perf_counter() - t0, total


def timed(run, budget_s, repeat=5):
    """Medians of run()'s (queue, total) seconds over up to repeat runs within budget_s, after one
    untimed run; and the last sum."""
    run()
    queue, total, value = [], [], 0.0
    end = time.perf_counter() + budget_s
    for _ in range(repeat):
        q, t, value = run()
        queue.append(q)
        total.append(t)
        if time.perf_counter() > end:
            break
    return statistics.median(queue), statistics.median(total), value


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--device", default=None, help="the device (default: weft's default device)")
    p.add_argument("--chunks", default="2^16,2^20", help="elements per chunk, comma-separated (2^N allowed)")
    p.add_argument("--rounds", default="8,32,64", help="rounds per chunk, comma-separated")
    p.add_argument("--tasks", type=int, default=8, help="chunks per run (default 8)")
    p.add_argument("--budget-s", type=float, default=60.0,
                   help="seconds for the whole probe (default 60): split evenly between the cases")
    args = p.parse_args()
    dev = args.device or str(weft.default_device().selector)
    chunks = [count(c) for c in args.chunks.split(",")]
    rounds_list = [int(r) for r in args.rounds.split(",")]
    per_case = args.budget_s / (2 * len(chunks) * len(rounds_list))
    knl = weft.ElementwiseKernel("float *y, float s, float t, int rounds", ONE_KERNEL, "chain_one_kernel")
    print(f"info\tchain_probe on {dev}: {args.tasks} chunks a run, {per_case:.1f} s a case at most", flush=True)
    for rounds in rounds_list:
        for chunk in chunks:
            before = weft.elementwise_launches(dev)
            float(chain_chunk(weft, 0, chunk, rounds, device=dev).sum())
            launches = weft.elementwise_launches(dev) - before
            lq, lt, lv = timed(lambda: lazy_run(dev, chunk, rounds, args.tasks), per_case)
            kq, kt, kv = timed(lambda: kernel_run(knl, dev, chunk, rounds, args.tasks), per_case)
            work = chunk * rounds * args.tasks
            what = f"chain ({rounds} rounds, {args.tasks} chunks of {chunk})"
            print(f"record\t{what}: weft lazy, queued\t{dev}\t{chunk * args.tasks}\tfloat32\t{lq}\t{lq}\t0")
            print(f"record\t{what}: weft lazy\t{dev}\t{chunk * args.tasks}\tfloat32\t{lt}\t{lt}\t0")
            print(f"record\t{what}: one ElementwiseKernel\t{dev}\t{chunk * args.tasks}\tfloat32\t{kt}\t{kt}\t0")
            print(f"info\tchunk {chunk:>10} rounds {rounds:>3}: lazy: queue {lq / args.tasks * 1e3:9.3f} ms/chunk, "
                  f"total {lt / args.tasks * 1e3:9.3f} ms/chunk ({launches} launches a chunk, "
                  f"queueing {(lq / args.tasks) / rounds * 1e6:.2f} us a round), {work / lt / 1e9:8.3f} G "
                  f"element-rounds/s | one kernel: total {kt / args.tasks * 1e3:9.3f} ms/chunk, "
                  f"{work / kt / 1e9:8.3f} G element-rounds/s | lazy/one kernel {kt / lt:.2f} "
                  f"(sums {lv:.6g} and {kv:.6g})", flush=True)


if __name__ == "__main__":
    main()
