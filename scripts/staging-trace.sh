#!/usr/bin/env bash
# Issue 30: where a staged pageable copy's time goes beyond its DMA (the fixed ~0.8 ms of
# 64 MiB uploads). weft bench transfer at 64 and 256 MiB on CUDA and NVIDIA's OpenCL, once
# without the trace (the figures) and once with WEFT_STAGING_TRACE=1 (every copy's timeline per
# chunk, src/runtime/staging_trace.hpp), then the traces summarised. About 20 s on the GPU.
# Usage (repository root): scripts/staging-trace.sh [WEFT | BUNDLE_DIR] [DEVICES]
#   WEFT: the weft tool (default build/tools/weft); BUNDLE_DIR: scripts/gpu-bundle.sh's
#   .gpu-bundle (its libraries are put on LD_LIBRARY_PATH and .gpu/opencl-on-nvidia.sh is
#   sourced, as scripts/gpu-run.sh does). Traces go to $OUT (default /tmp/weft-staging-trace).
set -u
cd "$(dirname "$0")/.."
weft=${1:-build/tools/weft}
if [ -d "$weft" ]; then
  bundle=$(cd "$weft" && pwd)
  weft=$bundle/weft
  export LD_LIBRARY_PATH=$bundle:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
  [ -f .gpu/opencl-on-nvidia.sh ] && source .gpu/opencl-on-nvidia.sh > /dev/null 2>&1
fi
devices=${2:-cuda:0 opencl:0:0}
out=${OUT:-/tmp/weft-staging-trace}
mkdir -p "$out"
for dev in $devices; do
  for n in 67108864 268435456; do
    name=$(echo "$dev" | tr ':' '_')-$((n >> 20))MiB
    echo "# $dev $((n >> 20)) MiB, trace off"
    "$weft" bench transfer --device "$dev" --n "$n" --repeat 5 | grep '^transfer'
    echo "# $dev $((n >> 20)) MiB, WEFT_STAGING_TRACE=1"
    WEFT_STAGING_TRACE=1 "$weft" bench transfer --device "$dev" --n "$n" --repeat 5 2> "$out/trace-$name.txt" \
      | grep '^transfer'
  done
done
python3 scripts/staging-trace-summary.py "$out"/trace-*.txt | tee "$out/summary.txt"
