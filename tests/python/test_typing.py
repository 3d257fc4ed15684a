"""What type checkers see (issue 32): weft.__all__ names every public name the package binds
(mypy --strict exports no imported name that __all__ leaves out), the extension's stubs and
py.typed ship in the package, and `mypy --strict` passes on examples/python/ against them (when
mypy is installed: CI installs it)."""
import os
import pathlib
import site
import subprocess
import sys

import pytest

import weft

REPO = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = pathlib.Path(weft.__file__).resolve().parent


def test_all_lists_every_public_name_once():
    # (annotations: from __future__; dask and dask_polygon: weft.dask and weft.dask_polygon, bound
    # once `import weft.dask` or `import weft.dask_polygon` imported them, which `import weft` never
    # does, so that weft does not need Dask)
    public = {n for n in dir(weft) if not n.startswith("_")} - {"annotations", "dask", "dask_polygon"}
    assert len(weft.__all__) == len(set(weft.__all__))
    assert set(weft.__all__) == public, (f"missing from weft.__all__: {sorted(public - set(weft.__all__))}; "
                                         f"listed but not bound: {sorted(set(weft.__all__) - public)}")


def test_stubs_and_py_typed_ship_in_the_package():
    assert (PACKAGE / "py.typed").is_file()
    stub = (PACKAGE / "_weft.pyi").read_text()
    # The pattern file's types (python/stubs.pat), not nanobind's bare object/list.
    assert "def build(self, options: str | list[str] | None = '') -> Program:" in stub
    assert "def __getattr__(self, name: str, /) -> Kernel: ..." in stub
    assert "def __enter__(self) -> Device: ..." in stub
    assert "-> list:" not in stub and "-> dict:" not in stub and "-> tuple:" not in stub
    # The exception classes (python/stub_errors.py), the private names the package calls.
    assert "class OutOfMemory(DeviceError, MemoryError):" in stub and "    requested: int" in stub
    assert "class _Array:" in stub and "def _reduce(" in stub


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory):
    # One cache for this process's runs: numpy's and weft's stubs are analysed once, not in each
    # run (each took 5-18 s with none on the 2-core CI machine). Each xdist worker has its own.
    return tmp_path_factory.mktemp("mypy-cache")


def _mypy(*args, cwd, cache):
    pytest.importorskip("mypy")
    # weft as an installed package is to mypy: its annotations are used, errors inside it are
    # not the user's (follow_imports=silent), which a checkout on PYTHONPATH needs said.
    config = cwd / "mypy.ini"
    config.write_text(f"[mypy]\nstrict = True\ncache_dir = {cache}\n[mypy-weft.*]\nfollow_imports = silent\n"
                      "[mypy-weft]\nfollow_imports = silent\n")
    env = dict(os.environ)
    if str(PACKAGE.parent) not in site.getsitepackages() + [site.getusersitepackages()]:
        env["MYPYPATH"] = str(PACKAGE.parent)  # (an installed weft is found as one; mypy refuses site-packages here)
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(config), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_mypy_strict_passes_on_the_examples(tmp_path, mypy_cache):
    proc = _mypy(*sorted(str(p) for p in (REPO / "examples" / "python").glob("*.py")), cwd=tmp_path, cache=mypy_cache)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_passes_on_a_program_of_the_common_functions(tmp_path, mypy_cache):
    # Calls of untyped functions are errors under --strict: the public functions carry at least
    # their return types.
    program = tmp_path / "user.py"
    program.write_text(
        "import numpy as np\nimport weft\n\n"
        "a = weft.asarray(np.arange(10.0))\n"
        "total: float = float(weft.sum(a * 2))\n"
        "m: weft.Array = weft.mean(a, axis=0)\n"
        "s: weft.Array = weft.sort(a, descending=True)\n"
        "counts, edges = weft.histogram(a, bins=5)\n"
        "mask: np.ndarray = weft.polygon_mask([(0, 0), (4, 0), (4, 4)], 5, 5)\n"
        "rows: tuple[weft.Array, ...] = weft.nonzero(a)\n"
        "directory: str = weft.cache.directory()\n"
        "ok: bool = weft.can_cast(np.int8, np.int16) and weft.cuda.is_available() in (True, False)\n"
        "rng = weft.random.default_rng(1)\n"
        "c: weft.Array = weft.concat([a, a])\n"
        "parts: tuple[weft.Array, ...] = weft.unstack(weft.stack([a, a]))\n"
        "d: weft.Array = weft.diff(weft.take(a, [0, 2])) + weft.eye(2)\n")
    proc = _mypy(str(program), cwd=tmp_path, cache=mypy_cache)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_passes_on_pyopencl_module_names_and_the_generator(tmp_path, mypy_cache):
    # weft.array, weft.elementwise, weft.reduction and weft.scan re-export their names ("x as x"),
    # without which mypy --strict exports none of them; Generator's methods carry their types.
    program = tmp_path / "user_forms.py"
    program.write_text(
        "import numpy as np\nimport weft\nimport weft.array as cl_array\n"
        "from weft.elementwise import ElementwiseKernel\nfrom weft.reduction import ReductionKernel\n"
        "from weft.scan import ExclusiveScanKernel, GenericScanKernel, InclusiveScanKernel\n\n"
        "a: cl_array.Array = cl_array.zeros(4, np.float32) + cl_array.arange(4, dtype=np.float32)\n"
        "k = ElementwiseKernel('float *x', 'x[i] = 2 * x[i]')\n"
        "scan = InclusiveScanKernel(np.int32, 'a+b')\n"
        "kinds = (ReductionKernel, ExclusiveScanKernel, GenericScanKernel)\n"
        "z: weft.Array = weft.random.default_rng(1).normal(0.0, 2.0, size=(2, 2))\n"
        "u: weft.Array = weft.unique(a)\n")
    proc = _mypy(str(program), cwd=tmp_path, cache=mypy_cache)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_types_the_exceptions_and_the_arrays_of_the_extension(tmp_path, mypy_cache):
    # The exception classes (generated into the stub: python/stub_errors.py) with their bases
    # and attributes, and the extension's functions and operators returning weft.Array.
    program = tmp_path / "user.py"
    program.write_text(
        "import numpy as np\nimport weft\n\n"
        "a = weft.asarray(np.arange(4.0))\n"
        "try:\n"
        "    a + weft.zeros(3)\n"
        "except weft.InvalidArgument as e:\n"
        "    v: ValueError = e\n"
        "except weft.BuildError as e:\n"
        "    text: str = e.log + e.source\n"
        "except weft.OutOfMemory as e:\n"
        "    n: int = e.requested\n"
        "    where: str = e.device + e.call\n"
        "    m: MemoryError = e\n"
        "except (weft.DTypeError, weft.IndexOutOfRange, weft.ValueOutOfRange, weft.ConfigError) as e:\n"
        "    w: weft.InvalidArgument = e\n"
        "except weft.Unsupported as e:\n"
        "    u: NotImplementedError = e\n"
        "except weft.Error as e:\n"
        "    r: RuntimeError = e\n"
        "b: weft.Array = weft.where(a > 0, a, 0.0) + weft.round(a) ** 2 - 2 * a\n"
        "c: weft.Array = weft.isnan(a) | weft.equal(a, 1) | (a == 2) | ~(a != 3)\n"
        "d: weft.Array = -abs(a[1:].reshape(3, 1).T).copy().evaluate()\n"
        "d **= 2\n"
        "shape: tuple[int, ...] = d.shape\n")
    proc = _mypy(str(program), cwd=tmp_path, cache=mypy_cache)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # Real types, not Any: a misuse is an error.
    bad = tmp_path / "bad.py"
    bad.write_text("import weft\n\ntry:\n    pass\nexcept weft.OutOfMemory as e:\n    s: str = e.requested\n"
                   "x: int = weft.sqrt(weft.zeros(3))\n")
    proc = _mypy(str(bad), cwd=tmp_path, cache=mypy_cache)
    assert 'bad.py:6: error: Incompatible types in assignment (expression has type "int"' in proc.stdout, proc.stdout
    assert 'bad.py:7: error: Incompatible types in assignment (expression has type "Array"' in proc.stdout, proc.stdout


def test_mypy_strict_passes_on_the_stubs(tmp_path, mypy_cache):
    # A copy: mypy will not check a file inside site-packages by its path.
    stub = tmp_path / "_weft.pyi"
    stub.write_text((PACKAGE / "_weft.pyi").read_text())
    proc = _mypy(str(stub), cwd=tmp_path, cache=mypy_cache)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_refuses_a_wrong_call(tmp_path, mypy_cache):
    # The stubs carry real types: a misuse is an error, not Any.
    bad = tmp_path / "bad.py"
    bad.write_text("import weft\n\ndevice: weft.Device = weft.default_device()\nname: int = device.name\n"
                   "prg = weft.Program(device, '__kernel void k() {}').build()\nk: weft.Kernel = prg.k\n")
    proc = _mypy(str(bad), cwd=tmp_path, cache=mypy_cache)
    assert proc.returncode != 0
    assert 'bad.py:4: error: Incompatible types in assignment (expression has type "str"' in proc.stdout, proc.stdout
    assert "bad.py:6" not in proc.stdout, proc.stdout



def test_mypy_strict_passes_on_the_package_itself(tmp_path):
    # The pure-Python modules are annotated and checked against the generated stub, as a
    # contributor runs `mypy --strict -p weft`. A copy of the package: mypy will not check one
    # inside site-packages (CI tests the installed wheel).
    pytest.importorskip("mypy")
    copy = tmp_path / "weft"
    copy.mkdir()
    for f in PACKAGE.iterdir():
        if f.suffix in (".py", ".pyi") or f.name == "py.typed":
            (copy / f.name).write_text(f.read_text())
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nstrict = True\ncache_dir = /dev/null\n")
    env = dict(os.environ, MYPYPATH=str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(config), "-p", "weft"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr
