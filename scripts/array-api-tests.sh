#!/usr/bin/env bash
# Runs the vendored Array API conformance suite (tests/third_party/array-api-tests, revision in
# its README) against weft or NumPy, at the 2024.12 revision of the standard with a fixed
# Hypothesis seed, then prints the pass/fail counts per test file.
#
#   scripts/array-api-tests.sh                       # weft on host, --max-examples 50 (full run)
#   scripts/array-api-tests.sh --device opencl:cpu   # weft on PoCL (any WEFT_DEVICE value)
#   scripts/array-api-tests.sh --module numpy        # the same settings on NumPy, for comparison
#   scripts/array-api-tests.sh --short               # CI: a few minutes, fails on any failure
#                                                    # not listed in tests/array-api-xfails.txt
#   scripts/array-api-tests.sh -- -k test_abs        # extra arguments go to pytest
#
# Options: --module M (weft), --device D (host; sets WEFT_DEVICE), --max-examples N (50; the
# short run 5), --seed S (0), --xfails FILE (the short run: tests/array-api-xfails.txt), --short,
# --no-skips. Every dtype (complex included) and both extensions (linalg, fft) are tested;
# tests/array-api-skips.txt (--skips-file) lists what is not run, with its reason. The Python package is build/python's when built there
# and PYTHONPATH is unset, else the installed one. The run's log and JUnit XML are left in
# build/array-api-tests/.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SUITE="$ROOT/tests/third_party/array-api-tests"
module=weft device=host max_examples="" seed=0 short=0 xfails="" skips="$ROOT/tests/array-api-skips.txt"
while [ $# -gt 0 ]; do
  case "$1" in
    --module) module="$2"; shift 2 ;;
    --device) device="$2"; shift 2 ;;
    --max-examples) max_examples="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --xfails) xfails="$2"; shift 2 ;;
    --short) short=1; shift ;;
    --no-skips) skips=""; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "array-api-tests.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
python3 -c "import hypothesis, ndindex, pytest" 2>/dev/null || "$ROOT/scripts/pip-install.sh" hypothesis "ndindex>=1.8" pytest

args=()
if [ "$short" = 1 ]; then
  max_examples=${max_examples:-5}
  xfails=${xfails:-$ROOT/tests/array-api-xfails.txt}
fi
max_examples=${max_examples:-50}
[ -n "$skips" ] && args+=(--skips-file "$skips")
[ -n "$xfails" ] && args+=(--xfails-file "$(cd "$(dirname "$xfails")" && pwd)/$(basename "$xfails")")

if [ -z "${PYTHONPATH:-}" ] && [ -f "$ROOT/build/python/weft/__init__.py" ]; then
  export PYTHONPATH="$ROOT/build/python"
fi
out="$ROOT/build/array-api-tests"
mkdir -p "$out"
tag="$module-${device//[:\/]/_}"
[ "$short" = 1 ] && tag="$tag-short"
# A fresh Hypothesis database per run: with a fixed seed, runs are then repeatable (a kept
# database would replay earlier runs' failing examples first).
storage="$(mktemp -d)"
trap 'rm -rf "$storage"' EXIT
export HYPOTHESIS_STORAGE_DIRECTORY="$storage"
export ARRAY_API_TESTS_MODULE="$module" ARRAY_API_TESTS_VERSION=2024.12
export WEFT_DEVICE="$device" WEFT_CACHE_DIR="${WEFT_CACHE_DIR:-$ROOT/build/test-cache}"
export WEFT_LOG="${WEFT_LOG:-warning}"

cd "$SUITE"
status=0
python3 -m pytest array_api_tests -q -p no:cacheprovider -c pytest.ini --rootdir . \
  --hypothesis-seed="$seed" --max-examples "$max_examples" --disable-deadline \
  --junitxml="$out/$tag.xml" \
  "${args[@]}" "$@" > "$out/$tag.log" 2>&1 || status=$?
tail -n 1 "$out/$tag.log"
echo "== array-api-tests: $module on $device, --max-examples $max_examples, seed $seed (log: $out/$tag.log)"
python3 "$ROOT/scripts/junit-summary.py" "$out/$tag.xml"
exit "$status"
