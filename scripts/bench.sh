#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build, list the devices and run
# the benchmarks beside the peers found installed (NumPy is installed for that if absent).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
python3 -c "import numpy" 2>/dev/null || scripts/pip-install.sh numpy || echo "weft: NumPy unavailable; peers skipped"
# The polygon suite's peers: matplotlib's contains_points and the exercise's kernel through
# PyOpenCL (on PoCL when the machine has it). Each is skipped, with a line saying so, if absent.
for m in matplotlib pyopencl mako; do
  python3 -c "import $m" 2>/dev/null || scripts/pip-install.sh "$m" 2>/dev/null || echo "weft: $m unavailable; its peer is skipped"
done
scripts/build.sh
# weft's Python package, for the launch suite's figures from Python.
scripts/pip-install.sh . || echo "weft: the Python package did not install; its figures are skipped"
./build/tools/weft devices
./build/tools/weft bench --compare --json build/bench.json --plot build/bench.png "$@"
