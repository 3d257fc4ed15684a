#!/usr/bin/env bash
# Issue 31 on a machine with two GPUs, in under 150 s: weft bench dask's chain case on 1 and on
# 2 workers (each against weft in one process with the same chunks, and dask.array over NumPy
# chunks on the same cluster), then weft.multi's get() and split sum of a 1 GiB float32 vector
# over both GPUs, 5 timed runs each; the medians are summarised at the end.
#
#   PYTHONPATH=build/python bench/dask_gpu_pair.sh [DEV0 [DEV1]]     # default cuda:0 cuda:1
#   (PYTHON=... picks the interpreter; MULTI_N=2^24 a smaller vector for the multi step)
#
# Each step runs under `timeout` and prints its records as they are measured (flushed), so a
# step cut short still leaves what it measured. The chain case sizes its chunks from the
# devices' measured speed to fit its --budget-s (bench/peers/dask_peer.py's docstring).
# Records: record<TAB>method<TAB>device<TAB>n<TAB>dtype<TAB>median_s<TAB>min_s<TAB>bytes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
peer="$here/peers/dask_peer.py"
py=${PYTHON:-python3}
d0=${1:-cuda:0}
d1=${2:-cuda:1}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
step() {  # step LIMIT_S ARGS...: one run of the peer under timeout
  local limit=$1
  shift
  echo "== dask_peer.py $* (at most ${limit} s)"
  local t0=$SECONDS
  timeout "$limit" "$py" "$peer" "$@" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  echo "== took $((SECONDS - t0)) s, exit $rc"
}
step 40 --devices "$d0" --cases chain --budget-s 25 --repeat 5
step 60 --devices "$d0,$d1" --cases chain --budget-s 40 --repeat 5
step 40 --devices "$d0,$d1" --cases multi --n "${MULTI_N:-2^28}" --repeat 5
echo "== medians"
awk -F'\t' '$1 == "record" { printf "%12.3f ms  %-24s %s\n", $6 * 1e3, $3, $2 }' "$log"
grep -E "^info	(dask chain: weft chunks on|multi:)" "$log" | cut -f2-
echo "== all steps: $SECONDS s"
