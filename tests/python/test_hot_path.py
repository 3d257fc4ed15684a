"""The Python launch path allocates nothing but the event it returns: a kernel call on the host
backend makes one malloc (the event), whatever the arguments (a scalar's conversion builds no
error text unless it fails). Counted by a malloc wrapper preloaded into a child interpreter
(Python's own small objects come from its allocator, not malloc); no timing."""
import os
import shutil
import subprocess
import sys

import pytest

COUNTER = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdatomic.h>
static atomic_long count;
static void* (*real_malloc)(size_t);
long weft_test_malloc_count(void) { return atomic_load(&count); }
void* malloc(size_t size) {
  if (!real_malloc) real_malloc = (void* (*)(size_t))dlsym(RTLD_NEXT, "malloc");
  atomic_fetch_add(&count, 1);
  return real_malloc(size);
}
"""

CALLS = r"""
import ctypes, sys, numpy as np, weft
count = ctypes.CDLL(None).weft_test_malloc_count
count.restype = ctypes.c_long
dev = weft.Device("host")
k = weft.Program(dev, "__kernel void tiny(__global float* x, float s, int n) { x[get_global_id(0)] += s * n; }").build().tiny
q = weft.Queue(dev)
b = weft.Buffer(dev, 64)
for _ in range(200):
    k(q, (1,), None, b, 1.0, 2)
q.finish()
n = 2000
before = count()
for _ in range(n):
    k(q, (1,), None, b, 1.0, 2)
after = count()
q.finish()
print((after - before) / n)
"""


def test_a_python_kernel_call_mallocs_only_its_event(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to build the malloc counter")
    lib = tmp_path / "count_malloc.so"
    (tmp_path / "count_malloc.c").write_text(COUNTER)
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(lib), str(tmp_path / "count_malloc.c"), "-ldl"],
                   check=True, timeout=120)
    env = dict(os.environ, LD_PRELOAD=str(lib))
    r = subprocess.run([sys.executable, "-c", CALLS], capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    per_call = float(r.stdout.strip().splitlines()[-1])
    assert per_call <= 1.05, f"{per_call} mallocs per kernel call (the event alone is 1)"
