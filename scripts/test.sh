#!/usr/bin/env bash
# Every test on a fresh machine: install what is missing, build with warnings as errors, run
# the C++ suite on every backend this machine has, then build and run examples/ against the
# installed package (find_package(weft)).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
(cd build && ctest --output-on-failure --parallel "$(nproc)" --timeout 600)
rm -rf build/examples
cmake -S examples -B build/examples -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build/install" -DCMAKE_BUILD_TYPE=Release
cmake --build build/examples
WEFT_CACHE_DIR="$PWD/build/test-cache" ./build/examples/vadd/vadd_example
