#!/usr/bin/env python3
"""Python kernel against OpenCL C on one device, A/B (issue 28): is a gap in `weft bench pykernels`
the generated code or the launch path? Times, in turn and round after round (each round starting
one further along), on a SIZE x SIZE image with 24 vertices:

- gen: the dialect source weft generates for the bench's polygon_pixels (weft.show_source's),
  built with weft.Program and launched like the OpenCL C kernel (the code, without the Python
  layer);
- C: the bench's hand-written OpenCL C kernel;
- jit: the @weft.jit call from Python (the code and the launch plan);

each call followed by queue.finish(), every mask checked against weft.polygon_mask's. Prints each
one's wall-clock median and minimum, its median CPU time (the process's, all threads: the host
backend's and PoCL's workers) and, against C, the ratio of medians and the median of the rounds'
own ratios. A benchmark for the shared 2-core VM, not a test.

Usage: pykernels_ab.py [ROUNDS] [DEVICE] [SIZE]     (default 25 opencl:0:0 1024)
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import weft  # noqa: E402
import pykernels_bench as b  # noqa: E402
from weft._pyk_types import WEAK_BOOL, ArrayT  # noqa: E402


def main(argv):
    rounds = int(argv[1]) if len(argv) > 1 else 25
    dev = weft.Device(argv[2] if len(argv) > 2 else "opencl:0:0")
    size = int(argv[3]) if len(argv) > 3 else 1024
    vertices = weft.random_polygon(24, 1, size, size)
    reference = weft.polygon_mask(vertices, size, size, device=weft.Device("host"))
    types = (ArrayT("float64", 2, False, 2), ArrayT("uint8", 2), WEAK_BOOL)
    compiled = b.polygon_pixels._compiler.compiled(types)
    v = weft.asarray(vertices, device=dev)
    q = weft.array_queue(dev)
    masks = {name: weft.zeros((size, size), np.uint8, device=dev) for name in ("gen", "C", "jit")}
    gen = getattr(weft.Program(dev, compiled.source).build(), compiled.name)
    hand = weft.Program(dev, b.OPENCL_C).build().inside_polygon

    def run_gen():  # (vertices: its 2 columns are a constant of the code; prange's starts 0, steps 1)
        gen(q, (size, size), None, v, len(vertices), 2, masks["gen"], size, size, 1, 0, 1, 0, 1)
        q.finish()

    def run_c():
        hand(q, (size, size), None, v, np.int64(len(vertices)), masks["C"], np.int64(size), np.uint8(1))
        q.finish()

    def run_jit():
        b.polygon_pixels(v, masks["jit"], True)
        q.finish()

    names = ["gen", "C", "jit"]
    cpu, walls = [[], [], []], []
    res = b.timed_in_turn([run_gen, run_c, run_jit], rounds, cpu=cpu, walls=walls)
    for name in names:
        b.check(masks[name].get(), reference, name)
    c_med, c_cpu = res[1][0], statistics.median(cpu[1])
    print(f"# {dev.selector}, {size}x{size}, 24 vertices, {rounds} rounds, load average "
          f"{os.getloadavg()[0]:.2f}")
    for k, name in enumerate(names):
        med, mn = res[k]
        own = statistics.median(w / c for w, c in zip(walls[k], walls[1]))
        print(f"{name:4s} wall median {med * 1e3:7.2f} ms min {mn * 1e3:7.2f} ms  /C {med / c_med:.3f} "
              f"(rounds' own ratios {own:.3f})  CPU {statistics.median(cpu[k]) * 1e3:7.2f} ms  "
              f"/C {statistics.median(cpu[k]) / c_cpu:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
