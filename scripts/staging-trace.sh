#!/bin/sh
# Issue 30: where a staged pageable copy's time goes beyond its DMA (the fixed ~0.8 ms of
# 64 MiB uploads). weft bench transfer at 64 and 256 MiB on CUDA and NVIDIA's OpenCL, once
# without the trace (the figures) and once with WEFT_STAGING_TRACE=1 (every copy's timeline per
# chunk, src/runtime/staging_trace.hpp), then the traces summarised. About 20 s on the GPU.
# Usage: scripts/staging-trace.sh [WEFT] [DEVICES]   (traces go to $OUT, default /tmp/weft-staging-trace)
weft=${1:-build/tools/weft}
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
python3 "$(dirname "$0")/staging-trace-summary.py" "$out"/trace-*.txt | tee "$out/summary.txt"
