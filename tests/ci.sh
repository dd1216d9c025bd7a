#!/usr/bin/env bash
# The whole of CI in one command (README command 2, run by .ci/run), from the top of a clone:
#
#   tests/ci.sh            plain suite, then sanitized suite + short fuzz run
#   tests/ci.sh plain      only the first part      tests/ci.sh san   only the second
#
#   part   build dir   compiler  options                        runs
#   plain  build       gcc       (defaults)                     meson test: every suite
#   san    build-san   clang     -Dsanitize=true -Dfuzz=true    meson test: every suite under
#                                                               ASan + UBSan (some tests scaled
#                                                               down), and suite fuzz: each
#                                                               libFuzzer target for a few s
#
# One clang build serves both sanitizers and fuzzing (libFuzzer exists only in clang), so
# the instrumented sources are compiled once. The mpich suite runs in the plain part only:
# it builds the test programs with a real MPI and uses nothing of smpi's, so instrumenting
# smpi cannot change its result. What is scaled down under sanitizers, and the times, are in
# docs/robustness.md ("Sanitizers in CI").
#
# As root on a fresh Debian bookworm, missing packages are installed first (the README's
# list, plus clang and libclang-rt-14-dev for the sanitizer and libFuzzer runtimes).
# Existing build directories are reused. The last line is "N passed, M failed" over both
# parts (a build that fails counts as one failure); the exit status is non-zero if
# anything failed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

parts=${1:-all}
case $parts in
  all | plain | san) ;;
  *) echo "usage: tests/ci.sh [plain|san]" >&2; exit 2 ;;
esac

pkgs=(gcc meson ninja-build pkg-config libglpk-dev libxml2-dev check libcairo2-dev gfortran libyaml-dev libsqlite3-dev parallel slurm-wlm munge musl-tools)
[ "$parts" = plain ] || pkgs+=(clang libclang-rt-14-dev)
need=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "tests/ci.sh: missing packages: ${need[*]}; install them (apt-get install ${need[*]}) or run as root" >&2
    exit 1
  fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" || exit 1
fi

total_ok=0 total_fail=0 rc=0
# run_part NAME SETUP_COMMAND... -- TEST_ARGS...: meson test's own summary lines are summed
run_part() {
  local name=$1 dir=$2 log start
  shift 2
  local setup=() tests=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do setup+=("$1"); shift; done
  shift
  tests=("$@")
  log=$(mktemp)
  start=$(date +%s)
  echo "=== tests/ci.sh: $name ($dir) ==="
  {
    if [ ! -d "$dir" ]; then "${setup[@]}" || exit 1; fi
    meson test -C "$dir" --print-errorlogs "${tests[@]}"
  } 2>&1 | tee "$log"
  local prc=${PIPESTATUS[0]}
  local ok fail timeout unexpected
  ok=$(awk '/^Ok:/ {print $2}' "$log"); fail=$(awk '/^Fail:/ {print $2}' "$log")
  timeout=$(awk '/^Timeout:/ {print $2}' "$log"); unexpected=$(awk '/^Unexpected Pass:/ {print $3}' "$log")
  rm -f "$log"
  fail=$(( ${fail:-0} + ${timeout:-0} + ${unexpected:-0} ))
  if [ "$prc" != 0 ] && [ "$fail" = 0 ]; then
    fail=1 # no test failed, so the setup or the build did
  fi
  echo "=== tests/ci.sh: $name: ${ok:-0} passed, $fail failed, $(( $(date +%s) - start )) s ==="
  total_ok=$(( total_ok + ${ok:-0} )); total_fail=$(( total_fail + fail ))
  [ "$prc" = 0 ] || rc=1
}

if [ "$parts" != san ]; then
  run_part plain build meson setup build --
fi
if [ "$parts" != plain ]; then
  # --timeout-multiplier: instrumented tests run 2-10x slower, more on a loaded machine
  run_part sanitized build-san env CC=clang meson setup build-san -Dsanitize=true -Dfuzz=true -- \
    --no-suite mpich --timeout-multiplier 3
fi
echo "$total_ok passed, $total_fail failed"
exit "$rc"
