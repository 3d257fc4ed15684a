"""The on-disk program cache from Python (include/weft/program_cache.hpp), as `weft cache`:

    weft.cache.info()     # {'directory': ..., 'entries': 12, 'bytes': ..., 'invalid': 0}
    weft.cache.entries()  # one dict per compiled program
    weft.cache.clear()    # removes them all; returns how many
    weft.cache.prune(max_age_s=30 * 86400, max_bytes=None)

Examples
--------
>>> sorted(weft.cache.info())
['bytes', 'directory', 'entries', 'invalid']
"""
from __future__ import annotations

from typing import Any

from . import _weft


def directory() -> str:
    """The cache directory this process uses (WEFT_CACHE_DIR, else $XDG_CACHE_HOME/weft or ~/.cache/weft)."""
    return _weft._cache_directory()


def entries() -> list[dict[str, Any]]:
    """Every entry: path, backend, key, description, weft_version, bytes, modified (seconds
    since the epoch), valid and, where not valid, problem."""
    return _weft._cache_entries()


def info() -> dict[str, Any]:
    """The directory, how many entries (and how many of them invalid) and their total bytes."""
    es = entries()
    return {"directory": directory(), "entries": len(es), "bytes": sum(e["bytes"] for e in es),
            "invalid": sum(1 for e in es if not e["valid"])}


def clear() -> int:
    """Removes every entry (and leftover temporary files); returns how many entries."""
    return _weft._cache_clear()


def prune(max_age_s: float | None = None, max_bytes: int | None = None) -> int:
    """Removes invalid entries and those of other weft versions, then entries older than
    max_age_s seconds, then the oldest until at most max_bytes remain; returns how many."""
    return _weft._cache_prune(max_age_s, max_bytes)
