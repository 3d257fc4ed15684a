#!/usr/bin/env bash
# Gathers what scripts/gpu-run.sh needs on a lent GPU machine into .gpu-bundle/ (binaries
# built here, with this machine's libstdc++) and .gpu/ (the OpenCL ICD loader for NVIDIA's
# driver, from ../shared/gpu). Both folders are git-ignored; carry them with the run.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .gpu-bundle && mkdir -p .gpu-bundle .gpu
cp -a build/libweft.so* build/tests/weft_tests build/tests/weft_hot_path_tests build/tests/weft_cache_worker build/tools/weft .gpu-bundle/
# CUB's sort for the CUDA backend, beside libweft where libweft looks for it (built when the
# CUDA toolkit is here: -DWEFT_CUB=AUTO).
if [ -f build/libweft_cub.so ]; then cp -a build/libweft_cub.so .gpu-bundle/; fi
# Highway's vqsort for the host's sorts, and Highway's libraries (not on the GPU machine).
if [ -f build/libweft_vqsort.so ]; then
  cp -a build/libweft_vqsort.so .gpu-bundle/
  for lib in libhwy.so.1 libhwy_contrib.so.1; do cp -L "/usr/lib/$(gcc -dumpmachine)/$lib" .gpu-bundle/; done
fi
cp -L "$(g++ -print-file-name=libstdc++.so.6)" .gpu-bundle/
cp -a ../shared/gpu/. .gpu/
# The Python package for the GPU machine's Python (3.12 there; GPU_PYTHON names a local
# interpreter of that version), built without tests or tools, and pytest for it.
GPU_PYTHON=${GPU_PYTHON:-/root/.pyenv/versions/3.12.1/bin/python3}
if [ -x "$GPU_PYTHON" ]; then
  cmake -S . -B build-gpu-python -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_TOOLS=OFF \
    -DWEFT_BUILD_PYTHON=ON -DWEFT_PYTHON_STUBS=OFF -DPython_EXECUTABLE="$GPU_PYTHON" \
    -Dnanobind_DIR="$(python3 -m nanobind --cmake_dir)" > /dev/null
  cmake --build build-gpu-python --parallel "$(nproc)" > /dev/null
  mkdir -p .gpu-bundle/python
  cp -a build-gpu-python/python/weft .gpu-bundle/python/
  cp -L build-gpu-python/libweft.so* .gpu-bundle/python/weft/
  if [ -f build-gpu-python/libweft_cub.so ]; then cp -a build-gpu-python/libweft_cub.so .gpu-bundle/python/weft/; fi
  if [ -f build-gpu-python/libweft_vqsort.so ]; then cp -a build-gpu-python/libweft_vqsort.so .gpu-bundle/python/weft/; fi
  "$GPU_PYTHON" -m pip install -q --target .gpu-bundle/pylib pytest 2>/dev/null || true
fi
du -sh .gpu-bundle .gpu
