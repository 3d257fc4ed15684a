#!/usr/bin/env bash
# Fuzzes weft's parsers of outside input with libFuzzer: builds the targets of tests/fuzz with
# clang into build-fuzz, replays the checked-in regressions, then runs each target for
# SECONDS (default 60) from its seed corpus. New inputs that crash are kept in
# build-fuzz/crashes/<target>/: fix the bug, then check the input in as
# tests/fuzz/regressions/<target>/<name> (replayed here and by the C++ test suite).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      e.g. scripts/fuzz.sh 300 dialect
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then targets=(dialect arg_spec config cache_entry build_log); fi

# clang, libFuzzer's runtime and llvm-symbolizer (readable stacks), only what is missing.
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
missing=()
for p in clang libclang-rt-14-dev llvm; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "weft: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DWEFT_FUZZ=ON -DWEFT_BUILD_TESTS=OFF -DWEFT_BUILD_TOOLS=OFF >/dev/null
cmake --build build-fuzz --target weft_fuzz --parallel "$(nproc)"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One target per core at a time: each still fuzzes for SECONDS, the stage takes less wall time.
# fuzz_one TARGET prints its lines only when it ends (no interleaving) and returns non-zero on
# a finding.
fuzz_one() {
  local t=$1 out
  local bin=build-fuzz/tests/fuzz/fuzz_$t
  local seeds=tests/fuzz/corpus/$t
  local regressions=tests/fuzz/regressions/$t
  local corpus=build-fuzz/corpus/$t        # what this machine's runs found; not checked in
  local crashes=build-fuzz/crashes/$t
  mkdir -p "$corpus" "$crashes"
  out=$crashes/summary.txt
  : >"$out"
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    echo "== fuzz $t: replaying $(ls "$regressions" | wc -l) regression inputs" >>"$out"
    if ! "$bin" "$regressions"/* >"$crashes/replay.log" 2>&1; then
      tail -n 40 "$crashes/replay.log" >>"$out"
      echo "regression" >"$crashes/failed"
      return 1
    fi
  fi
  echo "== fuzz $t: ${seconds}s from $(ls "$seeds" | wc -l) seeds" >>"$out"
  local dict=()
  if [ -f "tests/fuzz/$t.dict" ]; then dict=(-dict="tests/fuzz/$t.dict"); fi
  # -timeout: an input running 10 s is a hang, also a finding.
  if ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 "${dict[@]}" \
      -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" "$seeds" >"$crashes/run.log" 2>&1; then
    tail -n 60 "$crashes/run.log" >>"$out"
    echo "run" >"$crashes/failed"
    return 1
  fi
  { grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$crashes/run.log" | tr '\n' ' '; echo; } >>"$out"
}
export -f fuzz_one
export seconds
for t in "${targets[@]}"; do rm -f "build-fuzz/crashes/$t/failed"; done
printf '%s\n' "${targets[@]}" | xargs -P "$(nproc)" -I{} bash -c 'fuzz_one "$1"; cat "build-fuzz/crashes/$1/summary.txt"' _ {} || true
failed=()
for t in "${targets[@]}"; do
  if [ -f "build-fuzz/crashes/$t/failed" ]; then failed+=("$t ($(cat "build-fuzz/crashes/$t/failed"))"); fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}; inputs kept in build-fuzz/crashes/"
  exit 1
fi
echo "fuzz: no findings in ${targets[*]}"
