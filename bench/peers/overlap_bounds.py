"""Bounds for weft bench overlap's pipeline (issue 30): where stream_map's 1 GiB upload,
y = 2x + 1 and download go on a GPU machine. Prints the host memory system's copy rate (NumPy
copyto over 1-16 threads, 1 GiB: more than the last-level cache), the serial loop and
stream_map with pageable chunks (as the bench), and stream_map with its chunks and out= in
pinned memory (weft's result blocks: no staging memcpy), the floor the copy engines set.

    python3 bench/peers/overlap_bounds.py [SELECTOR] [REPEAT]
"""
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
import numpy as np
import weft
from weft import _weft

sel = sys.argv[1] if len(sys.argv) > 1 else "cuda:0"
R = int(sys.argv[2]) if len(sys.argv) > 2 else 7
dev = weft.Device(sel)
N = 1 << 28  # float32: 1 GiB
GIB = N * 4

def timeit(fn, r=R, w=2):
    for _ in range(w):
        fn()
    t = []
    for _ in range(r):
        t0 = time.perf_counter(); fn(); t.append(time.perf_counter() - t0)
    return statistics.median(t), min(t)

def show(what, m, nbytes):
    print(f"{what}: median {m[0]*1e3:.2f} ms, min {m[1]*1e3:.2f} ms, {nbytes/m[0]/1e9:.1f} GB/s of data", flush=True)

a = np.ones(N, np.float32); a[::4097] = 3
b = np.empty(N, np.float32); b[:] = 0
for T in (1, 4, 8, 12, 16):
    parts = np.array_split(np.arange(N), T)
    bounds = [(p[0], p[-1] + 1) for p in parts]
    ex = ThreadPoolExecutor(T)
    def copy():
        list(ex.map(lambda r: np.copyto(b[r[0]:r[1]], a[r[0]:r[1]]), bounds))
    show(f"host copy 1 GiB pageable -> pageable, {T} threads (numpy copyto)", timeit(copy), GIB)
    ex.shutdown()

chunks = np.array_split(a, 16)
out = np.empty_like(a); out[:] = 0
pa = _weft._result_block(dev, GIB).view(np.float32); pa[:] = a
pout = _weft._result_block(dev, GIB).view(np.float32); pout[:] = 0
pchunks = np.array_split(pa, 16)
f = lambda x: x * 2 + 1
def serial():
    o = 0
    for c in chunks:
        (weft.asarray(c, device=dev) * 2 + 1).get(ary=out[o:o + c.size]); o += c.size
show("serial loop pageable, into out=", timeit(serial), GIB)
show("stream_map pageable chunks, pageable out=", timeit(lambda: weft.stream_map(f, chunks, device=dev, out=out)), GIB)
assert np.array_equal(out, a * 2 + 1)
show("stream_map pinned chunks, pinned out=", timeit(lambda: weft.stream_map(f, pchunks, device=dev, out=pout)), GIB)
assert np.array_equal(pout, a * 2 + 1)
show("stream_map pageable chunks, pinned out=", timeit(lambda: weft.stream_map(f, chunks, device=dev, out=pout)), GIB)
show("stream_map pinned chunks, pageable out=", timeit(lambda: weft.stream_map(f, pchunks, device=dev, out=out)), GIB)
# Each direction alone, pageable, chunk by chunk as the pipeline makes them (the array queue).
xs = [weft.asarray(c, device=dev) for c in chunks]
def ups():
    for c, x in zip(chunks, xs):
        x.set(c)
def downs():
    o = 0
    for x in xs:
        x.get(ary=out[o:o + x.size]); o += x.size
show("uploads only (set), pageable", timeit(ups), GIB)
show("downloads only (get into out), pageable", timeit(downs), GIB)
