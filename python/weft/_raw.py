"""CuPy's raw kernels: RawModule(code=...).get_function(name) and RawKernel(code, name), called
as kernel(grid, block, args, shared_mem=0) (grid counted in blocks, as CUDA's).

Source written in weft's dialect (OpenCL C: ``__kernel void f(__global float *x)``) runs on
every device: grid x block becomes the global size and block the work-group. CUDA C
(``extern "C" __global__`` functions, what CuPy users bring) builds as written on CUDA devices
(NVRTC, Program::build_cuda) and is refused elsewhere with a message saying what to write
instead."""
from __future__ import annotations

from typing import Any, Iterable, Sequence

import re as _re

from . import _weft

_CUDA = _re.compile(r"\b__global__\b")
_DIALECT = _re.compile(r"\b__kernel\b|\bkernel\s+void\b")


def _options(options: str | Iterable[object] | None) -> str:
    if options is None or isinstance(options, str):
        return options or ""
    return " ".join(str(o) for o in options)


def _dims(v: int | Sequence[int], what: str, kernel: str) -> tuple[int, ...]:
    t = (v,) if not isinstance(v, (tuple, list)) else tuple(v)
    if not 1 <= len(t) <= 3:
        raise _weft.InvalidArgument(f"RawKernel {kernel}: {what} must be an int or a tuple of 1 to 3 ints, not {v!r}")
    out = []
    for x in t:
        x = int(x)
        if x < 1:
            raise _weft.InvalidArgument(f"RawKernel {kernel}: {what} {v!r} has a dimension below 1")
        out.append(x)
    return tuple(out)


class RawModule:
    """A program from source, as CuPy's RawModule: get_function(name) returns a RawKernel.

    The program is built (through weft's disk cache) on first use on a device: the device of the
    call's first array, else the current device. OpenCL C (``__kernel``, ``__global`` pointers,
    ``get_global_id(0)``) runs on every device; CUDA C as written (``extern "C" __global__``) on
    CUDA devices only.

    Parameters
    ----------
    code : str, optional
        The source.
    path : str, optional
        A file holding the source (give code or path).
    options : str or sequence of str, optional
        Build options (``-D``, ``-I``, ``-cl-fast-relaxed-math``).
    backend, translate_cucomplex, enable_cooperative_groups, name_expressions, jitify : optional
        CuPy's; accepted where they change nothing (name_expressions and jitify are not supported).

    Raises
    ------
    TypeError
        Neither or both of code and path, or code is not a str.
    weft.Unsupported
        A compiled .cubin, .ptx or .fatbin file.

    Examples
    --------
    >>> mod = weft.RawModule(code="__kernel void fill(__global float *x, float v) { x[get_global_id(0)] = v; }")
    >>> fill = mod.get_function("fill")
    >>> x = weft.zeros(4, np.float32)
    >>> fill((2,), (2,), (x, np.float32(3))).wait()
    >>> x.get()
    array([3., 3., 3., 3.], dtype=float32)
    """

    __module__ = "weft"

    def __init__(self, code: str | None = None, *, path: str | None = None, options: str | Sequence[str] = (),
                 backend: str = "nvrtc", translate_cucomplex: bool = False, enable_cooperative_groups: bool = False,
                 name_expressions: object = None, jitify: bool = False) -> None:
        if (code is None) == (path is None):
            raise TypeError("RawModule: give code= (the source) or path= (a file of it), one of them")
        if path is not None:
            with open(path, encoding="utf-8") as f:
                code = f.read()
        if not isinstance(code, str):
            raise TypeError(f"RawModule: code must be a str, not {type(code).__name__}")
        if path is not None and str(path).endswith((".cubin", ".ptx", ".fatbin")):
            raise _weft.Unsupported("RawModule: weft builds from source; a compiled .cubin/.ptx cannot be loaded")
        self.code, self.options = code, _options(options)
        self.is_cuda = bool(_CUDA.search(code)) and not _DIALECT.search(code)
        self._programs: dict[_weft.Device, _weft.Program] = {}

    def program(self, device: _weft.Device) -> _weft.Program:
        """The module built for device (a weft.Program)."""
        p = self._programs.get(device)
        if p is None:
            if self.is_cuda and not device.cuda_source:
                raise _weft.Unsupported(
                    f"RawModule: this source is CUDA C (__global__ functions), which builds only on CUDA devices, "
                    f"and {device.selector} is not one: write the kernel in weft's dialect, OpenCL C, which runs "
                    "on every device: `__kernel void f(__global const double *x, ...)` with get_global_id(0) for "
                    "blockDim.x * blockIdx.x + threadIdx.x (docs/MIGRATING.md, 'From CuPy')")
            language = "cuda" if self.is_cuda else "opencl"
            p = self._programs[device] = _weft.Program(device, self.code, language=language).build(self.options)
        return p

    def get_function(self, name: str) -> RawKernel:
        """The kernel called name (a RawKernel of this module)."""
        return RawKernel(None, name, _module=self)


class RawKernel:
    """One kernel from source, as CuPy's RawKernel.

    ``kernel(grid, block, args, shared_mem=0, stream=None)`` launches grid blocks of block
    work-items (global size grid x block) on stream (a weft.Queue), else on the array queue of
    the first array's device (or the current device's), and returns the launch's weft.Event.

    Parameters
    ----------
    code : str
        The source.
    name : str
        The kernel's name in it.
    options : str or sequence of str, optional
        Build options.
    backend, translate_cucomplex, enable_cooperative_groups, jitify : optional
        CuPy's; accepted where they change nothing.

    Raises
    ------
    weft.InvalidArgument
        From a call: the source has no kernel of that name, or an argument does not fit.

    Examples
    --------
    >>> k = weft.RawKernel("__kernel void sq(__global int *x) { int i = get_global_id(0); x[i] *= x[i]; }", "sq")
    >>> x = weft.asarray(np.array([1, 2, 3, 4], np.int32))
    >>> k((1,), (4,), (x,)).wait()
    >>> x.get()
    array([ 1,  4,  9, 16], dtype=int32)
    """

    __module__ = "weft"

    def __init__(self, code: str | None, name: str, options: str | Sequence[str] = (), backend: str = "nvrtc",
                 translate_cucomplex: bool = False, enable_cooperative_groups: bool = False, jitify: bool = False, *,
                 _module: RawModule | None = None) -> None:
        self.name = name
        self._module = _module if _module is not None else RawModule(code=code, options=options)
        self._kernels: dict[_weft.Device, _weft.Kernel] = {}

    @property
    def code(self) -> str:
        return self._module.code

    def kernel(self, device: _weft.Device) -> _weft.Kernel:
        """This kernel built for device (a weft.Kernel)."""
        k = self._kernels.get(device)
        if k is None:
            program = self._module.program(device)
            if self.name not in program.kernel_names:
                raise _weft.InvalidArgument(f"RawKernel: the module has no kernel '{self.name}' "
                                            f"(it has {', '.join(program.kernel_names)})")
            k = self._kernels[device] = program.kernel(self.name)
        return k

    def __call__(self, grid: int | tuple[int, ...], block: int | tuple[int, ...], args: Sequence[Any], *,
                 shared_mem: int = 0, stream: _weft.Queue | None = None,
                 enable_cooperative_groups: bool = False) -> _weft.Event:
        grid = _dims(grid, "grid", self.name)
        block = _dims(block, "block", self.name)
        if len(grid) != len(block):
            grid, block = grid + (1,) * (len(block) - len(grid)), block + (1,) * (len(grid) - len(block))
        if not isinstance(args, (tuple, list)):
            raise TypeError(f"RawKernel {self.name}: args must be a tuple of the kernel's arguments, "
                            f"not {type(args).__name__}")
        if shared_mem:
            raise _weft.InvalidArgument(f"RawKernel {self.name}: shared_mem={shared_mem}: weft gives dynamic "
                                        "local memory to a dialect kernel's __local pointer parameter (pass "
                                        "weft.LocalMemory(bytes) for it in args); CUDA C's extern __shared__ "
                                        "arrays are not supported yet")
        if stream is not None:
            queue = stream
        else:
            device = next((a.device for a in args if isinstance(a, _weft._Array)), None)
            if device is None:
                from ._device import current_device
                device = current_device()
            queue = _weft.array_queue(device)
        k = self.kernel(queue.device)
        global_size = tuple(g * b for g, b in zip(grid, block))
        return k(queue, global_size, block, *args)

    def __repr__(self) -> str:
        return f"<weft.RawKernel {self.name}>"
