#!/usr/bin/env bash
# pip install "$@" into the python3 on PATH; on a Debian-managed Python (PEP 668) it retries
# with --break-system-packages. Quiet unless it fails.
set -euo pipefail
python3 -m pip install -q "$@" 2>/dev/null || python3 -m pip install -q --break-system-packages "$@"
