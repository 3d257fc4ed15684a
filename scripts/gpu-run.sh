#!/usr/bin/env bash
# Runs weft's test suite, compute-sanitizer and the GPU benchmarks on a lent NVIDIA machine,
# from a bundle built on the development machine (scripts/gpu-bundle.sh). Writes to $OUT.
#   usage (on the GPU machine, from the repository root): scripts/gpu-run.sh [tests|python|bench|all]
set -uo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
B=$PWD/.gpu-bundle
OUT=${OUT:-/tmp/weft-gpu-out}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$B:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
source .gpu/opencl-on-nvidia.sh > "$OUT/clinfo.txt" 2>&1
export WEFT_CACHE_DIR=/tmp/weft-cache WEFT_TEST_CLI=$B/weft WEFT_TEST_CACHE_WORKER=$B/weft_cache_worker
export WEFT_TEST_FUZZ_DIR=$PWD/tests/fuzz
export WEFT_REQUIRE_NVRTC=1 PYTHONUNBUFFERED=1
PEERS=$PWD/bench/peers  # the bundle was built elsewhere: its compiled-in source tree is not here
nvidia-smi -L
"$B/weft" devices | tee "$OUT/devices.txt"
if [ "$what" = tests ] || [ "$what" = all ]; then
  echo "== tests"
  "$B/weft_tests" --gtest_brief=1 > "$OUT/tests.txt" 2>&1
  echo "tests exit $?"; grep -E "PASSED|FAILED|SKIPPED" "$OUT/tests.txt" | tail -25
  "$B/weft_hot_path_tests" --gtest_brief=1 > "$OUT/hot-path.txt" 2>&1
  echo "hot-path tests exit $?"; grep -E "PASSED|FAILED|Failure|actual" "$OUT/hot-path.txt" | tail -12
  echo "== compute-sanitizer memcheck on the CUDA device"
  # The builder tests that store a payload the driver must refuse (CachedPayload*) make the
  # driver return the errors they test for: memcheck would count those API errors.
  compute-sanitizer --tool memcheck --error-exitcode 3 "$B/weft_tests" --gtest_brief=1 \
    --gtest_filter='*cuda*:*Nvrtc*:-*CachedPayload*' > "$OUT/memcheck.txt" 2>&1
  echo "memcheck exit $?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.txt" | tail -8
fi
if [ "$what" = python ] || [ "$what" = all ]; then
  echo "== Python tests on every device"
  export PYTHONPATH=$B/python:$B/pylib
  python3 -m pytest tests/python -q -p no:cacheprovider > "$OUT/pytest.txt" 2>&1
  echo "pytest exit $?"; tail -15 "$OUT/pytest.txt"
  echo "== launch from C++ and Python beside CuPy and PyTorch"
  "$B/weft" bench launch --compare --repeat 10 --peers "$PEERS" --json "$OUT/launch.json" > "$OUT/launch.txt" 2> "$OUT/launch-progress.txt"
  echo "bench exit $?"; cat "$OUT/launch.txt"
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  echo "== bench"
  "$B/weft" bench ${WEFT_GPU_SUITES:-} --compare --repeat 20 --peers "$PEERS" --json "$OUT/bench.json" --plot "$OUT/bench.png" > "$OUT/bench.txt" 2> "$OUT/bench-progress.txt"
  echo "bench exit $?"; cat "$OUT/bench.txt"; tail -5 "$OUT/bench-progress.txt"
fi
