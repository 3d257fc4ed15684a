#!/usr/bin/env python3
"""weft's own Python binding, measured by `weft bench` beside its C++ figures and the peers.

Usage: weft_python.py SUITE N REPEAT
launch: host time per tiny kernel call from Python, `prg.tiny(queue, (1,), None, x)` back to
back then one finish (as the PyOpenCL and CuPy peers), with a weft.Buffer and with a
weft.Array argument; and the time from `import weft` to the first launch of a cached kernel
done, in a fresh interpreter. Prints the harness's record/skip/info lines.
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


def launch(weft, np, n, repeat):
    for dev in weft.devices():
        prg = weft.Program(dev, SRC).build()
        knl = prg.tiny
        for label, x, q in (("Buffer", weft.Buffer(dev, 64), weft.Queue(dev)),
                            ("Array", weft.zeros(16, np.float32, device=dev), weft.Queue(dev)),
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
        # import weft + the first launch of a cached kernel, in a fresh interpreter (median of 5).
        code = f"DEVICE = {dev.selector!r}\nSRC = {SRC!r}\n" + FIRST_LAUNCH
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)  # fills the cache
        times = []
        for _ in range(5):
            r = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
            times.append(float(r.stdout.strip().splitlines()[-1]))
        record("weft Python: import weft + first launch (cached kernel)", dev.selector, 1, times)


def main():
    suite, n, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        import numpy as np
        import weft
    except ImportError as e:
        print(f"skip\tthe weft Python package is not installed ({e}); pip install . first")
        return 0
    if suite != "launch":
        print(f"skip\tno weft Python figure for suite {suite}")
        return 0
    print(f"info\tweft Python {weft.__version__} from {os.path.dirname(weft.__file__)}", flush=True)
    launch(weft, np, n, repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
