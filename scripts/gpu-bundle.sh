#!/usr/bin/env bash
# Gathers what scripts/gpu-run.sh needs on a lent GPU machine into .gpu-bundle/ (binaries
# built here, with this machine's libstdc++) and .gpu/ (the OpenCL ICD loader for NVIDIA's
# driver, from ../shared/gpu). Both folders are git-ignored; carry them with the run.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .gpu-bundle && mkdir -p .gpu-bundle .gpu
cp -a build/libweft.so* build/tests/weft_tests build/tests/weft_cache_worker build/tools/weft .gpu-bundle/
cp -L "$(g++ -print-file-name=libstdc++.so.6)" .gpu-bundle/
cp -a ../shared/gpu/. .gpu/
du -sh .gpu-bundle .gpu
