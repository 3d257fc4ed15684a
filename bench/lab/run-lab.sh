#!/usr/bin/env bash
# Builds and runs the labs in bench/lab on a lent NVIDIA GPU (nvcc there); writes to $OUT.
set -uo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/lab-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi -L
for lab in ${LABS:-reduce_lab scan_lab}; do
  nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -o "/tmp/$lab" "$lab.cu" > "$OUT/$lab-build.txt" 2>&1 || { tail -30 "$OUT/$lab-build.txt"; continue; }
  grep -E "registers|spill" "$OUT/$lab-build.txt" | head -40 > "$OUT/$lab-regs.txt"
  "/tmp/$lab" 2>&1 | tee "$OUT/$lab.txt"
done
