#!/usr/bin/env python3
"""CuPy as a peer of `weft bench` on the GPU, measured in the same run.

Usage: cupy_peer.py SUITE N REPEAT
Prints "record<TAB>method<TAB>device<TAB>n<TAB>dtype<TAB>median_s<TAB>min_s<TAB>bytes" lines,
or "skip<TAB>reason". Device times come from CUDA events around each call.
"""
import os
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no BLAS here; its idle threads would take a core
import statistics
import sys
import time


def main():
    suite, n, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        import cupy as cp
    except ImportError as e:
        print(f"skip\tcupy is not installed ({e})")
        return 0
    try:
        cp.cuda.runtime.getDeviceCount()
    except Exception as e:  # noqa: BLE001 - any CUDA failure means no GPU here
        print(f"skip\tcupy finds no GPU ({e})")
        return 0

    def timed(fn, warmup=2, batch=1):
        # batch > 1: that many back-to-back calls between the events (weft's reduce and scan
        # suites time batches of 10 the same way).
        for _ in range(warmup):
            fn()
        cp.cuda.Device().synchronize()
        times = []
        start, end = cp.cuda.Event(), cp.cuda.Event()
        for _ in range(repeat):
            start.record()
            for _ in range(batch):
                fn()
            end.record()
            end.synchronize()
            times.append(cp.cuda.get_elapsed_time(start, end) * 1e-3 / batch)
        return statistics.median(times), min(times)

    def emit(method, nn, med, mn, nbytes):
        print(f"record\t{method}\tcuda:0 (cupy)\t{nn}\tfloat32\t{med:.9g}\t{mn:.9g}\t{nbytes:.9g}", flush=True)

    rng = cp.random.default_rng(42)
    if suite in ("fma", "vadd"):
        a, b, c = (rng.uniform(-1, 1, n, dtype=cp.float32) for _ in range(3))
        d = cp.empty_like(a)
        if suite == "vadd":
            med, mn = timed(lambda: cp.add(a, b, out=d))
            emit("cupy add(a, b, out=c)", n, med, mn, 12.0 * n)
        else:
            k = cp.ElementwiseKernel("float32 a, float32 b, float32 c", "float32 d", "d = a * b + c", "weft_fma")
            med, mn = timed(lambda: k(a, b, c, d))
            emit("cupy ElementwiseKernel a*b+c", n, med, mn, 16.0 * n)
            med, mn = timed(lambda: a * b + c)
            emit("cupy a*b+c (two array ops)", n, med, mn, 16.0 * n)
            med, mn = timed(lambda: d.__setitem__(slice(None), a))
            emit("cupy copy (d[:] = a)", n, med, mn, 8.0 * n)
    elif suite == "array-expr":
        a, b, c = (rng.uniform(-1, 1, n, dtype=cp.float32) for _ in range(3))
        d = cp.empty_like(a)
        med, mn = timed(lambda: a * b + c)
        emit("cupy a*b + c (array form)", n, med, mn, 16.0 * n)
        med, mn = timed(lambda: d.__setitem__(slice(None), a))
        emit("cupy copy (d[:] = a)", n, med, mn, 8.0 * n)
        s = cp.ones(16, dtype=cp.float32)
        times = []
        for _ in range(2 + repeat):
            t0 = time.perf_counter()
            for _ in range(100):
                s * 2 + s
            cp.cuda.Device().synchronize()
            times.append((time.perf_counter() - t0) / 100)
        times = times[2:]
        emit("cupy s*2 + s, 16 elements (time per op)", 16, statistics.median(times), min(times), 0)
    elif suite in ("elementwise", "reduce", "scan"):
        a, b, c = (rng.uniform(-1, 1, n, dtype=cp.float32) for _ in range(3))
        d = cp.empty_like(a)
        if suite == "elementwise":
            k = cp.ElementwiseKernel("float32 a, float32 b, float32 c", "float32 d", "d = a * b + c", "weft_fma")
            med, mn = timed(lambda: k(a, b, c, d))
            emit("cupy ElementwiseKernel a*b+c", n, med, mn, 16.0 * n)
        elif suite == "reduce":
            med, mn = timed(lambda: a.sum(), batch=10)
            emit("cupy sum", n, med, mn, 4.0 * n)
        else:
            med, mn = timed(lambda: cp.cumsum(a, out=d), batch=10)
            emit("cupy cumsum", n, med, mn, 8.0 * n)
        med, mn = timed(lambda: d.__setitem__(slice(None), a))
        emit("cupy copy (d[:] = a)", n, med, mn, 8.0 * n)
    elif suite == "launch":
        k = cp.RawKernel(r'extern "C" __global__ void tiny(float* x) { x[threadIdx.x] += 1.0f; }', "tiny")
        x = cp.zeros(16, dtype=cp.float32)
        times = []
        for r in range(2 + repeat):
            t0 = time.perf_counter()
            for _ in range(n):
                k((1,), (1,), (x,))
            cp.cuda.Device().synchronize()
            if r >= 2:
                times.append((time.perf_counter() - t0) / n)
        print(f"record\tCuPy RawKernel: launch, back to back\tcuda:0 (cupy)\t{n}\tfloat32\t"
              f"{statistics.median(times):.9g}\t{min(times):.9g}\t0", flush=True)
        torch_launch(n, repeat)
    elif suite == "random":
        out = cp.empty(n, dtype=cp.float32)
        med, mn = timed(lambda: rng.random(dtype=cp.float32, out=out))
        emit("cupy default_rng().random float32, out=", n, med, mn, 4.0 * n)
        med, mn = timed(lambda: rng.standard_normal(dtype=cp.float32, out=out))
        emit("cupy default_rng().standard_normal float32, out=", n, med, mn, 4.0 * n)
        # cuRAND's Philox4x32-10, weft's generator, through CuPy's legacy RandomState.
        philox = cp.random.RandomState(42, method=cp.cuda.curand.CURAND_RNG_PSEUDO_PHILOX4_32_10)
        med, mn = timed(lambda: philox.random_sample(n, dtype=cp.float32))
        emit("cupy RandomState(cuRAND Philox).random_sample float32", n, med, mn, 4.0 * n)
        med, mn = timed(lambda: philox.standard_normal(n, dtype=cp.float32))
        emit("cupy RandomState(cuRAND Philox).standard_normal float32", n, med, mn, 4.0 * n)
    elif suite == "matmul":
        a = rng.uniform(-1, 1, (n, n), dtype=cp.float32)
        b = rng.uniform(-1, 1, (n, n), dtype=cp.float32)
        med, mn = timed(lambda: a @ b)
        emit("cupy a @ b (cuBLAS)", n, med, mn, 12.0 * n * n)
    elif suite == "fft":
        side = int(round(n ** 0.5))
        x = (rng.uniform(-1, 1, (side, side), dtype=cp.float32)
             + 1j * rng.uniform(-1, 1, (side, side), dtype=cp.float32)).astype(cp.complex64)
        r = rng.uniform(-1, 1, (side, side), dtype=cp.float32)
        nn = side * side
        med, mn = timed(lambda: cp.fft.fft(x, axis=-1))
        emit("cupy cupy.fft.fft rows (c2c, last axis)", nn, med, mn, 16.0 * nn)
        med, mn = timed(lambda: cp.fft.fftn(x))
        emit("cupy cupy.fft.fftn (c2c, 2-D)", nn, med, mn, 16.0 * nn)
        med, mn = timed(lambda: cp.fft.rfft(r, axis=-1))
        emit("cupy cupy.fft.rfft rows (r2c, last axis)", nn, med, mn, 8.0 * nn)
    else:
        print(f"skip\tno CuPy peer for suite {suite}")
    return 0


def torch_launch(n, repeat):
    """PyTorch's tiny op from Python (an in-place add on a 16-element CUDA tensor), back to back."""
    try:
        import torch
    except ImportError as e:
        print(f"skip\tPyTorch is not installed ({e})")
        return
    if not torch.cuda.is_available():
        print("skip\tPyTorch sees no CUDA device")
        return
    x = torch.zeros(16, dtype=torch.float32, device="cuda")
    times = []
    for r in range(2 + repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            x.add_(1.0)
        torch.cuda.synchronize()
        if r >= 2:
            times.append((time.perf_counter() - t0) / n)
    print(f"record\tPyTorch x.add_(1): launch, back to back\tcuda:0 (torch)\t{n}\tfloat32\t"
          f"{statistics.median(times):.9g}\t{min(times):.9g}\t0", flush=True)


if __name__ == "__main__":
    sys.exit(main())
