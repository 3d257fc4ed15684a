"""WEFT_BOUNDS_CHECK=1: every kernel checked, the OpenCL C kernels given as source included.
The mode is read once per process, so each case runs a small script in a process of its own."""
import os
import subprocess
import sys
import textwrap

import pytest

import weft

SCRIPT = textwrap.dedent('''
    import numpy as np
    import weft

    dev = weft.Device({selector!r})
    q = weft.Queue(dev)
    src = """// line 1
    __kernel void gather(__global const int* idx, __global const float* src, __global float* dst) {{
      int i = get_global_id(0);
      dst[i] = src[idx[i]];
    }}
    """
    prg = weft.Program(dev, src).build()
    idx = weft.asarray(np.array([0, 2, 9, 1], np.int32), device=dev)
    src_a = weft.asarray(np.arange(5, dtype=np.float32) + 1, device=dev)
    dst = weft.asarray(np.full(4, -1, np.float32), device=dev)
    try:
        prg.gather(q, (4,), None, idx, src_a, dst)
        print("NO ERROR")
    except weft.IndexOutOfRange as e:
        assert isinstance(e, IndexError)
        print("RAW", e)
    print("DST", dst.get().tolist())

    @weft.kernel
    def write_at(out, k):
        i = weft.global_id(0)
        out[i * k] = 7

    out = weft.zeros(4, np.int32, device=dev)
    try:
        write_at(q, (4,), None, out, 2)
        print("NO ERROR")
    except weft.IndexOutOfRange as e:
        print("PYK", e)
    print("OUT", out.get().tolist())
''')


def run(tmp_path, selector, mode):
    script = tmp_path / "checked.py"  # in a file: @weft.kernel reads its function's source
    script.write_text(SCRIPT.format(selector=selector))
    env = dict(os.environ, WEFT_BOUNDS_CHECK=mode)
    r = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


@pytest.mark.parametrize("selector", [d.selector for d in weft.devices()])
def test_mode_on_checks_source_kernels_and_python_kernels(tmp_path, selector):
    lines = run(tmp_path, selector, "1")
    raw = next(line for line in lines if line.startswith("RAW "))
    assert "<source>:4: in kernel 'gather': index 9 is out of bounds for parameter 'src' ('const float*') of 5 " \
           "element(s), in work-item (2, 0, 0)" in raw
    # The bad read gave 0; the others were done.
    assert "DST [1.0, 3.0, 0.0, 2.0]" in lines
    pyk = next(line for line in lines if line.startswith("PYK "))
    assert "'write_at'" in pyk and "of 'out'" in pyk and "with size 4" in pyk
    assert "OUT [7, 0, 7, 0]" in lines


def test_the_mode_is_read_through_config():
    code = "import weft; print(weft._weft._bounds_check())"
    for mode, want in (("1", "True"), ("on", "True"), ("0", "False"), ("", "False")):
        r = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, WEFT_BOUNDS_CHECK=mode),
                           capture_output=True, text=True, timeout=300)
        assert r.stdout.strip() == want, (mode, r.stderr)


def test_malformed_mode_is_a_config_error():
    r = subprocess.run([sys.executable, "-c", "import weft; weft.Program(weft.Device('host'), "
                        "'__kernel void k(__global int* x) { x[0] = 1; }').build()"],
                       env=dict(os.environ, WEFT_BOUNDS_CHECK="yes"), capture_output=True, text=True, timeout=300)
    assert r.returncode != 0 and "WEFT_BOUNDS_CHECK='yes'" in r.stderr
