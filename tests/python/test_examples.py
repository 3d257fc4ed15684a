"""Runs every script in examples/python/ as a user would (a fresh interpreter, PYTHONPATH kept),
once on each device (WEFT_DEVICE set to the device's selector), and checks it exits 0."""
import os
import pathlib
import subprocess
import sys

import pytest

import weft

EXAMPLES_DIR = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"
EXAMPLES = sorted(p.name for p in EXAMPLES_DIR.glob("*.py"))


def test_examples_found_and_listed():
    assert {"vector_add.py", "three_kernels.py", "cupy_style.py", "pyopencl_style.py"} <= set(EXAMPLES)
    readme = (EXAMPLES_DIR / "README.md").read_text()
    for name in EXAMPLES:
        assert f"`{name}`" in readme, f"{name} is not listed in examples/python/README.md"


@pytest.mark.parametrize("script", EXAMPLES)
def test_example_runs(script, device):
    env = dict(os.environ)  # keeps conftest's WEFT_CACHE_DIR
    env["WEFT_DEVICE"] = device.selector
    # The weft this test imported: a relative PYTHONPATH (PYTHONPATH=build/python) means
    # nothing from the examples' folder, and the scripts then imported whatever other weft
    # the interpreter had installed.
    package_root = str(pathlib.Path(weft.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([package_root] + [p for p in [env.get("PYTHONPATH")] if p])
    proc = subprocess.run([sys.executable, str(EXAMPLES_DIR / script)], env=env, cwd=EXAMPLES_DIR,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, (f"{script} on {device.selector} exited {proc.returncode}\n"
                                  f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}")
    assert proc.stdout.strip(), f"{script} printed nothing"
