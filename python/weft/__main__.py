"""`python -m weft ...` and the `weft` console script that `pip install .` makes: runs the
C++ `weft` command-line program the package ships (weft/bin/weft: devices, cache, bench,
polygon, version), with the same arguments. A package built without it (WEFT_BUILD_TOOLS=OFF)
says so and names the Python equivalents."""
from __future__ import annotations

import os
import sys
from typing import Sequence


def tool_path() -> str | None:
    """The weft command-line program inside the package, or None when it was not built."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "weft")
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    path = tool_path()
    if path is None:
        sys.stderr.write("weft: this installation has no weft command-line program (the package was built "
                         "with WEFT_BUILD_TOOLS=OFF); from Python: weft.devices(), weft.cache.info(), "
                         "weft.cache.clear()\n")
        return 2
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, [path, *argv])
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
