#!/usr/bin/env python3
"""PyOpenCL as a peer of `weft bench`, measured in the same run, on every OpenCL device.

Usage: pyopencl_peer.py SUITE N REPEAT
Prints "record<TAB>method<TAB>device<TAB>n<TAB>dtype<TAB>median_s<TAB>min_s<TAB>bytes" lines,
or "skip<TAB>reason". Devices are named like weft's selectors (opencl:P:D).
"""
import os
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no BLAS here; its idle threads would take a core
import statistics
import sys
import time


def main():
    suite, n, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        import numpy as np
        import pyopencl as cl
    except ImportError as e:
        print(f"skip\tpyopencl is not installed ({e})")
        return 0
    if suite in ("elementwise", "reduce", "scan"):
        return generators(cl, np, suite, n, repeat)
    if suite == "sort":
        return radix_sort(cl, np, n, repeat)
    if suite != "launch":
        print(f"skip\tno PyOpenCL peer for suite {suite}")
        return 0
    src = "__kernel void tiny(__global float *x) { x[get_global_id(0)] += 1.0f; }"
    for p, platform in enumerate(cl.get_platforms()):
        for d, dev in enumerate(platform.get_devices()):
            ctx = cl.Context([dev])
            queue = cl.CommandQueue(ctx)
            prg = cl.Program(ctx, src).build()
            buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
            cl.enqueue_fill_buffer(queue, buf, np.float32(0), 0, 64)
            knl = prg.tiny  # fetched once: PyOpenCL caches the kernel object
            times = []
            for r in range(2 + repeat):
                t0 = time.perf_counter()
                for _ in range(n):
                    knl(queue, (1,), None, buf)
                queue.finish()
                if r >= 2:
                    times.append((time.perf_counter() - t0) / n)
            print(f"record\tPyOpenCL: launch, back to back\topencl:{p}:{d} (pyopencl)\t{n}\tfloat32\t"
                  f"{statistics.median(times):.9g}\t{min(times):.9g}\t0", flush=True)
    return 0


def generators(cl, np, suite, n, repeat):
    import pyopencl.array as cla
    from pyopencl.elementwise import ElementwiseKernel
    from pyopencl.reduction import ReductionKernel
    from pyopencl.scan import InclusiveScanKernel

    rng = np.random.default_rng(42)
    for p, platform in enumerate(cl.get_platforms()):
        for d, dev in enumerate(platform.get_devices()):
            ctx = cl.Context([dev])
            queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
            a, b, c = (cla.to_device(queue, rng.uniform(-1, 1, n).astype(np.float32)) for _ in range(3))
            out = cla.empty_like(a)
            if suite == "elementwise":
                k = ElementwiseKernel(ctx, "const float *a, const float *b, const float *c, float *d",
                                      "d[i] = a[i] * b[i] + c[i]", "peer_fma")
                run, nbytes, name = (lambda: k(a, b, c, out)), 16.0 * n, "PyOpenCL ElementwiseKernel a*b+c"
            elif suite == "reduce":
                k = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]",
                                    arguments="const float *x")
                run, nbytes, name = (lambda: k(a)), 4.0 * n, "PyOpenCL ReductionKernel sum"
            else:
                k = InclusiveScanKernel(ctx, np.float32, "a+b", neutral="0")
                run, nbytes, name = (lambda: k(a, out)), 8.0 * n, "PyOpenCL InclusiveScanKernel"
            for _ in range(2):
                run()
            queue.finish()
            times = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                run()
                queue.finish()
                times.append(time.perf_counter() - t0)
            print(f"record\t{name}\topencl:{p}:{d} (pyopencl)\t{n}\tfloat32\t"
                  f"{statistics.median(times):.9g}\t{min(times):.9g}\t{nbytes:.9g}", flush=True)
    return 0


def radix_sort(cl, np, n, repeat):
    """pyopencl.algorithm.RadixSort of n uint32 keys and of n float32 keys (through the
    order-preserving map to uint32 as its key expression), wall-clock per call."""
    try:
        import pyopencl.array as cla
        from pyopencl.algorithm import RadixSort
    except ImportError as e:  # RadixSort needs Mako
        print(f"skip\tPyOpenCL's RadixSort cannot be imported ({e})".replace("\n", " "))
        return 0

    rng = np.random.default_rng(42)
    host = {"uint32": rng.integers(0, 2**32, n, dtype=np.uint32), "float32": rng.uniform(-1, 1, n).astype(np.float32)}
    spec = {"uint32": ("unsigned *keys", "keys[i]"),
            "float32": ("float *keys", "as_uint(keys[i]) ^ (as_int(keys[i]) < 0 ? 0xffffffffu : 0x80000000u)")}
    for p, platform in enumerate(cl.get_platforms()):
        for d, dev in enumerate(platform.get_devices()):
            ctx = cl.Context([dev])
            queue = cl.CommandQueue(ctx)
            for dtype, x in host.items():
                args, key = spec[dtype]
                sorter = RadixSort(ctx, args, key_expr=key, sort_arg_names=["keys"], key_dtype=np.uint32)
                keys = cla.to_device(queue, x)
                times = []
                for r in range(1 + repeat):
                    t0 = time.perf_counter()
                    (out,), _ = sorter(keys, key_bits=32, queue=queue)
                    queue.finish()
                    if r >= 1:
                        times.append(time.perf_counter() - t0)
                if not np.array_equal(out.get(), np.sort(x)):
                    print(f"skip\tPyOpenCL's RadixSort gave a wrong {dtype} result on opencl:{p}:{d}")
                    continue
                print(f"record\tPyOpenCL RadixSort\topencl:{p}:{d} (pyopencl)\t{n}\t{dtype}\t"
                      f"{statistics.median(times):.9g}\t{min(times):.9g}\t{8.0 * n:.9g}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
