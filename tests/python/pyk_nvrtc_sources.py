"""The dialect sources of Python kernels that use 64-bit and float atomics and weft.random, as
weft generates them: tests/kernels/cl/python_atomics.cl and python_random.cl hold them for the
C++ tests, whose NVRTC test (tests/dialect/test_nvrtc.cpp) compiles them for CUDA without a
GPU. test_pykernels_atomics.py checks the files are current; after a change to the translation,
rewrite them with

    PYTHONPATH=build/python python3 tests/python/pyk_nvrtc_sources.py
"""
import pathlib

import numpy as np

import weft

KERNELS_DIR = pathlib.Path(__file__).resolve().parents[1] / "kernels" / "cl"


@weft.kernel
def every_atomic(i32, u32, i64, u64, f32, f64):
    i = weft.global_id(0)
    t32 = weft.local_array(4, np.int32)
    t64 = weft.local_array(4, np.int64)
    g64 = weft.local_array(4, np.float64)
    weft.atomic_add(t32, 0, 1)
    weft.atomic_max(t64, 1, i)
    weft.atomic_add(g64, 2, 0.5)
    weft.atomic_min(g64, 3, weft.atomic_cas(g64, 1, 0.0, 2.0))
    weft.barrier()
    for a in range(1):
        weft.atomic_add(i32, a, 1)
        weft.atomic_xchg(u32, a, 2)
        weft.atomic_cas(i32, 1, 0, t32[0])
    weft.atomic_add(i64, 0, t64[1])
    weft.atomic_sub(i64, 1, i)
    weft.atomic_min(i64, 2, i)
    weft.atomic_max(u64, 0, i)
    weft.atomic_inc(u64, 1)
    weft.atomic_xchg(u64, 2, 5)
    weft.atomic_cas(u64, 3, 0, 1)
    weft.atomic_add(f32, 0, 0.5)
    weft.atomic_sub(f32, 1, 0.5)
    weft.atomic_min(f32, 2, 0.5)
    weft.atomic_max(f32, 3, 0.5)
    weft.atomic_xchg(f32, 4, 0.5)
    weft.atomic_cas(f32, 5, 0.0, 0.5)
    weft.atomic_add(f64, 0, g64[2])
    weft.atomic_max(f64, 1, 0.5)
    weft.atomic_xchg(f64, 2, 0.5)


@weft.kernel
def every_random(out32, out64, raw, seed):
    i = weft.global_id(0)
    out32[i] = weft.random.random_at(seed, i, np.float32) + weft.random.normal_at(seed, i, np.float32) \
        + weft.random.uniform_at(seed, i, np.float32(1), np.float32(2), np.float32)
    out64[i] = weft.random.random_at(seed, i) + weft.random.normal_at(seed, i, 1.0, 2.0) \
        + weft.random.uniform_at(seed, i, 1.0, 2.0)
    raw[i] = weft.random.raw_at(seed, i)


def sources() -> dict[str, str]:
    """File name -> the generated source it must hold."""
    def text(f, *types):
        import contextlib
        import io
        with contextlib.redirect_stdout(io.StringIO()):
            src = weft.show_source(f, *types)
        # The header names this file; the path from the repository root keeps the files the same
        # in every checkout (CI's clone, a worktree).
        return src.replace(str(pathlib.Path(__file__).resolve()), "tests/python/pyk_nvrtc_sources.py")
    return {
        "python_atomics.cl": text(every_atomic, "int32[:]", "uint32[:]", "int64[:]", "uint64[:]", "float32[:]",
                                  "float64[:]"),
        "python_random.cl": text(every_random, "float32[:]", "float64[:]", "uint32[:]", np.uint64),
    }


if __name__ == "__main__":
    for name, src in sources().items():
        (KERNELS_DIR / name).write_text(src)
        print(f"wrote {KERNELS_DIR / name}")
