"""Runs seed 004's snippets (tests/python/seeds/seed004_*.py, each a slide's code with only the
import line changed) as a user would: a fresh interpreter per snippet and device, WEFT_DEVICE
set to the device. The CUDA C raw kernel builds only where the device compiles CUDA C; elsewhere
the snippet must stop at weft.Unsupported with the message saying what to write instead."""
import os
import pathlib
import subprocess
import sys

import pytest

import weft

HERE = pathlib.Path(__file__).resolve().parent
SNIPPETS = sorted(p.name for p in HERE.glob("seed004_*.py") if not p.name.endswith("_test.py"))
# The PyOpenCL names these snippets use besides weft's own (PyOpenCL's forms, issue 26's other half).
PYOPENCL_NAMES = ("create_some_context", "CommandQueue", "Context", "get_platforms", "command_queue_properties")


def _run(script, device):
    env = dict(os.environ)  # keeps conftest's WEFT_CACHE_DIR
    env["WEFT_DEVICE"] = device.selector
    # The weft this test imported, whatever the working directory (PYTHONPATH may be relative).
    package_root = str(pathlib.Path(weft.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([package_root] + [p for p in [env.get("PYTHONPATH")] if p])
    return subprocess.run([sys.executable, str(HERE / script)], env=env, cwd=HERE, capture_output=True,
                          text=True, timeout=300)


def test_snippets_found():
    assert {"seed004_cupy_example_api.py", "seed004_cupy_example_raw.py", "seed004_cupy_kernels_typed.py",
            "seed004_pyopencl_example_raw.py"} <= set(SNIPPETS)


@pytest.mark.parametrize("script", SNIPPETS)
def test_seed004_snippet(script, device):
    if script.startswith("seed004_pyopencl"):
        missing = [n for n in PYOPENCL_NAMES if not hasattr(weft, n)]
        if missing:
            pytest.skip(f"weft lacks PyOpenCL's {', '.join(missing)} on this branch")
    proc = _run(script, device)
    out = f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
    if script == "seed004_cupy_example_raw.py" and not getattr(device, "cuda_source", False):
        assert proc.returncode != 0, f"CUDA C ran on {device.selector}\n{out}"
        assert "weft.Unsupported" in proc.stderr and "CUDA C" in proc.stderr and "OpenCL C" in proc.stderr, out
        return
    assert proc.returncode == 0, f"{script} on {device.selector} exited {proc.returncode}\n{out}"
    assert proc.stdout.strip(), f"{script} printed nothing"
