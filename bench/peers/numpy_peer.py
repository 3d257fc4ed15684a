#!/usr/bin/env python3
"""NumPy as a peer of `weft bench`, measured in the same run.

Usage: numpy_peer.py SUITE N REPEAT
Prints one line per measurement:
  record<TAB>method<TAB>device<TAB>n<TAB>dtype<TAB>median_s<TAB>min_s<TAB>bytes
or "skip<TAB>reason" when NumPy is missing.
"""
import sys

from wall_timing import timed


def emit(method, n, dtype, med, mn, nbytes):
    print(f"record\t{method}\tnumpy\t{n}\t{dtype}\t{med:.9g}\t{mn:.9g}\t{nbytes:.9g}", flush=True)


def main():
    suite, n, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        import numpy as np
    except ImportError:
        print("skip\tnumpy is not installed")
        return 0
    rng = np.random.default_rng(42)
    if suite == "vadd":
        a = rng.uniform(-1, 1, n).astype(np.float32)
        b = rng.uniform(-1, 1, n).astype(np.float32)
        c = np.empty_like(a)
        med, mn = timed(lambda: np.add(a, b, out=c), repeat)
        emit("numpy np.add(a, b, out=c)", n, "float32", med, mn, 12.0 * n)
    elif suite == "elementwise":
        a, b, c = (rng.uniform(-1, 1, n).astype(np.float32) for _ in range(3))
        d = np.empty_like(a)

        def fma_out():
            np.multiply(a, b, out=d)
            np.add(d, c, out=d)

        med, mn = timed(fma_out, repeat)
        emit("numpy multiply+add with out=", n, "float32", med, mn, 16.0 * n)
    elif suite == "array-expr":
        a, b, c = (rng.uniform(-1, 1, n).astype(np.float32) for _ in range(3))
        med, mn = timed(lambda: a * b + c, repeat)
        emit("numpy a*b + c (temporaries)", n, "float32", med, mn, 16.0 * n)
        s = np.ones(16, dtype=np.float32)
        med, mn = timed(lambda: [s * 2 + s for _ in range(100)], repeat)
        emit("numpy s*2 + s, 16 elements (time per op)", 16, "float32", med / 100, mn / 100, 0)
    elif suite == "reduce":
        x = rng.uniform(-1, 1, n).astype(np.float32)
        med, mn = timed(lambda: x.sum(), repeat)
        emit("numpy sum", n, "float32", med, mn, 4.0 * n)
    elif suite == "scan":
        x = rng.uniform(-1, 1, n).astype(np.float32)
        out = np.empty_like(x)
        med, mn = timed(lambda: np.cumsum(x, out=out), repeat)
        emit("numpy cumsum", n, "float32", med, mn, 8.0 * n)
    elif suite == "fma":
        a, b, c = (rng.uniform(-1, 1, n).astype(np.float32) for _ in range(3))
        d = np.empty_like(a)

        def fma():
            np.multiply(a, b, out=d)
            np.add(d, c, out=d)

        med, mn = timed(fma, repeat)
        emit("numpy multiply+add with out=", n, "float32", med, mn, 16.0 * n)
        med, mn = timed(lambda: a * b + c, repeat)
        emit("numpy a*b+c (temporaries)", n, "float32", med, mn, 16.0 * n)
    elif suite == "histogram":
        x = rng.uniform(0, 1, n).astype(np.float32)
        med, mn = timed(lambda: np.histogram(x, 256, range=(0, 1)), repeat)
        emit("numpy np.histogram(a, 256, range=(0, 1))", n, "float32", med, mn, 4.0 * n)
        med, mn = timed(lambda: np.histogram(x, 256), repeat)
        emit("numpy np.histogram(a, 256)", n, "float32", med, mn, 4.0 * n)
        labels = rng.integers(0, 1 << 16, n).astype(np.int32)
        med, mn = timed(lambda: np.bincount(labels), repeat)
        emit("numpy np.bincount(x), 2^16 bins", n, "int32", med, mn, 4.0 * n)
    elif suite == "unique":
        x = rng.integers(0, 1 << 20, n).astype(np.int32)
        f = (rng.integers(0, 1 << 16, n) * 0.25).astype(np.float32)
        med, mn = timed(lambda: np.unique(x), repeat)
        emit("numpy np.unique(x), 2^20 distinct", n, "int32", med, mn, 4.0 * n)
        med, mn = timed(lambda: np.unique(x, return_counts=True), repeat)
        emit("numpy np.unique(x, return_counts=True), 2^20 distinct", n, "int32", med, mn, 4.0 * n)
        med, mn = timed(lambda: np.unique(f), repeat)
        emit("numpy np.unique(f), 2^16 distinct", n, "float32", med, mn, 4.0 * n)
    elif suite == "random":
        out = np.empty(n, dtype=np.float32)
        for name, gen in (("PCG64", np.random.default_rng(42)), ("Philox", np.random.Generator(np.random.Philox(42)))):
            med, mn = timed(lambda: gen.random(dtype=np.float32, out=out), repeat)
            emit(f"numpy Generator({name}).random float32, out=", n, "float32", med, mn, 4.0 * n)
            med, mn = timed(lambda: gen.standard_normal(dtype=np.float32, out=out), repeat)
            emit(f"numpy Generator({name}).standard_normal float32, out=", n, "float32", med, mn, 4.0 * n)
    elif suite == "sort":
        f = rng.uniform(-1, 1, n).astype(np.float32)
        u = rng.integers(0, 2**32, n, dtype=np.uint32)
        for x, dtype in ((f, "float32"), (u, "uint32")):
            med, mn = timed(lambda: np.sort(x), repeat)
            emit("numpy np.sort(a)", n, dtype, med, mn, 8.0 * n)
            med, mn = timed(lambda: np.sort(x, kind="stable"), repeat)
            emit("numpy np.sort(a, kind='stable')", n, dtype, med, mn, 8.0 * n)
        med, mn = timed(lambda: np.argsort(f, kind="stable"), repeat)
        emit("numpy np.argsort(a, kind='stable')", n, "float32", med, mn, 12.0 * n)
        w = rng.integers(0, 2**63, n, dtype=np.int64)
        med, mn = timed(lambda: np.sort(w), repeat)
        emit("numpy np.sort(a)", n, "int64", med, mn, 16.0 * n)
        rows = f.reshape(-1, 16)
        med, mn = timed(lambda: np.sort(rows, axis=-1), repeat)
        emit("numpy np.sort(a, axis=-1), rows of 16", n, "float32", med, mn, 8.0 * n)
    elif suite == "partition":
        f = rng.uniform(-1, 1, n).astype(np.float32)
        u = rng.integers(0, 2**32, n, dtype=np.uint32)
        for x, dtype in ((f, "float32"), (u, "uint32")):
            med, mn = timed(lambda: np.partition(x, n // 2), repeat)
            emit("numpy np.partition(a, n // 2)", n, dtype, med, mn, 8.0 * n)
            med, mn = timed(lambda: np.argpartition(x, n // 2), repeat)
            emit("numpy np.argpartition(a, n // 2)", n, dtype, med, mn, 12.0 * n)
            med, mn = timed(lambda: np.sort(x), repeat)
            emit("numpy np.sort(a) (same run)", n, dtype, med, mn, 8.0 * n)
    elif suite == "matmul":
        a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
        b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
        med, mn = timed(lambda: a @ b, repeat)
        emit("numpy a @ b (its OpenBLAS)", n, "float32", med, mn, 12.0 * n * n)
    elif suite == "fft":
        side = int(round(n ** 0.5))
        x = (rng.uniform(-1, 1, (side, side)) + 1j * rng.uniform(-1, 1, (side, side))).astype(np.complex64)
        r = rng.uniform(-1, 1, (side, side)).astype(np.float32)
        nn = side * side
        med, mn = timed(lambda: np.fft.fft(x, axis=-1), repeat)
        emit("numpy np.fft.fft rows (c2c, last axis)", nn, "complex64", med, mn, 16.0 * nn)
        med, mn = timed(lambda: np.fft.fftn(x), repeat)
        emit("numpy np.fft.fftn (c2c, 2-D)", nn, "complex64", med, mn, 16.0 * nn)
        med, mn = timed(lambda: np.fft.rfft(r, axis=-1), repeat)
        emit("numpy np.fft.rfft rows (r2c, last axis)", nn, "float32", med, mn, 8.0 * nn)
    else:
        print(f"skip\tno NumPy peer for suite {suite}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
