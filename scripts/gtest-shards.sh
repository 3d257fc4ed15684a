#!/usr/bin/env bash
# Runs a build tree's C++ tests as a few long processes rather than one process per test:
# weft_tests in one shard per core (GTEST_TOTAL_SHARDS), then weft_hot_path_tests, then the
# tests ctest runs by a command of their own (HostPrebuiltFreshCache, PlacementLearnFreshCache).
# For the sanitizer builds: under AddressSanitizer each test process took about half a second to
# start (the library, PoCL and LLVM loaded and their devices found, then LeakSanitizer's scan
# at exit), most of a test's time; the ~690 tests took 253 s under ctest on the 2-core machine
# and 118 s as two shards, with other builds running. Tests share their process here, so one
# that leaves state behind shows; leaks are checked when each shard exits.
#
#   scripts/gtest-shards.sh BUILD_DIR [GTEST_NEGATIVE_FILTER]
# e.g. scripts/gtest-shards.sh build-asan 'EveryKernel/Nvrtc.*'. The program cache is
# BUILD_DIR/test-cache, as under ctest. Exits non-zero when any test fails.
set -uo pipefail
build=$(cd "$1" && pwd)
exclude=${2:-}
shards=$(nproc)
filter="*"
[ -n "$exclude" ] && filter="*-$exclude"
export WEFT_CACHE_DIR="$build/test-cache"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
status=0
pids=()
expected=$("$build/tests/weft_tests" --gtest_filter="$filter" --gtest_list_tests | grep -c '^  ')
for ((i = 0; i < shards; i++)); do
  # Not --gtest_brief: a shard that fails prints its whole log, whose last "[ RUN ]" line
  # names the test that hung or crashed. A hung shard gets SIGABRT (then SIGKILL), not
  # SIGTERM, which neither gtest nor the sanitizers report.
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i timeout -s ABRT -k 30 1800 "$build/tests/weft_tests" \
    --gtest_filter="$filter" > "$logs/shard$i.txt" 2>&1 &
  pids+=($!)
done
ran=0
for ((i = 0; i < shards; i++)); do
  if ! wait "${pids[$i]}"; then
    status=1
    echo "weft_tests shard $i of $shards failed; its output:"
    cat "$logs/shard$i.txt"
  fi
  # gtest's closing line: a shard that left early (exit 0 from inside a test) has none.
  n=$(sed -n 's/^\[==========\] \([0-9]*\) tests\{0,1\} from .* ran\..*/\1/p' "$logs/shard$i.txt")
  if [ -z "$n" ]; then
    status=1
    echo "weft_tests shard $i of $shards ended without gtest's summary; the end of its output:"
    tail -n 40 "$logs/shard$i.txt"
  else
    ran=$((ran + n))
  fi
  grep -E '^\[ *(PASSED|FAILED|SKIPPED) *\] [0-9]+ tests?[.,]|tests? from .* ran' "$logs/shard$i.txt" | sed "s/^/shard $i: /"
done
if [ "$ran" -ne "$expected" ]; then
  status=1
  echo "weft_tests: the shards ran $ran tests; the filter selects $expected"
fi
if ! timeout -s ABRT -k 30 900 "$build/tests/weft_hot_path_tests" > "$logs/hot.txt" 2>&1; then
  status=1
  cat "$logs/hot.txt"
fi
grep -E '^\[ *(PASSED|FAILED) *\] [0-9]+ tests?\.' "$logs/hot.txt" | sed 's/^/weft_hot_path_tests: /'
(cd "$build" && ctest --output-on-failure --no-tests=error --timeout 900 \
  -R '^(HostPrebuiltFreshCache|PlacementLearnFreshCache)$') || status=1
exit $status
