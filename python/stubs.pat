# Replacement patterns for nanobind's stubgen (python/CMakeLists.txt): the few signatures
# whose C++ side returns a plain nb::object/list/dict, written as what they hold, so that
# `mypy --strict` checks user code against the real types. Each entry: a regular expression
# on the qualified name, then the replacement text (\doc keeps the binding's docstring).
# (The exception classes are generated: python/stub_errors.py.)

# The bindings that return arrays name them `Array` (ArrayObject, python/src/common.hpp): the
# user's type, weft.Array, the Python class over _Array (python/weft/_array.py).
_weft\.__prefix__$:
    \from weft._array import Array

# Arrays compare elementwise (as NumPy's ndarray, whose stub says the same).
_weft\._Array\.__(eq|ne)__$:
    def __\1__(self, arg: object, /) -> Array: ...  # type: ignore[override]

# out= gives back out; return_event=True a pair (PyOpenCL's ReductionKernel).
_weft\._ReductionKernel\.__call__$:
    \from typing import Any, Literal, overload
    @overload
    def __call__(self, *args: Any, return_event: Literal[False] = False, **kwargs: Any) -> Array: ...
    @overload
    def __call__(self, *args: Any, return_event: Literal[True], **kwargs: Any) -> tuple[Array, Event]: ...
    @overload
    def __call__(self, *args: Any, return_event: bool, **kwargs: Any) -> Array | tuple[Array, Event]: ...

_weft\.backends$:
    \from typing import Any
    def backends() -> list[dict[str, Any]]:
        \doc

_weft\.memory_stats$:
    def memory_stats(device: object | None = None) -> dict[str, int]:
        \doc

_weft\.transfer_stats$:
    def transfer_stats() -> dict[str, int]:
        \doc

_weft\.LaunchLog\.__enter__$:
    def __enter__(self) -> LaunchLog: ...

_weft\.LaunchLog\.__exit__$:
    def __exit__(self, *args: object) -> None: ...

_weft\.LaunchLog\.entries$:
    @property
    def entries(self) -> list[tuple[str, Event]]:
        \doc

_weft\.Program\.build$:
    def build(self, options: str | list[str] | None = '') -> Program:
        \doc

_weft\.Program\.kernel$:
    def kernel(self, name: str) -> Kernel: ...

_weft\.Program\.__getattr__$:
    def __getattr__(self, name: str, /) -> Kernel: ...

_weft\.Kernel\.__call__$:
    @overload
    def __call__(self, queue: Graph, global_size: object, local_size: object, /, *args: object, global_offset: object | None = None, wait_for: object | None = None) -> None: ...
    @overload
    def __call__(self, queue: Queue, global_size: object, local_size: object, /, *args: object, global_offset: object | None = None, wait_for: object | None = None) -> Event:
        \doc

_weft\.Kernel\.set_args$:
    def set_args(self, *args: object) -> None:
        \doc

# `with device:` and device.use() (CuPy's current device) are added by python/weft/_device.py.
_weft\.Device\.__suffix__$:
    def __enter__(self) -> Device: ...
    def __exit__(self, *exc: object) -> bool: ...
    def use(self) -> Device: ...
