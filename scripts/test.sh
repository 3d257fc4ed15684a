#!/usr/bin/env bash
# Every test on a fresh machine: install what is missing, build with warnings as errors, run
# the C++ suite on every backend this machine has, then build and run examples/ against the
# installed package (find_package(weft)), then install the Python package with pip (its
# extension built by scikit-build-core) and run the pytest suite and the Python examples.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
(cd build && ctest --output-on-failure --parallel "$(nproc)" --timeout 600)
rm -rf build/examples
cmake -S examples -B build/examples -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build/install" -DCMAKE_BUILD_TYPE=Release
cmake --build build/examples
WEFT_CACHE_DIR="$PWD/build/test-cache" ./build/examples/vadd/vadd_example

echo "== Python: pip install . and pytest"
# Hypothesis for the property tests against NumPy (test_*_hypothesis.py, test_elementwise_more.py).
python3 -c "import numpy, pytest, hypothesis" 2>/dev/null || scripts/pip-install.sh numpy pytest hypothesis
# pytest-xdist: the suite runs in one worker process per core, at most four (every test makes its
# own arrays and the program cache is safe between processes; on the 2-core CI machine 5 minutes
# instead of 9). Each worker's host device still has a thread per core.
python3 -c "import xdist" 2>/dev/null || scripts/pip-install.sh pytest-xdist
# dask.array and dask.distributed for tests/python/test_dask.py (weft arrays as Dask chunks).
python3 -c "import dask.array, distributed" 2>/dev/null || scripts/pip-install.sh "dask[array]" distributed
# The wheel is built in ./build, the tree just built and tested, with its settings: CMake adds
# only the extension instead of compiling the library a second time (about three minutes on
# two cores). A plain `pip install .` builds in build/python/<tag> with the pyproject's settings.
scripts/pip-install.sh . --config-settings=build-dir=build \
  --config-settings=cmake.define.WEFT_BUILD_TESTS=ON --config-settings=cmake.define.WEFT_WERROR=ON
workers=$(nproc); [ "$workers" -le 4 ] || workers=4
WEFT_CACHE_DIR="$PWD/build/test-cache" python3 -m pytest tests/python -q -p no:cacheprovider -n "$workers"
