#!/usr/bin/env bash
# Configures and builds weft in ./build (Release, warnings as errors) and installs it into
# ./build/install. Extra arguments go to CMake.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} -DWEFT_WERROR=ON \
  -DCMAKE_INSTALL_PREFIX="$PWD/$BUILD_DIR/install" "$@"
cmake --build "$BUILD_DIR" --parallel "$(nproc)"
cmake --install "$BUILD_DIR" > /dev/null
