#!/bin/sh
# Builds the libFuzzer targets of tests/fuzz with clang and runs each one, one after the
# other (the machines are shared: one core of fuzzing at a time), then prints a table:
#
#   target          execs      secs   exec/s  crashes  first artifact
#   cfg             1000000     812     1231        0  -
#   units           1000000      11    90909        1  build-fuzz/fuzz-runs/units/artifacts/crash-...
#
#   tools/fuzz.sh [-n RUNS | -t SECONDS] [-k RESTARTS] [-b BUILD_DIR] [TARGET...]
#
#   -n RUNS      executions per target (libFuzzer -runs), e.g. -n 1000000
#   -t SECONDS   fuzzing time per target instead (default: -t 60)
#   -k RESTARTS  after a crash, start again (from the corpus grown so far) up to RESTARTS
#                times, so that one finding does not hide the next; default 0: stop at the
#                first crash, as libFuzzer does
#   -b DIR       build directory (default build-fuzz; created with CC=clang if missing)
#   TARGET       cfg factors platform platform_route skampi units hostfile ti (default: all)
#
# Each target keeps its corpus in DIR/fuzz-runs/<target>/corpus (it grows from run to run:
# later runs start where earlier ones stopped) and its findings in .../artifacts; the
# seeds in tests/fuzz/corpus/<target> are read, never written. A run's full libFuzzer output
# is in DIR/fuzz-runs/<target>/log. FUZZ_IGNORE=tag,... skips oracles tagged in the targets
# for findings already reported (see docs/robustness.md). Exit status: 1 if anything crashed.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
runs=
secs=60
restarts=0
build=build-fuzz
while getopts n:t:k:b:h opt; do
  case $opt in
    n) runs=$OPTARG secs= ;;
    t) secs=$OPTARG runs= ;;
    k) restarts=$OPTARG ;;
    b) build=$OPTARG ;;
    *) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
all="cfg factors platform platform_route skampi units hostfile ti"
targets=${*:-$all}

# -max_len per target: the largest seed comfortably fits, and longer inputs would only
# slow the search down (a platform's structure, not its size, is what matters)
max_len() {
  case $1 in
    cfg|ti) echo 512 ;; factors) echo 1024 ;; units) echo 128 ;; *) echo 4096 ;;
  esac
}

cd "$top"
if [ ! -f "$build/build.ninja" ]; then
  command -v clang >/dev/null || { echo "fuzz.sh: clang is needed (Debian: apt-get install clang)" >&2; exit 2; }
  CC=clang meson setup "$build" -Dfuzz=true -Dmpi_tests=false >/dev/null
else
  meson configure "$build" -Dfuzz=true >/dev/null
fi
if ! grep -q "clang" "$build/meson-logs/meson-log.txt"; then
  echo "fuzz.sh: $build was not configured with clang; remove it or pass -b another-dir" >&2
  exit 2
fi
ninja_targets=
for t in $targets; do
  [ -f "tests/fuzz/fuzz_$t.c" ] || { echo "fuzz.sh: no target '$t' (known: $all)" >&2; exit 2; }
  ninja_targets="$ninja_targets tests/fuzz/fuzz_$t"
done
# only the fuzz targets: the rest of the tree need not build for fuzzing to work
# shellcheck disable=SC2086
ninja -C "$build" $ninja_targets >/dev/null

# executions a finished libFuzzer run reports (final stats, else its last status line)
execs_of() {
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$1" | tail -1)
  [ -n "$n" ] || n=$(sed -n 's/^#\([0-9][0-9]*\)[[:space:]].*/\1/p' "$1" | tail -1)
  echo "${n:-0}"
}

summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
status=0
[ -n "${FUZZ_IGNORE:-}" ] && echo "ignoring the oracles tagged: $FUZZ_IGNORE"
for t in $targets; do
  work="$build/fuzz-runs/$t"
  mkdir -p "$work/corpus" "$work/artifacts"
  dict="tests/fuzz/$t.dict"
  [ -f "$dict" ] || dict="tests/fuzz/${t%%_*}.dict"
  total=0 crashes=0 first=- start=$(date +%s) attempt=0
  : >"$work/log"
  while :; do
    set -- -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2048 -error_exitcode=1 -print_final_stats=1 \
      -artifact_prefix="$work/artifacts/"
    [ -f "$dict" ] && set -- "$@" -dict="$dict"
    if [ -n "$runs" ]; then
      set -- "$@" -runs=$((runs - total))
    else
      set -- "$@" -max_total_time=$((secs - ($(date +%s) - start)))
    fi
    before=$(ls "$work/artifacts" | wc -l)
    echo "== $t: fuzz_$t $*" >>"$work/log"
    rc=0
    "$build/tests/fuzz/fuzz_$t" "$@" "$work/corpus" "tests/fuzz/corpus/$t" >>"$work/log.run" 2>&1 || rc=$?
    cat "$work/log.run" >>"$work/log"
    total=$((total + $(execs_of "$work/log.run")))
    rm -f "$work/log.run"
    new=$(($(ls "$work/artifacts" | wc -l) - before))
    if [ "$rc" -ne 0 ] && [ "$new" -eq 0 ]; then
      new=1 # died without an artifact (e.g. killed): still a failure
    fi
    if [ "$new" -gt 0 ]; then
      crashes=$((crashes + new))
      if [ "$first" = - ]; then
        first=$(ls -t "$work/artifacts" | head -1)
        first=${first:+$work/artifacts/$first}
        first=${first:-"(no artifact, see $work/log)"}
      fi
    fi
    attempt=$((attempt + 1))
    [ "$rc" -eq 0 ] && break
    [ "$attempt" -gt "$restarts" ] && break
    if [ -n "$runs" ]; then [ "$total" -lt "$runs" ] || break; fi
    if [ -z "$runs" ]; then [ $(($(date +%s) - start)) -lt "$secs" ] || break; fi
  done
  elapsed=$(($(date +%s) - start))
  rate=$((total / (elapsed > 0 ? elapsed : 1)))
  printf '%-15s %10s %7s %8s %8s  %s\n' "$t" "$total" "$elapsed" "$rate" "$crashes" "$first" >>"$summary"
  [ "$crashes" -eq 0 ] || status=1
  tail -1 "$summary"
done
echo
printf '%-15s %10s %7s %8s %8s  %s\n' target execs secs exec/s crashes "first artifact"
cat "$summary"
exit $status
