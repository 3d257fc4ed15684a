#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build, list the devices and run
# the benchmarks beside the peers found installed (NumPy is installed for that if absent).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
python3 -c "import numpy" 2>/dev/null || python3 -m pip install -q numpy 2>/dev/null ||
  python3 -m pip install -q --break-system-packages numpy || echo "weft: NumPy unavailable; peers skipped"
# The polygon suite's peers: matplotlib's contains_points and the exercise's kernel through
# PyOpenCL (on PoCL when the machine has it). Each is skipped, with a line saying so, if absent.
for m in matplotlib pyopencl mako; do
  python3 -c "import $m" 2>/dev/null || python3 -m pip install -q "$m" 2>/dev/null ||
    python3 -m pip install -q --break-system-packages "$m" 2>/dev/null || echo "weft: $m unavailable; its peer is skipped"
done
scripts/build.sh
./build/tools/weft devices
./build/tools/weft bench --compare --json build/bench.json --plot build/bench.png "$@"
