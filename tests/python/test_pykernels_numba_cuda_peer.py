"""The Numba CUDA peer of `weft bench pykernels --compare` (bench/peers/pykernels_bench.py's
numba_cuda): its code path (the seed's insidePolygon as a @cuda.jit kernel, one thread per pixel,
device arrays made once, a synchronise per call, the first compile reported apart, the mask checked
against weft.polygon_mask's) run at a tiny size on Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1),
in a child process since the simulator is chosen when numba is imported. Skips where numba or its
simulator is missing."""
import os
import subprocess
import sys

import pytest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "peers")

CHILD = """
import sys
sys.path.insert(0, {bench!r})
import weft
import pykernels_bench as b
b.LAUNCHES = 2  # (the simulator runs each thread in Python: the dispatch row's launches, few)
size = 12
vertices = weft.random_polygon(6, 1, size, size)
reference = weft.polygon_mask(vertices, size, size, device=weft.Device("host"))
med = b.numba_cuda(vertices, size, 1, reference)
print("median", med)
"""


def _simulator_works():
    try:
        import numba  # noqa: F401
    except ImportError:
        return "numba is not installed"
    probe = subprocess.run([sys.executable, "-c", "from numba import cuda; assert cuda.is_available()"],
                           env=dict(os.environ, NUMBA_ENABLE_CUDASIM="1"), capture_output=True, text=True)
    return None if probe.returncode == 0 else f"numba's CUDA simulator does not start: {probe.stderr[-300:]}"


def test_numba_cuda_peer_on_the_simulator():
    why = _simulator_works()
    if why:
        pytest.skip(why)
    out = subprocess.run([sys.executable, "-c", CHILD.format(bench=os.path.abspath(BENCH))],
                         env=dict(os.environ, NUMBA_ENABLE_CUDASIM="1"), capture_output=True, text=True,
                         timeout=240)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert any(line.startswith("info\tNumba CUDA: first call (compile)") for line in lines), out.stdout
    rows = [line.split("\t") for line in lines if line.startswith("record\t")]
    assert [r[1] for r in rows] == ["Numba CUDA (@cuda.jit, 32x8 blocks)", "Numba CUDA launch (16-item axpy), per launch"]
    assert rows[0][3] == str(12 * 12) and float(rows[0][5]) > 0
    assert "median" in lines[-1] and float(lines[-1].split()[1]) > 0


def test_numba_cuda_peer_says_why_it_is_missing():
    """Without a GPU (and without the simulator) the peer returns None and prints why."""
    code = ("import sys; sys.path.insert(0, %r); import numpy as np; import pykernels_bench as b; "
            "print('result', b.numba_cuda(np.zeros((3, 2)), 4, 1, None))" % os.path.abspath(BENCH))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    if lines[-1] != "result None":
        pytest.skip("numba.cuda finds a GPU here")
    assert any(line.startswith("info\t") and "no Numba CUDA peer" in line for line in lines), out.stdout
