"""Python kernels (issue 28): translations kept on disk, so that a new process whose program
cache already holds a kernel skips the Python translation too (about 5-10 ms for a kernel the
size of the polygon test) and only loads the compiled program.

A translation is a record of the program cache (weft/program_cache.hpp's store_cache_record:
folder ``pyk`` of the cache directory, the entries' format, checksum and trust checks: the
user's own 0600 files in 0700 directories, corrupt entries removed and rebuilt). Its key text
holds everything the translation reads: the translator's own code (a digest of weft's
``_pyk_*.py`` files and weft's version), the function's source, file and line, the argument
types, the mode and bounds checking, and a description of every global, closure variable and
attribute chain (``math.pi``, ``cfg.N``) the body names. A value that cannot be described
stably (an object of the user's own class, a function that is not weft's, math's or NumPy's)
turns the disk cache off for that function: it is translated in each process, as before.

Examples
--------
>>> from weft._pyk_disk import describe
>>> describe(3), describe((1.5, True))
('int:3', 'tuple:(float:1.5,bool:True)')
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import types as _types
from typing import Any, Callable

import numpy as _np

from . import _weft
from ._pyk_frontend import Parsed, resolve
from ._pyk_kernels import Compiled, Dim
from ._pyk_types import Scalar, TupleT, Type

FOLDER = "pyk"
FORMAT = 1
_PLAIN = (bool, int, float, complex, str, bytes, type(None))
_LIBRARIES = ("builtins", "math", "cmath", "numpy", "weft")
_translator: str | None = None


def _translator_digest() -> str:
    """A digest of the translator's code (once per process): weft's version, the files the
    translation runs and the extension's size and time, so that a changed translator never
    reuses an older translation."""
    global _translator
    if _translator is None:
        from . import __version__
        here = os.path.dirname(os.path.abspath(__file__))
        h = hashlib.sha256(__version__.encode())
        for name in sorted(os.listdir(here)):
            if (name.startswith("_pyk_") and name.endswith(".py")) or name in ("_dtypes.py", "random.py"):
                with open(os.path.join(here, name), "rb") as f:
                    h.update(name.encode() + b"\0" + f.read() + b"\0")
        ext = os.stat(_weft.__file__)  # (the extension supplies some generated text: weft.random's)
        h.update(f"{os.path.basename(_weft.__file__)} {ext.st_size} {ext.st_mtime_ns}".encode())
        _translator = h.hexdigest()
    return _translator


def describe(v: Any, seen: frozenset[int] = frozenset()) -> str | None:
    """A stable text for a value a kernel body may read (it names the value, not where it
    lives), or None where there is none."""
    if type(v) in _PLAIN:
        return f"{type(v).__name__}:{v!r}"
    if isinstance(v, _np.generic):
        return f"np:{v.dtype}:{v!r}"
    if isinstance(v, _np.dtype):
        return f"dtype:{v}"
    if type(v) in (tuple, list):
        parts = [describe(x, seen) for x in v]
        return None if None in parts else f"{type(v).__name__}:({','.join(p for p in parts if p is not None)})"
    if isinstance(v, _types.ModuleType):
        return f"module:{v.__name__}"
    parsed = getattr(v, "parsed", None)
    compiler = getattr(v, "_compiler", None)
    if isinstance(parsed, Parsed) and compiler is not None and type(v).__name__ == "JitFunction":
        if id(v) in seen:
            return f"jit:{parsed.tree.name}:recursive"
        inner = function_text(parsed, seen | {id(v)})
        return None if inner is None else f"jit:{compiler.boundscheck}:{hashlib.sha256(inner.encode()).hexdigest()}"
    module = getattr(v, "__module__", None) or ""
    if callable(v) and module.split(".")[0] in _LIBRARIES and not isinstance(v, _types.MethodType):
        name = getattr(v, "__qualname__", None) or getattr(v, "__name__", "")
        return f"{type(v).__name__}:{module}.{name}"
    return None


def _chain(node: ast.expr) -> list[str] | None:
    """['a', 'b', 'c'] for the expression a.b.c, None for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def function_text(p: Parsed, seen: frozenset[int] = frozenset()) -> str | None:
    """The function's source and where it is, and what each name and attribute chain of its
    body means, as text; None where a value has no stable description."""
    names: dict[str, str] = {}
    for node in ast.walk(p.tree):
        if not isinstance(node, (ast.Name, ast.Attribute)):
            continue
        parts = _chain(node)
        if parts is None:
            continue
        key = ".".join(parts)
        if key in names:
            continue
        found, value = resolve(p, parts[0])
        for attr in parts[1:]:
            if not found:
                break
            found, value = (True, getattr(value, attr)) if hasattr(value, attr) else (False, None)
        if not found:
            names[key] = "-"
            continue
        d = describe(value, seen)
        if d is None:
            return None
        names[key] = d
    free = "\n".join(f"{k}={names[k]}" for k in sorted(names))
    return f"{p.filename}:{p.line0}:{p.col0}\n{p.source}\n{free}"


def key_text(p: Parsed, types: tuple[Type, ...], mode: str, boundscheck: bool) -> str | None:
    """The record's key text for this translation, or None (no disk cache for it)."""
    text = function_text(p)
    if text is None:
        return None
    return f"weft pyk translation {FORMAT}\n{_translator_digest()}\n{mode} {boundscheck}\n{types!r}\n{text}"


def _scalar(s: Scalar | None) -> list[Any] | None:
    return None if s is None else [s.name, s.weak]


def _unscalar(s: Any) -> Scalar | None:
    return None if s is None else Scalar(str(s[0]), bool(s[1]))


def _code(node: ast.expr | None) -> str | None:
    return None if node is None else ast.unparse(node)


def _expr(text: Any) -> ast.expr | None:
    return None if text is None else ast.parse(str(text), mode="eval").body


def encode(c: Compiled) -> bytes:
    """A translation as the record's payload (JSON)."""
    return json.dumps({
        "format": FORMAT, "source": c.source, "name": c.name,
        "dims": [[d.name, _code(d.start), _code(d.stop), _code(d.step)] for d in c.dims],
        "ret": _scalar(c.ret), "writes": sorted(c.writes),
        "reductions": [[n, op, _scalar(t)] for n, op, t in c.reductions],
        "returns": c.returns, "returns_tuple": list(c.returns_tuple),
        "ret_tuple": None if c.ret_tuple is None else [_scalar(t) for t in c.ret_tuple.elems],
        "sites": [list(s) for s in c.sites], "lets": {k: _code(v) for k, v in c.lets.items()},
    }).encode()


def decode(payload: bytes) -> Compiled | None:
    """The translation a record holds, or None when it is not one this weft wrote."""
    try:
        d = json.loads(payload)
        if d.get("format") != FORMAT:
            return None
        dims = []
        for name, start, stop, step in d["dims"]:
            stop_expr = _expr(stop)
            assert stop_expr is not None
            dims.append(Dim(str(name), _expr(start), stop_expr, _expr(step)))
        ret_tuple = d["ret_tuple"]
        return Compiled(
            source=str(d["source"]), name=str(d["name"]), dims=dims, ret=_unscalar(d["ret"]),
            writes={int(i) for i in d["writes"]},
            reductions=[(str(n), str(op), _unscalar(t)) for n, op, t in d["reductions"]],  # type: ignore[misc]
            returns=d["returns"], returns_tuple=tuple(str(x) for x in d["returns_tuple"]),
            ret_tuple=None if ret_tuple is None else TupleT(tuple(_unscalar(t) for t in ret_tuple)),  # type: ignore[misc]
            sites=[(str(a), str(b), str(c), int(e), str(f)) for a, b, c, e, f in d["sites"]],
            lets={str(k): e for k, v in d["lets"].items() if (e := _expr(v)) is not None})
    except (ValueError, KeyError, TypeError, AssertionError, SyntaxError, AttributeError):
        return None


def short(key: str) -> str:
    """The key text's short digest, in the record's description (which entry is whose)."""
    return "key text sha256 " + hashlib.sha256(key.encode()).hexdigest()[:16]


def translation(p: Parsed, types: tuple[Type, ...], mode: str, boundscheck: bool,
                translate: Callable[[Parsed, tuple[Type, ...], str, bool], Compiled]) -> Compiled:
    """translate(p, types, mode, boundscheck), from the disk cache when it holds it (then
    stored there)."""
    key = key_text(p, types, mode, boundscheck)
    if key is None:
        return translate(p, types, mode, boundscheck)
    payload = _weft._cache_load_record(FOLDER, key)
    if payload is not None:
        c = decode(payload)
        if c is not None:
            return c
    c = translate(p, types, mode, boundscheck)
    _weft._cache_store_record(FOLDER, key, f"Python kernel translation: {p.tree.name} ({p.filename}:"
                              f"{p.line0 + p.tree.lineno}) for {', '.join(map(str, types))}; {short(key)}",
                              encode(c))
    return c
